//! The wire format: round trip, digest, canonical layout, structural
//! validation, fail-closed evaluation, and the published JSON Schema.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a panic is a test failure"
)]

use std::sync::Arc;

use proptest::prelude::*;
use stpc_runtime::decide::{Decider, LabelsIn, Point, Query};
use stpc_runtime::table::{self, Action, Node, Table};
use stpc_runtime::LoadError;

fn table() -> Table {
    stpc_tests::web_search_table::web_search_table(&stpc_tests::web_search_table::Options::default())
}

#[test]
fn pretty_and_compact_round_trip() {
    let t = table();
    let pretty = t.to_json_pretty().unwrap();
    assert_eq!(Table::from_json(pretty.as_bytes()).unwrap(), t);
    let with_newline = format!("{pretty}\n");
    assert_eq!(Table::from_json(with_newline.as_bytes()).unwrap(), t);
    let compact = serde_json::to_vec(&t).unwrap();
    assert_eq!(Table::from_json(&compact).unwrap(), t);
}

#[test]
fn digest_is_the_sha256_of_the_compact_encoding_with_an_empty_digest() {
    let t = table();
    let mut unsealed = t.clone();
    unsealed.digest = String::new();
    let expected = {
        use sha2::Digest as _;
        let bytes = serde_json::to_vec(&unsealed).unwrap();
        sha2::Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    assert_eq!(t.digest, expected);
    assert_eq!(
        table::canonical_bytes(&t).unwrap(),
        serde_json::to_vec(&unsealed).unwrap()
    );
}

#[test]
fn sealing_a_sealed_table_changes_no_byte() {
    let a = table().to_json_pretty().unwrap();
    let b = table().seal().unwrap().to_json_pretty().unwrap();
    assert_eq!(a, b);
}

#[test]
fn unknown_version_is_refused_before_shape() {
    let mut v: serde_json::Value =
        serde_json::from_str(&table().to_json_pretty().unwrap()).unwrap();
    v["format_version"] = (table::FORMAT_VERSION + 1).into();
    v["new_field"] = true.into();
    let err = Table::from_json(v.to_string().as_bytes()).unwrap_err();
    assert_eq!(
        err,
        LoadError::UnsupportedVersion {
            found: table::FORMAT_VERSION + 1,
            supported: table::FORMAT_VERSION
        }
    );
    assert_eq!(
        err.to_string(),
        format!(
            "table format version {} is not supported (this runtime reads version {})",
            table::FORMAT_VERSION + 1,
            table::FORMAT_VERSION
        )
    );
}

#[test]
fn edited_content_fails_the_digest() {
    let mut t = table();
    let blocking = t
        .cells
        .iter()
        .position(|c| c.action == Action::Block)
        .unwrap();
    t.cells[blocking].action = Action::Allow;
    let err = Table::from_json(t.to_json_pretty().unwrap().as_bytes()).unwrap_err();
    assert_eq!(err, LoadError::DigestMismatch);
}

#[test]
fn reformatted_json_is_not_canonical() {
    let t = table();
    let v: serde_json::Value = serde_json::from_slice(&serde_json::to_vec(&t).unwrap()).unwrap();
    // serde_json::Value sorts keys: same content, different layout.
    let err = Table::from_json(v.to_string().as_bytes()).unwrap_err();
    assert_eq!(err, LoadError::NotCanonical);
}

#[test]
fn unknown_fields_are_refused_without_echoing_values() {
    let pretty = table().to_json_pretty().unwrap();
    let edited = pretty.replacen(
        "\"contract\": \"web_default\"",
        "\"contract\": \"web_default\", \"secret\": \"hunter2\"",
        1,
    );
    let err = Table::from_json(edited.as_bytes()).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("unknown field `secret`"), "{msg}");
    assert!(!msg.contains("hunter2"), "{msg}");
}

#[test]
fn type_errors_elide_string_values() {
    let pretty = table().to_json_pretty().unwrap();
    let edited = pretty.replacen("\"bottom\": 0", "\"bottom\": \"hunter2\"", 1);
    let msg = Table::from_json(edited.as_bytes()).unwrap_err().to_string();
    assert!(msg.starts_with("table is not valid at line"), "{msg}");
    assert!(msg.contains("invalid type: string \"…\""), "{msg}");
    assert!(!msg.contains("hunter2"), "{msg}");
}

