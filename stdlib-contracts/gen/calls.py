import re, json, sys, glob, subprocess
files = sys.argv[1:]
evs=[]; meta=[]
for f in files:
    src=open(f).read()
    for m in re.finditer(r'test\s+"((?:[^"\\]|\\.)*)"\s*\{\s*call\s+(\w+)\((.*?)\)\s*to\s+("?[^\s"]+"?)(.*?)expect\s+(\w+)', src, re.S):
        name, tool, args, dest, clauses, exp = m.groups()
        if 'labels {' in clauses: continue
        parts = re.split(r'("(?:[^"\\]|\\.)*")', args)
        js = "".join(p if i % 2 else re.sub(r'(\w+)\s*:', r'"\1":', p) for i, p in enumerate(parts))
        try: a=json.loads('{'+js+'}')
        except Exception as e: print("PARSE", f, name, js, e); continue
        evs.append({"tool":tool,"args":a,"destination":dest.strip('"')})
        meta.append((f.split('/')[-1], name, exp))
out = subprocess.run(['/tmp/labsim/target/release/labsim','/tmp/stpcgen/table.json'], input="\n".join(json.dumps(e, ensure_ascii=False) for e in evs), capture_output=True, text=True).stdout.splitlines()
for (f,n,e),ev,o in zip(meta,evs,out):
    o=json.loads(o)
    print(f"{f:28} {n[:55]:55} {e:8} {o['arg_labels']} {o['dest_label']}")
