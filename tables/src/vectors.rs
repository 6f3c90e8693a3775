//! Conformance vectors: events with the decisions and labels the Rust
//! runtime gives them, for runtimes in other languages to replay.
//!
//! A vector file is JSON lines. The first line is a `header` naming the
//! table (`contract`, `digest`); every other line has a `kind`:
//!
//! - `decide`: an event with **explicit** labels and budget states, and the
//!   cell the runtime decides. One vector per edge of the decision diagram
//!   (each branch node is reached along its first path from the root, takes
//!   each of its values, then descends by first values to a leaf), so every
//!   reachable leaf and every branch value is exercised, including
//!   `<unknown>`, `<missing>`, each confidence interval at its lower bound
//!   and each budget state;
//! - `label_arg`: one argument value and its label: every lexicon's phrases
//!   (bare, in upper case inside a sentence, and glued to a word so the word
//!   boundary must reject them), sample strings of every entity kind, sample
//!   strings derived from each labeler pattern (one per branch of its
//!   alternations, bare and inside a sentence) and JSON values that are not
//!   strings;
//! - `label_destination`: a destination string and its label: declared
//!   names and addresses, URLs built from them, instances of address globs,
//!   unknown hosts and collections;
//! - `event`: an event with raw arguments (sometimes as a JSON-encoded
//!   string), the labels the labeler gives it and the decision;
//! - `monitor`: the same events as an agent writes them (some with the
//!   `name`/`arguments` aliases, some with a misspelt or missing field that
//!   must be refused) run in order through one task of the runtime's
//!   [`stpc_runtime::Monitor`], with what it does: the action taken, its
//!   reason, the cell and labels, the outgoing arguments of a dispatch
//!   (rewritten for REWRITE) and the substitute's result of a SHADOW; then
//!   one branch promoted (`promote`, each re-decided event) and one
//!   abandoned (`abandon`, how many were dropped). Substitutes are the
//!   stand-ins of `stpc decide`: each returns `{"substitute": NAME}`. A
//!   reader that only decides cells checks the event's reading and its
//!   cell; a full monitor (the Python package) checks everything.
//!
//! The expected values are computed by the runtime itself (its labeler and
//! `Decider`), so the vectors state what the Rust runtime does; another
//! reader conforms when it agrees on every line. Generation is deterministic.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use serde_json::{json, Map, Value};
use stpc_runtime::decide::{LabelsIn, Query};
use stpc_runtime::table::{
    domain, Condition, DimensionKind, FieldType, LabelRule, Node, Table, MISSING,
};
use stpc_runtime::{Engine, LoadError};

/// Most samples drawn from one labeler pattern.
pub const PATTERN_SAMPLES: usize = 48;

/// Most phrases taken from one lexicon.
pub const LEXICON_PHRASES: usize = 16;

/// Event vectors per tool (plus as many for an unknown tool).
pub const EVENTS_PER_TOOL: usize = 12;

/// Vectors for a table, header first.
///
/// # Errors
///
/// The table's labelers do not compile.
pub fn vectors(table: &Table) -> Result<Vec<Value>, LoadError> {
    let engine = Arc::new(Engine::new(Arc::new(table.clone()))?);
    let mut out = vec![json!({
        "kind": "header",
        "format_version": table.format_version,
        "contract": table.contract,
        "digest": table.digest,
    })];
    decide_vectors(&engine, &mut out);
    let arg_samples = arg_samples(table);
    for (i, (field, v)) in arg_samples.iter().enumerate() {
        let label = engine.labeler().label_value(field, v);
        out.push(json!({
            "kind": "label_arg",
            "id": format!("label-arg-{i}"),
            "field": field,
            "value": v,
            "expect": table.lattices.args.label_name(label).unwrap_or(MISSING),
        }));
    }
    for (i, d) in destination_samples(table).iter().enumerate() {
        let known = engine.decider().destination_id(d);
        let label = engine.labeler().label_destination(known, d);
        out.push(json!({
            "kind": "label_destination",
            "id": format!("label-destination-{i}"),
            "destination": d,
            "expect": table.lattices.destination.label_name(label).unwrap_or(MISSING),
        }));
    }
    event_vectors(&engine, &arg_samples, &mut out);
    monitor_vectors(&engine, &mut out);
    Ok(out)
}

