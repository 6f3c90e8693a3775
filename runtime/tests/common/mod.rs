//! A test-only table builder: the paper's worked web-search contract, lowered
//! by brute force (every point of the domain through a Rust closure, then
//! hash-consed into a reduced ordered diagram). It stands in for the
//! compiler so the runtime's tests do not depend on it.

#![allow(
    dead_code,
    reason = "each test target uses a different part of the builder"
)]

use std::collections::{BTreeMap, HashMap};

use stpc_runtime::table::*;

/// Knobs for the web-search contract.
#[derive(Clone, Debug)]
pub struct Options {
    /// `audit to runtime_log with raw args`.
    pub raw_args: bool,
    /// `scrub after commit`.
    pub scrub: bool,
    /// Add `shadow when speculative and args >= intent_revealing using local_search`
    /// before the rewrite rule.
    pub shadow: bool,
    /// What promoting a shadowed event does.
    pub on_promote: OnPromote,
    /// Budget limit.
    pub budget_limit: u32,
    /// `audit none`.
    pub audit_none: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            raw_args: false,
            scrub: false,
            shadow: false,
            on_promote: OnPromote::Reuse,
            budget_limit: 5,
            audit_none: false,
        }
    }
}

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

/// Coordinates of a point, by name, for the decision closure.
#[derive(Clone, Copy, Debug)]
pub struct Env {
    pub tool: u32,
    pub dest: u32,
    pub mode: u32,
    pub arg: u32,
    pub dest_label: u32,
    pub conf: u32,
    pub budget_exhausted: bool,
}

/// The decision pipeline of the worked contract, as (action, rule id, rule name).
pub fn pipeline(opts: &Options, e: &Env) -> (Action, u32, &'static str) {
    let speculative = e.mode == 1;
    let missing = e.arg == 4 || e.dest_label == 5;
    if e.tool != 0 {
        return (Action::Block, 0, "tool_allowed");
    }
    if e.dest > 1 {
        return (Action::Block, 1, "destination_allowed");
    }
    if missing {
        return (
            if e.mode == 0 {
                Action::Block
            } else {
                Action::Defer
            },
            2,
            "labels_missing",
        );
    }
    if speculative && e.conf == 0 {
        return (Action::Defer, 3, "confidence_gate");
    }
    if opts.shadow && speculative && e.arg >= INTENT {
        return (Action::Shadow, 4, "shadow_intent");
    }
    if e.arg >= SENSITIVE {
        return (Action::Rewrite, 5, "rewrite_sensitive");
    }
    if e.budget_exhausted {
        return (Action::Defer, 6, "budget");
    }
    (Action::Allow, 7, "default")
}

