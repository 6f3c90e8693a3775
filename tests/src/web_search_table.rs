//! The paper's worked web-search contract as a hand-built table (see
//! [`crate::table_builder`]): the runtime's tests decide, label, rewrite and
//! audit with it without depending on the compiler.

use std::collections::BTreeMap;

use crate::table_builder::{cell, chain, lexicon, lower, rule, Domain};
pub use crate::table_builder::{Coords, ARG_LABELS, DEST_LABELS, INTENT, MODES, SENSITIVE};
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

/// The decision pipeline of the worked contract, as (action, rule id, rule name).
pub fn pipeline(opts: &Options, e: &Coords) -> (Action, u32, &'static str) {
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
    if e.budget_exhausted() {
        return (Action::Defer, 6, "budget");
    }
    (Action::Allow, 7, "default")
}

/// The worked contract's table under `opts`.
pub fn web_search_table(opts: &Options) -> Table {
    let vocabulary = Table {
        format_version: FORMAT_VERSION,
        digest: String::new(),
        contract: "web_default".to_owned(),
        params: BTreeMap::from([("tau".to_owned(), 0.7)]),
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
            withhold_destination: false,
            withhold_labels: false,
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
            lexicon(
                "intent_phrases",
                &[
                    ("break my lease", Some("rental agreements")),
                    ("lease termination", None),
                    ("eviction", None),
                    ("tenant rights", Some("housing information")),
                    ("penalty", None),
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
            lexicon("health_public", &[("public health statistics", None)]),
            lexicon(
                "everyday",
                &[("weather", None), ("recipe", None), ("news", None)],
            ),
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
                        vec![Condition::Lexicon { lexicons: vec![2] }],
                        SENSITIVE,
                    ),
                    rule(
                        vec![Condition::Entity {
                            kind: EntityKind::Email,
                        }],
                        vec![],
                        1,
                    ),
                    rule(
                        vec![Condition::Entity {
                            kind: EntityKind::GovId,
                        }],
                        vec![],
                        SENSITIVE,
                    ),
                    rule(
                        vec![Condition::Entity {
                            kind: EntityKind::Date,
                        }],
                        vec![],
                        SENSITIVE,
                    ),
                    rule(
                        vec![Condition::Pattern {
                            regex: r"(?i)\bloans?\b".into(),
                        }],
                        vec![],
                        SENSITIVE,
                    ),
                    rule(vec![Condition::Lexicon { lexicons: vec![3] }], vec![], 0),
                ],
                fallback: 1,
            },
            destination: Labeler {
                rules: vec![
                    rule(
                        vec![Condition::Address {
                            kind: AddressKind::Host,
                            glob: "*.gov".into(),
                        }],
                        vec![],
                        3,
                    ),
                    rule(
                        vec![Condition::Address {
                            kind: AddressKind::Collection,
                            glob: "oncology*".into(),
                        }],
                        vec![],
                        2,
                    ),
                ],
                fallback: 2,
            },
        },
        index: None,
    };
    lower(vocabulary, &Domain::std(0.7), &mut |e: &Coords| {
        let (action, rule_id, rule_name) = pipeline(opts, e);
        cell(action, rule_id, rule_name)
    })
}
