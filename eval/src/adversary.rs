//! Non-LLM adversaries: each sees one observer's projection of a task as
//! text tokens and picks the hidden label from the label set.
//!
//! - **Keyword**: counts hits of each label's topic lexicon (plus the label
//!   name) among the tokens; the label with strictly most hits wins, and a
//!   tie or no hit is an abstention (scored as a miss).
//! - **TF-IDF nearest label**: one prototype document per label (its name
//!   and topic vocabulary); projections and prototypes are weighted by
//!   `tf * ln((1 + N) / (1 + df))` over the scored projections plus the
//!   prototypes, and the label whose prototype is nearest by cosine wins
//!   (abstain on zero similarity or a tie).
//! - **Naive Bayes, leave one task out**: multinomial, Laplace smoothing
//!   `α = 1`, trained on the *baseline* policy's projections (Naive in the
//!   paper) of every task except those in the test task's group (the same
//!   task under other seeds), then applied to the policy's projection. An
//!   empty projection falls back to the class prior.
//!
//! The topic lexicons below are general vocabulary for the paper's six
//! topics, written for this module; the corpus generator does not use them,
//! and nothing here reads the generator's phrase lists. For labels outside
//! the six, the prototype is the label name alone. Everything is
//! deterministic: ties abstain rather than pick by order.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::docs::Vocab;
use crate::trace::Record;

/// An adversary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Adversary {
    /// Topic-lexicon hits.
    Keyword,
    /// TF-IDF nearest label prototype.
    Tfidf,
    /// Leave-one-task-out naive Bayes trained on the baseline's projections.
    NaiveBayes,
}

impl Adversary {
    /// All adversaries.
    pub const ALL: [Adversary; 3] = [Adversary::Keyword, Adversary::Tfidf, Adversary::NaiveBayes];

    /// snake_case name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Adversary::Keyword => "keyword",
            Adversary::Tfidf => "tfidf",
            Adversary::NaiveBayes => "naive_bayes",
        }
    }
}

/// Which channels of a record the adversary sees (the channel ablation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelMask {
    /// Argument values.
    pub arguments: bool,
    /// Destination.
    pub destination: bool,
    /// Tool name.
    pub tool: bool,
    /// Tags and labels.
    pub other: bool,
}

impl ChannelMask {
    /// Everything the observer records.
    pub const FULL: ChannelMask = ChannelMask {
        arguments: true,
        destination: true,
        tool: true,
        other: true,
    };
    /// Arguments only.
    pub const ARGUMENTS: ChannelMask = ChannelMask {
        arguments: true,
        destination: false,
        tool: false,
        other: false,
    };
    /// Destination only.
    pub const DESTINATION: ChannelMask = ChannelMask {
        arguments: false,
        destination: true,
        tool: false,
        other: false,
    };
    /// Tool names only.
    pub const TOOL: ChannelMask = ChannelMask {
        arguments: false,
        destination: false,
        tool: true,
        other: false,
    };

    /// A short name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ChannelMask::FULL => "full",
            ChannelMask::ARGUMENTS => "arguments",
            ChannelMask::DESTINATION => "destination",
            ChannelMask::TOOL => "tool",
            _ => "custom",
        }
    }
}

const STOP: &[&str] = &[
    "the", "and", "for", "with", "from", "that", "this", "what", "how", "are", "was", "can", "you",
    "your", "our", "about", "into", "any", "all", "not", "but", "have", "has", "who", "when",
    "will", "com", "api", "www", "https", "http",
];

/// Light suffix stripping so `lawyers`, `lawyer`; `filing`, `file` meet.
fn stem(w: &str) -> String {
    for suf in ["ing", "ies", "es", "ed", "s"] {
        if let Some(base) = w.strip_suffix(suf) {
            if base.len() >= 4 {
                return if suf == "ies" {
                    format!("{base}y")
                } else {
                    base.to_owned()
                };
            }
        }
    }
    w.to_owned()
}

/// Tokens of a text: lowercase alphanumeric runs of at least 3 characters,
/// minus stop words, stemmed.
#[must_use]
pub fn tokenize(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 3)
        .map(str::to_lowercase)
        .filter(|w| !STOP.contains(&w.as_str()) && !w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| stem(&w))
        .collect()
}

