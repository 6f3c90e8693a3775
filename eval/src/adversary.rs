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

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

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

/// The keyword adversary's lexicons, built once per label set.
#[derive(Debug, Clone)]
pub struct Keyword {
    lexicons: Vec<std::collections::HashSet<String>>,
}

impl Keyword {
    /// Lexicons for a label set.
    #[must_use]
    pub fn new(labels: &[String]) -> Keyword {
        Keyword {
            lexicons: labels
                .iter()
                .map(|l| prototype(l).into_iter().collect())
                .collect(),
        }
    }

    /// Pick a label for one document.
    #[must_use]
    pub fn predict(&self, doc: &[String]) -> Option<usize> {
        let scores: Vec<f64> = self
            .lexicons
            .iter()
            .map(|p| doc.iter().filter(|t| p.contains(*t)).count() as f64)
            .collect();
        unique_max(&scores)
    }
}

/// Keyword adversary on one document.
#[must_use]
pub fn keyword(doc: &[String], labels: &[String]) -> Option<usize> {
    Keyword::new(labels).predict(doc)
}

/// TF-IDF nearest label over a set of documents (IDF from the documents and prototypes).
#[must_use]
pub fn tfidf(docs: &[Vec<String>], labels: &[String]) -> Vec<Option<usize>> {
    let protos: Vec<Vec<String>> = labels.iter().map(|l| prototype(l)).collect();
    let mut df: HashMap<&str, f64> = HashMap::new();
    for d in docs.iter().chain(&protos) {
        let mut seen: Vec<&str> = d.iter().map(String::as_str).collect();
        seen.sort_unstable();
        seen.dedup();
        for w in seen {
            *df.entry(w).or_default() += 1.0;
        }
    }
    let n = (docs.len() + protos.len()) as f64;
    let vec = |d: &[String]| -> BTreeMap<String, f64> {
        let mut tf: BTreeMap<String, f64> = BTreeMap::new();
        for w in d {
            *tf.entry(w.clone()).or_default() += 1.0;
        }
        for (w, v) in &mut tf {
            *v *= ((1.0 + n) / (1.0 + df.get(w.as_str()).copied().unwrap_or(0.0))).ln() + 1.0;
        }
        let norm = tf.values().map(|v| v * v).sum::<f64>().sqrt();
        if norm > 0.0 {
            tf.values_mut().for_each(|v| *v /= norm);
        }
        tf
    };
    let pv: Vec<BTreeMap<String, f64>> = protos.iter().map(|p| vec(p)).collect();
    docs.iter()
        .map(|d| {
            let dv = vec(d);
            let scores: Vec<f64> = pv
                .iter()
                .map(|p| {
                    dv.iter()
                        .map(|(w, x)| x * p.get(w).copied().unwrap_or(0.0))
                        .sum()
                })
                .collect();
            unique_max(&scores)
        })
        .collect()
}

/// Multinomial naive Bayes with leave-one-group-out training.
#[derive(Debug)]
pub struct NaiveBayes {
    vocab: HashMap<String, usize>,
    /// `counts[c][w]`.
    counts: Vec<Vec<f64>>,
    totals: Vec<f64>,
    docs: Vec<f64>,
    /// Per training document: (label index, group, token ids).
    train: Vec<(usize, String, Vec<usize>)>,
    /// Training documents by group.
    groups: HashMap<String, Vec<usize>>,
}

impl NaiveBayes {
    /// Train on `(tokens, label index, group)` documents over `k` labels.
    #[must_use]
    pub fn train(examples: Vec<(Vec<String>, usize, String)>, k: usize) -> NaiveBayes {
        let mut vocab: HashMap<String, usize> = HashMap::new();
        let mut train: Vec<(usize, String, Vec<usize>)> = Vec::with_capacity(examples.len());
        for (toks, c, g) in examples {
            let ids: Vec<usize> = toks
                .into_iter()
                .map(|t| {
                    let n = vocab.len();
                    *vocab.entry(t).or_insert(n)
                })
                .collect();
            train.push((c, g, ids));
        }
        let v = vocab.len();
        let mut counts = vec![vec![0.0; v]; k];
        let mut totals = vec![0.0; k];
        let mut docs = vec![0.0; k];
        for (c, _, ids) in &train {
            if let (Some(row), Some(t), Some(d)) =
                (counts.get_mut(*c), totals.get_mut(*c), docs.get_mut(*c))
            {
                for w in ids {
                    if let Some(x) = row.get_mut(*w) {
                        *x += 1.0;
                    }
                }
                *t += ids.len() as f64;
                *d += 1.0;
            }
        }
        let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, (_, g, _)) in train.iter().enumerate() {
            groups.entry(g.clone()).or_default().push(i);
        }
        NaiveBayes {
            vocab,
            counts,
            totals,
            docs,
            train,
            groups,
        }
    }

    /// Predict a document, leaving out every training document of `group`.
    #[must_use]
    pub fn predict(&self, doc: &[String], group: &str) -> Option<usize> {
        let k = self.counts.len();
        let mut counts_out: Vec<HashMap<usize, f64>> = vec![HashMap::new(); k];
        let mut totals = self.totals.clone();
        let mut docs = self.docs.clone();
        let members: &[usize] = self.groups.get(group).map_or(&[], Vec::as_slice);
        for (c, _, ids) in members.iter().filter_map(|i| self.train.get(*i)) {
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
        let v = self.vocab.len().max(1) as f64;
        let ids: Vec<usize> = doc
            .iter()
            .filter_map(|t| self.vocab.get(t).copied())
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
                    let n = row.and_then(|r| r.get(*w)).copied().unwrap_or(0.0)
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
