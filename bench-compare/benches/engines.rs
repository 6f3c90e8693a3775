//! One criterion run, four engines, the same decision: the paper's worked
//! web-search contract on a speculative, intent-revealing query to
//! `api.brave.com` with confidence 0.9 (REWRITE), and on a committed public
//! query (ALLOW, which walks the whole pipeline).
//!
//! Run: `cargo bench --manifest-path bench-compare/Cargo.toml`. The ratios
//! are printed at the end of the run (medians of a separate timing loop, so
//! they are computed in the same process as the criterion groups).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    missing_docs,
    reason = "benchmark code"
)]

use std::hint::black_box;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use cedar_policy::{Authorizer, Context, Entities, EntityUid, PolicySet, Request};
use criterion::{criterion_group, criterion_main, Criterion};
use stpc_bench_compare::*;
use stpc_runtime::decide::{Decider, LabelsIn, Query};

const SPEC: Input<'static> = Input {
    tool: "web_search",
    destination: "api.brave.com",
    mode: "speculative",
    confidence: 0.9,
    arg_rank: 3,
    budget_exhausted: false,
};

const COMMITTED_PUBLIC: Input<'static> = Input {
    tool: "web_search",
    destination: "api.duckduckgo.com",
    mode: "committed",
    confidence: 1.0,
    arg_rank: 0,
    budget_exhausted: false,
};

struct Cedar {
    policies: PolicySet,
    entities: Entities,
    authorizer: Authorizer,
    principal: EntityUid,
    action: EntityUid,
    resource: EntityUid,
}