/// Tokens an adversary sees in some records through a channel mask.
#[must_use]
pub fn view_tokens<'a>(
    records: impl IntoIterator<Item = &'a Record>,
    mask: ChannelMask,
) -> Vec<String> {
    let mut out = Vec::new();
    for r in records {
        if mask.arguments {
            out.extend(tokenize(&r.text.arguments));
        }
        if mask.destination {
            out.extend(tokenize(&r.text.destination));
        }
        if mask.tool {
            // Tool names are one token each (`web_search`), not their parts.
            if !r.text.tool.is_empty() {
                out.push(r.text.tool.to_lowercase());
            }
        }
        if mask.other {
            out.extend(tokenize(&r.text.other));
        }
    }
    out
}

/// General topic vocabulary for the paper's six topics.
const LEXICONS: &[(&str, &[&str])] = &[
    (
        "health",
        &[
            "health",
            "medical",
            "doctor",
            "physician",
            "clinic",
            "hospital",
            "diagnosis",
            "symptom",
            "treatment",
            "therapy",
            "disease",
            "cancer",
            "oncology",
            "tumor",
            "medication",
            "prescription",
            "dose",
            "pain",
            "chronic",
            "surgery",
            "mental",
            "depression",
            "anxiety",
            "pregnancy",
            "fertility",
            "diabetes",
            "insulin",
            "blood",
            "patient",
            "illness",
            "infection",
            "vaccine",
            "nurse",
            "pharmacy",
            "specialist",
            "biopsy",
            "chemotherapy",
            "psychiatrist",
            "counseling",
            "recovery",
        ],
    ),
    (
        "legal",
        &[
            "legal",
            "law",
            "lawyer",
            "attorney",
            "court",
            "lawsuit",
            "sue",
            "judge",
            "contract",
            "lease",
            "tenant",
            "landlord",
            "eviction",
            "custody",
            "divorce",
            "settlement",
            "liability",
            "rights",
            "statute",
            "claim",
            "litigation",
            "subpoena",
            "arrest",
            "criminal",
            "immigration",
            "visa",
            "deportation",
            "will",
            "probate",
            "notary",
            "dispute",
            "penalty",
            "appeal",
            "hearing",
            "clause",
            "breach",
            "plaintiff",
            "defendant",
            "paralegal",
            "mediation",
        ],
    ),
    (
        "employment",
        &[
            "job",
            "employment",
            "employer",
            "employee",
            "work",
            "workplace",
            "hr",
            "salary",
            "wage",
            "promotion",
            "fired",
            "termination",
            "layoff",
            "severance",
            "resign",
            "resignation",
            "interview",
            "hiring",
            "career",
            "manager",
            "boss",
            "leave",
            "maternity",
            "paternity",
            "harassment",
            "discrimination",
            "performance",
            "review",
            "raise",
            "offer",
            "recruiter",
            "resume",
            "overtime",
            "union",
            "pip",
            "colleague",
            "payroll",
            "benefits",
            "contractor",
            "unemployment",
        ],
    ),
    (
        "financial",
        &[
            "money",
            "finance",
            "financial",
            "bank",
            "loan",
            "debt",
            "credit",
            "mortgage",
            "interest",
            "rate",
            "budget",
            "savings",
            "invest",
            "investment",
            "stock",
            "retirement",
            "pension",
            "tax",
            "taxes",
            "bankruptcy",
            "collection",
            "payment",
            "card",
            "score",
            "refinance",
            "lender",
            "borrow",
            "insurance",
            "income",
            "expense",
            "account",
            "overdraft",
            "fund",
            "dividend",
            "loan",
            "apr",
            "installment",
            "repay",
            "foreclosure",
            "irs",
        ],
    ),
    (
        "security",
        &[
            "security",
            "password",
            "hack",
            "hacked",
            "breach",
            "phishing",
            "malware",
            "ransomware",
            "virus",
            "vulnerability",
            "exploit",
            "attack",
            "incident",
            "compromise",
            "compromised",
            "credential",
            "account",
            "authentication",
            "mfa",
            "encryption",
            "firewall",
            "leak",
            "stolen",
            "identity",
            "theft",
            "fraud",
            "scam",
            "suspicious",
            "login",
            "patch",
            "cve",
            "spyware",
            "stalkerware",
            "tracking",
            "surveillance",
            "backdoor",
            "forensic",
            "recovery",
            "lock",
            "alert",
        ],
    ),
    (
        "relationship",
        &[
            "relationship",
            "partner",
            "boyfriend",
            "girlfriend",
            "husband",
            "wife",
            "spouse",
            "marriage",
            "divorce",
            "dating",
            "breakup",
            "cheating",
            "affair",
            "trust",
            "couple",
            "counselor",
            "therapy",
            "family",
            "parent",
            "child",
            "love",
            "argument",
            "separation",
            "wedding",
            "engagement",
            "jealous",
            "abuse",
            "domestic",
            "friend",
            "friendship",
            "loneliness",
            "reconcile",
            "communication",
            "anniversary",
            "romance",
            "intimacy",
            "sibling",
            "inlaw",
            "custody",
            "date",
        ],
    ),
];

