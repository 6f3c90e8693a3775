//! Small contracts over the paper's worked-trace tools (web search, a
//! loan-rates API, document retrieval, calendar, CRM, e-mail) as hand-built
//! tables (see [`crate::table_builder`]), one decision function per policy,
//! so the eval tests do not depend on the compiler.

use std::collections::BTreeMap;

use crate::table_builder::{cell, chain, lexicon, lower, rule, Domain};
pub use crate::table_builder::{Coords, ARG_LABELS, DEST_LABELS, INTENT, MODES, SENSITIVE};
use stpc_runtime::table::*;

/// The tools, in tool-id order.
pub const TOOLS: [&str; 6] = [
    "web_search",
    "loan_rates",
    "doc_retrieval",
    "calendar_lookup",
    "crm_lookup",
    "email_search",
];
/// The destinations: (name, address kind, address, label id), in id order.
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

/// A point of the domain by name (see [`Coords`]), with the predicates the
/// pipelines share.
pub trait Point {
    /// Any mode but `committed`.
    fn speculative(&self) -> bool;
    /// A `<missing>` argument or destination label.
    fn missing(&self) -> bool;
    /// An `<unknown>` tool or destination.
    fn unknown(&self) -> bool;
}

impl Point for Coords<'_> {
    fn speculative(&self) -> bool {
        self.mode != 0
    }
    fn missing(&self) -> bool {
        self.arg == 4 || self.dest_label == 5
    }
    fn unknown(&self) -> bool {
        self.tool as usize >= TOOLS.len() || self.dest as usize >= DESTS.len()
    }
}

/// A policy's decision function: the action and the rule's name.
pub type Pipeline = fn(&Coords) -> (Action, &'static str);

fn guard(e: &Coords) -> Option<(Action, &'static str)> {
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

/// Naive: every known, labeled call dispatches.
pub fn naive(e: &Coords) -> (Action, &'static str) {
    guard(e).unwrap_or((Action::Allow, "allow_all"))
}

/// No-Spec: speculative calls wait for their branch.
pub fn no_spec(e: &Coords) -> (Action, &'static str) {
    guard(e).unwrap_or(if e.speculative() {
        (Action::Defer, "defer_speculative")
    } else {
        (Action::Allow, "default")
    })
}

/// Shadow: speculative calls run against a local substitute.
pub fn shadow(e: &Coords) -> (Action, &'static str) {
    guard(e).unwrap_or(if e.speculative() {
        (Action::Shadow, "shadow_speculative")
    } else {
        (Action::Allow, "default")
    })
}

/// Rewrite: sensitive arguments are rewritten.
pub fn rewrite(e: &Coords) -> (Action, &'static str) {
    guard(e).unwrap_or(if e.arg >= SENSITIVE {
        (Action::Rewrite, "rewrite_sensitive")
    } else {
        (Action::Allow, "default")
    })
}

/// Gate: speculative calls below tau wait.
pub fn gate(e: &Coords) -> (Action, &'static str) {
    guard(e).unwrap_or(if e.speculative() && e.conf == 0 {
        (Action::Defer, "gate")
    } else {
        (Action::Allow, "default")
    })
}

/// Build a sealed table for `pipeline` with threshold `tau` and `scrub after commit` when `scrub`.
pub fn table(name: &str, pipeline: Pipeline, tau: f64, scrub: bool) -> Table {
    let vocabulary = Table {
        format_version: FORMAT_VERSION,
        digest: String::new(),
        contract: name.to_owned(),
        params: BTreeMap::from([("tau".to_owned(), tau)]),
        lattices: Lattices {
            args: chain("ArgLabel", &ARG_LABELS),
            destination: chain("DestLabel", &DEST_LABELS),
        },
        dimensions: Vec::new(),
        diagram: Diagram {
            root: 0,
            nodes: Vec::new(),
        },
        cells: Vec::new(),
        tools: vec![
            Tool {
                name: "web_search".into(),
                effect: "external_read".into(),
                args: vec![ArgField {
                    name: "q".into(),
                    ty: FieldType::Text,
                }],
                destinations: vec![0, 1, 5, 6],
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
                destinations: vec![3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
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
        undeclared_destinations: false,
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
            unless: Vec::new(),
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
            withhold_destination: false,
            withhold_labels: false,
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
            lexicon(
                "intent_phrases",
                &[
                    ("tenant rights", Some("housing information")),
                    ("lease termination", None),
                    ("penalty", None),
                    ("apartments", Some("housing")),
                ],
            ),
            lexicon(
                "health",
                &[
                    ("oncology", None),
                    ("chemotherapy", None),
                    ("diagnosis", None),
                ],
            ),
            lexicon("finance", &[("personal loan", None), ("loan", None)]),
        ],
        labelers: Labelers {
            args: Labeler {
                rules: vec![
                    rule(
                        vec![Condition::Lexicon { lexicons: vec![0] }],
                        vec![],
                        INTENT,
                    ),
                    rule(
                        vec![Condition::Lexicon { lexicons: vec![1] }],
                        vec![],
                        SENSITIVE,
                    ),
                    rule(
                        vec![Condition::Lexicon { lexicons: vec![2] }],
                        vec![],
                        SENSITIVE,
                    ),
                ],
                fallback: 0,
            },
            destination: Labeler {
                rules: vec![],
                fallback: 2,
            },
        },
        index: None,
    };
    // Rule ids follow the order in which the rules' cells first appear.
    let mut rules: Vec<&'static str> = Vec::new();
    lower(vocabulary, &Domain::std(tau), &mut |e: &Coords| {
        let (action, rule) = pipeline(e);
        let id = rules.iter().position(|r| *r == rule).unwrap_or_else(|| {
            rules.push(rule);
            rules.len() - 1
        });
        cell(action, id as u32, rule)
    })
}