impl Cedar {
    fn new() -> Cedar {
        Cedar {
            policies: PolicySet::from_str(CEDAR_POLICIES).unwrap(),
            entities: Entities::empty(),
            authorizer: Authorizer::new(),
            principal: EntityUid::from_str(r#"Agent::"agent""#).unwrap(),
            action: EntityUid::from_str(r#"Action::"dispatch""#).unwrap(),
            resource: EntityUid::from_str(r#"Tool::"tool""#).unwrap(),
        }
    }

    fn decide(&self, i: &Input<'_>) -> Outcome {
        let context = Context::from_json_value(
            serde_json::json!({
                "tool": i.tool,
                "destination": i.destination,
                "mode": i.mode,
                "confidence": (i.confidence * 1000.0).round() as i64,
                "arg_rank": i.arg_rank,
                "budget_exhausted": i.budget_exhausted,
            }),
            None,
        )
        .unwrap();
        let request = Request::new(
            self.principal.clone(),
            self.action.clone(),
            self.resource.clone(),
            context,
            None,
        )
        .unwrap();
        let response = self
            .authorizer
            .is_authorized(&request, &self.policies, &self.entities);
        // First match wins: the lowest-numbered satisfied policy decides.
        let first = response
            .diagnostics()
            .reason()
            .filter_map(|id| id.to_string().strip_prefix("policy")?.parse::<usize>().ok())
            .min()
            .unwrap_or(usize::MAX);
        CEDAR_OUTCOMES.get(first).copied().unwrap_or(Outcome::Block)
    }
}

fn rego_input(i: &Input<'_>) -> regorus::Value {
    regorus::Value::from(serde_json::json!({
        "tool": i.tool,
        "destination": i.destination,
        "mode": i.mode,
        "confidence": i.confidence,
        "arg_rank": i.arg_rank,
        "budget_exhausted": i.budget_exhausted,
    }))
}

struct RegoVm {
    program: Arc<regorus::rvm::Program>,
}

impl RegoVm {
    fn new() -> RegoVm {
        let mut engine = regorus::Engine::new();
        engine
            .add_policy("stpc.rego".into(), REGO_POLICY.into())
            .unwrap();
        let entry: regorus::Rc<str> = "data.stpc.decision".into();
        let compiled = engine.compile_with_entrypoint(&entry).unwrap();
        let program = regorus::languages::rego::compiler::Compiler::compile_from_policy(
            &compiled,
            &["data.stpc.decision"],
        )
        .unwrap();
        RegoVm { program }
    }

    fn decide(&self, i: &Input<'_>) -> Outcome {
        let mut vm = regorus::rvm::RegoVM::new();
        vm.load_program(Arc::clone(&self.program));
        vm.set_input(rego_input(i));
        let v = vm.execute().unwrap();
        outcome(v.as_string().map(|s| s.as_ref()).unwrap_or("")).unwrap_or(Outcome::Block)
    }
}

struct RegoInterp {
    engine: regorus::Engine,
}

impl RegoInterp {
    fn new() -> RegoInterp {
        let mut engine = regorus::Engine::new();
        engine
            .add_policy("stpc.rego".into(), REGO_POLICY.into())
            .unwrap();
        RegoInterp { engine }
    }

    fn decide(&mut self, i: &Input<'_>) -> Outcome {
        self.engine.set_input(rego_input(i));
        let v = self.engine.eval_rule("data.stpc.decision".into()).unwrap();
        outcome(v.as_string().map(|s| s.as_ref()).unwrap_or("")).unwrap_or(Outcome::Block)
    }
}

/// The runtime's decider plus label ids resolved once (labels are given).
struct Stpc {
    decider: Decider,
    arg_ids: Vec<Option<u32>>,
    public_dest: Option<u32>,
}

fn stpc_decider() -> Stpc {
    let source = include_str!("../../examples/paper_web_search.stpc");
    let mut map = stpc_compiler::SourceMap::new();
    let root = map.add("examples/paper_web_search.stpc", source);
    let mut diagnostics = stpc_compiler::Diagnostics::new();
    let table = stpc_compiler::compile(
        &mut map,
        &[root],
        &mut stpc_compiler::NoFiles,
        &stpc_compiler::CompileOptions::default(),
        &mut diagnostics,
    )
    .unwrap_or_else(|| panic!("the worked contract compiles: {:?}", diagnostics.sorted()));
    let arg_ids = ["public", "personal", "sensitive", "intent_revealing"]
        .iter()
        .map(|l| table.lattices.args.label_id(l))
        .collect();
    let public_dest = table.lattices.destination.label_id("public");
    Stpc {
        decider: Decider::new(Arc::new(table)),
        arg_ids,
        public_dest,
    }
}

fn stpc_decide(s: &Stpc, i: &Input<'_>) -> Outcome {
    let d = &s.decider;
    let budgets = [i.budget_exhausted];
    let q = Query {
        tool: i.tool,
        destination: i.destination,
        mode: i.mode,
        confidence: i.confidence,
        labels: LabelsIn {
            args: s.arg_ids.get(i.arg_rank as usize).copied().flatten(),
            destination: s.public_dest,
            fields: &[],
        },
        budgets_exhausted: &budgets,
    };
    match d.decide(&q).action {
        stpc_runtime::Action::Allow => Outcome::Allow,
        stpc_runtime::Action::Rewrite => Outcome::Rewrite,
        stpc_runtime::Action::Defer => Outcome::Defer,
        stpc_runtime::Action::Block | stpc_runtime::Action::Shadow => Outcome::Block,
    }
}

fn median_ns(mut f: impl FnMut(), iters: u32) -> f64 {
    let mut samples = Vec::new();
    for _ in 0..31 {
        let start = Instant::now();
        for _ in 0..iters {
            f();
        }
        samples.push(start.elapsed().as_nanos() as f64 / f64::from(iters));
    }
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn bench(c: &mut Criterion) {
    let cedar = Cedar::new();
    let rvm = RegoVm::new();
    let mut interp = RegoInterp::new();
    let stpc = stpc_decider();

    // Every engine must agree before anything is timed.
    for input in [SPEC, COMMITTED_PUBLIC] {
        let expected = hand_written(&input);
        assert_eq!(stpc_decide(&stpc, &input), expected, "stpc");
        assert_eq!(cedar.decide(&input), expected, "cedar");
        assert_eq!(rvm.decide(&input), expected, "regorus rvm");
        assert_eq!(interp.decide(&input), expected, "regorus interpreter");
    }

    for (name, input) in [
        ("speculative_rewrite", SPEC),
        ("committed_allow", COMMITTED_PUBLIC),
    ] {
        let mut g = c.benchmark_group(name);
        g.bench_function("stpc_table", |b| {
            b.iter(|| stpc_decide(&stpc, black_box(&input)))
        });
        g.bench_function("hand_written", |b| {
            b.iter(|| hand_written(black_box(&input)))
        });
        g.bench_function("regorus_rvm", |b| b.iter(|| rvm.decide(black_box(&input))));
        g.bench_function("regorus_interpreter", |b| {
            b.iter(|| interp.decide(black_box(&input)))
        });
        g.bench_function("cedar_policy", |b| {
            b.iter(|| cedar.decide(black_box(&input)))
        });
        g.finish();
    }

    // Ratios, from medians measured in this same process.
    for (name, input) in [
        ("speculative_rewrite", SPEC),
        ("committed_allow", COMMITTED_PUBLIC),
    ] {
        let s = median_ns(
            || {
                black_box(stpc_decide(&stpc, black_box(&input)));
            },
            20_000,
        );
        let h = median_ns(
            || {
                black_box(hand_written(black_box(&input)));
            },
            20_000,
        );
        let r = median_ns(
            || {
                black_box(rvm.decide(black_box(&input)));
            },
            500,
        );
        let ri = median_ns(
            || {
                black_box(interp.decide(black_box(&input)));
            },
            200,
        );
        let ce = median_ns(
            || {
                black_box(cedar.decide(black_box(&input)));
            },
            200,
        );
        println!(
            "{name}: stpc {s:.1} ns, hand-written {h:.1} ns, regorus rvm {r:.0} ns ({:.0}x stpc), \
             regorus interpreter {ri:.0} ns ({:.0}x), cedar-policy {ce:.0} ns ({:.0}x)",
            r / s,
            ri / s,
            ce / s
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