pub fn web_search_table(opts: &Options) -> Table {
    let dims_sizes = [3usize, 4, 6, 5, 6, 2, 2];
    let mut cells: Vec<Cell> = Vec::new();
    let mut cell_ix: HashMap<(Action, u32), u32> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: HashMap<Node, u32> = HashMap::new();
    let mut intern = |n: Node, nodes: &mut Vec<Node>| -> u32 {
        if let Some(i) = index.get(&n) {
            return *i;
        }
        let i = nodes.len() as u32;
        nodes.push(n.clone());
        index.insert(n, i);
        i
    };
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
        let (action, rule_id, rule_name) = pipeline(opts, &e);
        let next = cells.len() as u32;
        let ix = *cell_ix.entry((action, rule_id)).or_insert(next);
        if ix == next {
            cells.push(Cell {
                action,
                transforms: if action == Action::Rewrite {
                    vec![0]
                } else {
                    vec![]
                },
                substitute: None,
                rule_id,
                rule_name: rule_name.to_owned(),
            });
        }
        Node::Leaf { cell: ix }
    };
    let root = {
        let mut coords = Vec::new();
        let mut intern_nodes = |n: Node| intern(n, &mut nodes);
        rec(0, &mut coords, &dims_sizes, &mut leaf, &mut intern_nodes)
    };
    let label_values = |l: &[&str]| {
        l.iter()
            .map(|s| (*s).to_owned())
            .chain([MISSING.to_owned()])
            .collect::<Vec<_>>()
    };
    let table = Table {
        format_version: FORMAT_VERSION,
        digest: String::new(),
        contract: "web_default".to_owned(),
        params: BTreeMap::from([("tau".to_owned(), 0.7)]),
        lattices: Lattices {
            args: chain("ArgLabel", &ARG_LABELS),
            destination: chain("DestLabel", &DEST_LABELS),
        },
        dimensions: vec![
            Dimension {
                kind: DimensionKind::Tool,
                values: vec!["web_search".into(), "send_email".into(), UNKNOWN.into()],
            },
            Dimension {
                kind: DimensionKind::Destination,
                values: vec![
                    "brave".into(),
                    "duckduckgo".into(),
                    "bing".into(),
                    UNKNOWN.into(),
                ],
            },
            Dimension {
                kind: DimensionKind::Mode,
                values: MODES.iter().map(|s| (*s).to_owned()).collect(),
            },
            Dimension {
                kind: DimensionKind::ArgLabel,
                values: label_values(&ARG_LABELS),
            },
            Dimension {
                kind: DimensionKind::DestLabel,
                values: label_values(&DEST_LABELS),
            },
            Dimension {
                kind: DimensionKind::Confidence { cuts: vec![0.7] },
                values: vec!["[-inf, 0.7)".into(), "[0.7, +inf)".into()],
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
                destinations: vec![0, 1, 2],
                substitute: Some(0),
            },
            Tool {
                name: "send_email".into(),
                effect: "external_write".into(),
                args: vec![
                    ArgField {
                        name: "to".into(),
                        ty: FieldType::Entity,
                    },
                    ArgField {
                        name: "body".into(),
                        ty: FieldType::Text,
                    },
                ],
                destinations: vec![],
                substitute: None,
            },
        ],
        destinations: vec![
            Destination {
                name: "brave".into(),
                address: Address {
                    kind: AddressKind::Host,
                    value: "api.brave.com".into(),
                },
                label: 0,
                observers: vec![0, 1],
            },
            Destination {
                name: "duckduckgo".into(),
                address: Address {
                    kind: AddressKind::Host,
                    value: "api.duckduckgo.com".into(),
                },
                label: 0,
                observers: vec![0, 1],
            },
            Destination {
                name: "bing".into(),
                address: Address {
                    kind: AddressKind::Host,
                    value: "api.bing.microsoft.com".into(),
                },
                label: 0,
                observers: vec![0, 1],
            },
        ],
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
            value: 0.7,
        }],
        budgets: vec![Budget {
            name: "sensitive".into(),
            limit: opts.budget_limit,
            subject: Subject::Args,
            at_least: SENSITIVE,
        }],
        audit: AuditPolicy {
            sinks: if opts.audit_none { vec![] } else { vec![2] },
            raw_args: opts.raw_args,
            scrub_after_commit: opts.scrub,
        },
        substitutes: vec![Substitute {
            name: "local_search".into(),
            tool: 0,
            observers: vec![2],
            on_promote: opts.on_promote,
        }],
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
                Step::RedactEntity {
                    kind: EntityKind::GovId,
                    with: None,
                },
                Step::RedactEntity {
                    kind: EntityKind::Email,
                    with: None,
                },
                Step::CoarsenTime {
                    to: Granularity::Month,
                },
            ],
        }],
        lexicons: vec![
            lex(
                "intent_phrases",
                &[
                    ("break my lease", Some("rental agreements")),
                    ("lease termination", None),
                    ("eviction", None),
                    ("tenant rights", Some("housing information")),
                    ("penalty", None),
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
            lex("health_public", &[("public health statistics", None)]),
            lex(
                "everyday",
                &[("weather", None), ("recipe", None), ("news", None)],
            ),
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
                        unless_lexicon: Some(2),
                    },
                    LabelRule::Entity {
                        kind: EntityKind::Email,
                        label: 1,
                    },
                    LabelRule::Entity {
                        kind: EntityKind::GovId,
                        label: SENSITIVE,
                    },
                    LabelRule::Entity {
                        kind: EntityKind::Date,
                        label: SENSITIVE,
                    },
                    LabelRule::Pattern {
                        regex: r"(?i)\bloans?\b".into(),
                        label: SENSITIVE,
                        unless_lexicon: None,
                    },
                    LabelRule::Lexicon {
                        lexicon: 3,
                        label: 0,
                        unless_lexicon: None,
                    },
                ],
                fallback: 1,
            },
            destination: Labeler {
                rules: vec![
                    LabelRule::Address {
                        kind: AddressKind::Host,
                        glob: "*.gov".into(),
                        label: 3,
                    },
                    LabelRule::Address {
                        kind: AddressKind::Collection,
                        glob: "oncology*".into(),
                        label: 2,
                    },
                ],
                fallback: 2,
            },
        },
    };
    table.seal().unwrap()
}
