import json, subprocess, sys, collections
ev=[json.loads(l) for l in open(sys.argv[1] if len(sys.argv)>1 else '/work/main/stdlib-contracts/eval/labeled_events.jsonl')]
def run(table):
    out=subprocess.run(['/tmp/labsim/target/release/labsim',table],input="\n".join(json.dumps(e,ensure_ascii=False) for e in ev),capture_output=True,text=True)
    if out.returncode: print(out.stderr); sys.exit(1)
    return [json.loads(l) for l in out.stdout.splitlines()]
def f1(pairs, labels):
    fs=[]; rep=[]
    for L in labels:
        tp=sum(1 for g,p in pairs if g==L and p==L); fp=sum(1 for g,p in pairs if g!=L and p==L); fn=sum(1 for g,p in pairs if g==L and p!=L)
        pr=tp/(tp+fp) if tp+fp else 0; rc=tp/(tp+fn) if tp+fn else 0; f=2*pr*rc/(pr+rc) if pr+rc else 0
        if tp+fn==0: continue
        fs.append(f); rep.append(f"{L}: P={pr:.2f} R={rc:.2f} F={f:.2f} (n={tp+fn})")
    return sum(fs)/len(fs), rep
for tname in ['/tmp/stpcgen/table.json','/tmp/stpcgen/table_nodecl.json']:
    res=run(tname)
    ap=[]; dp=[]; errs=[]
    for e,r in zip(ev,res):
        for k,g in e['arg_labels'].items():
            p=r['arg_labels'].get(k); ap.append((g,p))
            if g!=p: errs.append(f"ARG {k}: gold={g} pred={p} :: {e['args'][k]!r} [{e.get('note','')}]")
        dp.append((e['dest_label'],r['dest_label']))
        if e['dest_label']!=r['dest_label']: errs.append(f"DST gold={e['dest_label']} pred={r['dest_label']} :: {e['destination']}")
    a,ar=f1(ap,['public','personal','sensitive','intent_revealing']); d,drp=f1(dp,['public','tenant_internal','sensitive','regulated','forbidden'])
    print(tname, f"args macroF1={a:.3f}", ar); print(f"   dest macroF1={d:.3f}", drp)
    if tname.endswith('nodecl.json'):
        print("\n".join(sorted(errs)))