/// The vectors as JSON lines, each ending in a newline.
#[must_use]
pub fn to_jsonl(vectors: &[Value]) -> String {
    let mut s = String::new();
    for v in vectors {
        s.push_str(&v.to_string());
        s.push('\n');
    }
    s
}

// ---------------------------------------------------------------------------
// Decide vectors: one per diagram edge
// ---------------------------------------------------------------------------

/// A name not used by any of `taken`, starting from `base`.
fn fresh(base: &str, taken: impl Fn(&str) -> bool) -> Option<String> {
    (0..16)
        .map(|i| {
            if i == 0 {
                base.to_owned()
            } else {
                format!("{base}_{i}")
            }
        })
        .find(|n| !taken(n))
}

/// The event fields and expected decision of one point of the domain.
struct PointEvent {
    event: Value,
}

fn point_event(engine: &Engine, coords: &[u32], names: &Names) -> Option<PointEvent> {
    let t = engine.table();
    let mut event = Map::new();
    let mut labels = Map::new();
    let mut fields = Map::new();
    let mut exhausted = Vec::new();
    for (dim, v) in t.dimensions.iter().zip(coords) {
        let value = dim.values.get(*v as usize)?;
        let is_last = *v as usize + 1 == dim.values.len();
        match &dim.kind {
            DimensionKind::Tool => {
                let name = if is_last {
                    names.unknown_tool.clone()
                } else {
                    value.clone()
                };
                event.insert("tool".into(), Value::String(name));
            }
            DimensionKind::Destination => {
                let name = if is_last {
                    names.unknown_destination.clone()?
                } else {
                    value.clone()
                };
                event.insert("destination".into(), Value::String(name));
            }
            DimensionKind::Mode => {
                event.insert("mode".into(), Value::String(value.clone()));
            }
            DimensionKind::ArgLabel => {
                labels.insert("args".into(), label_json(value));
            }
            DimensionKind::DestLabel => {
                labels.insert("destination".into(), label_json(value));
            }
            DimensionKind::Confidence { cuts } => {
                event.insert(
                    "confidence".into(),
                    json!(domain::confidence_in(cuts, *v as usize)?),
                );
            }
            DimensionKind::Budget { budget } => {
                if *v == 1 {
                    exhausted.push(t.budgets.get(*budget as usize)?.name.clone());
                }
            }
            DimensionKind::FieldLabel { field } => {
                if value != MISSING {
                    fields.insert(field.clone(), Value::String(value.clone()));
                }
            }
        }
    }
    labels.insert("fields".into(), Value::Object(fields));
    event.insert("labels".into(), Value::Object(labels));
    event.insert("budgets_exhausted".into(), json!(exhausted));
    Some(PointEvent {
        event: Value::Object(event),
    })
}

fn label_json(value: &str) -> Value {
    if value == MISSING {
        Value::Null
    } else {
        Value::String(value.to_owned())
    }
}

struct Names {
    unknown_tool: String,
    unknown_destination: Option<String>,
}

fn names(engine: &Engine) -> Names {
    let t = engine.table();
    let d = engine.decider();
    let unknown_tool = fresh("unknown_tool", |n| t.tools.iter().any(|x| x.name == n))
        .unwrap_or_else(|| "unknown_tool_x".to_owned());
    let unknown_destination = ["unknown.invalid", "urn:stpc:unknown", "?"]
        .iter()
        .map(|s| (*s).to_owned())
        .find(|s| d.destination_id(s).is_none());
    Names {
        unknown_tool,
        unknown_destination,
    }
}

