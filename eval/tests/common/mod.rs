//! A test-only table builder: small contracts over the paper's worked-trace
//! tools (web search, a loan-rates API, document retrieval), lowered by brute
//! force (every point of the domain through a Rust closure, hash-consed into
//! a reduced diagram), so the eval tests do not depend on the compiler.
//! Modelled on the runtime's `tests/common/mod.rs`.

#![allow(
    dead_code,
    reason = "each test target uses a different part of the builder"
)]
#![allow(clippy::cast_possible_truncation, reason = "test tables are tiny")]

use std::collections::{BTreeMap, HashMap};

use stpc_runtime::table::*;

pub const ARG_LABELS: [&str; 4] = ["public", "personal", "sensitive", "intent_revealing"];
pub const DEST_LABELS: [&str; 5] = [
    "public",
    "tenant_internal",
    "sensitive",
    "regulated",
    "forbidden",
];
pub const MODES: [&str; 6] = [
    "committed",
    "speculative",
    "prefetch",
    "retry",
    "validation",
    "shadow",
];
pub const SENSITIVE: u32 = 2;
pub const INTENT: u32 = 3;
pub const TOOLS: [&str; 6] = [
    "web_search",
    "loan_rates",
    "doc_retrieval",
    "calendar_lookup",
    "crm_lookup",
    "email_search",
];
pub const DESTS: [(&str, AddressKind, &str, u32); 24] = [
    ("brave", AddressKind::Host, "api.brave.com", 0),
    ("duckduckgo", AddressKind::Host, "api.duckduckgo.com", 0),
    (
        "loan_rates_api",
        AddressKind::Host,
        "api.loanrates.example",
        2,
    ),
    ("docs_general", AddressKind::Collection, "general", 1),
    ("docs_oncology", AddressKind::Collection, "oncology", 3),
    ("bing", AddressKind::Host, "api.bing.microsoft.com", 0),
    (
        "google_search",
        AddressKind::Host,
        "customsearch.googleapis.com",
        0,
    ),
    ("docs_public_kb", AddressKind::Collection, "public-kb", 0),
    (
        "docs_engineering",
        AddressKind::Collection,
        "engineering",
        1,
    ),
    ("docs_product", AddressKind::Collection, "product-docs", 1),
    (
        "docs_hr_policies",
        AddressKind::Collection,
        "hr-policies",
        2,
    ),
    ("docs_hr_leave", AddressKind::Collection, "hr-leave", 2),
    (
        "docs_employee_relations",
        AddressKind::Collection,
        "employee-relations",
        2,
    ),
    ("docs_legal", AddressKind::Collection, "legal", 2),
    ("docs_finance", AddressKind::Collection, "finance", 2),
    (
        "docs_security",
        AddressKind::Collection,
        "security-incidents",
        2,
    ),
    (
        "docs_mental_health",
        AddressKind::Collection,
        "mental-health",
        3,
    ),
    (
        "docs_immigration",
        AddressKind::Collection,
        "immigration",
        3,
    ),
    (
        "google_calendar",
        AddressKind::Host,
        "calendar.googleapis.com",
        0,
    ),
    ("ms_graph", AddressKind::Host, "graph.microsoft.com", 0),
    ("gmail", AddressKind::Host, "gmail.googleapis.com", 0),
    ("salesforce", AddressKind::Host, "corp.my.salesforce.com", 1),
    ("hubspot", AddressKind::Host, "api.hubapi.com", 1),
    ("local_store", AddressKind::Collection, "local-notes", 1),
];

/// Coordinates of a point, by name.
#[derive(Clone, Copy, Debug)]
pub struct Env {
    pub tool: u32,
    pub dest: u32,
    pub mode: u32,
    pub arg: u32,
    pub dest_label: u32,
    /// 0 below tau, 1 at or above.
    pub conf: u32,
    pub budget_exhausted: bool,
}

impl Env {
    pub fn speculative(&self) -> bool {
        self.mode != 0
    }
    pub fn missing(&self) -> bool {
        self.arg == 4 || self.dest_label == 5
    }
    pub fn unknown(&self) -> bool {
        self.tool as usize >= TOOLS.len() || self.dest as usize >= DESTS.len()
    }
}