fn reseal_err(t: Table) -> LoadError {
    let sealed = t.seal().unwrap();
    Table::from_json(sealed.to_json_pretty().unwrap().as_bytes()).unwrap_err()
}

#[test]
fn structural_errors_name_the_offending_place() {
    let mut t = table();
    t.cells[0].transforms = vec![9];
    t.cells[0].action = Action::Rewrite;
    assert_eq!(
        reseal_err(t).to_string(),
        "cells[0].transforms[0] refers to index 9 but only 1 exist"
    );

    let mut t = table();
    let root = t.diagram.root as usize;
    if let Node::Branch { children, .. } = &mut t.diagram.nodes[root] {
        children.pop();
    }
    assert!(matches!(reseal_err(t), LoadError::ChildCount { .. }));

    let mut t = table();
    // A branch pointing back at the root: a cycle.
    let root = t.diagram.root;
    let first_branch = t
        .diagram
        .nodes
        .iter()
        .position(|n| matches!(n, Node::Branch { dim, .. } if *dim > 0))
        .unwrap();
    if let Node::Branch { children, .. } = &mut t.diagram.nodes[first_branch] {
        children[0] = root;
    }
    let err = reseal_err(t).to_string();
    assert!(err.contains("ordered and acyclic"), "{err}");

    let mut t = table();
    t.labelers.args.fallback = 17;
    assert_eq!(
        reseal_err(t).to_string(),
        "labelers.args.fallback refers to index 17 but only 4 exist"
    );

    let mut t = table();
    t.lattices.args.join[1][2] = 1;
    let err = reseal_err(t).to_string();
    assert!(err.starts_with("lattices.args.join"), "{err}");

    let mut t = table();
    t.dimensions.swap(0, 1);
    let err = reseal_err(t).to_string();
    assert!(err.contains("in that order"), "{err}");

    let mut t = table();
    t.dimensions[2].values.retain(|m| m != "committed");
    assert!(reseal_err(t).to_string().contains("committed"));
}

fn labels_given(
    d: &Decider,
    tool: &str,
    dest: &str,
    mode: &str,
    conf: f64,
    arg: Option<u32>,
) -> Action {
    d.decide(&Query {
        tool,
        destination: dest,
        mode,
        confidence: conf,
        labels: LabelsIn {
            args: arg,
            destination: Some(0),
            fields: &[],
        },
        budgets_exhausted: &[false],
    })
    .action
}

#[test]
fn the_worked_contract_decides_as_the_paper_says() {
    let d = Decider::new(Arc::new(table()));
    assert_eq!(
        labels_given(&d, "web_search", "api.brave.com", "committed", 1.0, Some(0)),
        Action::Allow
    );
    assert_eq!(
        labels_given(&d, "web_search", "brave", "speculative", 0.9, Some(3)),
        Action::Rewrite
    );
    assert_eq!(
        labels_given(&d, "web_search", "brave", "committed", 1.0, Some(3)),
        Action::Rewrite
    );
    assert_eq!(
        labels_given(&d, "web_search", "brave", "speculative", 0.5, Some(0)),
        Action::Defer
    );
    assert_eq!(
        labels_given(
            &d,
            "web_search",
            "api.bing.microsoft.com",
            "committed",
            1.0,
            Some(0)
        ),
        Action::Block
    );
    assert_eq!(
        labels_given(&d, "web_search", "evil.example", "committed", 1.0, Some(0)),
        Action::Block
    );
    assert_eq!(
        labels_given(&d, "send_email", "brave", "committed", 1.0, Some(0)),
        Action::Block
    );
    assert_eq!(
        labels_given(&d, "rm_rf", "brave", "committed", 1.0, Some(0)),
        Action::Block
    );
    assert_eq!(
        labels_given(&d, "web_search", "brave", "committed", 1.0, None),
        Action::Block
    );
    assert_eq!(
        labels_given(&d, "web_search", "brave", "speculative", 0.9, None),
        Action::Defer
    );
    // Invalid inputs fail closed.
    assert_eq!(
        labels_given(&d, "web_search", "brave", "dreaming", 1.0, Some(0)),
        Action::Block
    );
    assert_eq!(
        labels_given(&d, "web_search", "brave", "committed", f64::NAN, Some(0)),
        Action::Block
    );
    assert_eq!(
        labels_given(&d, "web_search", "brave", "committed", 1.0, Some(99)),
        Action::Block
    );
    let wrong_budgets = d.decide(&Query {
        tool: "web_search",
        destination: "brave",
        mode: "committed",
        confidence: 1.0,
        labels: LabelsIn {
            args: Some(0),
            destination: Some(0),
            fields: &[],
        },
        budgets_exhausted: &[],
    });
    assert_eq!(
        (wrong_budgets.action, wrong_budgets.rule_id),
        (Action::Block, None)
    );
}

