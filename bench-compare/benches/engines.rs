//! One run, every engine, the same random event mix: the paper's worked
//! web-search contract decided by stpc (from strings, and with ids
//! resolved once), a hand-written Rust function, a flat lookup table over
//! the mix's domain (the floor: one index and one load), regorus (RVM and
//! interpreter) and cedar-policy.
//!
//! Run: `cargo bench --manifest-path bench-compare/Cargo.toml`.
//!
//! Method:
//!
//! - The mix is [`stpc_bench_compare::mix`]: `EVENTS` events from `SEED`,
//!   every field drawn on its own, so every rule of the pipeline decides a
//!   sizeable share (printed first) and no engine decides one
//!   branch-predicted event over and over. Each timed call takes the next
//!   event of the mix.
//! - Before anything is timed, every engine decides every event of the mix
//!   (with labels given and with labels computed) and must name the same
//!   deciding rule as the compiled table; the run aborts otherwise.
//! - Labels given: each engine gets the event in the form its
//!   documentation recommends, built before the clock starts: a borrowed
//!   `Query` of strings for stpc (or, with ids, the call's tool,
//!   destination and mode resolved once by `Decider::resolve` and the
//!   event's confidence, labels and budgets), answered with the decided
//!   cell by reference (`Decider::cell`, `Decider::cell_resolved`; the
//!   summary also times `decide`, which copies the cell into a
//!   `Decision`), a
//!   `regorus::Value` for a VM created and loaded once (regorus's own
//!   "hot" benchmark: `set_input` then `execute`) and for the interpreter
//!   (`set_input` then `eval_rule`), a `cedar_policy::Request` with a
//!   typed `Context` (`Context::from_pairs`, not JSON) for one
//!   `Authorizer`.
//! - With labeling: the argument text of each event (`q`, drawn from the
//!   string leaves of the std event mix: several languages, short and long)
//!   is labelled by stpc's std labeler inside the clock, then each engine
//!   builds its input from the labels and decides; stpc and the hand-written
//!   function share the labeler, the other engines have none.
//! - The summary at the end is the median of several timed passes over the
//!   mix per engine (the first 20,000 events for the slow engines), all in
//!   this one process, so the ratios compare like with like.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    missing_docs,
    reason = "benchmark code: a panic is a failed run"
)]

use std::hint::black_box;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use cedar_policy::{
    Authorizer, Context, Entities, EntityUid, PolicySet, Request, RestrictedExpression,
};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use stpc_bench_compare::{
    cedar_verdict, hand_written, mix, rank_or_missing, shares, verdict, Action, Event, FlatTable,
    Verdict, CEDAR_POLICIES, REGO_ENTRY, REGO_POLICY, RULES,
};
use stpc_runtime::decide::{Decider, Decision, LabelsIn, Query, Resolved};
use stpc_runtime::table::Cell;
use stpc_runtime::Engine;

const SEED: u64 = 42;
const EVENTS: usize = 100_000;
/// Events per timed pass for the engines that take microseconds.
const SLOW_EVENTS: usize = 20_000;

// ---------------------------------------------------------------- stpc

struct Stpc {
    engine: Engine,
}

impl Stpc {
    fn new() -> Stpc {
        let path = "examples/paper_web_search.stpc";
        let source = include_str!("../../examples/paper_web_search.stpc");
        let mut map = stpc_compiler::SourceMap::new();
        let root = map.add(path, source);
        let mut diagnostics = stpc_compiler::Diagnostics::new();
        let table = stpc_compiler::compile(
            &mut map,
            &[root],
            &mut stpc_compiler::NoFiles,
            &stpc_compiler::CompileOptions::default(),
            &mut diagnostics,
        )
        .unwrap_or_else(|| panic!("the worked contract compiles: {:?}", diagnostics.sorted()));
        // The Rego and Cedar encodings compare label ranks: the lattices
        // must be the chains they assume, ids in rank order.
        for (i, l) in ["public", "personal", "sensitive", "intent_revealing"]
            .iter()
            .enumerate()
        {
            assert_eq!(table.lattices.args.label_id(l), Some(i as u32), "{l}");
        }
        for cell in &table.cells {
            let (name, action) = RULES[cell.rule_id as usize];
            assert!(
                cell.rule_name == name || name == "allow",
                "the encodings follow the compiled pipeline: rule {} is `{}`",
                cell.rule_id,
                cell.rule_name
            );
            assert_eq!(cell.action.as_str(), format!("{action:?}").to_lowercase());
        }
        Stpc {
            engine: Engine::new(Arc::new(table)).unwrap(),
        }
    }