/// The topic vocabulary of `label`; empty for a label outside the six.
fn lexicon(label: &str) -> &'static [&'static str] {
    LEXICONS
        .iter()
        .find(|(l, _)| *l == label)
        .map_or(&[], |(_, words)| words)
}

fn prototype(label: &str) -> Vec<String> {
    let mut p = tokenize(label);
    for w in lexicon(label) {
        p.extend(tokenize(w));
    }
    p
}

/// Pick the unique maximum; `None` on a tie or when the maximum is not positive.
fn unique_max(scores: &[f64]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    let mut tie = false;
    for (i, s) in scores.iter().enumerate() {
        match best {
            Some((_, b)) if (*s - b).abs() < 1e-12 => tie = true,
            Some((_, b)) if *s < b => {}
            _ => {
                best = Some((i, *s));
                tie = false;
            }
        }
    }
    match best {
        Some((i, s)) if !tie && s > 0.0 => Some(i),
        _ => None,
    }
}

/// Each label's prototype document (its name and topic vocabulary), as ids
/// of `vocab`: the keyword adversary's lexicons and TF-IDF's prototypes.
#[must_use]
pub fn prototypes(labels: &[String], vocab: &mut Vocab) -> Vec<Vec<u32>> {
    labels
        .iter()
        .map(|l| vocab.intern_all(&prototype(l)))
        .collect()
}

/// The keyword adversary's lexicons, built once per label set.
#[derive(Debug, Clone)]
pub struct Keyword {
    lexicons: Vec<HashSet<u32>>,
}

impl Keyword {
    /// Lexicons of the labels' prototypes ([`prototypes`]).
    #[must_use]
    pub fn new(protos: &[Vec<u32>]) -> Keyword {
        Keyword {
            lexicons: protos.iter().map(|p| p.iter().copied().collect()).collect(),
        }
    }

    /// Pick a label for one document.
    #[must_use]
    pub fn predict(&self, doc: &[u32]) -> Option<usize> {
        let scores: Vec<f64> = self
            .lexicons
            .iter()
            .map(|p| doc.iter().filter(|t| p.contains(*t)).count() as f64)
            .collect();
        unique_max(&scores)
    }
}

/// Document frequencies over a set of documents: in how many each word
/// occurs.
#[derive(Debug, Default)]
pub struct DocFreq {
    df: HashMap<u32, f64>,
    docs: usize,
}

impl DocFreq {
    /// Count one more document.
    pub fn add(&mut self, doc: &[u32]) {
        let mut seen = doc.to_vec();
        seen.sort_unstable();
        seen.dedup();
        for w in seen {
            *self.df.entry(w).or_default() += 1.0;
        }
        self.docs += 1;
    }
}

/// TF-IDF nearest label: the prototypes weighed with the frequencies of
/// the scored documents plus the prototypes.
#[derive(Debug)]
pub struct Tfidf {
    df: HashMap<u32, f64>,
    n: f64,
    protos: Vec<HashMap<u32, f64>>,
}

