//! Compile time and table size: the standard policies and generated
//! contracts with 10, 100, 1,000 and 10,000 tools (`cargo bench -p
//! stpc-tests --bench compile`). Floor (issue 15): 10,000 tools cost at
//! most 12 times 1,000 (9.6× measured; the book's performance chapter).
//!
//! Each benchmark runs the whole library pipeline (parse, resolve, check,
//! lower, verify) from source text, with the standard library embedded.
//! Table sizes (diagram nodes, cells, JSON bytes) are printed once per
//! contract before timing, since criterion measures time only.

#![expect(
    clippy::expect_used,
    reason = "a benchmark fails loudly on a broken input"
)]
#![expect(
    missing_docs,
    reason = "criterion_main! generates an undocumented `main`"
)]

use std::collections::HashMap;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use stpc_compiler::{CompileOptions, Diagnostics, SourceMap};

use stpc_tests::generated;

fn compile(name: &str, text: &str) -> Option<stpc_runtime::table::Table> {
    let mut map = SourceMap::new();
    let id = map.add(name, text);
    let mut diagnostics = Diagnostics::new();
    let mut no_files = HashMap::<String, String>::new();
    stpc_compiler::compile(
        &mut map,
        &[id],
        &mut no_files,
        &CompileOptions::default(),
        &mut diagnostics,
    )
}

fn report(name: &str, text: &str) {
    match compile(name, text) {
        Some(t) => {
            let bytes = t.to_json_pretty().expect("serialises").len();
            eprintln!(
                "{name}: {} nodes, {} cells, {bytes} bytes of JSON",
                t.diagram.nodes.len(),
                t.cells.len()
            );
        }
        None => eprintln!("{name}: does not compile"),
    }
}

fn generated(c: &mut Criterion) {
    let mut group = c.benchmark_group("generated");
    group.sample_size(10);
    for n in [10usize, 100, 1000, 10_000] {
        let text = generated::source(n);
        report(&format!("generated/{n}"), &text);
        group.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| compile("generated.stpc", text));
        });
    }
    group.finish();
}

/// Lowering and verification alone, on a program checked once.
fn lower_verify(c: &mut Criterion) {
    let mut group = c.benchmark_group("lower_verify");
    group.sample_size(10);
    for n in [10usize, 100, 1000, 10_000] {
        let text = generated::source(n);
        let mut map = SourceMap::new();
        let id = map.add("generated.stpc", &text);
        let mut diagnostics = Diagnostics::new();
        let mut no_files = HashMap::<String, String>::new();
        let program = stpc_compiler::check(&mut map, &[id], &mut no_files, &mut diagnostics);
        group.bench_with_input(BenchmarkId::from_parameter(n), &program, |b, program| {
            b.iter(|| {
                let mut d = Diagnostics::new();
                stpc_compiler::compile_program(program, &[id], &CompileOptions::default(), &mut d)
            });
        });
    }
    group.finish();
}

fn stdlib(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../stdlib-contracts/policies");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    let mut group = c.benchmark_group("stdlib");
    group.sample_size(10);
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "stpc"))
    {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(path).expect("readable policy");
        report(&format!("stdlib/{name}"), &text);
        group.bench_with_input(BenchmarkId::from_parameter(&name), &text, |b, text| {
            b.iter(|| compile(&name, text));
        });
    }
    group.finish();
}

criterion_group!(benches, generated, lower_verify, stdlib);
criterion_main!(benches);