#[test]
fn evaluation_fails_closed_on_an_inconsistent_table() {
    let mut t = table();
    for n in &mut t.diagram.nodes {
        if let Node::Branch { children, .. } = n {
            for c in children.iter_mut() {
                *c = 10_000;
            }
        }
    }
    let p = Point::new(&[0, 0, 0, 0, 0, 1, 0]).unwrap();
    assert_eq!(stpc_runtime::decide::evaluate(&t, &p), None);
    let decider = Decider::new(Arc::new(t));
    let fast = decider.decide_point(&p);
    assert_eq!((fast.action, fast.rule_id), (Action::Block, None));
    let short = Point::new(&[0]).unwrap();
    assert_eq!(stpc_runtime::decide::evaluate(&table(), &short), None);
}

#[test]
fn every_point_of_the_domain_evaluates_like_the_pipeline() {
    let opts = stpc_tests::web_search_table::Options::default();
    let t = table();
    let decider = Decider::new(Arc::new(t.clone()));
    for tool in 0..3 {
        for dest in 0..4 {
            for mode in 0..6 {
                for arg in 0..5 {
                    for dl in 0..6 {
                        for conf in 0..2 {
                            for b in 0..2 {
                                let p = Point::new(&[tool, dest, mode, arg, dl, conf, b]).unwrap();
                                let e = stpc_tests::web_search_table::Coords {
                                    tool,
                                    dest,
                                    mode,
                                    arg,
                                    dest_label: dl,
                                    conf,
                                    budgets: &[b],
                                    fields: &[],
                                };
                                let (action, rule, _) =
                                    stpc_tests::web_search_table::pipeline(&opts, &e);
                                let c = stpc_runtime::decide::evaluate(&t, &p).unwrap();
                                assert_eq!((c.action, c.rule_id), (action, rule), "{p:?}");
                                let fast = decider.decide_point(&p);
                                assert_eq!(
                                    (fast.action, fast.rule_id),
                                    (action, Some(rule)),
                                    "{p:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The direct paths (`decide` and `cell` through the resolved-base table,
/// `decide_resolved` and `cell_resolved` from a `Resolved`) decide every
/// query as the checked path does (the whole point built and range-checked
/// coordinate by coordinate, then looked up), over every name the table
/// knows and one it does not, every label and one past each lattice,
/// confidences at and around the cuts and outside `[0, 1]`, and every
/// budget vector with a wrong length among them.
#[test]
fn the_direct_paths_decide_every_query_as_the_checked_path() {
    let t = table();
    let d = Decider::new(Arc::new(t.clone()));
    assert!(d.is_dense());
    let mut tools: Vec<&str> = t.tools.iter().map(|x| x.name.as_str()).collect();
    tools.push("no_such_tool");
    let mut dests: Vec<&str> = t.destinations.iter().map(|x| x.name.as_str()).collect();
    dests.extend(t.destinations.iter().map(|x| x.address.value.as_str()));
    dests.push("no.such.host");
    let mut modes: Vec<&str> = t.dimensions[2].values.iter().map(String::as_str).collect();
    modes.push("no_such_mode");
    let labels = |n: usize| {
        let n = u32::try_from(n).unwrap();
        std::iter::once(None)
            .chain((0..=n).map(Some))
            .collect::<Vec<_>>()
    };
    let args = labels(t.lattices.args.labels.len());
    let dls = labels(t.lattices.destination.labels.len());
    let mut confidences = vec![0.0, 0.3, 0.6999, 0.7, 0.7001, 1.0, -0.1, 1.7, f64::NAN];
    confidences.push(f64::INFINITY);
    let budget_vectors: [&[bool]; 4] = [&[false], &[true], &[], &[true, true]];
    let mut decided = 0usize;
    for tool in &tools {
        for dest in &dests {
            for mode in &modes {
                let resolved = d.resolve(tool, dest, mode);
                for arg in &args {
                    for dl in &dls {
                        for &confidence in &confidences {
                            for budgets in budget_vectors {
                                let q = Query {
                                    tool,
                                    destination: dest,
                                    mode,
                                    confidence,
                                    labels: LabelsIn {
                                        args: *arg,
                                        destination: *dl,
                                        fields: &[],
                                    },
                                    budgets_exhausted: budgets,
                                };
                                let checked = d.point(&q).map_or_else(
                                    |_| stpc_runtime::decide::Decision::fail_closed(),
                                    |p| d.decide_point(&p),
                                );
                                let direct = d.decide(&q);
                                assert_eq!(direct, checked, "{q:?}");
                                assert_eq!(d.cell(&q).map(|(i, _)| i), checked.cell, "{q:?}");
                                let by_resolved = resolved
                                    .map(|r| d.decide_resolved(r, confidence, &q.labels, budgets));
                                assert_eq!(
                                    by_resolved.unwrap_or_else(
                                        stpc_runtime::decide::Decision::fail_closed
                                    ),
                                    checked,
                                    "{q:?}"
                                );
                                decided += usize::from(checked.cell.is_some());
                            }
                        }
                    }
                }
            }
        }
    }
    // Most of the grid is inside the domain: the comparison is not one of
    // fail-closed answers only.
    assert!(decided > 10_000, "{decided}");
}

#[test]
fn schema_file_is_fresh() {
    let schema = serde_json::to_string_pretty(&table::json_schema()).unwrap() + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../book/src/table-format.schema.json");
    if std::env::var_os("STPC_BLESS").is_some() {
        std::fs::write(&path, &schema).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == schema,
        "book/src/table-format.schema.json is stale; rerun with STPC_BLESS=1"
    );
}

#[test]
fn schema_describes_every_top_level_field() {
    let schema = table::json_schema();
    let props = schema["properties"].as_object().unwrap();
    let t = serde_json::to_value(table()).unwrap();
    for key in t.as_object().unwrap().keys() {
        assert!(props.contains_key(key), "schema lacks `{key}`");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Flipping any single byte (to any other value) of a serialized table
    /// makes loading fail: the layout is canonical and the digest covers it.
    #[test]
    fn any_byte_flip_is_refused(pos in any::<prop::sample::Index>(), xor in 1u8..=255, pretty in any::<bool>()) {
        let t = table();
        let mut bytes = if pretty { t.to_json_pretty().unwrap().into_bytes() } else { serde_json::to_vec(&t).unwrap() };
        let i = pos.index(bytes.len());
        bytes[i] ^= xor;
        prop_assert!(Table::from_json(&bytes).is_err());
    }
}

#[test]
fn every_byte_flip_in_the_digest_field_is_refused() {
    let pretty = table().to_json_pretty().unwrap();
    let start = pretty.find("\"digest\"").unwrap();
    let end = start + pretty[start..].find(',').unwrap();
    for i in start..end {
        for xor in [1u8, 0x20, 0x80] {
            let mut b = pretty.clone().into_bytes();
            b[i] ^= xor;
            assert!(Table::from_json(&b).is_err(), "flip at {i}");
        }
    }
}

#[test]
fn disclosure_order_is_the_documented_one() {
    assert!(Action::Allow.disclosure_rank() > Action::Rewrite.disclosure_rank());
    assert!(Action::Rewrite.disclosure_rank() > Action::Shadow.disclosure_rank());
    assert_eq!(
        Action::Shadow.disclosure_rank(),
        Action::Defer.disclosure_rank()
    );
    assert!(Action::Defer.disclosure_rank() > Action::Block.disclosure_rank());
}

#[test]
fn confidence_representatives_are_readable() {
    use stpc_runtime::table::domain::confidence_in;
    assert_eq!(confidence_in(&[], 0), Some(1.0));
    assert_eq!(confidence_in(&[0.7], 0), Some(0.35));
    assert_eq!(confidence_in(&[0.7], 1), Some(0.85));
    assert_eq!(confidence_in(&[0.3, 0.7], 1), Some(0.5));
    // No confidence in [0, 1] lies below a cut at 0 or above a cut past 1.
    assert_eq!(confidence_in(&[0.0, 0.5], 0), None);
    assert_eq!(confidence_in(&[0.5, 1.5], 2), None);
    assert_eq!(confidence_in(&[0.5], 2), None);
    // A narrow interval keeps a value inside it.
    assert_eq!(confidence_in(&[0.701, 0.705], 1), Some(0.701));
}

proptest! {
    #[test]
    fn every_representative_falls_in_its_interval(
        mut cuts in proptest::collection::vec(-0.5f64..1.5, 0..5),
        i in 0usize..6,
    ) {
        use stpc_runtime::table::domain::{confidence_in, interval};
        cuts.sort_by(f64::total_cmp);
        cuts.dedup();
        if let Some(c) = confidence_in(&cuts, i) {
            prop_assert!((0.0..=1.0).contains(&c), "{c}");
            prop_assert_eq!(interval(&cuts, c), Some(i), "cuts {:?}, c {}", cuts, c);
        }
    }
}

/// Signatures: `Engine::load_signed` loads a table signed by a trusted key
/// and refuses a re-sealed copy, another key's signature and garbage.
#[test]
fn signed_tables_load_only_with_a_trusted_signature() {
    use stpc_runtime::signature::{self, TrustedKeys};
    use stpc_runtime::Engine;
    let table = stpc_tests::web_search_table::web_search_table(&Default::default());
    let json = table.to_json_pretty().unwrap();
    let (secret, public) = signature::keypair([7; 32]);
    let (_, other_public) = signature::keypair([8; 32]);
    let sig = signature::sign(&table, &secret).unwrap();
    let mut trusted = TrustedKeys::new();
    trusted.add(&public).unwrap();
    assert!(Engine::load_signed(json.as_bytes(), &sig, &trusted).is_ok());

    let mut weakened = table.clone();
    if let Some(c) = weakened
        .cells
        .iter_mut()
        .find(|c| c.action == Action::Block)
    {
        c.action = Action::Allow;
    }
    let resealed = weakened.seal().unwrap().to_json_pretty().unwrap();
    let refused = Engine::load_signed(resealed.as_bytes(), &sig, &trusted);
    assert!(
        matches!(&refused, Err(LoadError::Signature(why)) if why.contains("another table")),
        "{refused:?}"
    );
    let mut others = TrustedKeys::new();
    others.add(&other_public).unwrap();
    assert!(matches!(
        Engine::load_signed(json.as_bytes(), &sig, &others),
        Err(LoadError::Signature(_))
    ));
    assert!(Engine::load_signed(json.as_bytes(), "{}", &trusted).is_err());
    assert!(TrustedKeys::new().add("stpc-ed25519-public:zz").is_err());
    assert!(
        signature::sign(&table, &public).is_err(),
        "a public key cannot sign"
    );
}

#[test]
fn engines_that_label_alike_share_one_labeler() {
    let table = Arc::new(stpc_tests::web_search_table::web_search_table(
        &stpc_tests::web_search_table::Options::default(),
    ));
    use stpc_runtime::Engine;
    let first = Engine::new(Arc::clone(&table)).unwrap();
    // A table that decides differently but labels alike: shared.
    let mut other = (*table).clone();
    other.contract = "another".to_owned();
    let shared = Engine::new_sharing(Arc::new(other), &first).unwrap();
    assert!(std::ptr::eq(first.labeler(), shared.labeler()));
    // A lexicon changed: a labeler of its own.
    let mut changed = (*table).clone();
    let lexicon = changed.lexicons.first_mut().expect("a lexicon");
    lexicon.name.push_str("_changed");
    assert!(!first.labels_like(&changed));
    let own = Engine::new_sharing(Arc::new(changed), &first).unwrap();
    assert!(!std::ptr::eq(first.labeler(), own.labeler()));
}

/// A load error never echoes table content: not a quoted string, not a
/// name serde reports in backticks, not a control character.
#[test]
fn load_errors_do_not_echo_table_content() {
    let t = table();
    let json = t.to_json_pretty().unwrap();
    let hostile = "EVIL\u{1b}[31m`,x";
    for (what, from, to) in [
        (
            "a variant",
            "\"allow\"",
            format!("\"{}\"", hostile.replace('\u{1b}', "\\u001b")),
        ),
        (
            "a field",
            "\"action\"",
            format!("\"{}\"", hostile.replace('\u{1b}', "\\u001b")),
        ),
    ] {
        let edited = json.replacen(from, &to, 1);
        assert_ne!(edited, json, "{what}: the edit applies");
        let err = stpc_runtime::table::Table::from_json(edited.as_bytes())
            .expect_err(what)
            .to_string();
        assert!(!err.contains("EVIL"), "{what}: {err}");
        assert!(!err.chars().any(char::is_control), "{what}: {err}");
    }
}
