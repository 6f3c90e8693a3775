//! The labeler index (`TABLE.index`, what `stpc compile -o` writes beside a
//! table) on the compiled std Naive table:
//!
//! - an engine built with the index labels and decides exactly as one
//!   built from the lexicons, on the std event mix and on random values;
//! - an index is used only if it is the one the table names: an index for
//!   another table, an edited or a truncated one, or any index for a table
//!   that names none, is refused with `LoadError::Index`;
//! - bytes the hash check accepts but that are not a well-formed index
//!   (a table re-pointed at mutated bytes) are refused or, where they
//!   still decode, label without panicking.

#![expect(
    clippy::expect_used,
    reason = "test oracles and helpers: a failure should fail the test"
)]

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use serde_json::{json, Value};
use stpc_compiler::CompileOptions;
use stpc_runtime::label::index;
use stpc_runtime::table::{IndexRef, Table};
use stpc_runtime::{Engine, LoadError};

struct Std {
    table: Arc<Table>,
    index: Vec<u8>,
    built: Engine,
    loaded: Engine,
}

fn std_naive() -> &'static Std {
    static STD: OnceLock<Std> = OnceLock::new();
    STD.get_or_init(|| {
        let compiled = stpc_tests::lowering::compile_file(
            "stdlib-contracts/policies/naive.stpc",
            &CompileOptions::default(),
        );
        let (table, index) = index::attach(compiled.table().clone()).expect("std table indexes");
        let table = Arc::new(table);
        let built = Engine::new(Arc::clone(&table)).expect("std table loads");
        let loaded = Engine::with_index(Arc::clone(&table), &index).expect("its index loads");
        Std {
            table,
            index,
            built,
            loaded,
        }
    })
}

/// `table` naming `bytes` as its index (unsealed: the engine does not
/// re-check the digest, `Table::from_json` does).
fn pointed_at(table: &Table, bytes: &[u8]) -> Arc<Table> {
    let mut t = table.clone();
    t.index = Some(IndexRef {
        sha256: index::sha256_hex(bytes),
        bytes: bytes.len() as u64,
    });
    Arc::new(t)
}

fn refused(r: Result<Engine, LoadError>) -> bool {
    matches!(r, Err(LoadError::Index(_)))
}

#[test]
fn the_index_decides_the_std_mix_as_the_lexicons_do() {
    let s = std_naive();
    let mut changed = 0;
    for e in stpc_tests::event_mix::std_mix() {
        let dest = e.destination.clone();
        let a = s
            .built
            .labeler()
            .label_event(&e.tool, &e.args, None, &dest, true);
        let b = s
            .loaded
            .labeler()
            .label_event(&e.tool, &e.args, None, &dest, true);
        assert_eq!(a.labels, b.labels, "labels of {}", e.tool);
        assert_eq!(
            format!("{:?}", a.explanation),
            format!("{:?}", b.explanation),
            "explanation of {}",
            e.tool
        );
        if a.labels.args != Some(0) {
            changed += 1;
        }
    }
    // The mix reaches the lexicons: not every event is public.
    assert!(changed > 0);
}

#[test]
fn the_compiled_index_is_deterministic() {
    let s = std_naive();
    let again = index::build(&s.table).expect("builds");
    assert!(again == s.index, "two builds of one table differ");
}

#[test]
fn an_index_that_is_not_the_named_one_is_refused() {
    let s = std_naive();
    // A table that names no index.
    let mut bare = (*s.table).clone();
    bare.index = None;
    assert!(refused(Engine::with_index(Arc::new(bare), &s.index)));
    // Truncated, extended, one byte edited.
    let t = &s.table;
    assert!(refused(Engine::with_index(
        Arc::clone(t),
        &s.index[..s.index.len() - 1]
    )));
    let mut longer = s.index.clone();
    longer.push(0);
    assert!(refused(Engine::with_index(Arc::clone(t), &longer)));
    let mut edited = s.index.clone();
    let mid = edited.len() / 2;
    edited[mid] ^= 1;
    assert!(refused(Engine::with_index(Arc::clone(t), &edited)));
    // The index of another table (the paper's, with its own lexicons).
    let paper = stpc_tests::lowering::compile_file(
        "examples/paper_web_search.stpc",
        &CompileOptions::default(),
    );
    let (_, other) = index::attach(paper.table().clone()).expect("paper table indexes");
    assert!(refused(Engine::with_index(Arc::clone(t), &other)));
    // ... even with its hash named: it does not fit these lexicons.
    assert!(refused(Engine::with_index(pointed_at(t, &other), &other)));
}

