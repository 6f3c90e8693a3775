# Regenerate lexicons.stpc and labelers.stpc, put them in the canonical layout,
# and score them. Needs the labsim helper built once:
#   cargo build --release --manifest-path /tmp/stpcgen/labsim/Cargo.toml --target-dir /tmp/labsim/target
set -e
cd /tmp/stpcgen
python3 gen.py >/dev/null
/work/main/target/debug/stpc fmt /work/main/stdlib-contracts/lexicons.stpc /work/main/stdlib-contracts/labelers.stpc
python3 build_table.py 2>/dev/null
python3 -c "
import json;t=json.load(open('/tmp/stpcgen/table.json'));t['destinations']=[];json.dump(t,open('/tmp/stpcgen/table_nodecl.json','w'),ensure_ascii=False)"
EVAL=/work/main/stdlib-contracts/eval
python3 score.py $EVAL/labeled_events.jsonl $EVAL/heldout_events.jsonl $EVAL/heldout2_events.jsonl
python3 probes.py | tail -${1:-15}
python3 probes_dest.py | tail -${1:-15}
/tmp/labsim/target/release/labsim /tmp/stpcgen/table.json --sizes | tail -1
