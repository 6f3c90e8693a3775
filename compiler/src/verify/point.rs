//! Points of the domain as events, and their rendering as counterexamples.
//!
//! A counterexample is written as the tool call a user would recognise:
//! `web_search(q: <intent_revealing>) to brave (api.brave.com), mode
//! speculative, confidence 0.85 (in [0.7, +inf)), destination label public,
//! budget sensitive_dispatches available`. A dimension the offending path
//! does not test is shown with its first value: every value gives the same
//! cell, so the event is as concrete as any other.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use stpc_runtime::table::{domain, Condition, DimensionKind, FieldType, Table};
use stpc_runtime::Labeler;

pub(crate) use stpc_runtime::table::domain::{
    ARG_LABEL as ARG, CONFIDENCE as CONF, DESTINATION as DEST, DEST_LABEL as DLABEL, MODE, TOOL,
};

/// A point with the table's meaning of each coordinate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Event {
    /// Tool index; `None` is `<unknown>`.
    pub(crate) tool: Option<u32>,
    /// Destination index; `None` is `<unknown>`.
    pub(crate) dest: Option<u32>,
    /// Joined argument label; `None` is `<missing>`.
    pub(crate) arg: Option<u32>,
    /// Destination label; `None` is `<missing>`.
    pub(crate) dlabel: Option<u32>,
    /// Mode value; `None` when the point leaves it free (the soundness pass
    /// fixes it whenever a cut is scoped by mode).
    pub(crate) mode: Option<u32>,
}

impl Event {
    /// Reads the fixed dimensions of `coords` (free ones count as value 0).
    pub(crate) fn of(t: &Table, coords: &[Option<u32>]) -> Event {
        let at = |d: usize| coords.get(d).copied().flatten().unwrap_or(0);
        let known = |v: u32, n: usize| ((v as usize) < n).then_some(v);
        let dest = known(at(DEST), t.destinations.len());
        // A free destination label of a declared destination is its declared label (A2).
        let declared = dest
            .and_then(|d| t.destinations.get(d as usize))
            .map(|d| d.label);
        let dlabel = match (coords.get(DLABEL).copied().flatten(), declared) {
            (None, Some(l)) => Some(l),
            _ => known(at(DLABEL), t.lattices.destination.labels.len()),
        };
        Event {
            tool: known(at(TOOL), t.tools.len()),
            dest,
            arg: known(at(ARG), t.lattices.args.labels.len()),
            dlabel,
            mode: coords.get(MODE).copied().flatten(),
        }
    }
}

/// Concrete argument values for counterexamples: for a tool's field and an
/// argument label, a string the table's own labeler gives exactly that
/// label, checked by labelling it. Candidates come from the labeler's rules
/// for that label (lexicon phrases, samples of its patterns, the entity
/// recognisers' samples) and a few plain strings; the labeler is built only
/// when a counterexample is written, and each answer is kept.
pub(crate) struct Examples<'a> {
    table: &'a Table,
    labeler: OnceCell<Option<Arc<Labeler>>>,
    found: RefCell<HashMap<(u32, u32), Option<String>>>,
}

/// Phrases tried per lexicon, and samples per pattern.
const PER_SOURCE: usize = 6;
/// Candidates labelled at most, per tool and label.
const TRIES: usize = 400;