    fn decider(&self) -> &Decider {
        self.engine.decider()
    }
}

fn query<'a>(e: &'a Event, budgets: &'a [bool]) -> Query<'a> {
    Query {
        tool: e.tool(),
        destination: e.destination(),
        mode: e.mode(),
        confidence: e.confidence(),
        labels: LabelsIn {
            args: e.arg_rank(),
            destination: e.dest_rank(),
            fields: &[],
        },
        budgets_exhausted: budgets,
    }
}

const BUDGETS: [[bool; 1]; 2] = [[false], [true]];

fn budgets(e: &Event) -> &'static [bool] {
    &BUDGETS[usize::from(e.budget_exhausted())]
}

fn of_decision(d: &Decision<'_>) -> Verdict {
    let Some(rule) = d.rule_id else {
        return stpc_bench_compare::FAIL_CLOSED;
    };
    let v = verdict(i64::from(rule));
    // The contract has no SHADOW rule: an action that differs from the
    // rule's would show up as a disagreement.
    let action = match d.action {
        stpc_runtime::Action::Allow => Action::Allow,
        stpc_runtime::Action::Rewrite => Action::Rewrite,
        stpc_runtime::Action::Defer => Action::Defer,
        stpc_runtime::Action::Block | stpc_runtime::Action::Shadow => Action::Block,
    };
    Verdict { action, ..v }
}

/// The verdict of the table's [`Decision`], the reference every engine
/// is checked against.
fn stpc_strings(d: &Decider, e: &Event) -> Verdict {
    of_decision(&stpc_strings_decision(d, e))
}

/// The decision as a [`Decision`]: the cell's fields copied out.
fn stpc_strings_decision<'d>(d: &'d Decider, e: &Event) -> Decision<'d> {
    d.decide(&query(e, budgets(e)))
}

/// What the timed loops call: the engine's own answer, not converted (the
/// conversion to a [`Verdict`] is for the agreement check, and its
/// branches on the outcome would be timed with the engine). stpc's answer
/// is the decided cell, by reference, with its index (`Decider::cell`):
/// every field of the decision is one load away, as the hand-written
/// function's verdict is in a register; `Decider::decide` copies the
/// fields into a 72-byte [`Decision`], which the summary times too.
fn stpc_strings_native<'d>(d: &'d Decider, e: &Event) -> Option<(u32, &'d Cell)> {
    d.cell(&query(e, budgets(e)))
}

/// The verdict of a decided cell (`None` fails closed).
fn of_cell(cell: Option<(u32, &Cell)>) -> Verdict {
    of_decision(&Decision::of_cell(cell))
}

/// Tool, destination and mode resolved once (`Decider::resolve`, as an
/// agent does when it builds a call); an event whose mode the table does
/// not declare has nothing to resolve and fails closed.
fn resolve(d: &Decider, e: &Event) -> Option<Resolved> {
    d.resolve(e.tool(), e.destination(), e.mode())
}

/// What an agent holds for a call whose tool, destination and mode it
/// resolved once: the resolved call and the event's confidence, label ids
/// and budget flag, in the runtime's own types. Built before the clock,
/// as every engine's input is (regorus's `Value`s, Cedar's `Request`s);
/// the compact [`Event`] is the hand-written function's and the flat
/// table's own form. The summary also times the conversion from the
/// compact event inside the clock.
#[derive(Clone, Copy, Debug)]
struct ResolvedCall {
    call: Option<Resolved>,
    confidence: f64,
    args: Option<u32>,
    destination: Option<u32>,
    budget_exhausted: bool,
}