#[test]
fn the_index_is_named_inside_the_digest() {
    let s = std_naive();
    let json = s.table.to_json_pretty().expect("serialises");
    let reloaded = Table::from_json(json.as_bytes()).expect("loads");
    assert_eq!(reloaded.index, s.table.index);
    // Re-pointing the table at other bytes without resealing breaks it.
    let other = pointed_at(&s.table, b"not the index");
    let json = other.to_json_pretty().expect("serialises");
    assert!(matches!(
        Table::from_json(json.as_bytes()),
        Err(LoadError::DigestMismatch)
    ));
}

fn args() -> impl Strategy<Value = Value> {
    let word = prop::sample::select(
        &[
            "my",
            "landlord",
            "eviction",
            "chemo",
            "lawyer",
            "salary",
            "weather",
            "Lisbon",
            "Räumungsklage",
            "despido",
            "diagnosys",
            "evicton",
            "ß",
            "İ",
            "…",
            "",
        ][..],
    );
    prop::collection::vec(word, 0..10).prop_map(|w| json!({ "q": w.join(" ") }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Typos included (`evicton`): the typo table comes from the index too.
    #[test]
    fn the_index_labels_random_values_as_the_lexicons_do(args in args()) {
        let s = std_naive();
        let a = s.built.labeler().label("web_search", &args, None, "api.brave.com");
        let b = s.loaded.labeler().label("web_search", &args, None, "api.brave.com");
        prop_assert_eq!(a, b);
    }

}

proptest! {
    // Each case copies and hashes the 9 MB std index.
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Mutated index bytes, with the table naming their hash so the
    /// decoder itself is what stands between them and the scans.
    #[test]
    fn mutated_index_bytes_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in prop::option::of(any::<prop::sample::Index>()),
        args in args(),
    ) {
        let s = std_naive();
        let mut bytes = s.index.clone();
        for (at, b) in &edits {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        if let Some(c) = cut {
            bytes.truncate(c.index(bytes.len()));
        }
        if let Ok(e) = Engine::with_index(pointed_at(&s.table, &bytes), &bytes) {
            let _ = e.labeler().label("web_search", &args, None, "api.brave.com");
        }
    }
}

/// The embedders' load path (`stpc_tables::verified::load_with_index`, the
/// Python package's `Engine.load`): the table's own index is used and
/// reported as used; any other is refused, reported, and the engine is
/// built from the lexicons instead, labeling the same.
#[test]
fn embedders_load_with_the_index_and_fall_back_without_it() {
    use stpc_tables::verified::load_with_index;
    let s = std_naive();
    let json = s.table.to_json_pretty().expect("serialises");
    let label = |e: &Engine| {
        stpc_tests::event_mix::std_mix()
            .iter()
            .map(|ev| e.labeler().label(&ev.tool, &ev.args, None, &ev.destination))
            .collect::<Vec<_>>()
    };
    let want = label(&s.built);
    let (engine, refused) =
        load_with_index(json.as_bytes(), Some(&s.index), None, false).expect("loads");
    assert!(refused.is_none(), "{refused:?}");
    assert_eq!(label(&engine), want);
    let mut edited = s.index.clone();
    edited[7] ^= 1;
    for bad in [&s.index[..s.index.len() / 2], &edited[..], &[][..]] {
        let (engine, refused) =
            load_with_index(json.as_bytes(), Some(bad), None, false).expect("loads");
        assert!(matches!(refused, Some(LoadError::Index(_))), "{refused:?}");
        assert_eq!(label(&engine), want);
    }
    // No index given: built from the lexicons, nothing to report.
    let (engine, refused) = load_with_index(json.as_bytes(), None, None, false).expect("loads");
    assert!(refused.is_none());
    assert_eq!(label(&engine), want);
    // A table the loader refuses is still refused, index or not.
    let tampered = json.replacen("\"public\"", "\"publik\"", 1);
    assert!(load_with_index(tampered.as_bytes(), Some(&s.index), None, false).is_err());
}
