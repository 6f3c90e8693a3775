//! The labeler: a deterministic, pure function of `(tool, args, destination)`
//! to label ids, independent of the decision pipeline.
//!
//! **Rules.** A labeler is a list of rules (`table::LabelRule`): when every
//! condition of a rule holds in a value and none of its `unless` conditions
//! does, the value gets the rule's label; a rule may be limited to some
//! argument fields and some tools. The conditions are compiled once
//! ([`Labeler::new`]):
//!
//! - `lexicon` (verbatim phrases): all such lexicons in **one**
//!   Aho-Corasick automaton, ASCII case-insensitive, hits kept at word
//!   boundaries;
//! - `terms` and `parts` (words, folded, with endings, compounds and one
//!   typo; or parts of words): one automaton per mode over the folded text
//!   ([`terms`], [`text`]);
//! - `pattern`: every expression in one [`PatternSet`], so a string is
//!   scanned once; the lazy DFA gets a cache large enough for the whole
//!   set and never gives up on long values;
//! - `entity`: the hand-written recognisers of [`crate::entity`];
//! - `address` globs: a two-metacharacter matcher ([`crate::address`]).
//!
//! Each leaf computes only the facts its rules need, once.
//!
//! **Granularity.** Every *leaf* inside an argument field is labeled on its
//! own: strings, numbers and booleans (as their JSON text), the keys of
//! nested objects, and the field's own name when the tool does not declare
//! it (so a question typed into an argument *name* is labeled like one
//! typed into a value). A leaf's label is the join of the labels of all
//! rules that match it; a leaf no rule matches gets the labeler's
//! `fallback`, never silently the bottom. A field's label is the join over
//! its leaves (the fallback for a field with no leaves), and the event's
//! argument label the join over fields (the bottom for an event without
//! fields). Labeling leaf by leaf is at least as high as labeling the field
//! as a whole, so an unrecognised list element cannot hide behind a
//! recognised one.
//!
//! **Destinations.** A destination the table declares (by name, host or
//! collection) has its declared label. Otherwise the destination labeler's
//! rules run on the destination string: `host` globs against its host,
//! `url` and `collection` globs and every other condition against the whole
//! string; with no match, the fallback.
//!
//! **Explanations.** [`Labeler::label_event`] can also say, per field and
//! for the destination, which rules fired, on which condition, with which
//! lexicon entry and on which bytes of the value. It quotes contract
//! content (entries, patterns, globs), never the value itself.

mod fork;
pub mod index;
mod rules;
pub mod terms;
pub mod text;
mod trie;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use crate::address;
use crate::patterns::{self, PatternSet};
use std::sync::Arc;

use crate::entity::Recognisers;
use crate::error::LoadError;
use crate::table::{AddressKind, EntityKind, Lattice, Table};
use terms::{Hit, Mode, TermIndex};
use text::Folded;

use rules::{Builder, Cond, Lexicons, Rule, Rules};

/// Labels of one event.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Labels {
    /// Label id per top-level argument field, in the order of the arguments.
    pub fields: Vec<(String, u32)>,
    /// Join of the field labels; `None` when the arguments are not an object.
    pub args: Option<u32>,
    /// Destination label.
    pub destination: Option<u32>,
}

impl Labels {
    /// The field labels as borrowed pairs, the shape a
    /// [`crate::decide::LabelsIn`] takes.
    #[must_use]
    pub fn field_refs(&self) -> Vec<(&str, u32)> {
        self.fields.iter().map(|(f, l)| (f.as_str(), *l)).collect()
    }
}

/// An event's labels and, when asked for, why.
#[derive(Clone, Debug, Default)]
pub struct LabeledEvent {
    /// The labels.
    pub labels: Labels,
    /// Per field and for the destination, the rules that fired (empty
    /// unless explanations were asked for).
    pub explanation: Explanation,
}

/// Why an event got its labels.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Explanation {
    /// One entry per argument field, in the order of the arguments.
    pub fields: Vec<FieldWhy>,
    /// The destination's.
    pub destination: Option<DestinationWhy>,
}

/// Why one field got its label.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldWhy {
    /// The field name.
    pub field: String,
    /// Its label.
    pub label: String,
    /// The rules that fired on its leaves.
    pub fired: Vec<Fired>,
    /// The rules whose conditions held on a leaf but a hard negative
    /// (`unless`) dropped.
    pub suppressed: Vec<Suppressed>,
    /// Whether some leaf matched no rule and took the fallback.
    pub fallback: bool,
}

/// A rule whose conditions held on one leaf, dropped by a hard negative.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suppressed {
    /// The rule's index in its labeler.
    pub rule: usize,
    /// The label it would have given.
    pub label: String,
    /// Which leaf.
    pub leaf: String,
    /// The `unless` condition that held.
    pub by: Evidence,
}

/// Why the destination got its label.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DestinationWhy {
    /// Its label.
    pub label: String,
    /// `declared` (the table names it), `rules` or `fallback`.
    pub by: &'static str,
    /// The rules that fired.
    pub fired: Vec<Fired>,
}

/// One rule that fired on one leaf.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fired {
    /// The rule's index in its labeler.
    pub rule: usize,
    /// The label it gave.
    pub label: String,
    /// Which leaf: `q`, `items[2]`, `filters.text`, or `(name)` for a field
    /// name labeled as a leaf.
    pub leaf: String,
    /// What matched, one per condition of the rule.
    pub evidence: Vec<Evidence>,
}

