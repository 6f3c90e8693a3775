"""Score the generated labelers on one or more labeled event files, the way
tests/tests/labeler_quality.rs does (declared destinations by name, host or
URL glob keep their declared label). Usage: python3 score.py [-v] FILE...
Needs table.json from build_table.py and the labsim helper (see README)."""
import json, subprocess, sys, fnmatch
verbose = '-v' in sys.argv
files = [a for a in sys.argv[1:] if not a.startswith('-')] or ['/work/main/stdlib-contracts/eval/labeled_events.jsonl']
table = json.load(open('/tmp/stpcgen/table.json'))
decl = table['destinations']
def host_of(s):
    if '://' not in s: return None
    rest = s.split('://', 1)[1]
    auth = rest.split('/')[0].split('?')[0].split('#')[0]
    return auth.rsplit('@', 1)[-1].split(':')[0] or None
def declared(d):
    for x in decl:
        if x['name'] == d or x['address']['value'].lower() == d.lower(): return x['address']['value']
    h = host_of(d)
    if h:
        for x in decl:
            if x['address']['kind'] == 'host' and x['address']['value'].lower() == h.lower(): return x['address']['value']
    for x in decl:
        if x['address']['kind'] == 'url' and fnmatch.fnmatchcase(d.lower(), x['address']['value'].lower()): return x['address']['value']
    return d
def f1(pairs, labels):
    fs = []; rep = []
    for L in labels:
        tp = sum(1 for g, p in pairs if g == L and p == L); fp = sum(1 for g, p in pairs if g != L and p == L); fn = sum(1 for g, p in pairs if g == L and p != L)
        if tp + fn == 0: continue
        pr = tp / (tp + fp) if tp + fp else 0; rc = tp / (tp + fn); f = 2 * pr * rc / (pr + rc) if pr + rc else 0
        fs.append(f); rep.append(f"{L[:6]} P={pr:.2f} R={rc:.2f} F={f:.2f} n={tp+fn}")
    return sum(fs) / len(fs), rep
for fn in files:
    ev = [json.loads(l) for l in open(fn) if l.strip()]
    inp = "\n".join(json.dumps(dict(e, destination=declared(e['destination'])), ensure_ascii=False) for e in ev)
    out = subprocess.run(['/tmp/labsim/target/release/labsim', '/tmp/stpcgen/table.json'], input=inp, capture_output=True, text=True)
    if out.returncode: print(out.stderr); sys.exit(1)
    res = [json.loads(l) for l in out.stdout.splitlines()]
    ap = []; dp = []; errs = []
    for e, r in zip(ev, res):
        for k, g in e['arg_labels'].items():
            p = r['arg_labels'].get(k); ap.append((g, p))
            if g != p: errs.append(f"ARG {g[:6]:6} <- {str(p)[:6]:6} {k}: {e['args'][k]!r} [{e.get('note','')}]")
        dp.append((e['dest_label'], r['dest_label']))
        if e['dest_label'] != r['dest_label']: errs.append(f"DST {e['dest_label'][:6]:6} <- {r['dest_label'][:6]:6} {e['destination']}")
    a, ar = f1(ap, ['public', 'personal', 'sensitive', 'intent_revealing'])
    d, dr = f1(dp, ['public', 'tenant_internal', 'sensitive', 'regulated', 'forbidden'])
    print(f"{fn.split('/')[-1]:28} args {a:.3f} dest {d:.3f} | " + "; ".join(ar))
    print(" " * 29 + "dest: " + "; ".join(dr))
    if verbose: print("\n".join(sorted(errs)))
