//! Concrete argument values for counterexamples: a counterexample reads
//! `web_search(q: "cancer") (labelled <sensitive>)`, with a value the
//! table's own labeler gives that label, rather than `q: <sensitive>`.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use stpc_runtime::table::{Condition, FieldType, Table};
use stpc_runtime::Labeler;

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
    pub(crate) fn table(&self) -> &'a Table {
        self.table
    }

    pub(crate) fn new(table: &'a Table) -> Examples<'a> {
        Examples {
            table,
            labeler: OnceCell::new(),
            found: RefCell::new(HashMap::new()),
        }
    }

    /// A value for the first text or entity field of `tool` that labels
    /// exactly `label` (argument lattice); `None` when no candidate does.
    pub(crate) fn value(&self, tool: u32, label: u32) -> Option<(String, String)> {
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
