//! The generated std lexicons are what the generator makes of the data.

#![allow(clippy::panic, reason = "test code: a stale file is a failed test")]

use stpc_tests::lowering::workspace;

#[test]
fn lexicons_stpc_is_what_the_generator_makes_of_the_data() {
    let root = workspace();
    let files = stpc_stdgen::read_data(&root).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        files.len() > 20,
        "the data files are found ({} read)",
        files.len()
    );
    let fresh = stpc_stdgen::generate(&files).unwrap_or_else(|e| panic!("bad data: {e}"));
    let committed = std::fs::read_to_string(root.join(stpc_stdgen::OUTPUT))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", stpc_stdgen::OUTPUT));
    assert!(
        fresh == committed,
        "{} is stale: run `{}` from the repository root",
        stpc_stdgen::OUTPUT,
        stpc_stdgen::COMMAND
    );
}