/// What made one condition hold.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    /// The condition: `terms health_terms` (for a list of lexicons, the one
    /// that matched), `entity email`.
    pub condition: String,
    /// The lexicon entry, pattern or glob that matched.
    pub matched: Option<String>,
    /// The bytes of the leaf it matched, `[start, end)`.
    pub span: Option<(usize, usize)>,
    /// Matched with one typo of tolerance.
    pub fuzzy: bool,
}

/// The compiled labeler of one table.
#[derive(Debug)]
pub struct Labeler {
    /// Verbatim phrases of `lexicon` conditions.
    exact: Option<AhoCorasick>,
    /// Automaton pattern id → (lexicon index, entry index).
    exact_entry_of: Vec<(u32, u32)>,
    /// Entries of `terms` conditions and `replace lexicon` steps.
    terms: TermIndex,
    /// Entries of `parts` conditions.
    parts: TermIndex,
    /// Every `pattern` condition of both labelers.
    patterns: Option<PatternSet>,
    pattern_text: Vec<String>,
    lexicon_names: Vec<String>,
    /// Every lexicon's phrases, for explanations.
    /// (in one string, with each lexicon's entry ranges: two allocations
    /// instead of one per entry).
    entries: (String, Vec<Vec<(u32, u32)>>),
    n_lexicons: usize,
    args: Rules,
    destination: Rules,
    args_lattice: Lattice,
    dest_lattice: Lattice,
    dest_labels: Vec<u32>,
    /// Declared field names per tool name (a field the tool does not
    /// declare has its name labeled too).
    tool_fields: Vec<(Box<str>, Vec<Box<str>>)>,
    /// Entity recognisers, shared with the rewriter.
    pub(crate) entities: Arc<Recognisers>,
}

/// Compile-time limits the compiler checks with the runtime's numbers.
pub mod limits {
    /// Size limit of one pattern's compiled program (bytes). The compiler
    /// refuses a pattern over it, naming the pattern; the runtime compiles
    /// every pattern once, in the set, and so enforces [`PATTERN_SET_SIZE`]
    /// (it names the first pattern over this limit only to explain why a
    /// set failed).
    pub const PATTERN_SIZE: usize = 1 << 20;
    /// Size limit of the set of every pattern of a table (bytes).
    pub const PATTERN_SET_SIZE: usize = 1 << 23;
    /// Lazy DFA cache of the pattern set (bytes): large enough that the set
    /// never falls back to the PikeVM on values of the size limit.
    pub const PATTERN_DFA_CACHE: usize = 1 << 24;
}

