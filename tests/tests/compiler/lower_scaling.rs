//! Table size grows at most linearly in the number of tools (the residual
//! memo shares every subdiagram the tools have in common). Compile time is
//! measured by `benches/compile.rs`; here only sizes, which do not depend
//! on the machine.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use stpc_compiler::CompileOptions;

fn sizes(n: usize) -> (usize, usize) {
    let c = stpc_tests::lowering::compile_text(
        "generated.stpc",
        &stpc_tests::generated::source(n),
        &CompileOptions::default(),
    );
    let t = c.table();
    assert!(
        c.diagnostics
            .iter()
            .all(|d| d.severity != stpc_compiler::Severity::Error),
        "{}",
        c.rendered()
    );
    (
        t.diagram.nodes.len(),
        t.to_json_pretty().expect("serialises").len(),
    )
}

#[test]
fn table_size_is_linear_in_tools() {
    let (n10, b10) = sizes(10);
    let (n100, b100) = sizes(100);
    let (n1000, b1000) = sizes(1000);
    // Nodes: a few per tool at most, so ten times the tools is at most
    // about ten times the nodes (plus the constant part).
    assert!(n1000 <= 12 * n100 + 50, "nodes: {n10} {n100} {n1000}");
    assert!(n100 <= 12 * n10 + 50, "nodes: {n10} {n100} {n1000}");
    // Bytes: the vocabulary (tools, destinations, substitutes) is linear,
    // the labelers constant.
    assert!(
        b1000 - b100 <= 12 * (b100 - b10),
        "bytes: {b10} {b100} {b1000}"
    );
}