impl ResolvedCall {
    #[inline]
    fn of(call: Option<Resolved>, e: &Event) -> ResolvedCall {
        ResolvedCall {
            call,
            confidence: e.confidence(),
            args: e.arg_rank(),
            destination: e.dest_rank(),
            budget_exhausted: e.budget_exhausted(),
        }
    }

    #[inline]
    fn labels(&self) -> LabelsIn<'static> {
        LabelsIn {
            args: self.args,
            destination: self.destination,
            fields: &[],
        }
    }

    #[inline]
    fn budgets(&self) -> &'static [bool] {
        &BUDGETS[usize::from(self.budget_exhausted)]
    }
}

/// `#[inline]`, as [`FlatTable::decide`] is: the two are compared in the
/// same loop, so neither pays a call the other does not.
#[inline]
fn stpc_resolved_native<'d>(d: &'d Decider, x: &ResolvedCall) -> Option<(u32, &'d Cell)> {
    d.cell_resolved(x.call?, x.confidence, &x.labels(), x.budgets())
}

fn stpc_resolved_decision<'d>(d: &'d Decider, x: &ResolvedCall) -> Decision<'d> {
    match x.call {
        Some(r) => d.decide_resolved(r, x.confidence, &x.labels(), x.budgets()),
        None => Decision::fail_closed(),
    }
}

// ---------------------------------------------------------------- regorus

fn rego_input(e: &Event) -> regorus::Value {
    let mut fields = std::collections::BTreeMap::new();
    let mut put = |k: &str, v: regorus::Value| {
        fields.insert(regorus::Value::from(k), v);
    };
    put("tool", regorus::Value::from(e.tool()));
    put("destination", regorus::Value::from(e.destination()));
    put("mode", regorus::Value::from(e.mode()));
    put("confidence", regorus::Value::from(e.confidence()));
    put(
        "arg_rank",
        regorus::Value::from(rank_or_missing(e.arg_rank())),
    );
    put(
        "dest_rank",
        regorus::Value::from(rank_or_missing(e.dest_rank())),
    );
    put(
        "budget_exhausted",
        regorus::Value::from(e.budget_exhausted()),
    );
    regorus::Value::from(fields)
}

fn rego_verdict(v: &regorus::Value) -> Verdict {
    v.as_i64().map_or(stpc_bench_compare::FAIL_CLOSED, verdict)
}

struct RegoVm {
    vm: regorus::rvm::RegoVM,
}

impl RegoVm {
    fn new() -> RegoVm {
        let mut engine = regorus::Engine::new();
        engine
            .add_policy("stpc.rego".into(), REGO_POLICY.into())
            .unwrap();
        let entry: regorus::Rc<str> = REGO_ENTRY.into();
        let compiled = engine.compile_with_entrypoint(&entry).unwrap();
        let program = regorus::languages::rego::compiler::Compiler::compile_from_policy(
            &compiled,
            &[REGO_ENTRY],
        )
        .unwrap();
        let mut vm = regorus::rvm::RegoVM::new();
        vm.load_program(program);
        RegoVm { vm }
    }

    fn decide(&mut self, input: &regorus::Value) -> Verdict {
        rego_verdict(&self.native(input))
    }

    fn native(&mut self, input: &regorus::Value) -> regorus::Value {
        self.vm.set_input(input.clone());
        self.vm.execute().unwrap()
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

    fn decide(&mut self, input: &regorus::Value) -> Verdict {
        rego_verdict(&self.native(input))
    }

    fn native(&mut self, input: &regorus::Value) -> regorus::Value {
        self.engine.set_input(input.clone());
        self.engine.eval_rule(REGO_ENTRY.to_owned()).unwrap()
    }
}

// ---------------------------------------------------------------- cedar

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