/// Decide an event of a vector with explicit labels, through the decider's
/// name lookups (as a reader in another language would).
fn decide_explicit(engine: &Engine, event: &Value) -> Option<Value> {
    let t = engine.table();
    let s = |k: &str| event.get(k).and_then(Value::as_str).unwrap_or("");
    let labels = event.get("labels")?;
    let arg = labels
        .get("args")
        .and_then(Value::as_str)
        .and_then(|l| t.lattices.args.label_id(l));
    let dest = labels
        .get("destination")
        .and_then(Value::as_str)
        .and_then(|l| t.lattices.destination.label_id(l));
    let fields: Vec<(String, u32)> = labels
        .get("fields")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), t.lattices.args.label_id(v.as_str()?)?)))
                .collect()
        })
        .unwrap_or_default();
    let field_refs: Vec<(&str, u32)> = fields.iter().map(|(f, l)| (f.as_str(), *l)).collect();
    let exhausted: Vec<String> = event
        .get("budgets_exhausted")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let budgets = t.budget_states(|b| exhausted.iter().any(|e| e == b));
    let q = Query {
        tool: s("tool"),
        destination: s("destination"),
        mode: s("mode"),
        confidence: event
            .get("confidence")
            .and_then(Value::as_f64)
            .unwrap_or(1.0),
        labels: LabelsIn {
            args: arg,
            destination: dest,
            fields: &field_refs,
        },
        budgets_exhausted: &budgets,
    };
    Some(decision_json(&engine.decider().decide(&q)))
}

fn decision_json(d: &stpc_runtime::Decision<'_>) -> Value {
    json!({
        "action": d.action.as_str(),
        "rule_id": d.rule_id,
        "rule_name": d.rule_name,
        "cell": d.cell,
    })
}

/// Paths from the root to every reachable node (first found, breadth first).
/// Whether extending `path` with value `v` of `dim` keeps a point the
/// runtime can reach: a tool is only placed at destinations it declares.
fn step_fits(t: &Table, path: &[(usize, u32)], dim: usize, v: u32) -> bool {
    let value = |d: usize| {
        if d == dim {
            Some(v)
        } else {
            path.iter().find(|(x, _)| *x == d).map(|(_, v)| *v)
        }
    };
    match (value(0), value(1)) {
        (Some(tool), Some(dest)) => t.places(tool, dest),
        _ => true,
    }
}

fn first_paths(t: &Table) -> Vec<(u32, Vec<(usize, u32)>)> {
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([(t.diagram.root, Vec::new())]);
    let mut out = Vec::new();
    while let Some((n, path)) = queue.pop_front() {
        if !seen.insert(n) {
            continue;
        }
        if let Some(Node::Branch { dim, children }) = t.diagram.nodes.get(n as usize) {
            for (v, c) in children.iter().enumerate() {
                let v = u32::try_from(v).unwrap_or(u32::MAX);
                if !step_fits(t, &path, usize::from(*dim), v) {
                    continue;
                }
                let mut p: Vec<(usize, u32)> = path.clone();
                p.push((usize::from(*dim), v));
                queue.push_back((*c, p));
            }
        }
        out.push((n, path));
    }
    out
}

/// Follow first children from `n` to a leaf, extending `path`.
fn descend(t: &Table, mut n: u32, path: &mut Vec<(usize, u32)>) {
    for _ in 0..=t.dimensions.len() {
        match t.diagram.nodes.get(n as usize) {
            Some(Node::Branch { dim, children }) => {
                let d = usize::from(*dim);
                let v = (0..children.len())
                    .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
                    .find(|v| step_fits(t, path, d, *v))
                    .unwrap_or(0);
                path.push((d, v));
                match children.get(v as usize) {
                    Some(c) => n = *c,
                    None => return,
                }
            }
            _ => return,
        }
    }
}

/// The default value of each dimension where a path does not test it.
fn defaults(t: &Table) -> Vec<u32> {
    t.dimensions
        .iter()
        .map(|d| match &d.kind {
            DimensionKind::Mode => t.committed_mode().unwrap_or(0),
            DimensionKind::FieldLabel { .. } => {
                u32::try_from(d.values.len().saturating_sub(1)).unwrap_or(0)
            }
            _ => 0,
        })
        .collect()
}