impl Tfidf {
    /// The model of the labels' prototypes ([`prototypes`]) over the
    /// documents counted in `df`.
    #[must_use]
    pub fn new(protos: &[Vec<u32>], vocab: &Vocab, mut df: DocFreq) -> Tfidf {
        for p in protos {
            df.add(p);
        }
        let mut t = Tfidf {
            n: df.docs as f64,
            df: df.df,
            protos: Vec::new(),
        };
        t.protos = protos
            .iter()
            .map(|p| t.weigh(p, vocab).into_iter().collect())
            .collect();
        t
    }

    /// A document's normalised TF-IDF vector, in the order of its words'
    /// strings (the order every sum below is taken in, so the figures do
    /// not depend on the ids a run happened to give).
    fn weigh(&self, doc: &[u32], vocab: &Vocab) -> Vec<(u32, f64)> {
        let mut words = doc.to_vec();
        words.sort_unstable_by(|a, b| vocab.word(*a).cmp(vocab.word(*b)));
        let mut tf: Vec<(u32, f64)> = Vec::new();
        for w in words {
            match tf.last_mut() {
                Some((last, n)) if *last == w => *n += 1.0,
                _ => tf.push((w, 1.0)),
            }
        }
        for (w, v) in &mut tf {
            let df = self.df.get(w).copied().unwrap_or(0.0);
            *v *= ((1.0 + self.n) / (1.0 + df)).ln() + 1.0;
        }
        let norm = tf.iter().map(|(_, v)| v * v).sum::<f64>().sqrt();
        if norm > 0.0 {
            tf.iter_mut().for_each(|(_, v)| *v /= norm);
        }
        tf
    }

    /// The label whose prototype is nearest to `doc` by cosine.
    #[must_use]
    pub fn predict(&self, doc: &[u32], vocab: &Vocab) -> Option<usize> {
        let dv = self.weigh(doc, vocab);
        let scores: Vec<f64> = self
            .protos
            .iter()
            .map(|p| {
                dv.iter()
                    .map(|(w, x)| x * p.get(w).copied().unwrap_or(0.0))
                    .sum()
            })
            .collect();
        unique_max(&scores)
    }
}

/// Multinomial naive Bayes with leave-one-group-out prediction, trained one
/// document at a time ([`NaiveBayes::add`]). It keeps counts per label and
/// word, not the documents: to leave a group out, the caller hands
/// [`NaiveBayes::predict`] the group's training documents
/// ([`NaiveBayes::members`] says which).
#[derive(Debug)]
pub struct NaiveBayes {
    /// `counts[c][w]`, by word id.
    counts: Vec<Vec<f64>>,
    totals: Vec<f64>,
    docs: Vec<f64>,
    /// Per word id, whether a training document had it.
    known: Vec<bool>,
    /// How many words training documents had.
    vocab: usize,
    /// Per group, its training documents: (label, the caller's index).
    groups: HashMap<u32, Vec<(usize, usize)>>,
}

impl NaiveBayes {
    /// An untrained model over `k` labels.
    #[must_use]
    pub fn new(k: usize) -> NaiveBayes {
        NaiveBayes {
            counts: vec![Vec::new(); k],
            totals: vec![0.0; k],
            docs: vec![0.0; k],
            known: Vec::new(),
            vocab: 0,
            groups: HashMap::new(),
        }
    }

    /// Train on one more document of label `c` in `group`; `index` is how
    /// the caller finds it again (see [`NaiveBayes::members`]).
    pub fn add(&mut self, doc: &[u32], c: usize, group: u32, index: usize) {
        for &w in doc {
            let w = w as usize;
            if w >= self.known.len() {
                self.known.resize(w + 1, false);
            }
            if let Some(k) = self.known.get_mut(w) {
                if !*k {
                    *k = true;
                    self.vocab += 1;
                }
            }
        }
        if let (Some(row), Some(t), Some(d)) = (
            self.counts.get_mut(c),
            self.totals.get_mut(c),
            self.docs.get_mut(c),
        ) {
            for &w in doc {
                let w = w as usize;
                if w >= row.len() {
                    row.resize(w + 1, 0.0);
                }
                if let Some(x) = row.get_mut(w) {
                    *x += 1.0;
                }
            }
            *t += doc.len() as f64;
            *d += 1.0;
        }
        self.groups.entry(group).or_default().push((c, index));
    }

