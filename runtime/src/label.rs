//! The labeler: a deterministic, pure function of `(tool, args, destination)`
//! to label ids, independent of the decision pipeline.
//!
//! The table's rules are compiled once ([`Labeler::new`]):
//!
//! - all lexicons into **one** Aho-Corasick automaton (ASCII case-insensitive,
//!   overlapping search), whose hits are kept only at word boundaries, giving
//!   the set of lexicons that occur in a string; overlapping search matters
//!   because a hit rejected for its boundary must not hide a valid one;
//! - every `pattern` rule into one `RegexSet`, so a string is scanned once;
//! - entity kinds into the hand-written recognisers of [`crate::entity`];
//! - address globs into a two-metacharacter matcher ([`glob_match`]).
//!
//! **Granularity.** Every *leaf* inside an argument field is labeled on its
//! own: strings, numbers and booleans (as their JSON text), and the keys of
//! nested objects. A leaf's label is the join of the labels of all rules that
//! match it; a leaf no rule matches gets the labeler's `fallback`, never
//! silently the bottom. A field's label is the join over its leaves (the
//! fallback for a field with no leaves), and the event's argument label the
//! join over fields (the bottom for an event without fields). Labeling leaf by
//! leaf is at least as high as labeling the field as a whole, so an
//! unrecognised list element cannot hide behind a recognised one.
//!
//! **Hard negatives.** `unless lexicon X` suppresses a lexicon or pattern hit
//! when the same leaf also contains a phrase of lexicon X.
//!
//! **Destinations.** A destination the table declares (by name, host or
//! collection) has its declared label. Otherwise the destination labeler's
//! rules run: `host` globs against the host part, `url` and `collection` globs
//! against the whole string, lexicon, pattern and entity rules against the
//! whole string; with no match, the fallback.

use aho_corasick::{AhoCorasick, MatchKind};
use regex::RegexSet;
use serde_json::Value;

use crate::address;
use crate::entity::Recognisers;
use crate::error::LoadError;
use crate::table::{AddressKind, EntityKind, LabelRule, Lattice, Table};

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

#[derive(Debug)]
struct Rules {
    lexicon: Vec<(u32, u32, Option<u32>)>,
    patterns: Option<RegexSet>,
    pattern_rules: Vec<(u32, Option<u32>)>,
    entity: Vec<(EntityKind, u32)>,
    address: Vec<(AddressKind, String, u32)>,
    fallback: u32,
}

/// The compiled labeler of one table.
#[derive(Debug)]
pub struct Labeler {
    lexicons: Option<AhoCorasick>,
    /// Automaton pattern id → (lexicon index, entry index).
    entry_of: Vec<(u32, u32)>,
    n_lexicons: usize,
    args: Rules,
    destination: Rules,
    args_lattice: Lattice,
    dest_lattice: Lattice,
    dest_labels: Vec<u32>,
    /// Entity recognisers, shared with the rewriter.
    pub(crate) entities: Recognisers,
}

fn compile_rules(
    rules: &[LabelRule],
    fallback: u32,
    which: &'static str,
) -> Result<Rules, LoadError> {
    let mut out = Rules {
        lexicon: Vec::new(),
        patterns: None,
        pattern_rules: Vec::new(),
        entity: Vec::new(),
        address: Vec::new(),
        fallback,
    };
    let mut regexes = Vec::new();
    for (i, r) in rules.iter().enumerate() {
        match r {
            LabelRule::Lexicon {
                lexicon,
                label,
                unless_lexicon,
            } => out.lexicon.push((*lexicon, *label, *unless_lexicon)),
            LabelRule::Pattern {
                regex,
                label,
                unless_lexicon,
            } => {
                // Compile alone first so the error names the rule.
                regex::RegexBuilder::new(regex)
                    .size_limit(1 << 20)
                    .build()
                    .map_err(|_| LoadError::BadPattern {
                        labeler: which,
                        rule: i,
                    })?;
                regexes.push(regex.as_str());
                out.pattern_rules.push((*label, *unless_lexicon));
            }
            LabelRule::Entity { kind, label } => out.entity.push((*kind, *label)),
            LabelRule::Address { kind, glob, label } => {
                out.address.push((*kind, glob.clone(), *label))
            }
        }
    }
    if !regexes.is_empty() {
        let set = regex::RegexSetBuilder::new(&regexes)
            .size_limit(1 << 22)
            .build()
            .map_err(|_| LoadError::BadPattern {
                labeler: which,
                rule: 0,
            })?;
        out.patterns = Some(set);
    }
    Ok(out)
}

