"""Explain which labeler rules fire on a string: python3 explain.py [--dest] TEXT..."""
import json, sys, regex as re
t = json.load(open('/tmp/stpcgen/table.json'))
lex = t['lexicons']
def isw(c): return c.isalnum() or c == '_'
def lex_hits(text):
    low = ''.join(c.lower() if c.isascii() else c for c in text)
    hits = {}
    for li, L in enumerate(lex):
        for e in L['entries']:
            p = ''.join(c.lower() if c.isascii() else c for c in e['phrase'].strip())
            if not p: continue
            start = 0
            while True:
                i = low.find(p, start)
                if i < 0: break
                j = i + len(p)
                lok = not isw(p[0]) or i == 0 or not isw(low[i-1])
                rok = not isw(p[-1]) or j == len(low) or not isw(low[j])
                if lok and rok: hits.setdefault(L['name'], []).append(e['phrase']); break
                start = i + 1
    return hits
dest = '--dest' in sys.argv
labs = t['lattices']['destination' if dest else 'args']['labels']
for text in [a for a in sys.argv[1:] if a != '--dest']:
    h = lex_hits(text)
    print(f"== {text!r}\n   lexicons: {h}")
    for i, r in enumerate(t['labelers']['destination' if dest else 'args']['rules']):
        un = lex[r['unless_lexicon']]['name'] if r.get('unless_lexicon') is not None else None
        sup = f" SUPPRESSED by {un}: {h.get(un)}" if un and un in h else ""
        if r['rule'] == 'lexicon':
            n = lex[r['lexicon']]['name']
            if n in h: print(f"   rule {i} lexicon {n} -> {labs[r['label']]}{sup}")
        elif r['rule'] == 'pattern':
            try:
                m = re.search(r['regex'], text)
            except Exception as ex:
                print(f"   rule {i} regex error {ex}"); continue
            if m: print(f"   rule {i} pattern -> {labs[r['label']]} match {m.group(0)[:60]!r}{sup}")
        elif r['rule'] == 'address':
            print(f"   (address rule {i} {r['kind']} {r['glob']} -> {labs[r['label']]})") if False else None