    /// The training documents of `group`: (label, index given to
    /// [`NaiveBayes::add`]).
    #[must_use]
    pub fn members(&self, group: u32) -> &[(usize, usize)] {
        self.groups.get(&group).map_or(&[], Vec::as_slice)
    }

    /// Predict a document, leaving out `held_out`: every training document
    /// of its group, with its label.
    #[must_use]
    pub fn predict(&self, doc: &[u32], held_out: &[(usize, Vec<u32>)]) -> Option<usize> {
        let k = self.counts.len();
        let mut counts_out: Vec<HashMap<u32, f64>> = vec![HashMap::new(); k];
        let mut totals = self.totals.clone();
        let mut docs = self.docs.clone();
        for (c, ids) in held_out {
            if let (Some(m), Some(t), Some(d)) =
                (counts_out.get_mut(*c), totals.get_mut(*c), docs.get_mut(*c))
            {
                for w in ids {
                    *m.entry(*w).or_default() += 1.0;
                }
                *t -= ids.len() as f64;
                *d -= 1.0;
            }
        }
        let ndocs: f64 = docs.iter().sum();
        if ndocs <= 0.0 {
            return None;
        }
        let v = self.vocab.max(1) as f64;
        let ids: Vec<u32> = doc
            .iter()
            .copied()
            .filter(|w| self.known.get(*w as usize).copied().unwrap_or(false))
            .collect();
        let scores: Vec<f64> = (0..k)
            .map(|c| {
                let d = docs.get(c).copied().unwrap_or(0.0);
                if d <= 0.0 {
                    return f64::NEG_INFINITY;
                }
                let mut s = (d / ndocs).ln();
                let total = totals.get(c).copied().unwrap_or(0.0);
                let denom = (total + v).ln();
                let row = self.counts.get(c);
                let out = counts_out.get(c);
                for w in &ids {
                    let n = row.and_then(|r| r.get(*w as usize)).copied().unwrap_or(0.0)
                        - out.and_then(|o| o.get(w)).copied().unwrap_or(0.0);
                    s += (n + 1.0).ln() - denom;
                }
                s
            })
            .collect();
        // Shift to positive for `unique_max`, which abstains on ties.
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !max.is_finite() {
            return None;
        }
        let shifted: Vec<f64> = scores
            .iter()
            .map(|s| if s.is_finite() { s - max + 1.0 } else { 0.0 })
            .collect();
        unique_max(&shifted)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test code")]

    use super::NaiveBayes;
    use proptest::prelude::*;

    proptest! {
        /// Leaving a group out at prediction is training without it.
        #[test]
        fn leaving_a_group_out_is_training_without_it(
            docs in prop::collection::vec(
                (prop::collection::vec(0u32..12, 0..8), 0usize..3, 0u32..4),
                1..24,
            ),
            doc in prop::collection::vec(0u32..14, 0..8),
            group in 0u32..4,
        ) {
            let mut all = NaiveBayes::new(3);
            let mut without = NaiveBayes::new(3);
            for (i, (d, c, g)) in docs.iter().enumerate() {
                all.add(d, *c, *g, i);
                if *g != group {
                    without.add(d, *c, *g, i);
                }
            }
            let held: Vec<(usize, Vec<u32>)> = all
                .members(group)
                .iter()
                .map(|&(c, i)| (c, docs[i].0.clone()))
                .collect();
            // The vocabulary stays the full training set's in both (as
            // the leave-one-group-out model's does): compare against a
            // model that knows every word but counts none of the group.
            for (d, _, _) in &docs {
                for &w in d {
                    if w as usize >= without.known.len() {
                        without.known.resize(w as usize + 1, false);
                    }
                    if !without.known[w as usize] {
                        without.known[w as usize] = true;
                        without.vocab += 1;
                    }
                }
            }
            prop_assert_eq!(all.predict(&doc, &held), without.predict(&doc, &[]));
        }
    }
}
