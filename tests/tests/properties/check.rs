//! Properties of the checker (proptest).
//!
//! 1. Lattice laws: a generated order (chains, products of chains, random
//!    DAGs, with occasional back edges) is either rejected by
//!    `check::lattice::build` with an error that an independent oracle
//!    confirms (a real cycle, a pair that really has no unique join or
//!    meet), or its tables satisfy the lattice laws and `a <= b` iff
//!    `join(a, b) == b`. The same orders written as source give exactly the
//!    matching `E03xx` codes.
//! 2. Type-directed contracts: a generated vocabulary (lattices, modes,
//!    observers, destinations, tools, substitutes, transforms) and a contract
//!    generated to be well-typed against it check with no errors.
//! 3. Robustness: arbitrary mutations of valid contracts never panic the
//!    checker.

#![expect(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::needless_range_loop,
    reason = "test oracles index small matrices by label number; a failure should panic"
)]

use proptest::prelude::*;
use stpc_compiler::check::lattice::{build, LatticeError, Tables, Why};
use stpc_compiler::{Code, Diagnostics, NoFiles, SourceMap};

fn check_text(text: &str) -> Diagnostics {
    let mut map = SourceMap::new();
    let id = map.add("gen.stpc", text);
    let mut d = Diagnostics::new();
    let _ = stpc_compiler::check(&mut map, &[id], &mut NoFiles, &mut d);
    d
}

// ------------------------------------------------------------ lattices

/// An order: `n` labels and edges `a < b`.
#[derive(Clone, Debug)]
struct Order {
    n: usize,
    edges: Vec<(usize, usize)>,
}

fn chain(n: usize) -> Order {
    Order {
        n,
        edges: (1..n).map(|i| (i - 1, i)).collect(),
    }
}

fn product(a: usize, b: usize) -> Order {
    let idx = |i: usize, j: usize| i * b + j;
    let mut edges = Vec::new();
    for i in 0..a {
        for j in 0..b {
            if i + 1 < a {
                edges.push((idx(i, j), idx(i + 1, j)));
            }
            if j + 1 < b {
                edges.push((idx(i, j), idx(i, j + 1)));
            }
        }
    }
    Order { n: a * b, edges }
}

fn orders() -> impl Strategy<Value = Order> {
    prop_oneof![
        (1usize..8).prop_map(chain),
        (1usize..4, 1usize..4).prop_map(|(a, b)| product(a, b)),
        // Random DAGs over a fixed topological order, plus rare back edges.
        (1usize..7)
            .prop_flat_map(|n| {
                (
                    Just(n),
                    prop::collection::vec((0..n, 0..n), 0..(n * 2 + 1)),
                    prop::collection::vec((0..n, 0..n), 0..2),
                )
            })
            .prop_map(|(n, fwd, back)| {
                let mut edges: Vec<(usize, usize)> =
                    fwd.into_iter().filter(|(a, b)| a < b).collect();
                edges.extend(back.into_iter().filter(|(a, b)| a > b));
                Order { n, edges }
            }),
    ]
}