impl<'a> Examples<'a> {
    pub(crate) fn new(table: &'a Table) -> Examples<'a> {
        Examples {
            table,
            labeler: OnceCell::new(),
            found: RefCell::new(HashMap::new()),
        }
    }

    /// A value for the first text or entity field of `tool` that labels
    /// exactly `label` (argument lattice); `None` when no candidate does.
    fn value(&self, tool: u32, label: u32) -> Option<(String, String)> {
        let t = self.table;
        let decl = t.tools.get(tool as usize)?;
        let field = decl
            .args
            .iter()
            .find(|a| matches!(a.ty, FieldType::Text | FieldType::Entity))?;
        let key = (tool, label);
        if let Some(v) = self.found.borrow().get(&key) {
            return v.clone().map(|v| (field.name.clone(), v));
        }
        let labeler = self.labeler.get_or_init(|| shared_labeler(t)).as_ref()?;
        let found = candidates(t, label).into_iter().take(TRIES).find(|c| {
            let args = serde_json::json!({ field.name.as_str(): c });
            let got = labeler.label(&decl.name, &args, None, "");
            got.fields
                .iter()
                .any(|(f, l)| *f == field.name && *l == label)
        });
        self.found.borrow_mut().insert(key, found.clone());
        found.map(|v| (field.name.clone(), v))
    }
}

/// The labeler of the last table a counterexample was written for, by a
/// digest of what it is built from: a language server re-verifies the same
/// contract on every keystroke, and the std labeler takes a good part of a
/// second to build in a debug build.
static LAST_LABELER: Mutex<Option<(u64, Arc<Labeler>)>> = Mutex::new(None);

fn shared_labeler(t: &Table) -> Option<Arc<Labeler>> {
    let parts = (
        &t.labelers,
        &t.lexicons,
        &t.transforms,
        &t.destinations,
        &t.tools,
        &t.lattices,
    );
    let bytes = serde_json::to_vec(&parts).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    let key = h.finish();
    let mut last = LAST_LABELER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((k, l)) = last.as_ref() {
        if *k == key {
            return Some(Arc::clone(l));
        }
    }
    let labeler = Arc::new(Labeler::new(t).ok()?);
    *last = Some((key, Arc::clone(&labeler)));
    Some(labeler)
}

/// Strings likely to label `label`: what the rules for it match, then the
/// entity samples and plain text (the fallback's label).
fn candidates(t: &Table, label: u32) -> Vec<String> {
    // Plain text first: what the fallback gives, and readable.
    let mut out: Vec<String> = ["weather in Lisbon", "opening hours"]
        .map(str::to_owned)
        .into();
    for rule in t.labelers.args.rules.iter().filter(|r| r.label == label) {
        for c in &rule.when {
            match c {
                Condition::Lexicon { lexicons }
                | Condition::Terms { lexicons }
                | Condition::Parts { lexicons } => {
                    for l in lexicons.iter().filter_map(|l| t.lexicons.get(*l as usize)) {
                        let phrases: Vec<String> = l
                            .entries
                            .iter()
                            .map(|e| e.phrase.trim().to_owned())
                            .collect();
                        out.extend(crate::samples::spread(&phrases, PER_SOURCE));
                    }
                }
                Condition::Pattern { regex } => {
                    out.extend(crate::samples::pattern_samples(regex, PER_SOURCE));
                }
                Condition::Entity { .. } | Condition::Address { .. } => {}
            }
        }
    }
    out.extend(
        crate::samples::ENTITY_SAMPLES
            .iter()
            .map(|s| (*s).to_owned()),
    );
    out
}

/// A label as shown in a counterexample: `<sensitive>`, or `<missing>`.
fn shown(label: &str) -> String {
    if label.starts_with('<') {
        label.to_owned()
    } else {
        format!("<{label}>")
    }
}

/// The tool call and its context, for a note.
pub(crate) fn render(ex: &Examples<'_>, coords: &[Option<u32>]) -> String {
    let t = ex.table;
    let at = |d: usize| coords.get(d).copied().flatten().unwrap_or(0);
    let value = |d: usize| {
        t.dimensions
            .get(d)
            .and_then(|x| x.values.get(at(d) as usize))
            .map_or("?", String::as_str)
    };
    let e = Event::of(t, coords);
    let arg = shown(value(ARG));
    let call = match e.tool.and_then(|i| t.tools.get(i as usize)) {
        Some(tool) => {
            // Fields with a label dimension of their own show that label;
            // the first field stands for the joined label otherwise.
            let own: Vec<String> = t
                .dimensions
                .iter()
                .enumerate()
                .filter_map(|(d, dim)| match &dim.kind {
                    DimensionKind::FieldLabel { field }
                        if tool.args.iter().any(|a| &a.name == field) =>
                    {
                        Some(format!("{field}: {}", shown(value(d))))
                    }
                    _ => None,
                })
                .collect();
            // A concrete value the labeler gives the joined label, when
            // one is found: the counterexample as a real call.
            let concrete = own
                .is_empty()
                .then(|| e.tool.zip(e.arg))
                .flatten()
                .and_then(|(tool, label)| ex.value(tool, label));
            match (own.is_empty(), concrete, tool.args.first()) {
                (false, _, _) => {
                    format!("`{}({})` (argument label {arg})", tool.name, own.join(", "))
                }
                (true, Some((f, v)), _) => {
                    let v = serde_json::Value::String(v);
                    format!("`{}({f}: {v})` (labelled {arg})", tool.name)
                }
                (true, None, Some(f)) => format!("`{}({}: {arg})`", tool.name, f.name),
                (true, None, None) => format!("`{}()` (argument label {arg})", tool.name),
            }
        }
        None => format!("a call to an `<unknown>` tool with arguments labelled {arg}"),
    };
    let dest = match e.dest.and_then(|i| t.destinations.get(i as usize)) {
        Some(d) => format!("`{}` ({})", d.name, d.address.value),
        None => "an `<unknown>` destination".to_owned(),
    };
    let mut s = format!("{call} to {dest}, mode `{}`", value(MODE));
    let conf_name = |i: usize| {
        t.dimensions
            .get(CONF)
            .and_then(|x| x.values.get(i))
            .map_or("?", String::as_str)
    };
    if let Some(DimensionKind::Confidence { cuts }) = t.dimensions.get(CONF).map(|d| &d.kind) {
        if !cuts.is_empty() {
            // A confidence the path does not test: show the top interval,
            // where committed and promoted events (confidence 1.0) fall.
            let i = coords
                .get(CONF)
                .copied()
                .flatten()
                .map_or(cuts.len(), |v| v as usize);
            match domain::confidence_in(cuts, i) {
                Some(c) => s.push_str(&format!(", confidence {c} (in {})", conf_name(i))),
                None => s.push_str(&format!(", confidence in {}", conf_name(i))),
            }
        }
    }
    let dlabel = match e.dlabel {
        Some(l) => t.lattices.destination.label_name(l).unwrap_or("?"),
        None => value(DLABEL),
    };
    s.push_str(&format!(", destination label {}", shown(dlabel)));
    for (d, dim) in t.dimensions.iter().enumerate().skip(CONF + 1) {
        match &dim.kind {
            DimensionKind::Budget { budget } => {
                let name = t
                    .budgets
                    .get(*budget as usize)
                    .map_or("?", |b| b.name.as_str());
                s.push_str(&format!(", budget `{name}` {}", value(d)));
            }
            DimensionKind::FieldLabel { field } => {
                s.push_str(&format!(", field `{field}` labelled {}", shown(value(d))))
            }
            _ => {}
        }
    }
    s
}