pub type Pipeline = fn(&Env) -> (Action, &'static str);

fn guard(e: &Env) -> Option<(Action, &'static str)> {
    if e.unknown() {
        return Some((Action::Block, "known"));
    }
    if e.missing() {
        return Some((
            if e.speculative() {
                Action::Defer
            } else {
                Action::Block
            },
            "labels_missing",
        ));
    }
    None
}

pub fn naive(e: &Env) -> (Action, &'static str) {
    guard(e).unwrap_or((Action::Allow, "allow_all"))
}

pub fn no_spec(e: &Env) -> (Action, &'static str) {
    guard(e).unwrap_or(if e.speculative() {
        (Action::Defer, "defer_speculative")
    } else {
        (Action::Allow, "default")
    })
}

pub fn shadow(e: &Env) -> (Action, &'static str) {
    guard(e).unwrap_or(if e.speculative() {
        (Action::Shadow, "shadow_speculative")
    } else {
        (Action::Allow, "default")
    })
}

pub fn rewrite(e: &Env) -> (Action, &'static str) {
    guard(e).unwrap_or(if e.arg >= SENSITIVE {
        (Action::Rewrite, "rewrite_sensitive")
    } else {
        (Action::Allow, "default")
    })
}

pub fn gate(e: &Env) -> (Action, &'static str) {
    guard(e).unwrap_or(if e.speculative() && e.conf == 0 {
        (Action::Defer, "gate")
    } else {
        (Action::Allow, "default")
    })
}

pub fn chain(name: &str, labels: &[&str]) -> Lattice {
    let n = labels.len() as u32;
    Lattice {
        name: name.to_owned(),
        labels: labels.iter().map(|s| (*s).to_owned()).collect(),
        join: (0..n).map(|a| (0..n).map(|b| a.max(b)).collect()).collect(),
        bottom: 0,
    }
}

fn lex(name: &str, entries: &[(&str, Option<&str>)]) -> Lexicon {
    Lexicon {
        name: name.to_owned(),
        entries: entries
            .iter()
            .map(|(p, r)| LexiconEntry {
                phrase: (*p).to_owned(),
                replacement: r.map(str::to_owned),
            })
            .collect(),
    }
}

/// Build a sealed table for `pipeline` with threshold `tau` and `scrub after commit` when `scrub`.
pub fn table(name: &str, pipeline: Pipeline, tau: f64, scrub: bool) -> Table {
    let sizes = [TOOLS.len() + 1, DESTS.len() + 1, MODES.len(), 5, 6, 2, 2];
    let mut cells: Vec<Cell> = Vec::new();
    let mut cell_ix: HashMap<(Action, &'static str), u32> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: HashMap<Node, u32> = HashMap::new();
    fn rec(
        dim: usize,
        coords: &mut Vec<u32>,
        sizes: &[usize],
        leaf: &mut dyn FnMut(&[u32]) -> Node,
        intern: &mut dyn FnMut(Node) -> u32,
    ) -> u32 {
        if dim == sizes.len() {
            let n = leaf(coords);
            return intern(n);
        }
        let mut children = Vec::new();
        for v in 0..sizes[dim] as u32 {
            coords.push(v);
            children.push(rec(dim + 1, coords, sizes, leaf, intern));
            coords.pop();
        }
        if children.iter().all(|c| *c == children[0]) {
            return children[0];
        }
        intern(Node::Branch {
            dim: dim as u16,
            children,
        })
    }
    let mut leaf = |c: &[u32]| -> Node {
        let e = Env {
            tool: c[0],
            dest: c[1],
            mode: c[2],
            arg: c[3],
            dest_label: c[4],
            conf: c[5],
            budget_exhausted: c[6] == 1,
        };
        let (action, rule) = pipeline(&e);
        let next = cells.len() as u32;
        let ix = *cell_ix.entry((action, rule)).or_insert(next);
        if ix == next {
            cells.push(Cell {
                action,
                transforms: if action == Action::Rewrite {
                    vec![0]
                } else {
                    vec![]
                },
                substitute: None,
                rule_id: next,
                rule_name: rule.to_owned(),
            });
        }
        Node::Leaf { cell: ix }
    };
    let root = {
        let mut coords = Vec::new();
        let mut intern = |n: Node| {
            if let Some(i) = index.get(&n) {
                return *i;
            }
            let i = nodes.len() as u32;
            nodes.push(n.clone());
            index.insert(n, i);
            i
        };
        rec(0, &mut coords, &sizes, &mut leaf, &mut intern)
    };
    let with_missing = |l: &[&str], m: &str| {
        l.iter()
            .map(|s| (*s).to_owned())
            .chain([m.to_owned()])
            .collect::<Vec<_>>()
    };
    let tau_label = format!("{tau}");
    Table {
        format_version: FORMAT_VERSION,
        digest: String::new(),
        contract: name.to_owned(),
        params: BTreeMap::from([("tau".to_owned(), tau)]),
        lattices: Lattices {
            args: chain("ArgLabel", &ARG_LABELS),
            destination: chain("DestLabel", &DEST_LABELS),
        },
        dimensions: vec![
            Dimension {
                kind: DimensionKind::Tool,
                values: with_missing(&TOOLS, UNKNOWN),
            },
            Dimension {
                kind: DimensionKind::Destination,
                values: with_missing(&DESTS.map(|d| d.0), UNKNOWN),
            },
            Dimension {
                kind: DimensionKind::Mode,
                values: MODES.iter().map(|s| (*s).to_owned()).collect(),
            },
            Dimension {
                kind: DimensionKind::ArgLabel,
                values: with_missing(&ARG_LABELS, MISSING),
            },
            Dimension {
                kind: DimensionKind::DestLabel,
                values: with_missing(&DEST_LABELS, MISSING),
            },
            Dimension {
                kind: DimensionKind::Confidence { cuts: vec![tau] },
                values: vec![
                    format!("[-inf, {tau_label})"),
                    format!("[{tau_label}, +inf)"),
                ],
            },
            Dimension {
                kind: DimensionKind::Budget { budget: 0 },
                values: vec!["available".into(), "exhausted".into()],
            },
        ],
        diagram: Diagram { root, nodes },
        cells,
        tools: vec![
            Tool {
                name: "web_search".into(),
                effect: "external_read".into(),
                args: vec![ArgField {
                    name: "q".into(),
                    ty: FieldType::Text,
                }],
                destinations: vec![0, 1],
                substitute: Some(0),
            },
            Tool {
                name: "loan_rates".into(),
                effect: "external_read".into(),
                args: vec![ArgField {
                    name: "q".into(),
                    ty: FieldType::Text,
                }],
                destinations: vec![2],
                substitute: Some(1),
            },
            Tool {
                name: "doc_retrieval".into(),
                effect: "external_read".into(),
                args: vec![ArgField {
                    name: "query".into(),
                    ty: FieldType::Text,
                }],
                destinations: vec![3, 4],
                substitute: Some(2),
            },
            Tool {
                name: "calendar_lookup".into(),
                effect: "external_read".into(),
                args: vec![ArgField {
                    name: "query".into(),
                    ty: FieldType::Text,
                }],
                destinations: vec![18, 19],
                substitute: None,
            },
            Tool {
                name: "crm_lookup".into(),
                effect: "external_read".into(),
                args: vec![ArgField {
                    name: "query".into(),
                    ty: FieldType::Text,
                }],
                destinations: vec![21, 22],
                substitute: None,
            },
            Tool {
                name: "email_search".into(),
                effect: "external_read".into(),
                args: vec![ArgField {
                    name: "query".into(),
                    ty: FieldType::Text,
                }],
                destinations: vec![19, 20],
                substitute: None,
            },
        ],
        destinations: DESTS
            .iter()
            .map(|(n, k, v, l)| Destination {
                name: (*n).into(),
                address: Address {
                    kind: *k,
                    value: (*v).into(),
                },
                label: *l,
                observers: vec![0, 1],
            })
            .collect(),
        observers: vec![
            Observer {
                name: "provider".into(),
                locality: Locality::External,
                sees: vec!["arguments".into(), "destination".into(), "tool_name".into()],
            },
            Observer {
                name: "network".into(),
                locality: Locality::External,
                sees: vec!["destination".into(), "timing".into(), "sizes".into()],
            },
            Observer {
                name: "runtime_log".into(),
                locality: Locality::Internal,
                sees: vec!["audit".into()],
            },
        ],
        forbid: vec![ForbidCut {
            subject: Subject::Args,
            label: SENSITIVE,
            observers: vec![0, 1],
        }],
        thresholds: vec![Threshold {
            mode: 1,
            value: tau,
        }],
        budgets: vec![Budget {
            name: "sensitive".into(),
            limit: 5,
            subject: Subject::Args,
            at_least: SENSITIVE,
        }],
        audit: AuditPolicy {
            sinks: vec![2],
            raw_args: true,
            scrub_after_commit: scrub,
        },
        substitutes: vec![
            Substitute {
                name: "local_web_search".into(),
                tool: 0,
                observers: vec![2],
                on_promote: OnPromote::Reissue,
            },
            Substitute {
                name: "local_rate_table".into(),
                tool: 1,
                observers: vec![2],
                on_promote: OnPromote::Reissue,
            },
            Substitute {
                name: "local_doc_index".into(),
                tool: 2,
                observers: vec![2],
                on_promote: OnPromote::Reuse,
            },
        ],
        transforms: vec![Transform {
            name: "generic_query".into(),
            applies_to: vec![FieldType::Text],
            output_label: 0,
            steps: vec![
                Step::ReplaceLexicon {
                    lexicon: 0,
                    with: Some("general information".into()),
                },
                Step::ReplaceLexicon {
                    lexicon: 1,
                    with: Some("health".into()),
                },
                Step::ReplaceLexicon {
                    lexicon: 2,
                    with: Some("rates".into()),
                },
            ],
        }],
        lexicons: vec![
            lex(
                "intent_phrases",
                &[
                    ("tenant rights", Some("housing information")),
                    ("lease termination", None),
                    ("penalty", None),
                    ("apartments", Some("housing")),
                ],
            ),
            lex(
                "health",
                &[
                    ("oncology", None),
                    ("chemotherapy", None),
                    ("diagnosis", None),
                ],
            ),
            lex("finance", &[("personal loan", None), ("loan", None)]),
        ],
        labelers: Labelers {
            args: Labeler {
                rules: vec![
                    LabelRule::Lexicon {
                        lexicon: 0,
                        label: INTENT,
                        unless_lexicon: None,
                    },
                    LabelRule::Lexicon {
                        lexicon: 1,
                        label: SENSITIVE,
                        unless_lexicon: None,
                    },
                    LabelRule::Lexicon {
                        lexicon: 2,
                        label: SENSITIVE,
                        unless_lexicon: None,
                    },
                ],
                fallback: 0,
            },
            destination: Labeler {
                rules: vec![],
                fallback: 2,
            },
        },
    }
    .seal()
    .unwrap()
}
