//! Evaluate compiled tables (`NAME.json` files in a directory) on a
//! generated corpus and print the Markdown report:
//!
//! ```text
//! cargo run --release -p stpc-eval --example evaluate_tables -- DIR [TASKS] [static|paired]
//! ```

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    reason = "a developer example"
)]

use stpc_eval::corpus::{generate, Kind, Spec};
use stpc_eval::{evaluate, render, EvalOptions};
use stpc_runtime::Table;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .expect("usage: evaluate_tables DIR [TASKS] [static|paired]");
    let tasks: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(150);
    let kind = if args.get(3).map(String::as_str) == Some("static") {
        Kind::StaticPlan
    } else {
        Kind::PairedReplay
    };
    let mut policies = Vec::new();
    let mut gate = None;
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for p in paths {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let table = Table::from_json(&std::fs::read(&p).unwrap()).unwrap();
        if let Some(tau) = name.strip_prefix("gate@") {
            gate.get_or_insert_with(Vec::new)
                .push((tau.parse::<f64>().unwrap(), table));
        } else {
            policies.push((name, table));
        }
    }
    let frontier = generate(&Spec {
        tasks,
        seeds: vec![1, 2, 3],
        kind,
    });
    let mut opts = EvalOptions {
        progress: true,
        ..EvalOptions::default()
    };
    if let Some(mut g) = gate {
        g.sort_by(|a, b| a.0.total_cmp(&b.0));
        opts.gate_sweep = g;
    }
    let t = std::time::Instant::now();
    let report = evaluate(policies, &frontier, &opts).unwrap();
    eprintln!("evaluated in {:?}", t.elapsed());
    println!("{}", render::eval_markdown(&report));
    std::fs::write(
        format!("{dir}/figure2.svg"),
        render::figure2_svg(&report, stpc_eval::Observer::Provider),
    )
    .unwrap();
}