    fn request(&self, e: &Event) -> Request {
        let s = |v: &str| RestrictedExpression::new_string(v.to_owned());
        let context = Context::from_pairs([
            ("tool".to_owned(), s(e.tool())),
            ("destination".to_owned(), s(e.destination())),
            ("mode".to_owned(), s(e.mode())),
            (
                "confidence".to_owned(),
                RestrictedExpression::new_long((e.confidence() * 1000.0).round() as i64),
            ),
            (
                "arg_rank".to_owned(),
                RestrictedExpression::new_long(rank_or_missing(e.arg_rank())),
            ),
            (
                "dest_rank".to_owned(),
                RestrictedExpression::new_long(rank_or_missing(e.dest_rank())),
            ),
            (
                "budget_exhausted".to_owned(),
                RestrictedExpression::new_bool(e.budget_exhausted()),
            ),
        ])
        .unwrap();
        Request::new(
            self.principal.clone(),
            self.action.clone(),
            self.resource.clone(),
            context,
            None,
        )
        .unwrap()
    }

    fn native(&self, request: &Request) -> cedar_policy::Response {
        self.authorizer
            .is_authorized(request, &self.policies, &self.entities)
    }

    fn decide(&self, request: &Request) -> Verdict {
        let response = self.native(request);
        // First match wins: the lowest-numbered satisfied policy decides.
        let first = response
            .diagnostics()
            .reason()
            .filter_map(|id| id.to_string().strip_prefix("policy")?.parse::<usize>().ok())
            .min();
        cedar_verdict(first)
    }
}

// ---------------------------------------------------------------- labeling

/// The argument pool: every string leaf of the std event mix, as a query.
fn texts() -> Vec<Value> {
    fn leaves<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
        match v {
            Value::String(s) => out.push(s),
            Value::Array(a) => a.iter().for_each(|v| leaves(v, out)),
            Value::Object(o) => o.values().for_each(|v| leaves(v, out)),
            _ => {}
        }
    }
    let mix = stpc_tests::event_mix::std_mix();
    let mut strings = Vec::new();
    for e in &mix {
        leaves(&e.args, &mut strings);
    }
    strings.sort_unstable();
    strings.dedup();
    strings.into_iter().map(|s| json!({ "q": s })).collect()
}

/// The event with the labels stpc's labeler gives its text.
fn labeled(engine: &Engine, texts: &[Value], e: &Event) -> Event {
    let labels =
        engine
            .labeler()
            .label(e.tool(), &texts[usize::from(e.text)], None, e.destination());
    e.with_labels(labels.args, labels.destination)
}

// ---------------------------------------------------------------- timing

