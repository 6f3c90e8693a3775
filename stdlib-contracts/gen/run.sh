cd /tmp/stpcgen && python3 gen.py >/dev/null && python3 build_table.py 2>/dev/null && python3 -c "
import json;t=json.load(open('/tmp/stpcgen/table.json'));t['destinations']=[];json.dump(t,open('/tmp/stpcgen/table_nodecl.json','w'),ensure_ascii=False)" && python3 -c "
import sys,json; sys.path.insert(0,'.')
from events_ho import E
with open('/tmp/ho.jsonl','w') as f:
    for tool,args,dest,al,dl,note in E:
        f.write(json.dumps({'tool':tool,'args':args,'destination':dest,'arg_labels':al,'dest_label':dl,'note':note}, ensure_ascii=False)+'\n')
"
echo "=== HO"; python3 evalf1.py /tmp/ho.jsonl | grep -v "^/tmp/stpcgen/table.json\|^   dest" | head -${1:-40}
echo "=== DEV"; python3 evalf1.py | grep -v "^/tmp/stpcgen/table.json" | head -${2:-40}
