use std::io::BufRead;
use stpc_runtime::table::Table;
use stpc_runtime::label::Labeler;
use stpc_runtime::transform::{apply, Rewriter};
use serde_json::{json, Value};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() > 1 && args[1] == "--regex-sizes" {
        for line in std::io::stdin().lock().lines() {
            let re = line.unwrap();
            if re.is_empty() { continue; }
            if let Err(e) = regex::Regex::new(&re) { println!("ERROR {e}"); continue; }
            let (mut lo, mut hi) = (1usize << 8, 1usize << 26);
            while hi - lo > 1024 { let mid = (lo + hi) / 2; if regex::RegexBuilder::new(&re).size_limit(mid).build().is_ok() { hi = mid; } else { lo = mid; } }
            println!("{} KiB", hi >> 10);
        }
        return;
    }
    let t: Table = serde_json::from_str(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    if args.len() > 2 && args[2] == "--tests" {
        use std::sync::Arc;
        use stpc_runtime::{Engine, decide::{Query, LabelsIn}};
        let bytes = std::fs::read(&args[1]).unwrap();
        let table = Arc::new(Table::from_json(&bytes).expect("table loads"));
        let engine = Engine::new(Arc::clone(&table)).expect("engine compiles");
        let argl = &table.lattices.args; let dl = &table.lattices.destination;
        let (mut pass, mut fail) = (0, 0);
        for line in std::io::stdin().lock().lines() {
            let line = line.unwrap(); if line.trim().is_empty() { continue; }
            let t: Value = serde_json::from_str(&line).unwrap();
            let dest = t["destination"].as_str().unwrap();
            let known = table.destinations.iter().position(|d| d.name == dest || d.address.value.eq_ignore_ascii_case(dest)).map(|i| i as u32);
            let labels = engine.labeler().label(&t["args"], known, dest);
            let ov = t["labels"].as_object();
            let mut fields: Vec<(String, u32)> = labels.fields.clone();
            let mut dlab = labels.destination;
            if let Some(ov) = ov {
                for (k, v) in ov {
                    let name = v.as_str().unwrap();
                    if k == "destination" { dlab = dl.label_id(name); continue; }
                    let id = argl.label_id(name).unwrap();
                    if let Some(f) = fields.iter_mut().find(|f| &f.0 == k) { f.1 = id; } else { fields.push((k.clone(), id)); }
                }
            }
            let joined = fields.iter().map(|f| f.1).fold(None, |a: Option<u32>, l| Some(a.map_or(l, |a| argl.join(a, l).unwrap_or(a.max(l)))));
            let fref: Vec<(&str, u32)> = fields.iter().map(|(n, l)| (n.as_str(), *l)).collect();
            let ex: Vec<bool> = table.budgets.iter().map(|b| t["after"].get(&b.name).and_then(|n| n.as_u64()).is_some_and(|n| n >= u64::from(b.limit))).collect();
            let q = Query { tool: t["tool"].as_str().unwrap(), destination: dest, mode: t["mode"].as_str().unwrap_or("committed"),
                confidence: t["confidence"].as_f64().unwrap_or(1.0), labels: LabelsIn { args: joined, destination: dlab, fields: &fref }, budgets_exhausted: &ex };
            let d = engine.decider().decide(&q);
            let got = d.action.as_str();
            let ok = got == t["expect"].as_str().unwrap() && t["by"].as_str().is_none_or(|b| b == d.rule_name);
            if got == "rewrite" && t["labels"].is_null() {
                let tid = table.tools.iter().position(|x| x.name == q.tool).map(|i| i as u32);
                let did = table.destinations.iter().position(|x| x.name == dest || x.address.value.eq_ignore_ascii_case(dest)).map(|i| i as u32);
                let r = engine.rewrite(tid, did, d.transforms, &t["args"], &labels);
                match r {
                    stpc_runtime::engine::Rewritten::Done { args, .. } => println!("REWRITE {} -> {}", t["name"], args),
                    stpc_runtime::engine::Rewritten::Insufficient { fields } => println!("INSUFFICIENT {} -> {:?} :: {}", t["name"], fields, t["args"]),
                }
            }
            if ok { pass += 1; } else { fail += 1; println!("FAIL {} :: got {} by {} (expected {} by {:?})", t["name"], got, d.rule_name, t["expect"], t["by"]); }
        }
        println!("{pass} passed, {fail} failed");
        return;
    }
    if args.len() > 2 && args[2] == "--sizes" {
        use stpc_runtime::table::LabelRule;
        let mut all = Vec::new();
        for (which, rules) in [("args", &t.labelers.args.rules), ("dest", &t.labelers.destination.rules)] {
            for (i, r) in rules.iter().enumerate() {
                if let LabelRule::Pattern { regex, .. } = r {
                    let (mut lo, mut hi) = (1usize << 10, 1usize << 26);
                    while hi - lo > 4096 { let mid = (lo + hi) / 2; if regex::RegexBuilder::new(regex).size_limit(mid).build().is_ok() { hi = mid; } else { lo = mid; } }
                    if hi > (64 << 10) { println!("{which} rule {i}: ~{} KiB ({} chars)", hi >> 10, regex.len()); }
                    if which == "args" { all.push(regex.clone()); }
                }
            }
        }
        let (mut lo, mut hi) = (1usize << 12, 1usize << 26);
        while hi - lo > 16384 { let mid = (lo + hi) / 2; if regex::RegexSetBuilder::new(&all).size_limit(mid).build().is_ok() { hi = mid; } else { lo = mid; } }
        println!("args set: ~{} KiB (limit 4096)", hi >> 10);
        return;
    }
    let lab = Labeler::new(&t).expect("labeler");
    let rw = Rewriter::new().unwrap();
    let argl = &t.lattices.args;
    let dl = &t.lattices.destination;
    let tr = t.transforms.iter().find(|x| x.name == "generic_query");
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        if line.trim().is_empty() { continue; }
        let ev: Value = serde_json::from_str(&line).unwrap();
        let dest = ev["destination"].as_str().unwrap_or("");
        let known = t.destinations.iter().position(|d| d.name == dest || d.address.value.eq_ignore_ascii_case(dest)).map(|i| i as u32);
        let labels = lab.label(&ev["args"], known, dest);
        let mut fl = serde_json::Map::new();
        let mut rewritten = serde_json::Map::new();
        for (name, l) in &labels.fields {
            fl.insert(name.clone(), json!(argl.label_name(*l).unwrap()));
            if let Some(tr) = tr {
                let mut v = ev["args"][name].clone();
                if v.is_string() {
                    apply(&t, &lab, &rw, tr, &mut v);
                    let l2 = lab.label_value(&v);
                    rewritten.insert(name.clone(), json!([v, argl.label_name(l2).unwrap()]));
                }
            }
        }
        let out = json!({"arg_labels": fl, "dest_label": dl.label_name(labels.destination.unwrap()).unwrap(), "rewritten": rewritten});
        println!("{}", out);
    }
}
