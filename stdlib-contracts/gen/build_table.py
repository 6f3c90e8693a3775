import re, json, sys, glob
ROOT = '/work/main/stdlib-contracts'
def unesc(s):
    return re.sub(r'\\(u\{[0-9a-fA-F]+\}|.)', lambda m: {'n':'\n','t':'\t','r':'\r','0':'\0'}.get(m.group(1), chr(int(m.group(1)[2:-1],16)) if m.group(1).startswith('u{') else m.group(1)), s)
def strip_comments(src):
    out=[]; i=0; n=len(src)
    while i<n:
        if src.startswith('r#"',i):
            j=src.index('"#',i+3); out.append(src[i:j+2]); i=j+2
        elif src.startswith('r"',i) and (i==0 or not (src[i-1].isalnum() or src[i-1]=='_')):
            j=src.index('"',i+2); out.append(src[i:j+1]); i=j+1
        elif src[i]=='"':
            j=i+1
            while src[j]!='"':
                j+= 2 if src[j]=='\\' else 1
            out.append(src[i:j+1]); i=j+1
        elif src.startswith('//',i):
            j=src.find('\n',i); i= n if j<0 else j
        else:
            out.append(src[i]); i+=1
    return ''.join(out)
ARG=['public','personal','sensitive','intent_revealing']
DST=['public','tenant_internal','sensitive','regulated','forbidden']
def lat(name, labels):
    n=len(labels); return {"name":name,"labels":labels,"join":[[max(a,b) for b in range(n)] for a in range(n)],"bottom":0}
srcs = {f: strip_comments(open(f).read()) for f in [f'{ROOT}/lexicons.stpc', f'{ROOT}/labelers.stpc', f'{ROOT}/transforms.stpc', f'{ROOT}/tools.stpc'] + sys.argv[1:]}
allsrc = "\n".join(srcs.values())
STR = r'"((?:[^"\\]|\\.)*)"'
lexicons=[]; lexidx={}
for m in re.finditer(r'\blexicon\s+(\w+)\s*\{(.*?)\n\}', allsrc, re.S):
    ents=[]
    for e in re.finditer(STR + r'(?:\s*=>\s*' + STR + ')?', m.group(2)):
        ents.append({"phrase":unesc(e.group(1)),"replacement":unesc(e.group(2)) if e.group(2) is not None else None})
    lexidx[m.group(1)]=len(lexicons); lexicons.append({"name":m.group(1),"entries":ents})
def rules(body, L):
    rs=[]; fb=None
    for st in re.finditer(r'(lexicon\s+(\w+)|pattern\s+(?:r#"(.*?)"#|r"(.*?)")|entity\s+(\w+)|(host|url|collection)\s+' + STR + r'|fallback\s+(\w+))\s*(?:->\s*(\w+))?\s*(?:unless\s+lexicon\s+(\w+))?\s*;', body, re.S):
        g=st.groups()
        lab = L.index(g[8]) if g[8] else None
        unl = lexidx[g[9]] if g[9] else None
        if g[1]: rs.append({"rule":"lexicon","lexicon":lexidx[g[1]],"label":lab,"unless_lexicon":unl})
        elif g[2] is not None or g[3] is not None: rs.append({"rule":"pattern","regex":g[2] if g[2] is not None else g[3],"label":lab,"unless_lexicon":unl})
        elif g[4]: rs.append({"rule":"entity","kind":g[4],"label":lab})
        elif g[5]: rs.append({"rule":"address","kind":g[5],"glob":unesc(g[6]),"label":lab})
        elif g[7]: fb=L.index(g[7])
    return {"rules":rs,"fallback":fb}
la=re.search(r'labeler\s+\w+\s+for\s+args\s*\{(.*?)\n\}', allsrc, re.S).group(1)
ld=re.search(r'labeler\s+\w+\s+for\s+destination\s*\{(.*?)\n\}', allsrc, re.S).group(1)
dests=[]
for m in re.finditer(r'destination\s+(\w+)\s*\{\s*(host|url|collection)\s+' + STR + r';\s*label\s+(\w+);', allsrc):
    dests.append({"name":m.group(1),"address":{"kind":m.group(2),"value":unesc(m.group(3))},"label":DST.index(m.group(4)),"observers":[]})
def ftype(s):
    s=s.strip()
    if s.startswith('list('): return {"kind":"list","item":ftype(s[5:-1])}
    return {"kind":s}
transforms=[]
for m in re.finditer(r'transform\s+(\w+)\((.*?)\)\s*->\s*(\w+)\s*\{(.*?)\}', allsrc, re.S):
    steps=[]
    for st in re.finditer(r'(replace\s+lexicon\s+(\w+)|redact\s+entity\s+(\w+)|coarsen\s+time\s+to\s+(\w+)|constant\s+' + STR + r')\s*(?:with\s+' + STR + r')?\s*;', m.group(4)):
        g=st.groups()
        w=unesc(g[5]) if g[5] is not None else None
        if g[1]: steps.append({"op":"replace_lexicon","lexicon":lexidx[g[1]],"with":w})
        elif g[2]: steps.append({"op":"redact_entity","kind":g[2],"with":w})
        elif g[3]: steps.append({"op":"coarsen_time","to":g[3]})
        else: steps.append({"op":"constant","value":unesc(g[4])})
    types=[ftype(x) for x in re.split(r',\s*(?![^()]*\))', m.group(2))]
    transforms.append({"name":m.group(1),"applies_to":types,"output_label":ARG.index(m.group(3)),"steps":steps})
table={"format_version":1,"digest":"","contract":"sim","params":{},"lattices":{"args":lat("ArgLabel",ARG),"destination":lat("DestLabel",DST)},
 "dimensions":[],"diagram":{"root":0,"nodes":[]},"cells":[],"tools":[],"destinations":dests,"observers":[],"forbid":[],"thresholds":[],"budgets":[],
 "audit":{"sinks":[],"raw_args":False,"scrub_after_commit":False},"substitutes":[],"transforms":transforms,"lexicons":lexicons,
 "labelers":{"args":rules(la,ARG),"destination":rules(ld,DST)}}
json.dump(table, open('/tmp/stpcgen/table.json','w'), ensure_ascii=False)
print(len(lexicons), len(dests), len(transforms), len(table['labelers']['args']['rules']), len(table['labelers']['destination']['rules']), file=sys.stderr)