/// Median over `passes` timed passes of nanoseconds per call of `f` on
/// events `0..n`.
fn per_event_ns<T>(n: usize, passes: usize, mut f: impl FnMut(usize) -> T) -> f64 {
    let mut samples: Vec<f64> = (0..passes)
        .map(|_| {
            let start = Instant::now();
            for i in 0..n {
                black_box(f(black_box(i)));
            }
            start.elapsed().as_nanos() as f64 / n as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn agree(what: &str, events: &[Event], expected: &[Verdict], mut f: impl FnMut(usize) -> Verdict) {
    for (i, want) in expected.iter().enumerate() {
        let got = f(i);
        assert_eq!(
            got, *want,
            "{what} disagrees with the compiled table on event {i}: {:?}",
            events[i]
        );
    }
}

fn bench(c: &mut Criterion) {
    let stpc = Stpc::new();
    let d = stpc.decider();
    let pool = texts();
    let events = mix(SEED, EVENTS, pool.len());
    let resolved: Vec<Option<Resolved>> = events.iter().map(|e| resolve(d, e)).collect();
    let calls: Vec<ResolvedCall> = events
        .iter()
        .zip(&resolved)
        .map(|(e, r)| ResolvedCall::of(*r, e))
        .collect();
    let mut rvm = RegoVm::new();
    let mut interp = RegoInterp::new();
    let cedar = Cedar::new();
    let rego_inputs: Vec<regorus::Value> = events.iter().map(rego_input).collect();
    let requests: Vec<Request> = events.iter().map(|e| cedar.request(e)).collect();

    // Every engine agrees with the table on every event, labels given and
    // labels computed, before anything is timed.
    let expected: Vec<Verdict> = events.iter().map(|e| stpc_strings(d, e)).collect();
    agree("hand-written", &events, &expected, |i| {
        hand_written(&events[i])
    });
    let flat = FlatTable::new();
    agree("flat table", &events, &expected, |i| {
        flat.decide(&events[i])
    });
    agree("stpc cell", &events, &expected, |i| {
        of_cell(stpc_strings_native(d, &events[i]))
    });
    agree("stpc resolved", &events, &expected, |i| {
        of_cell(stpc_resolved_native(d, &calls[i]))
    });
    agree(
        "stpc resolved, from the compact event",
        &events,
        &expected,
        |i| {
            of_cell(stpc_resolved_native(
                d,
                &ResolvedCall::of(resolved[i], &events[i]),
            ))
        },
    );
    agree("stpc resolved, as a Decision", &events, &expected, |i| {
        of_decision(&stpc_resolved_decision(d, &calls[i]))
    });
    agree("regorus rvm", &events, &expected, |i| {
        rvm.decide(&rego_inputs[i])
    });
    agree("regorus interpreter", &events, &expected, |i| {
        interp.decide(&rego_inputs[i])
    });
    agree("cedar-policy", &events, &expected, |i| {
        cedar.decide(&requests[i])
    });
    let with_labels: Vec<Event> = events
        .iter()
        .map(|e| labeled(&stpc.engine, &pool, e))
        .collect();
    let expected_labeled: Vec<Verdict> = with_labels.iter().map(|e| stpc_strings(d, e)).collect();
    agree(
        "hand-written, labelled",
        &with_labels,
        &expected_labeled,
        |i| hand_written(&with_labels[i]),
    );
    let resolved_labeled: Vec<Option<Resolved>> =
        with_labels.iter().map(|e| resolve(d, e)).collect();
    agree(
        "stpc resolved, labelled",
        &with_labels,
        &expected_labeled,
        |i| {
            of_cell(stpc_resolved_native(
                d,
                &ResolvedCall::of(resolved_labeled[i], &with_labels[i]),
            ))
        },
    );
    agree(
        "regorus interpreter, labelled",
        &with_labels,
        &expected_labeled,
        |i| interp.decide(&rego_input(&with_labels[i])),
    );
    agree(
        "regorus rvm, labelled",
        &with_labels,
        &expected_labeled,
        |i| rvm.decide(&rego_input(&with_labels[i])),
    );
    agree(
        "cedar-policy, labelled",
        &with_labels,
        &expected_labeled,
        |i| cedar.decide(&cedar.request(&with_labels[i])),
    );
    let counts = shares(expected.iter().copied());
    let share = |c: usize| 100.0 * c as f64 / EVENTS as f64;
    let mut line = format!("mix: {EVENTS} events from seed {SEED}, deciding rule shares:");
    for ((name, _), c) in RULES.iter().zip(counts) {
        line.push_str(&format!(" {name} {:.1} %,", share(c)));
    }
    line.push_str(&format!(
        " failed closed {:.1} %; all engines agree on every event",
        share(counts[RULES.len()])
    ));
    println!("{line}");

    let n = events.len();
    let mut g = c.benchmark_group("mix_labels_given");
    let mut i = 0usize;
    // The next event of the mix (no division on the timed path).
    let mut next = move || {
        i += 1;
        if i == n {
            i = 0;
        }
        i
    };
    g.bench_function("flat_table", |b| {
        b.iter(|| flat.decide(black_box(&events[next()])))
    });
    g.bench_function("hand_written", |b| {
        b.iter(|| hand_written(black_box(&events[next()])))
    });
    g.bench_function("stpc_strings", |b| {
        b.iter(|| stpc_strings_native(d, black_box(&events[next()])))
    });
    g.bench_function("stpc_resolved", |b| {
        b.iter(|| stpc_resolved_native(d, black_box(&calls[next()])))
    });
    g.bench_function("regorus_rvm", |b| {
        b.iter(|| rvm.native(black_box(&rego_inputs[next()])))
    });
    g.bench_function("regorus_interpreter", |b| {
        b.iter(|| interp.native(black_box(&rego_inputs[next()])))
    });
    g.bench_function("cedar_policy", |b| {
        b.iter(|| cedar.native(black_box(&requests[next()])))
    });
    g.finish();

    let label = |e: &Event| labeled(&stpc.engine, &pool, e);
    let mut g = c.benchmark_group("mix_with_labeling");
    g.bench_function("hand_written", |b| {
        b.iter(|| hand_written(&label(black_box(&events[next()]))))
    });
    g.bench_function("stpc_strings", |b| {
        b.iter(|| stpc_strings(d, &label(black_box(&events[next()]))))
    });
    g.bench_function("regorus_rvm", |b| {
        b.iter(|| rvm.decide(&rego_input(&label(black_box(&events[next()])))))
    });
    g.bench_function("cedar_policy", |b| {
        b.iter(|| cedar.decide(&cedar.request(&label(black_box(&events[next()])))))
    });
    g.finish();

    // The summary: medians of timed passes over the mix, in this process.
    let flat_ns = per_event_ns(n, 11, |i| flat.decide(&events[i]));
    let hand = per_event_ns(n, 11, |i| hand_written(&events[i]));
    let strings = per_event_ns(n, 11, |i| stpc_strings_native(d, &events[i]));
    let strings_decision = per_event_ns(n, 11, |i| stpc_strings_decision(d, &events[i]));
    let resolved_ns = per_event_ns(n, 11, |i| stpc_resolved_native(d, &calls[i]));
    let resolved_decision = per_event_ns(n, 11, |i| stpc_resolved_decision(d, &calls[i]));
    let resolved_converting = per_event_ns(n, 11, |i| {
        stpc_resolved_native(d, &ResolvedCall::of(resolved[i], &events[i]))
    });
    let rvm_ns = per_event_ns(SLOW_EVENTS, 5, |i| rvm.native(&rego_inputs[i]));
    let interp_ns = per_event_ns(SLOW_EVENTS, 5, |i| interp.native(&rego_inputs[i]));
    let cedar_ns = per_event_ns(SLOW_EVENTS, 5, |i| cedar.native(&requests[i]));
    println!(
        "labels given: flat table {flat_ns:.1} ns; hand-written {hand:.1} ns; stpc from strings \
         {strings:.1} ns ({:.2}x hand-written, floor 1.5x; {strings_decision:.1} ns as a \
         Decision); stpc with tool, destination and mode resolved {resolved_ns:.1} ns \
         ({:.1}x the flat table, floor 5 ns; {resolved_decision:.1} ns as a Decision, \
         {resolved_converting:.1} ns converting the compact event inside the clock); \
         regorus rvm {rvm_ns:.0} ns ({:.0}x stpc, floor 50x); \
         regorus interpreter {interp_ns:.0} ns ({:.0}x); cedar-policy {cedar_ns:.0} ns \
         ({:.0}x, floor 300x)",
        strings / hand,
        resolved_ns / flat_ns,
        rvm_ns / strings,
        interp_ns / strings,
        cedar_ns / strings,
    );
    let labeling = per_event_ns(SLOW_EVENTS, 5, |i| {
        let e = label(&events[i]);
        Verdict {
            rule: e.arg_rank().map(|r| r as u8),
            action: Action::Allow,
        }
    });
    let l_hand = per_event_ns(SLOW_EVENTS, 5, |i| hand_written(&label(&events[i])));
    let l_stpc = per_event_ns(SLOW_EVENTS, 5, |i| stpc_strings(d, &label(&events[i])));
    let l_rvm = per_event_ns(SLOW_EVENTS, 5, |i| {
        rvm.decide(&rego_input(&label(&events[i])))
    });
    let l_cedar = per_event_ns(SLOW_EVENTS, 5, |i| {
        cedar.decide(&cedar.request(&label(&events[i])))
    });
    println!(
        "with labeling (stpc's std labeler for every engine, {labeling:.0} ns alone): \
         hand-written {l_hand:.0} ns; stpc {l_stpc:.0} ns ({:.2}x hand-written); \
         regorus rvm {l_rvm:.0} ns ({:.2}x stpc); cedar-policy {l_cedar:.0} ns ({:.2}x stpc)",
        l_stpc / l_hand,
        l_rvm / l_stpc,
        l_cedar / l_stpc,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