/// Where a labeler's `terms` and `parts` automata come from.
enum Source<'a> {
    /// Index bytes, decoded (and hashed) while the labeler builds.
    Bytes(&'a [u8]),
    /// An index that a function returns (decoded beforehand, or on
    /// another thread that the function joins), called on the building
    /// thread while the second one compiles the expressions.
    Later(Box<dyn FnOnce() -> Result<index::Index, LoadError> + 'a>),
}

impl Labeler {
    /// Compile the labeler rules of a table.
    ///
    /// # Errors
    ///
    /// A pattern or lexicon that does not compile.
    pub fn new(table: &Table) -> Result<Labeler, LoadError> {
        Labeler::build(table, None)
    }

    /// [`Labeler::new`], with the `terms` and `parts` automata taken from
    /// the table's index (what `stpc compile` writes beside the table)
    /// instead of built from its lexicons: the same labeler, in a fraction
    /// of the start-up.
    ///
    /// # Errors
    ///
    /// [`LoadError::Index`] if the table names no index or `index` is not
    /// the one it names (see [`index`]); otherwise as [`Labeler::new`].
    pub fn with_index(table: &Table, index: &[u8]) -> Result<Labeler, LoadError> {
        Labeler::build(table, Some(Source::Bytes(index)))
    }

    /// [`Labeler::with_index`] with the index decoded by `index`
    /// ([`index::Index::decode`]), called while the labeler's regular
    /// expressions compile on a second thread: a loader that decodes the
    /// index on a thread of its own while the table loads passes a function
    /// that joins that thread.
    ///
    /// # Errors
    ///
    /// What `index` returns; otherwise as [`Labeler::with_index`].
    pub fn with_index_from(
        table: &Table,
        index: impl FnOnce() -> Result<index::Index, LoadError>,
    ) -> Result<Labeler, LoadError> {
        Labeler::build(table, Some(Source::Later(Box::new(index))))
    }

    fn build(table: &Table, index: Option<Source<'_>>) -> Result<Labeler, LoadError> {
        let n = table.lexicons.len();
        let mut b = Builder {
            table,
            patterns: Vec::new(),
            exact: vec![false; n],
            terms: vec![false; n],
            parts: vec![false; n],
        };
        let args = b.rules(
            &table.labelers.args.rules,
            table.labelers.args.fallback,
            "args",
        )?;
        let destination = b.rules(
            &table.labelers.destination.rules,
            table.labelers.destination.fallback,
            "destination",
        )?;
        // `replace lexicon` steps find their phrases as terms.
        for tr in &b.table.transforms {
            for step in &tr.steps {
                if let crate::table::Step::ReplaceLexicon { lexicon, .. } = step {
                    if let Some(slot) = b.terms.get_mut(*lexicon as usize) {
                        *slot = true;
                    }
                }
            }
        }
        let mut phrases = Vec::new();
        let mut exact_entry_of = Vec::new();
        for ((li, lex), _) in (0u32..)
            .zip(&table.lexicons)
            .zip(&b.exact)
            .filter(|(_, u)| **u)
        {
            for (ei, e) in (0u32..).zip(&lex.entries) {
                phrases.push(e.phrase.trim().to_owned());
                exact_entry_of.push((li, ei));
            }
        }
        let exact = if phrases.is_empty() {
            None
        } else {
            Some(
                AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .match_kind(MatchKind::Standard)
                    .build(&phrases)
                    .map_err(|_| LoadError::BadLexicon { lexicon: 0 })?,
            )
        };
        // Start-up on two cores: a second thread compiles the regular
        // expressions (the table's patterns, the process's entity set)
        // while this one decodes and hashes the index, or while it builds
        // the lexicon automata. Nothing decoded is used unless the index
        // is the one the table names (`Index::bind`).
        let expressions = || {
            let patterns = compile_patterns(&b.patterns)?;
            let entities = Recognisers::shared().map_err(|_| {
                LoadError::invalid("entity recognisers", "failed to compile (a runtime bug)")
            })?;
            Ok::<_, LoadError>((patterns, entities))
        };
        let (expressions, automata) = match index {
            // From the lexicons: the `terms` build forks for its halves
            // and runs the expressions on its second thread once they are
            // folded, so no more than two threads run at once.
            None => {
                let (terms, expressions) =
                    TermIndex::new_beside(&table.lexicons, &b.terms, Mode::Words, expressions);
                let automata = terms.and_then(|terms| {
                    Ok((
                        terms,
                        TermIndex::new(&table.lexicons, &b.parts, Mode::Parts)?,
                    ))
                });
                (expressions, automata)
            }
            Some(source) => {
                let automata = || {
                    let decoded = match source {
                        Source::Bytes(bytes) => index::Index::decode(bytes),
                        Source::Later(index) => index(),
                    };
                    decoded?.bind(table)
                };
                fork::join(expressions, automata)
            }
        };
        let expressions = expressions.unwrap_or_else(|| {
            Err(LoadError::invalid(
                "labeler patterns",
                "compiling them failed (a runtime bug)",
            ))
        });
        // A refused index is reported as refused before a pattern error.
        let (terms, parts) = automata?;
        let (patterns, entities) = expressions?;
        Ok(Labeler {
            exact,
            exact_entry_of,
            terms,
            parts,
            patterns,
            pattern_text: b.patterns.into_iter().map(|(p, _)| p).collect(),
            lexicon_names: table.lexicons.iter().map(|l| l.name.clone()).collect(),
            entries: phrase_store(&table.lexicons),
            n_lexicons: n,
            args,
            destination,
            args_lattice: table.lattices.args.clone(),
            dest_lattice: table.lattices.destination.clone(),
            dest_labels: table.destinations.iter().map(|d| d.label).collect(),
            tool_fields: table
                .tools
                .iter()
                .map(|t| {
                    (
                        t.name.as_str().into(),
                        t.args.iter().map(|a| a.name.as_str().into()).collect(),
                    )
                })
                .collect(),
            entities,
        })
    }

    /// Every phrase of a lexicon found in `text` as verbatim phrase or as
    /// term (folded, inflected, compound): `(lexicon, entry, byte range of
    /// text)`, possibly overlapping. `replace lexicon` steps use it.
    pub(crate) fn lexicon_matches(&self, text: &str) -> Vec<(u32, u32, std::ops::Range<usize>)> {
        let mut out = Vec::new();
        if let Some(ac) = &self.exact {
            for m in ac.find_overlapping_iter(text) {
                if at_word_boundaries(text, m.start(), m.end()) {
                    if let Some((l, e)) = self.exact_entry_of.get(m.pattern().as_usize()) {
                        out.push((*l, *e, m.range()));
                    }
                }
            }
        }
        let mut folded = Folded::default();
        folded.fold(text);
        let mut hits = Vec::new();
        self.terms
            .scan(&folded, &mut hits, &mut terms::TypoScratch::default());
        for h in hits {
            if let Some(r) = folded.original(h.range) {
                out.push((h.lexicon, h.entry, r));
            }
        }
        out
    }

    /// The argument lattice.
    #[must_use]
    pub fn args_lattice(&self) -> &Lattice {
        &self.args_lattice
    }

    /// Label a whole event (no explanation).
    #[must_use]
    pub fn label(
        &self,
        tool: &str,
        args: &Value,
        known_destination: Option<u32>,
        destination: &str,
    ) -> Labels {
        self.label_event(tool, args, known_destination, destination, false)
            .labels
    }

    /// Label a whole event; with `explain`, say why.
    #[must_use]
    pub fn label_event(
        &self,
        tool: &str,
        args: &Value,
        known_destination: Option<u32>,
        destination: &str,
        explain: bool,
    ) -> LabeledEvent {
        let mut why = explain.then(Explanation::default);
        let (fields, joined) = self.label_args_why(tool, args, why.as_mut());
        let dest = self.label_destination_why(known_destination, destination, why.as_mut());
        LabeledEvent {
            labels: Labels {
                fields,
                args: joined,
                destination: Some(dest),
            },
            explanation: why.unwrap_or_default(),
        }
    }

    /// Label the arguments: per-field labels and their join. Arguments that
    /// are not a JSON object have no labels (`args` is `None`, read as
    /// `<missing>`).
    #[must_use]
    pub fn label_args(&self, tool: &str, args: &Value) -> (Vec<(String, u32)>, Option<u32>) {
        self.label_args_why(tool, args, None)
    }

    fn label_args_why(
        &self,
        tool: &str,
        args: &Value,
        mut why: Option<&mut Explanation>,
    ) -> (Vec<(String, u32)>, Option<u32>) {
        let Value::Object(map) = args else {
            return (Vec::new(), None);
        };
        // Arguments past the limits are not read: no labels, which every
        // verified table decides fail-closed (`<missing>`); the monitor
        // also blocks them with the reason.
        if check_limits(args).is_err() {
            return (Vec::new(), None);
        }
        let declared = self
            .tool_fields
            .iter()
            .find(|(t, _)| &**t == tool)
            .map(|(_, f)| f.as_slice());
        let mut scratch = Pooled::take();
        let mut fields = Vec::with_capacity(map.len());
        let mut joined = None;
        let mut rules = std::mem::take(&mut scratch.rules);
        for (k, v) in map {
            let mut field = FieldAcc {
                acc: None,
                fired: why.as_ref().map(|_| Vec::new()),
                suppressed: Vec::new(),
                fallback: false,
            };
            let cx = LeafCx {
                rules: self.applicable(tool, k, why.is_some(), &mut rules),
            };
            if !declared.is_some_and(|d| d.iter().any(|f| &**f == k.as_str())) {
                self.leaf(&cx, k, "(name)", &mut scratch, &mut field);
            }
            // The leaf path is only read by explanations; its buffer is reused.
            let mut path = std::mem::take(&mut scratch.path);
            path.clear();
            path.push_str(k);
            self.walk(&cx, v, &mut path, &mut scratch, &mut field);
            scratch.path = path;
            let l = field.acc.unwrap_or(self.args.fallback);
            join_into(&self.args_lattice, &mut joined, l);
            if let (Some(w), Some(fired)) = (why.as_deref_mut(), field.fired) {
                w.fields.push(FieldWhy {
                    field: k.clone(),
                    label: name(&self.args_lattice, l),
                    fired,
                    suppressed: field.suppressed,
                    fallback: field.fallback || field.acc.is_none(),
                });
            }
            fields.push((k.clone(), l));
        }
        scratch.rules = rules;
        (fields, Some(joined.unwrap_or(self.args_lattice.bottom)))
    }

    /// The argument rules that apply to `field` of `tool`: in index order
    /// when explaining (every rule is reported), else highest label first
    /// (see [`Labeler::leaf`]). Computed into `out` only when a rule naming
    /// tools or fields applies; otherwise the precomputed unrestricted list.
    fn applicable<'a>(
        &'a self,
        tool: &str,
        field: &str,
        explaining: bool,
        out: &'a mut Vec<usize>,
    ) -> &'a [usize] {
        let rules = &self.args.rules;
        let applies = |i: &usize| rules.get(*i).is_some_and(|r| r.applies(tool, Some(field)));
        if !explaining && !self.args.restricted.iter().any(applies) {
            return &self.args.unrestricted;
        }
        out.clear();
        if explaining {
            out.extend((0..rules.len()).filter(applies));
        } else {
            out.extend(self.args.by_label.iter().copied().filter(applies));
        }
        out
    }

    /// Label one argument value (a field of an undeclared tool). A value past
    /// [`MAX_DEPTH`] or [`MAX_BYTES`] is not read and gets the lattice's top
    /// label: what cannot be read is treated as the most sensitive.
    #[must_use]
    pub fn label_value(&self, field: &str, v: &Value) -> u32 {
        if check_limits(v).is_err() {
            let lat = &self.args_lattice;
            return (0..u32::try_from(lat.labels.len()).unwrap_or(0))
                .fold(lat.bottom, |top, l| lat.join(top, l).unwrap_or(top));
        }
        let mut scratch = Pooled::take();
        let mut acc = FieldAcc {
            acc: None,
            fired: None,
            suppressed: Vec::new(),
            fallback: false,
        };
        let mut rules = std::mem::take(&mut scratch.rules);
        let cx = LeafCx {
            rules: self.applicable("", field, false, &mut rules),
        };
        self.walk(&cx, v, &mut String::from(field), &mut scratch, &mut acc);
        scratch.rules = rules;
        acc.acc.unwrap_or(self.args.fallback)
    }

    fn walk(
        &self,
        cx: &LeafCx<'_>,
        v: &Value,
        path: &mut String,
        scratch: &mut Scratch,
        acc: &mut FieldAcc,
    ) {
        match v {
            Value::Null => {}
            Value::Bool(b) => self.leaf(cx, if *b { "true" } else { "false" }, path, scratch, acc),
            Value::Number(n) => self.leaf(cx, &n.to_string(), path, scratch, acc),
            Value::String(s) => self.leaf(cx, s, path, scratch, acc),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    self.walk(cx, item, path, scratch, acc);
                    path.truncate(len);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    let len = path.len();
                    path.push('.');
                    path.push_str(k);
                    self.leaf(cx, k, path, scratch, acc);
                    self.walk(cx, item, path, scratch, acc);
                    path.truncate(len);
                }
            }
        }
    }

    fn leaf(
        &self,
        cx: &LeafCx<'_>,
        text: &str,
        path: &str,
        scratch: &mut Scratch,
        acc: &mut FieldAcc,
    ) {
        let mut facts = Facts::new(text, scratch);
        let mut any = false;
        let explaining = acc.fired.is_some();
        // The leaf's words are scanned first (every rule set that has
        // triggers reads them): which lexicons they are from decides which
        // rules can fire at all.
        self.ensure_words(&self.args, &mut facts);
        let words = {
            let any = &facts.s.word_lex.any;
            u128::from(any.first().copied().unwrap_or(0))
                | u128::from(any.get(1).copied().unwrap_or(0)) << 64
        };
        // Without an explanation, rules run from the highest label down and
        // a rule that cannot change the field's label is skipped (its label
        // and the fallback are already below the label reached).
        for &i in cx.rules {
            let Some(rule) = self.args.rules.get(i) else {
                continue;
            };
            if !explaining
                && acc.acc.is_some_and(|a| {
                    covers(&self.args_lattice, a, rule.label)
                        && covers(&self.args_lattice, a, self.args.fallback)
                })
            {
                continue;
            }
            // Its first condition cannot hold: neither can the rule, nor is
            // it suppressed (which needs every condition to hold).
            if self
                .args
                .trigger
                .get(i)
                .copied()
                .flatten()
                .is_some_and(|m| m & words == 0)
            {
                continue;
            }
            if self.holds(&self.args, rule, &mut facts) {
                any = true;
                join_into(&self.args_lattice, &mut acc.acc, rule.label);
                if let Some(fired) = acc.fired.as_mut() {
                    fired.push(Fired {
                        rule: i,
                        label: name(&self.args_lattice, rule.label),
                        leaf: path.to_owned(),
                        evidence: self.evidence(rule, &mut facts),
                    });
                }
            } else if acc.fired.is_some() {
                if let Some(by) = self.suppressed_by(&self.args, rule, &mut facts) {
                    acc.suppressed.push(Suppressed {
                        rule: i,
                        label: name(&self.args_lattice, rule.label),
                        leaf: path.to_owned(),
                        by,
                    });
                }
            }
        }
        if !any {
            acc.fallback = true;
            join_into(&self.args_lattice, &mut acc.acc, self.args.fallback);
        }
    }

    /// Label a destination: the declared label of a known destination id,
    /// else the destination rules over the string, else the fallback.
    #[must_use]
    pub fn label_destination(&self, known: Option<u32>, destination: &str) -> u32 {
        self.label_destination_why(known, destination, None)
    }

    fn label_destination_why(
        &self,
        known: Option<u32>,
        destination: &str,
        why: Option<&mut Explanation>,
    ) -> u32 {
        if let Some(l) = known.and_then(|d| self.dest_labels.get(d as usize)) {
            if let Some(w) = why {
                w.destination = Some(DestinationWhy {
                    label: name(&self.dest_lattice, *l),
                    by: "declared",
                    fired: Vec::new(),
                });
            }
            return *l;
        }
        let mut scratch = Pooled::take();
        let mut facts = Facts::new(destination, &mut scratch);
        let mut acc = None;
        let mut fired = Vec::new();
        let explaining = why.is_some();
        let order: &mut dyn Iterator<Item = usize> = if explaining {
            &mut (0..self.destination.rules.len())
        } else {
            &mut self.destination.by_label.iter().copied()
        };
        for i in order {
            let Some(rule) = self.destination.rules.get(i) else {
                continue;
            };
            // Once a rule fired, the fallback no longer counts: a rule at or
            // below the label reached cannot change it.
            if !explaining && acc.is_some_and(|a| covers(&self.dest_lattice, a, rule.label)) {
                continue;
            }
            if self.holds(&self.destination, rule, &mut facts) {
                join_into(&self.dest_lattice, &mut acc, rule.label);
                if why.is_some() {
                    fired.push(Fired {
                        rule: i,
                        label: name(&self.dest_lattice, rule.label),
                        leaf: "(destination)".to_owned(),
                        evidence: self.evidence(rule, &mut facts),
                    });
                }
            }
        }
        let label = acc.unwrap_or(self.destination.fallback);
        if let Some(w) = why {
            w.destination = Some(DestinationWhy {
                label: name(&self.dest_lattice, label),
                by: if acc.is_some() { "rules" } else { "fallback" },
                fired,
            });
        }
        label
    }

    /// For an explanation: the hard negative that dropped a rule whose
    /// conditions all held, if that is why it did not fire.
    fn suppressed_by(
        &self,
        rules: &Rules,
        rule: &Rule,
        facts: &mut Facts<'_, '_>,
    ) -> Option<Evidence> {
        if rule.when.is_empty() || !rule.when.iter().all(|c| self.test(rules, c, facts, true)) {
            return None;
        }
        let by = rule
            .unless
            .iter()
            .find(|c| self.test(rules, c, facts, false))?;
        Some(self.evidence_of(by, facts))
    }

    fn holds(&self, rules: &Rules, rule: &Rule, facts: &mut Facts<'_, '_>) -> bool {
        // Cheapest first (see `Cond::cost`); all must hold, so the order
        // changes nothing but the work.
        !rule.when.is_empty()
            && rule.eval.iter().all(|&i| {
                rule.when
                    .get(usize::from(i))
                    .is_none_or(|c| self.test(rules, c, facts, true))
            })
            && !rule
                .unless
                .iter()
                .any(|c| self.test(rules, c, facts, false))
    }

    /// Whether a condition holds on the leaf. Hard negatives (`unless`)
    /// pass `fuzzy = false`: a typo of tolerance may make a rule fire, never
    /// cancel one (`historial` is not `historical`).
    fn test(&self, rules: &Rules, c: &Cond, facts: &mut Facts<'_, '_>, fuzzy: bool) -> bool {
        match c {
            Cond::Exact(ls) => {
                self.ensure_exact(rules, facts);
                ls.iter().any(|l| facts.exact_has(*l))
            }
            Cond::Terms(ls) => {
                self.ensure_words(rules, facts);
                facts.term_has(ls, false, fuzzy)
            }
            Cond::Parts(ls) => {
                self.ensure_parts(rules, facts);
                facts.term_has(ls, true, fuzzy)
            }
            Cond::Pattern(i) => {
                self.ensure_patterns(rules, facts);
                facts.s.patterns.get(*i).copied().unwrap_or(false)
            }
            Cond::Entity(kind) => {
                let text = facts.text;
                let present = facts
                    .s
                    .entities
                    .get_or_insert_with(|| self.entities.present(text));
                // Fails closed: a kind the set does not know is present.
                present.get(*kind as usize).copied().unwrap_or(true)
            }
            Cond::Address(kind, glob) => {
                let target = match kind {
                    AddressKind::Host => {
                        let text = facts.text;
                        facts
                            .s
                            .host
                            .get_or_insert_with(|| address::host_of(text))
                            .as_deref()
                            .unwrap_or(text)
                    }
                    AddressKind::Url | AddressKind::Collection => facts.text,
                };
                address::glob_match(glob, target)
            }
        }
    }

    fn ensure_exact(&self, rules: &Rules, facts: &mut Facts<'_, '_>) {
        if facts.s.have_exact || !rules.exact {
            return;
        }
        facts.s.have_exact = true;
        facts.s.exact.clear();
        facts.s.exact.resize(self.n_lexicons, false);
        facts.s.exact_hits.clear();
        if let Some(ac) = &self.exact {
            for m in ac.find_overlapping_iter(facts.text) {
                if at_word_boundaries(facts.text, m.start(), m.end()) {
                    if let Some((l, e)) = self.exact_entry_of.get(m.pattern().as_usize()) {
                        if let Some(slot) = facts.s.exact.get_mut(*l as usize) {
                            *slot = true;
                        }
                        facts.s.exact_hits.push((*l, *e, m.range()));
                    }
                }
            }
        }
    }

    fn ensure_folded(facts: &mut Facts<'_, '_>) {
        if !facts.s.have_folded {
            facts.s.have_folded = true;
            facts.s.folded.fold(facts.text);
        }
    }

    fn ensure_words(&self, rules: &Rules, facts: &mut Facts<'_, '_>) {
        if facts.s.have_words || !rules.terms {
            return;
        }
        facts.s.have_words = true;
        Self::ensure_folded(facts);
        facts.s.hits.clear();
        self.terms
            .scan(&facts.s.folded, &mut facts.s.hits, &mut facts.s.typo);
        lexicon_flags(&facts.s.hits, self.n_lexicons, &mut facts.s.word_lex);
    }

    fn ensure_parts(&self, rules: &Rules, facts: &mut Facts<'_, '_>) {
        if facts.s.have_parts || !rules.parts {
            return;
        }
        facts.s.have_parts = true;
        Self::ensure_folded(facts);
        facts.s.part_hits.clear();
        self.parts
            .scan(&facts.s.folded, &mut facts.s.part_hits, &mut facts.s.typo);
        lexicon_flags(&facts.s.part_hits, self.n_lexicons, &mut facts.s.part_lex);
    }

    fn ensure_patterns(&self, rules: &Rules, facts: &mut Facts<'_, '_>) {
        if facts.s.have_patterns || !rules.patterns {
            return;
        }
        facts.s.have_patterns = true;
        facts.s.patterns.clear();
        facts.s.patterns.resize(self.pattern_text.len(), false);
        if let Some(set) = &self.patterns {
            let found = &mut facts.s.patterns;
            set.matches(facts.text, |i| {
                if let Some(slot) = found.get_mut(i) {
                    *slot = true;
                }
            });
        }
    }

    /// What made each condition of a rule that fired hold.
    fn evidence(&self, rule: &Rule, facts: &mut Facts<'_, '_>) -> Vec<Evidence> {
        rule.when
            .iter()
            .map(|c| self.evidence_of(c, facts))
            .collect()
    }

    fn evidence_of(&self, c: &Cond, facts: &mut Facts<'_, '_>) -> Evidence {
        let lex_names = |ls: &[u32]| {
            ls.iter()
                .map(|l| {
                    self.lexicon_names
                        .get(*l as usize)
                        .map_or("?", String::as_str)
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let entry = |l: u32, e: u32| {
            let (text, ranges) = &self.entries;
            let &(start, end) = ranges.get(l as usize)?.get(e as usize)?;
            text.get(start as usize..end as usize).map(str::to_owned)
        };
        match c {
            Cond::Exact(ls) => {
                let hit = facts.s.exact_hits.iter().find(|(hl, _, _)| ls.contains(hl));
                Evidence {
                    // The lexicon that matched, or every lexicon named.
                    condition: format!(
                        "lexicon {}",
                        hit.map_or_else(|| lex_names(ls), |(l, _, _)| lex_names(&[*l]))
                    ),
                    matched: hit.and_then(|(l, e, _)| entry(*l, *e)),
                    span: hit.map(|(_, _, r)| (r.start, r.end)),
                    fuzzy: false,
                }
            }
            Cond::Terms(ls) | Cond::Parts(ls) => {
                let parts = matches!(c, Cond::Parts(_));
                let hits = if parts {
                    &facts.s.part_hits
                } else {
                    &facts.s.hits
                };
                let hit = hits.iter().find(|h| ls.contains(&h.lexicon));
                Evidence {
                    condition: format!(
                        "{} {}",
                        if parts { "parts" } else { "terms" },
                        hit.map_or_else(|| lex_names(ls), |h| lex_names(&[h.lexicon]))
                    ),
                    matched: hit.and_then(|h| entry(h.lexicon, h.entry)),
                    span: hit
                        .and_then(|h| facts.s.folded.original(h.range.clone()))
                        .map(|r| (r.start, r.end)),
                    fuzzy: hit.is_some_and(|h| h.fuzzy),
                }
            }
            Cond::Pattern(i) => {
                let text = self.pattern_text.get(*i).cloned();
                // Explanations only: the set says whether, one expression where.
                let span = text
                    .as_deref()
                    .and_then(|p| Regex::new(p).ok())
                    .and_then(|re| re.find(facts.text))
                    .map(|m| (m.start(), m.end()));
                Evidence {
                    condition: "pattern".to_owned(),
                    matched: text,
                    span,
                    fuzzy: false,
                }
            }
            Cond::Entity(kind) => Evidence {
                condition: format!("entity {}", kind.as_str()),
                matched: None,
                span: self
                    .entities
                    .find(*kind, facts.text)
                    .first()
                    .map(|r| (r.start, r.end)),
                fuzzy: false,
            },
            Cond::Address(kind, glob) => Evidence {
                condition: format!(
                    "{} glob",
                    match kind {
                        AddressKind::Host => "host",
                        AddressKind::Url => "url",
                        AddressKind::Collection => "collection",
                    }
                ),
                matched: Some(glob.to_string()),
                span: None,
                fuzzy: false,
            },
        }
    }
}

/// What every leaf of one field is labeled with.
struct LeafCx<'a> {
    /// The argument rules that apply to the field (its tool and name), in
    /// the order [`Labeler::leaf`] tries them: chosen once per field, not
    /// per leaf.
    rules: &'a [usize],
}

/// A field's label as its leaves are labeled.
struct FieldAcc {
    acc: Option<u32>,
    fired: Option<Vec<Fired>>,
    suppressed: Vec<Suppressed>,
    fallback: bool,
}

/// Buffers reused from leaf to leaf.
#[derive(Default)]
struct Scratch {
    folded: Folded,
    /// The rules of the field being labeled ([`LeafCx::rules`]).
    rules: Vec<usize>,
    hits: Vec<Hit>,
    typo: terms::TypoScratch,
    path: String,
    part_hits: Vec<Hit>,
    /// The lexicons `hits` has an exact hit of, and any hit of: a rule's
    /// `terms` condition is then an AND of bit sets, not a scan of every
    /// hit.
    word_lex: LexBits,
    /// The same for `part_hits`.
    part_lex: LexBits,
    exact: Vec<bool>,
    exact_hits: Vec<(u32, u32, std::ops::Range<usize>)>,
    patterns: Vec<bool>,
    entities: Option<[bool; EntityKind::ALL.len()]>,
    /// The host of a destination, parsed once for every `host` glob.
    host: Option<Option<String>>,
    have_folded: bool,
    have_words: bool,
    have_parts: bool,
    have_exact: bool,
    have_patterns: bool,
}

thread_local! {
    /// One [`Scratch`] per thread, reused from event to event: labeling
    /// allocates nothing once its buffers have grown to the values seen.
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

/// The thread's [`Scratch`] for the duration of one call (a fresh one when
/// a call on the same thread already holds it), returned on drop. An empty
/// `Scratch` owns no heap memory, so taking and returning it moves buffers,
/// never allocates.
struct Pooled(Scratch);

impl Pooled {
    fn take() -> Pooled {
        Pooled(SCRATCH.with(std::cell::Cell::take).unwrap_or_default())
    }
}

impl std::ops::Deref for Pooled {
    type Target = Scratch;
    fn deref(&self) -> &Scratch {
        &self.0
    }
}

impl std::ops::DerefMut for Pooled {
    fn deref_mut(&mut self) -> &mut Scratch {
        &mut self.0
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        let s = std::mem::take(&mut self.0);
        SCRATCH.with(|c| c.set(Some(s)));
    }
}

/// The facts of one leaf, computed when a rule first asks.
struct Facts<'t, 's> {
    text: &'t str,
    s: &'s mut Scratch,
}

impl<'t, 's> Facts<'t, 's> {
    fn new(text: &'t str, s: &'s mut Scratch) -> Facts<'t, 's> {
        s.have_folded = false;
        s.have_words = false;
        s.have_parts = false;
        s.have_exact = false;
        s.have_patterns = false;
        s.entities = None;
        s.host = None;
        Facts { text, s }
    }

    fn exact_has(&self, l: u32) -> bool {
        self.s.exact.get(l as usize).copied().unwrap_or(false)
    }

    fn term_has(&self, ls: &Lexicons, parts: bool, fuzzy: bool) -> bool {
        let flags = if parts {
            &self.s.part_lex
        } else {
            &self.s.word_lex
        };
        ls.any_in(if fuzzy { &flags.any } else { &flags.exact })
    }
}

/// The set of a table's `pattern` conditions, `None` when it has none.
/// Each pattern is compiled once, in the set; only when the set fails is
/// each compiled alone, so the error names the rule.
fn compile_patterns(
    patterns: &[(String, (&'static str, usize))],
) -> Result<Option<PatternSet>, LoadError> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let texts: Vec<&str> = patterns.iter().map(|(p, _)| p.as_str()).collect();
    let sizes = patterns::Limits {
        nfa: limits::PATTERN_SET_SIZE,
        cache: limits::PATTERN_DFA_CACHE,
    };
    PatternSet::new(&texts, sizes).map(Some).map_err(|_| {
        let (labeler, rule) = patterns
            .iter()
            .find(|(p, _)| {
                regex::RegexBuilder::new(p)
                    .size_limit(limits::PATTERN_SIZE)
                    .build()
                    .is_err()
            })
            .map_or(("args", 0), |(_, at)| *at);
        LoadError::BadPattern { labeler, rule }
    })
}

/// Every lexicon's phrases in one string, with each lexicon's entry ranges.
fn phrase_store(lexicons: &[crate::table::Lexicon]) -> (String, Vec<Vec<(u32, u32)>>) {
    let mut text = String::with_capacity(
        lexicons
            .iter()
            .flat_map(|l| &l.entries)
            .map(|e| e.phrase.len())
            .sum(),
    );
    let ranges = lexicons
        .iter()
        .map(|l| {
            l.entries
                .iter()
                .map(|e| {
                    let start = u32::try_from(text.len()).unwrap_or(u32::MAX);
                    text.push_str(&e.phrase);
                    (start, u32::try_from(text.len()).unwrap_or(u32::MAX))
                })
                .collect()
        })
        .collect();
    (text, ranges)
}

/// The lexicons a leaf's hits are from, as bit sets ([`Lexicons::any_in`]).
#[derive(Debug, Default)]
struct LexBits {
    /// A hit that is not a typo.
    exact: Vec<u64>,
    /// A hit, typo or not.
    any: Vec<u64>,
}

/// The [`LexBits`] of `hits` over `n` lexicons.
fn lexicon_flags(hits: &[Hit], n: usize, flags: &mut LexBits) {
    let words = n.div_ceil(64);
    for set in [&mut flags.exact, &mut flags.any] {
        set.clear();
        set.resize(words, 0);
    }
    for h in hits {
        let (w, bit) = (h.lexicon as usize / 64, 1u64 << (h.lexicon % 64));
        if let Some(a) = flags.any.get_mut(w) {
            *a |= bit;
        }
        if !h.fuzzy {
            if let Some(e) = flags.exact.get_mut(w) {
                *e |= bit;
            }
        }
    }
}

/// Whether `a` is at or above `l` (their join is `a`).
fn covers(lattice: &Lattice, a: u32, l: u32) -> bool {
    lattice.join(a, l) == Some(a)
}

fn join_into(lattice: &Lattice, acc: &mut Option<u32>, l: u32) {
    *acc = Some(match *acc {
        None => l,
        // Ids are validated, so the join exists; the larger id is a last
        // resort that keeps the result deterministic.
        Some(a) => lattice.join(a, l).unwrap_or(a.max(l)),
    });
}

fn name(lattice: &Lattice, l: u32) -> String {
    lattice
        .label_name(l)
        .unwrap_or(crate::table::MISSING)
        .to_owned()
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `text[start..end]` is delimited by non-word characters (or the
/// ends of the text) on each side where the match itself starts or ends with
/// a word character.
#[must_use]
pub fn at_word_boundaries(text: &str, start: usize, end: usize) -> bool {
    let (Some(before), Some(inner), Some(after)) =
        (text.get(..start), text.get(start..end), text.get(end..))
    else {
        return false;
    };
    let starts_word = inner.chars().next().is_some_and(is_word);
    let ends_word = inner.chars().next_back().is_some_and(is_word);
    let left_ok = !starts_word || !before.chars().next_back().is_some_and(is_word);
    let right_ok = !ends_word || !after.chars().next().is_some_and(is_word);
    left_ok && right_ok
}

/// Deepest nesting of argument values the labeler reads (objects and
/// arrays). Labeling walks values recursively; past this, an event fails
/// closed instead of exhausting the stack.
pub const MAX_DEPTH: usize = 64;

/// Most text, in bytes (strings and keys), the labeler reads in one event's
/// arguments. Labeling is linear, but an event is decided before dispatch:
/// past this, it fails closed instead of holding the agent.
pub const MAX_BYTES: usize = 1 << 20;

/// Whether arguments are within [`MAX_DEPTH`] and [`MAX_BYTES`], checked
/// depth first and never more than `MAX_DEPTH + 1` calls deep.
///
/// # Errors
///
/// The first limit exceeded.
pub fn check_limits(args: &Value) -> Result<(), crate::error::DecideError> {
    // Recursive rather than with a heap stack (no allocation per event):
    // the depth check comes first, so the recursion is at most
    // `MAX_DEPTH + 1` deep whatever the input.
    fn walk(v: &Value, depth: usize, bytes: &mut usize) -> Result<(), crate::error::DecideError> {
        use crate::error::DecideError;
        if depth > MAX_DEPTH {
            return Err(DecideError::ArgumentsTooDeep { limit: MAX_DEPTH });
        }
        match v {
            Value::String(s) => *bytes = bytes.saturating_add(s.len()),
            Value::Number(_) | Value::Bool(_) => *bytes = bytes.saturating_add(8),
            Value::Null => {}
            Value::Array(items) => {
                for i in items {
                    walk(i, depth + 1, bytes)?;
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    *bytes = bytes.saturating_add(k.len());
                    walk(item, depth + 1, bytes)?;
                }
            }
        }
        if *bytes > MAX_BYTES {
            return Err(DecideError::ArgumentsTooLarge { limit: MAX_BYTES });
        }
        Ok(())
    }
    walk(args, 0, &mut 0)
}