/// Reflexive-transitive closure by repeated relaxation (independent of the checker).
fn closure(o: &Order) -> Vec<Vec<bool>> {
    let mut r = vec![vec![false; o.n]; o.n];
    for (i, row) in r.iter_mut().enumerate() {
        row[i] = true;
    }
    for &(a, b) in &o.edges {
        r[a][b] = true;
    }
    loop {
        let mut changed = false;
        for i in 0..o.n {
            for j in 0..o.n {
                if r[i][j] {
                    for k in 0..o.n {
                        if r[j][k] && !r[i][k] {
                            r[i][k] = true;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            return r;
        }
    }
}

fn has_cycle(o: &Order, r: &[Vec<bool>]) -> bool {
    o.edges.iter().any(|&(a, b)| a == b || r[b][a])
}

/// The unique least upper bound of `a` and `b`, if any.
fn oracle_join(n: usize, r: &[Vec<bool>], a: usize, b: usize) -> Option<usize> {
    let ub: Vec<usize> = (0..n).filter(|&c| r[a][c] && r[b][c]).collect();
    ub.iter().copied().find(|&c| ub.iter().all(|&d| r[c][d]))
}

fn oracle_meet(n: usize, r: &[Vec<bool>], a: usize, b: usize) -> Option<usize> {
    let lb: Vec<usize> = (0..n).filter(|&c| r[c][a] && r[c][b]).collect();
    lb.iter().copied().find(|&c| lb.iter().all(|&d| r[d][c]))
}

fn laws(t: &Tables) -> Result<(), TestCaseError> {
    let n = t.n;
    for a in 0..n {
        prop_assert_eq!(t.join(a, a), Some(a), "join idempotent");
        prop_assert_eq!(t.meet(a, a), Some(a), "meet idempotent");
        for b in 0..n {
            let j = t.join(a, b).unwrap();
            let m = t.meet(a, b).unwrap();
            prop_assert_eq!(Some(j), t.join(b, a), "join commutative");
            prop_assert_eq!(Some(m), t.meet(b, a), "meet commutative");
            prop_assert_eq!(t.join(a, m), Some(a), "absorption a ∨ (a ∧ b) = a");
            prop_assert_eq!(t.meet(a, j), Some(a), "absorption a ∧ (a ∨ b) = a");
            prop_assert_eq!(t.leq(a, b), j == b, "a <= b iff join(a, b) == b");
            prop_assert_eq!(t.leq(a, b), m == a, "a <= b iff meet(a, b) == a");
            for c in 0..n {
                let jab_c = t.join(j, c).unwrap();
                let a_jbc = t.join(a, t.join(b, c).unwrap()).unwrap();
                prop_assert_eq!(jab_c, a_jbc, "join associative");
                let mab_c = t.meet(m, c).unwrap();
                let a_mbc = t.meet(a, t.meet(b, c).unwrap()).unwrap();
                prop_assert_eq!(mab_c, a_mbc, "meet associative");
            }
        }
    }
    Ok(())
}

fn source(o: &Order) -> String {
    let mut chains: Vec<String> = o
        .edges
        .iter()
        .map(|(a, b)| format!("l{a} < l{b}"))
        .collect();
    chains.extend((0..o.n).map(|i| format!("l{i}")));
    format!("lattice L {{ {} }}\n", chains.join(", "))
}

proptest! {
    #[test]
    fn lattices_are_rejected_correctly_or_lawful(o in orders()) {
        let r = closure(&o);
        let codes = check_text(&source(&o)).codes();
        match build(o.n, &o.edges) {
            Ok(t) => {
                prop_assert!(!has_cycle(&o, &r));
                prop_assert!(codes.is_empty(), "accepted order got {:?}", codes);
                for a in 0..o.n {
                    for b in 0..o.n {
                        prop_assert_eq!(t.leq(a, b), r[a][b]);
                        prop_assert_eq!(t.join(a, b), oracle_join(o.n, &r, a, b));
                        prop_assert_eq!(t.meet(a, b), oracle_meet(o.n, &r, a, b));
                    }
                }
                laws(&t)?;
            }
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                let mut expected = Vec::new();
                for e in &errors {
                    match e {
                        LatticeError::Cycle(c) => {
                            prop_assert!(has_cycle(&o, &r));
                            prop_assert!(!c.is_empty());
                            for k in 0..c.len() {
                                let (a, b) = (c[k], c[(k + 1) % c.len()]);
                                prop_assert!(o.edges.contains(&(a, b)), "cycle step {}<{} is not an edge", a, b);
                            }
                            expected.push(Code::E0301);
                        }
                        LatticeError::NoJoin(a, b, why) => {
                            prop_assert!(!has_cycle(&o, &r));
                            prop_assert_eq!(oracle_join(o.n, &r, *a, *b), None);
                            if let Why::Ambiguous(x, y) = why {
                                prop_assert!(r[*a][*x] && r[*b][*x] && r[*a][*y] && r[*b][*y]);
                                prop_assert!(!r[*x][*y] && !r[*y][*x]);
                            }
                            expected.push(Code::E0302);
                        }
                        LatticeError::NoMeet(a, b, _) => {
                            prop_assert!(!has_cycle(&o, &r));
                            prop_assert_eq!(oracle_meet(o.n, &r, *a, *b), None);
                            expected.push(Code::E0303);
                        }
                    }
                }
                expected.sort();
                prop_assert_eq!(codes, expected);
            }
        }
    }
}

#[test]
fn diamond_and_product_are_lattices() {
    // bottom < left < top, bottom < right < top
    let t = build(4, &[(0, 1), (1, 3), (0, 2), (2, 3)]).unwrap();
    assert_eq!(t.join(1, 2), Some(3));
    assert_eq!(t.meet(1, 2), Some(0));
    assert!(!t.is_total());
    let p = product(3, 2);
    let t = build(p.n, &p.edges).unwrap();
    assert_eq!(t.bottom(), Some(0));
    assert_eq!(t.top(), Some(5));
}

// ------------------------------------------------------------ contracts

/// A generated vocabulary and a contract well-typed against it, as source.
#[derive(Clone, Debug)]
struct Gen {
    arg_labels: usize,
    dest_labels: usize,
    observers: Vec<bool>,
    dests: Vec<(usize, Vec<usize>)>,
    tools: Vec<(Vec<&'static str>, Vec<usize>)>,
    cut: usize,
    thresholds: Vec<(usize, u8)>,
    budget: Option<u8>,
    rules: Vec<(u8, Vec<u8>)>,
    default: u8,
}

const MODES: &[&str] = &["committed", "speculative", "prefetch", "retry"];
const FIELDS: &[&str] = &["q", "who", "start", "n", "tags"];

fn gen() -> impl Strategy<Value = Gen> {
    (
        2usize..5,
        2usize..5,
        prop::collection::vec(any::<bool>(), 1..4),
    )
        .prop_flat_map(|(al, dl, mut observers)| {
            observers[0] = true; // at least one external observer
            let no = observers.len();
            let dests = prop::collection::vec((0..dl, prop::collection::vec(0..no, 1..3)), 1..4);
            (Just(al), Just(dl), Just(observers), dests)
        })
        .prop_flat_map(|(al, dl, observers, dests)| {
            let nd = dests.len();
            let tools = prop::collection::vec(
                (
                    prop::collection::vec(prop::sample::select(FIELDS), 1..4),
                    prop::collection::vec(0..nd, 1..3),
                ),
                1..4,
            );
            (
                Just(al),
                Just(dl),
                Just(observers),
                Just(dests),
                tools,
                1..al,
                prop::collection::vec((1..MODES.len(), 0u8..=100), 0..3),
                prop::option::of(1u8..10),
                prop::collection::vec((0u8..5, prop::collection::vec(0u8..12, 0..3)), 0..6),
                0u8..3,
            )
        })
        .prop_map(
            |(
                arg_labels,
                dest_labels,
                observers,
                dests,
                tools,
                cut,
                thresholds,
                budget,
                rules,
                default,
            )| Gen {
                arg_labels,
                dest_labels,
                observers,
                dests,
                tools,
                cut,
                thresholds,
                budget,
                rules,
                default,
            },
        )
}

fn field_type(f: &str) -> &'static str {
    match f {
        "q" => "text",
        "who" => "entity",
        "start" => "time",
        "n" => "number",
        _ => "list(text)",
    }
}

fn render(g: &Gen) -> String {
    let mut s = String::new();
    let a: Vec<String> = (0..g.arg_labels).map(|i| format!("a{i}")).collect();
    let d: Vec<String> = (0..g.dest_labels).map(|i| format!("d{i}")).collect();
    s += &format!("lattice Args for args {{ {} }}\n", a.join(" < "));
    s += &format!("lattice Dests for destination {{ {} }}\n", d.join(" < "));
    s += &format!("enum Mode {{ {} }}\n", MODES.join(", "));
    s += "enum Effect { local_read, external_read }\n";
    s += "channels { arguments, destination, timing }\n";
    for (i, ext) in g.observers.iter().enumerate() {
        let loc = if *ext { "external" } else { "internal" };
        s += &format!("observer o{i} {loc} sees arguments, destination;\n");
    }
    s += "observer log internal sees arguments, timing;\n";
    for (i, (label, obs)) in g.dests.iter().enumerate() {
        let o: Vec<String> = obs.iter().map(|o| format!("o{o}")).collect();
        s += &format!(
            "destination dst{i} {{ host \"h{i}.example\"; label d{label}; observed by {}; }}\n",
            o.join(", ")
        );
    }
    for (i, (fields, dests)) in g.tools.iter().enumerate() {
        let mut seen = Vec::new();
        let fs: Vec<String> = fields
            .iter()
            .filter(|f| {
                let fresh = !seen.contains(*f);
                seen.push(**f);
                fresh
            })
            .map(|f| format!("{f}: {}", field_type(f)))
            .collect();
        let mut ds: Vec<String> = dests.iter().map(|d| format!("dst{d}")).collect();
        ds.dedup();
        s += &format!(
            "tool t{i} {{ effect external_read; args {{ {} }} destinations {}; substitute sub{i}; }}\n",
            fs.join(", "),
            ds.join(", ")
        );
        s += &format!("substitute sub{i} for t{i} {{ observed by log; on promote reissue; }}\n");
    }
    s += "lexicon words { \"lease\" => \"housing\" }\n";
    s += "transform generic(text, entity, time, number, list(text)) -> a0 { replace lexicon words; redact entity email; coarsen time to day; constant \"x\"; }\n";
    let tools: Vec<String> = (0..g.tools.len()).map(|i| format!("t{i}")).collect();
    let dests: Vec<String> = (0..g.dests.len()).map(|i| format!("dst{i}")).collect();
    s += "contract gen(tau = 0.5) {\n";
    s += &format!(
        "    tools {};\n    destinations {};\n",
        tools.join(", "),
        dests.join(", ")
    );
    s += &format!("    forbid args >= a{} at o0;\n", g.cut);
    let mut modes_seen = Vec::new();
    for (m, v) in &g.thresholds {
        if modes_seen.contains(m) {
            continue;
        }
        modes_seen.push(*m);
        s += &format!("    threshold {} {};\n", MODES[*m], f64::from(*v) / 100.0);
    }
    if let Some(b) = g.budget {
        s += &format!("    budget b {b} per task counting args >= a{};\n", g.cut);
    }
    s += "    audit to log without raw args;\n    decide {\n";
    for (action, atoms) in &g.rules {
        let guard: Vec<String> = atoms.iter().map(|x| atom(g, *x)).collect();
        let act = match action {
            0 => "allow".to_string(),
            1 => "block".to_string(),
            2 => "defer".to_string(),
            3 => "rewrite using generic".to_string(),
            _ => "shadow".to_string(),
        };
        if guard.is_empty() {
            s += &format!("        {act} when true;\n");
        } else {
            s += &format!("        {act} when {};\n", guard.join(" and "));
        }
    }
    s += &format!(
        "        {};\n    }}\n}}\n",
        ["block", "defer", "allow"][g.default as usize]
    );
    s
}

fn atom(g: &Gen, x: u8) -> String {
    match x {
        0 => "tool allowed".into(),
        1 => "not destination allowed".into(),
        2 => "destination external".into(),
        3 => "labels missing".into(),
        4 => "substitute available".into(),
        5 => "speculative".into(),
        6 => "mode in {prefetch, retry}".into(),
        7 => "confidence < threshold".into(),
        8 => "(confidence >= 0.25 or confidence < tau)".into(),
        9 => format!("args >= a{}", g.cut),
        10 => format!("destination >= d{}", g.dest_labels - 1),
        _ => match g.budget {
            Some(_) => "budget b exhausted".into(),
            None => "tool == t0".into(),
        },
    }
}

proptest! {
    #[test]
    fn generated_well_typed_contracts_check_clean(g in gen()) {
        let text = render(&g);
        let d = check_text(&text);
        let errors: Vec<String> = d
            .iter()
            .filter(|x| x.severity == stpc_compiler::Severity::Error)
            .map(|x| format!("{}: {}", x.code, x.message))
            .collect();
        prop_assert!(errors.is_empty(), "{}\n{}", errors.join("\n"), text);
    }

    #[test]
    fn mutations_never_panic(
        g in gen(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0usize..6, prop::sample::select(TOKENS)), 1..6),
    ) {
        let mut text = render(&g);
        for (at, kind, token) in edits {
            let boundaries: Vec<usize> = (0..=text.len()).filter(|i| text.is_char_boundary(*i)).collect();
            let i = boundaries[at.index(boundaries.len())];
            match kind {
                0 => text.insert_str(i, token),
                1 => {
                    let end = (i + 7).min(text.len());
                    let end = (end..=text.len()).find(|e| text.is_char_boundary(*e)).unwrap_or(text.len());
                    text.replace_range(i..end, "");
                }
                2 => text = text.replacen(token.trim(), "zz", 1),
                3 => {
                    let line = text[i..].lines().next().unwrap_or("").to_string();
                    text.insert_str(i, &format!("{line}\n"));
                }
                4 => text = text.replacen("a0", token.trim(), 1),
                _ => text.insert_str(i, &format!(" {token} ")),
            }
        }
        let _ = check_text(&text);
    }
}

const TOKENS: &[&str] = &[
    ";",
    "{",
    "}",
    "(",
    ")",
    ",",
    "<",
    "a0",
    "d0",
    "t0",
    "dst0",
    "o0",
    "log",
    "sub0",
    "generic",
    "words",
    "tau",
    "threshold",
    "speculative",
    "committed",
    "args",
    "destination",
    "lattice Args for args { x }",
    "use std::labels;",
    "use gen;",
    "when",
    "and",
    "not",
    "rewrite using t0",
    "shadow using dst0",
    "1.5",
    "-3",
    "contract gen { }",
    "enum Mode { x }",
    "channels { arguments }",
    "tool t0 { }",
];