impl Labeler {
    /// Compile the labeler rules of a table.
    ///
    /// # Errors
    ///
    /// A pattern or lexicon that does not compile.
    pub fn new(table: &Table) -> Result<Labeler, LoadError> {
        let mut phrases = Vec::new();
        let mut entry_of = Vec::new();
        for (li, lex) in (0u32..).zip(&table.lexicons) {
            for (ei, e) in (0u32..).zip(&lex.entries) {
                phrases.push(e.phrase.trim().to_owned());
                entry_of.push((li, ei));
            }
        }
        let lexicons = if phrases.is_empty() {
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
        let entities = Recognisers::new().map_err(|_| {
            LoadError::invalid("entity recognisers", "failed to compile (a runtime bug)")
        })?;
        Ok(Labeler {
            lexicons,
            entry_of,
            n_lexicons: table.lexicons.len(),
            args: compile_rules(
                &table.labelers.args.rules,
                table.labelers.args.fallback,
                "args",
            )?,
            destination: compile_rules(
                &table.labelers.destination.rules,
                table.labelers.destination.fallback,
                "destination",
            )?,
            args_lattice: table.lattices.args.clone(),
            dest_lattice: table.lattices.destination.clone(),
            dest_labels: table.destinations.iter().map(|d| d.label).collect(),
            entities,
        })
    }

    /// Word-boundary-respecting lexicon matches in `text`:
    /// `(lexicon, entry, byte range)`, possibly overlapping.
    pub(crate) fn lexicon_matches(&self, text: &str) -> Vec<(u32, u32, std::ops::Range<usize>)> {
        let Some(ac) = &self.lexicons else {
            return Vec::new();
        };
        ac.find_overlapping_iter(text)
            .filter(|m| at_word_boundaries(text, m.start(), m.end()))
            .filter_map(|m| {
                let (l, e) = *self.entry_of.get(m.pattern().as_usize())?;
                Some((l, e, m.range()))
            })
            .collect()
    }

    fn lexicon_set(&self, text: &str, set: &mut Vec<bool>) {
        set.clear();
        set.resize(self.n_lexicons, false);
        if let Some(ac) = &self.lexicons {
            for m in ac.find_overlapping_iter(text) {
                if at_word_boundaries(text, m.start(), m.end()) {
                    if let Some((l, _)) = self.entry_of.get(m.pattern().as_usize()) {
                        if let Some(slot) = set.get_mut(*l as usize) {
                            *slot = true;
                        }
                    }
                }
            }
        }
    }

    /// Label one leaf string with a rule set; `None` when no rule matches.
    fn label_text(
        &self,
        rules: &Rules,
        lattice: &Lattice,
        text: &str,
        scratch: &mut Vec<bool>,
    ) -> Option<u32> {
        let mut acc: Option<u32> = None;
        let mut add = |l: u32| {
            acc = Some(match acc {
                None => l,
                // Ids are validated, so the join exists; the larger id is a
                // last resort that keeps the result deterministic.
                Some(a) => lattice.join(a, l).unwrap_or(a.max(l)),
            });
        };
        let needs_lex =
            !rules.lexicon.is_empty() || rules.pattern_rules.iter().any(|(_, u)| u.is_some());
        if needs_lex {
            self.lexicon_set(text, scratch);
        }
        let has = |set: &Vec<bool>, l: Option<u32>| {
            l.is_some_and(|l| set.get(l as usize).copied().unwrap_or(false))
        };
        for (lex, label, unless) in &rules.lexicon {
            if has(scratch, Some(*lex)) && !has(scratch, *unless) {
                add(*label);
            }
        }
        if let Some(set) = &rules.patterns {
            for i in set.matches(text).iter() {
                if let Some((label, unless)) = rules.pattern_rules.get(i) {
                    if !has(scratch, *unless) {
                        add(*label);
                    }
                }
            }
        }
        for (kind, label) in &rules.entity {
            if self.entities.is_match(*kind, text) {
                add(*label);
            }
        }
        for (kind, glob, label) in &rules.address {
            let target = match kind {
                AddressKind::Host => address::host_of(text).unwrap_or(text),
                AddressKind::Url | AddressKind::Collection => text,
            };
            if address::glob_match(glob, target) {
                add(*label);
            }
        }
        acc
    }

    /// Label one argument value (a field): join over its leaves, each leaf
    /// labeled or given the fallback; the fallback when it has no leaves.
    #[must_use]
    pub fn label_value(&self, v: &Value) -> u32 {
        let mut scratch = Vec::new();
        let mut acc = None;
        self.walk(v, &mut scratch, &mut acc);
        acc.unwrap_or(self.args.fallback)
    }

    fn join_into(&self, acc: &mut Option<u32>, l: u32) {
        *acc = Some(match *acc {
            None => l,
            Some(a) => self.args_lattice.join(a, l).unwrap_or(a.max(l)),
        });
    }

    fn leaf(&self, text: &str, scratch: &mut Vec<bool>, acc: &mut Option<u32>) {
        let l = self
            .label_text(&self.args, &self.args_lattice, text, scratch)
            .unwrap_or(self.args.fallback);
        self.join_into(acc, l);
    }

    fn walk(&self, v: &Value, scratch: &mut Vec<bool>, acc: &mut Option<u32>) {
        match v {
            Value::Null => {}
            Value::Bool(b) => self.leaf(if *b { "true" } else { "false" }, scratch, acc),
            Value::Number(n) => self.leaf(&n.to_string(), scratch, acc),
            Value::String(s) => self.leaf(s, scratch, acc),
            Value::Array(items) => {
                for i in items {
                    self.walk(i, scratch, acc);
                }
            }
            Value::Object(map) => {
                for (k, i) in map {
                    self.leaf(k, scratch, acc);
                    self.walk(i, scratch, acc);
                }
            }
        }
    }

    /// Label the arguments: per-field labels and their join. Arguments that
    /// are not a JSON object have no labels (`args` is `None`, read as
    /// `<missing>`).
    #[must_use]
    pub fn label_args(&self, args: &Value) -> (Vec<(String, u32)>, Option<u32>) {
        let Value::Object(map) = args else {
            return (Vec::new(), None);
        };
        let mut fields = Vec::with_capacity(map.len());
        let mut joined = None;
        for (k, v) in map {
            let l = self.label_value(v);
            self.join_into(&mut joined, l);
            fields.push((k.clone(), l));
        }
        (fields, Some(joined.unwrap_or(self.args_lattice.bottom)))
    }

    /// Label a destination: the declared label of a known destination id,
    /// else the destination rules over the string, else the fallback.
    #[must_use]
    pub fn label_destination(&self, known: Option<u32>, destination: &str) -> u32 {
        if let Some(l) = known.and_then(|d| self.dest_labels.get(d as usize)) {
            return *l;
        }
        let mut scratch = Vec::new();
        self.label_text(
            &self.destination,
            &self.dest_lattice,
            destination,
            &mut scratch,
        )
        .unwrap_or(self.destination.fallback)
    }

    /// Label a whole event.
    #[must_use]
    pub fn label(&self, args: &Value, known_destination: Option<u32>, destination: &str) -> Labels {
        let (fields, args) = self.label_args(args);
        Labels {
            fields,
            args,
            destination: Some(self.label_destination(known_destination, destination)),
        }
    }

    /// The argument lattice.
    #[must_use]
    pub fn args_lattice(&self) -> &Lattice {
        &self.args_lattice
    }
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
