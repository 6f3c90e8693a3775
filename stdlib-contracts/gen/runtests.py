import re, json, sys, subprocess, os
tot_p = tot_f = 0
for f in sys.argv[1:]:
    src = open(f).read()
    src_nc = re.sub(r'//[^\n]*', '', src)
    specs = []
    for m in re.finditer(r'test\s+"((?:[^"\\]|\\.)*)"\s*\{\s*call\s+(\w+)\((.*?)\)\s*(.*?)expect\s+(\w+)(?:\s+by\s+(\w+))?\s*;', src_nc, re.S):
        name, tool, args, clauses, exp, by = m.groups()
        parts = re.split(r'("(?:[^"\\]|\\.)*")', args)
        js = "".join(p if i % 2 else re.sub(r'(\w+)\s*:', r'"\1":', p) for i, p in enumerate(parts))
        a = json.loads('{' + js + '}')
        spec = {"name": name, "tool": tool, "args": a, "expect": exp}
        if by: spec["by"] = by
        lm = re.search(r'labels\s*\{(.*?)\}', clauses, re.S)
        if lm:
            spec["labels"] = dict((k.strip(), v.strip()) for k, v in (kv.split(':') for kv in lm.group(1).split(',') if kv.strip()))
            clauses = clauses[:lm.start()] + clauses[lm.end():]
        d = re.search(r'\bto\s+("([^"]*)"|(\w+))', clauses)
        spec["destination"] = d.group(2) if d.group(2) is not None else d.group(3)
        clauses = clauses[:d.start()] + clauses[d.end():]
        c = re.search(r'confidence\s+([0-9.]+)', clauses)
        if c: spec["confidence"] = float(c.group(1)); clauses = clauses.replace(c.group(0), '')
        af = re.search(r'after\s+(\d+)\s+dispatches\s+of\s+(\w+)', clauses)
        if af: spec["after"] = {af.group(2): int(af.group(1))}; clauses = clauses.replace(af.group(0), '')
        clauses = re.sub(r'branch\s+"[^"]*"', '', clauses)
        words = re.findall(r'\w+', clauses)
        words = [w for w in words if w != 'mode']
        if words: spec["mode"] = words[0]
        specs.append(spec)
    out = f"/tmp/tables/{os.path.basename(f)}.json"
    r = subprocess.run(['/work/main/target/debug/stpc', 'compile', '--color', 'never', f, '-o', out], capture_output=True, text=True)
    if r.returncode:
        print("COMPILE FAIL", f, r.stderr[:500]); continue
    r = subprocess.run(['/tmp/labsim/target/release/labsim', out, '--tests'], input="\n".join(json.dumps(s, ensure_ascii=False) for s in specs), capture_output=True, text=True)
    print(f"{os.path.basename(f):28} {len(specs):3} tests: {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[:300]}")
    for l in r.stdout.splitlines()[:-1]: print("   ", l)
    nums = re.findall(r'(\d+) passed, (\d+) failed', r.stdout)
    if nums: tot_p += int(nums[0][0]); tot_f += int(nums[0][1])
print("TOTAL", tot_p, "passed", tot_f, "failed")