/// The runtime places a tool's event at a destination the tool does not
/// declare as `<unknown>`, so a point pairing them is never reached. Where
/// the path leaves the tool (or the destination) free, pick one that fits
/// the other.
fn place_tool_at_own_destination(t: &Table, path: &[(usize, u32)], coords: &mut [u32]) {
    let fixed = |d: usize| path.iter().any(|(x, _)| *x == d);
    let (Some(&tool), Some(&dest)) = (coords.first(), coords.get(1)) else {
        return;
    };
    if t.places(tool, dest) {
        return;
    }
    if !fixed(0) {
        if let Some(i) =
            (0..t.tools.len()).find(|i| t.places(u32::try_from(*i).unwrap_or(u32::MAX), dest))
        {
            if let Some(slot) = coords.first_mut() {
                *slot = u32::try_from(i).unwrap_or(u32::MAX);
            }
            return;
        }
    }
    if !fixed(1) {
        if let (Some(first), Some(slot)) = (
            t.tools
                .get(tool as usize)
                .and_then(|x| x.destinations.first())
                .copied(),
            coords.get_mut(1),
        ) {
            *slot = first;
        }
    }
}

fn decide_vectors(engine: &Engine, out: &mut Vec<Value>) {
    let t = engine.table();
    let names = names(engine);
    let base = defaults(t);
    let mut points: Vec<Vec<(usize, u32)>> = Vec::new();
    for (n, path) in first_paths(t) {
        match t.diagram.nodes.get(n as usize) {
            Some(Node::Branch { dim, children }) => {
                for v in 0..children.len() {
                    let value = u32::try_from(v).unwrap_or(u32::MAX);
                    if !step_fits(t, &path, usize::from(*dim), value) {
                        continue;
                    }
                    let mut p = path.clone();
                    p.push((usize::from(*dim), value));
                    if let Some(c) = children.get(v) {
                        descend(t, *c, &mut p);
                    }
                    points.push(p);
                }
            }
            Some(Node::Leaf { .. }) if path.is_empty() => points.push(path),
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    for path in points {
        let mut coords = base.clone();
        for (d, v) in &path {
            if let Some(slot) = coords.get_mut(*d) {
                *slot = *v;
            }
        }
        place_tool_at_own_destination(t, &path, &mut coords);
        if !seen.insert(coords.clone()) {
            continue;
        }
        let Some(pe) = point_event(engine, &coords, &names) else {
            continue;
        };
        let Some(expect) = decide_explicit(engine, &pe.event) else {
            continue;
        };
        let id = format!(
            "decide-{}",
            coords
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(".")
        );
        out.push(json!({"kind": "decide", "id": id, "event": pe.event, "expect": expect}));
    }
}

// ---------------------------------------------------------------------------
// Labeler samples
// ---------------------------------------------------------------------------

use stpc_compiler::samples::spread;
pub use stpc_compiler::samples::{pattern_samples, ENTITY_SAMPLES};

fn conditions(rules: &[LabelRule]) -> impl Iterator<Item = &Condition> {
    rules.iter().flat_map(|r| r.when.iter().chain(&r.unless))
}

fn lexicon_ids(rules: &[LabelRule]) -> BTreeSet<u32> {
    conditions(rules)
        .flat_map(|c| match c {
            Condition::Lexicon { lexicons }
            | Condition::Terms { lexicons }
            | Condition::Parts { lexicons } => lexicons.as_slice(),
            Condition::Pattern { .. } | Condition::Entity { .. } | Condition::Address { .. } => &[],
        })
        .copied()
        .collect()
}

fn phrases(t: &Table, ids: &BTreeSet<u32>) -> Vec<String> {
    let mut out = Vec::new();
    for id in ids {
        if let Some(lex) = t.lexicons.get(*id as usize) {
            let all: Vec<String> = lex
                .entries
                .iter()
                .map(|e| e.phrase.trim().to_owned())
                .collect();
            out.extend(spread(&all, LEXICON_PHRASES));
        }
    }
    out
}

fn patterns(rules: &[LabelRule]) -> Vec<String> {
    let mut out = Vec::new();
    for c in conditions(rules) {
        if let Condition::Pattern { regex } = c {
            for s in pattern_samples(regex, PATTERN_SAMPLES) {
                out.push(format!("see {s} now"));
                out.push(s);
            }
        }
    }
    out
}

/// Argument values for `label_arg` vectors, with the field they are given
/// in (`value`, or a field a rule is limited to), deduplicated, in a fixed
/// order.
#[must_use]
pub fn arg_samples(t: &Table) -> Vec<(String, Value)> {
    let plain = plain_samples(t);
    let mut out: Vec<(String, Value)> = plain
        .iter()
        .map(|v| ("value".to_owned(), v.clone()))
        .collect();
    let mut scoped: BTreeSet<&str> = BTreeSet::new();
    for r in &t.labelers.args.rules {
        scoped.extend(r.fields.iter().map(String::as_str));
    }
    for f in scoped {
        out.extend(
            plain
                .iter()
                .filter(|v| v.is_string())
                .step_by(3)
                .map(|v| (f.to_owned(), v.clone())),
        );
    }
    out
}

/// Argument values for `label_arg` vectors.
fn plain_samples(t: &Table) -> Vec<Value> {
    let rules = &t.labelers.args.rules;
    let mut strings: Vec<String> = Vec::new();
    for p in phrases(t, &lexicon_ids(rules)) {
        strings.push(format!("About {} today", p.to_ascii_uppercase()));
        strings.push(format!("x{p}x"));
        strings.push(p);
    }
    strings.extend(ENTITY_SAMPLES.iter().map(|s| (*s).to_owned()));
    strings.extend(patterns(rules));
    strings.extend(
        [
            "",
            "weather in Lisbon",
            "tenant rights lease termination penalty",
            "ünïcödé ß İ",
            "Straße 12, İstanbul",
            "line one\nmy lease\n",
            "\tEVICTION\u{3000}notice ",
            "x\u{301}eviction",
            "e\u{301}viction and ²lease",
            "ǅ title-case and ſ long s",
            "Ⓐ lease, x\u{200d}eviction, \u{915}\u{93f}lawsuit",
            "\u{1e4f0}\u{1e4d0} lease \u{1d7ce}23-45-6789 \u{212a}",
        ]
        .iter()
        .map(|s| (*s).to_owned()),
    );
    let mut seen = BTreeSet::new();
    let mut out: Vec<Value> = strings
        .into_iter()
        .filter(|s| seen.insert(s.clone()))
        .map(Value::String)
        .collect();
    out.extend([
        json!(5),
        json!(-3),
        json!(2.5),
        json!(1e20),
        json!(0.00001),
        json!(true),
        json!(null),
        json!([]),
        json!({}),
        json!(["weather", 123, {"note": "my ssn is 123-45-6789"}]),
        json!({"eviction notice": "x"}),
    ]);
    out
}

/// Destination strings for `label_destination` vectors.
#[must_use]
pub fn destination_samples(t: &Table) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in &t.destinations {
        out.push(d.name.clone());
        let a = glob_instance(&d.address.value);
        out.push(format!("https://{a}/search?q=1"));
        out.push(a.to_ascii_uppercase());
        out.push(a);
    }
    for c in conditions(&t.labelers.destination.rules) {
        if let Condition::Address { glob, .. } = c {
            let a = glob_instance(glob);
            out.push(format!("https://{a}/x"));
            out.push(format!("{a}/path"));
            out.push(a);
        }
    }
    let rules = &t.labelers.destination.rules;
    out.extend(phrases(t, &lexicon_ids(rules)));
    out.extend(patterns(rules));
    out.extend(
        [
            "unknown.invalid",
            "example.org",
            "https://example.org/a?b=c",
            "http://user@host.example:8080/p",
            "oncology",
            "internal-wiki",
            "",
        ]
        .iter()
        .map(|s| (*s).to_owned()),
    );
    let mut seen = BTreeSet::new();
    out.into_iter().filter(|s| seen.insert(s.clone())).collect()
}

/// A string matching a glob: `*` becomes `x`, `?` becomes `a`.
fn glob_instance(glob: &str) -> String {
    glob.chars()
        .map(|c| match c {
            '*' => 'x',
            '?' => 'a',
            c => c,
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Event vectors: raw arguments through the labeler
// ---------------------------------------------------------------------------

fn sample_for(ty: &FieldType, s: &Value, k: usize) -> Value {
    match ty {
        FieldType::Text | FieldType::Entity => s.clone(),
        FieldType::Time => json!(["2024-03-15 14:30", "next Tuesday", "3pm"]
            .get(k % 3)
            .copied()
            .unwrap_or("")),
        FieldType::Number => json!(k * 7),
        FieldType::Enum { values } => values
            .get(k % values.len().max(1))
            .map_or(Value::Null, |v| Value::String(v.clone())),
        FieldType::List { item } => json!([sample_for(item, s, k), sample_for(item, s, k + 1)]),
    }
}

fn event_vectors(engine: &Engine, samples: &[(String, Value)], out: &mut Vec<Value>) {
    let t = engine.table();
    let names = names(engine);
    let strings: Vec<&Value> = samples
        .iter()
        .map(|(_, v)| v)
        .filter(|v| v.is_string())
        .collect();
    if strings.is_empty() {
        return;
    }
    let modes: Vec<String> = t
        .dimensions
        .get(2)
        .map(|d| d.values.clone())
        .unwrap_or_default();
    let cuts: Vec<f64> = t
        .dimensions
        .iter()
        .find_map(|d| match &d.kind {
            DimensionKind::Confidence { cuts } => Some(cuts.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let mut dests: Vec<String> = t.destinations.iter().map(|d| d.name.clone()).collect();
    dests.extend(
        t.destinations
            .iter()
            .map(|d| glob_instance(&d.address.value)),
    );
    dests.extend(names.unknown_destination.clone());
    dests.push("https://example.org/x".to_owned());
    let tools: Vec<(String, Vec<(String, FieldType)>)> = t
        .tools
        .iter()
        .map(|x| {
            (
                x.name.clone(),
                x.args
                    .iter()
                    .map(|a| (a.name.clone(), a.ty.clone()))
                    .collect(),
            )
        })
        .chain([(
            names.unknown_tool.clone(),
            vec![("q".to_owned(), FieldType::Text)],
        )])
        .collect();
    let mut n = 0usize;
    for (ti, (tool, fields)) in tools.iter().enumerate() {
        for k in 0..EVENTS_PER_TOOL {
            let step = strings.len() / (EVENTS_PER_TOOL * tools.len()).max(1) + 1;
            let pick = |j: usize| {
                strings
                    .get((n * step + j * 31 + ti) % strings.len())
                    .map_or(Value::Null, |v| (*v).clone())
            };
            let mut args = Map::new();
            for (j, (f, ty)) in fields.iter().enumerate() {
                args.insert(f.clone(), sample_for(ty, &pick(j), k));
            }
            if k % 5 == 4 {
                args.insert("extra".to_owned(), pick(7));
            }
            let mode = modes
                .get((k + ti) % modes.len().max(1))
                .cloned()
                .unwrap_or_default();
            let confidence = domain::confidence_in(&cuts, k % (cuts.len() + 1)).unwrap_or(1.0);
            let destination = dests
                .get((k + 2 * ti) % dests.len().max(1))
                .cloned()
                .unwrap_or_default();
            let exhausted: Vec<String> = t
                .budgets
                .iter()
                .enumerate()
                .filter(|(b, _)| (k >> b) & 1 == 1 && k % 3 == 0)
                .map(|(_, b)| b.name.clone())
                .collect();
            let args = Value::Object(args);
            let args_field = if k % 4 == 3 {
                Value::String(args.to_string())
            } else {
                args.clone()
            };
            let event = json!({
                "tool": tool,
                "destination": destination,
                "mode": mode,
                "confidence": confidence,
                "args": args_field,
                "budgets_exhausted": exhausted,
            });
            let dest_id = engine.decider().destination_id(&destination);
            let labels = engine.labeler().label(tool, &args, dest_id, &destination);
            let field_refs = labels.field_refs();
            let budgets = t.budget_states(|b| exhausted.iter().any(|e| e == b));
            let q = Query {
                tool,
                destination: &destination,
                mode: &mode,
                confidence,
                labels: LabelsIn {
                    args: labels.args,
                    destination: labels.destination,
                    fields: &field_refs,
                },
                budgets_exhausted: &budgets,
            };
            let mut expect = decision_json(&engine.decider().decide(&q));
            let arg_name = |l: u32| t.lattices.args.label_name(l).map(str::to_owned);
            let field_names: BTreeMap<String, Value> = labels
                .fields
                .iter()
                .map(|(f, l)| (f.clone(), json!(arg_name(*l))))
                .collect();
            if let Value::Object(m) = &mut expect {
                m.insert(
                    "labels".to_owned(),
                    json!({
                        "args": labels.args.and_then(arg_name),
                        "destination": labels.destination.and_then(|l| t.lattices.destination.label_name(l)),
                        "fields": field_names,
                    }),
                );
            }
            out.push(json!({"kind": "event", "id": format!("event-{n}"), "event": event, "expect": expect}));
            n += 1;
        }
    }
}

// ---------------------------------------------------------------------------
// Monitor vectors: the event vectors as agents write them, through a monitor
// ---------------------------------------------------------------------------

/// Branches the monitor vectors spread speculative events over; the first
/// is promoted and the second abandoned at the end.
const MONITOR_BRANCHES: [&str; 3] = ["b0", "b1", "b2"];

/// The event of an `event` vector as an agent writes it: vector `k` takes
/// the aliases (`name`, `arguments` as a JSON string) when `k % 3 == 1`, a
/// misspelt `confidance` when `k % 11 == 5`, no `mode` when `k % 13 == 7`.
/// Returns the event and whether the monitor must refuse it.
fn as_written(event: &Value, k: usize) -> (Value, bool) {
    let mut m = Map::new();
    let get = |key: &str| event.get(key).cloned().unwrap_or(Value::Null);
    let mode = get("mode");
    let speculative = mode.as_str() != Some("committed");
    let args = get("args");
    if k % 3 == 1 {
        // OpenAI-style: the arguments as a JSON string (already one when
        // the event vector wrote them so).
        let text = match args {
            Value::String(s) => s,
            other => other.to_string(),
        };
        m.insert("name".to_owned(), get("tool"));
        m.insert("arguments".to_owned(), Value::String(text));
    } else {
        m.insert("tool".to_owned(), get("tool"));
        m.insert("args".to_owned(), args);
    }
    m.insert("destination".to_owned(), get("destination"));
    let refused_mode = k % 13 == 7;
    if !refused_mode {
        m.insert("mode".to_owned(), mode);
    }
    let misspelt = k % 11 == 5;
    let confidence_key = if misspelt { "confidance" } else { "confidence" };
    m.insert(confidence_key.to_owned(), get("confidence"));
    if speculative {
        let b = MONITOR_BRANCHES
            .get(k % MONITOR_BRANCHES.len())
            .copied()
            .unwrap_or("b0");
        m.insert("branch".to_owned(), Value::from(b));
    }
    (Value::Object(m), misspelt || refused_mode)
}

/// What the monitor did with one decided event.
fn monitor_json(engine: &Engine, decided: stpc_runtime::Decided) -> Value {
    use crate::event::NamedLabels as _;
    let t = engine.table();
    let mut expect = json!({
        "action": decided.action().as_str(),
        "reason": decided.reason().code(),
        "rule_id": decided.rule_id(),
        "rule_name": decided.rule_name(),
        "cell": decided.cell(),
        "labels": decided.labels().names(t),
    });
    let extra = match decided.into_outcome() {
        stpc_runtime::Outcome::Dispatch(ticket) => {
            Some(("args", ticket.dispatch().call().args().clone()))
        }
        stpc_runtime::Outcome::Shadowed(s) => Some((
            "shadow",
            json!({"substitute": s.substitute(), "result": s.result()}),
        )),
        stpc_runtime::Outcome::Deferred(_) | stpc_runtime::Outcome::Blocked(_) => None,
    };
    if let (Value::Object(m), Some((k, v))) = (&mut expect, extra) {
        m.insert(k.to_owned(), v);
    }
    expect
}

/// The stand-in substitutes of `stpc decide` and of the monitor vectors.
pub fn stand_in_substitutes(monitor: &mut stpc_runtime::Monitor) {
    let names: Vec<String> = monitor
        .engine()
        .table()
        .substitutes
        .iter()
        .map(|s| s.name.clone())
        .collect();
    for name in names {
        let n = name.clone();
        monitor.register_substitute(name, Box::new(move |_| json!({ "substitute": n })));
    }
}

fn monitor_vectors(engine: &Arc<Engine>, out: &mut Vec<Value>) {
    // Each event vector as written, and every other one again as an
    // unlikely ghost on the promoted branch (so SHADOW, DEFER and their
    // promotion are exercised wherever the table has them).
    let speculative = engine.decider().mode_id("speculative").is_some();
    let mut events: Vec<Value> = Vec::new();
    for (i, e) in out
        .iter()
        .filter(|v| v.get("kind").and_then(Value::as_str) == Some("event"))
        .filter_map(|v| v.get("event"))
        .enumerate()
    {
        events.push(e.clone());
        if speculative && i % 2 == 0 {
            let mut ghost = e.clone();
            if let Value::Object(m) = &mut ghost {
                m.insert("mode".to_owned(), Value::from("speculative"));
                m.insert("confidence".to_owned(), Value::from(0.05));
            }
            events.push(ghost);
        }
    }
    let mut monitor = stpc_runtime::Monitor::with_engine(
        Arc::clone(engine),
        Box::new(stpc_runtime::MemorySink::new()),
    );
    stand_in_substitutes(&mut monitor);
    if monitor.begin_task("vectors").is_err() {
        return;
    }
    for (k, event) in events.iter().enumerate() {
        let (written, refused) = as_written(event, k);
        let id = format!("monitor-{k}");
        let parsed = crate::event::EventInput::from_value(written.clone());
        let expect = match (parsed, refused) {
            (Err(_), true) => json!({"error": "event"}),
            (Ok(e), false) => match monitor.submit(e.into_proposed()) {
                Ok(decided) => monitor_json(engine, decided),
                Err(_) => continue,
            },
            // The reader and this generator disagree on what is refused:
            // leave the vector out rather than state a wrong expectation
            // (the generator's tests catch it).
            _ => continue,
        };
        out.push(json!({"kind": "monitor", "id": id, "event": written, "expect": expect}));
    }
    let branch = MONITOR_BRANCHES.first().copied().unwrap_or("b0");
    if let Ok(promoted) = monitor.promote(branch) {
        let results: Vec<Value> = promoted
            .into_iter()
            .map(|p| match p {
                stpc_runtime::Promoted::Decided(d) => monitor_json(engine, *d),
                stpc_runtime::Promoted::Reused(s) => json!({
                    "action": "shadow", "reason": "reused",
                    "shadow": {"substitute": s.substitute(), "result": s.result()},
                }),
            })
            .collect();
        out.push(json!({"kind": "monitor", "id": "monitor-promote", "promote": branch, "expect": results}));
    }
    let branch = MONITOR_BRANCHES.get(1).copied().unwrap_or("b1");
    if let Ok(dropped) = monitor.abandon(branch) {
        out.push(json!({"kind": "monitor", "id": "monitor-abandon", "abandon": branch, "expect": {"dropped": dropped}}));
    }
}
