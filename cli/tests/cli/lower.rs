//! `stpc compile` and `stpc graph` as processes: exit codes, stdout, atomic
//! output, `--contract` (E0504) and `--param` (E0505).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]
use std::path::Path;
use std::process::{Command, Output};

const HEAD: &str = "use std::labels;\nuse std::modes;\nuse std::observers;\nuse std::tools::{web_search, brave};\nuse std::labelers;\n";

fn contract(name: &str, params: &str, last: &str) -> String {
    format!(
        "contract {name}{params} {{\n    tools web_search;\n    destinations brave;\n    forbid args >= sensitive at provider;\n    \
         threshold speculative 0.7;\n    decide {{\n        block unless tool allowed;\n        block unless destination allowed;\n        \
         block when labels missing;\n        defer when speculative and confidence < threshold;\n        block when args >= sensitive;\n        {last};\n    }}\n}}\n"
    )
}

fn stpc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stpc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("runs")
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("writes");
}

#[test]
fn compile_writes_a_table_the_runtime_loads() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "web.stpc",
        &format!("{HEAD}{}", contract("web", "", "allow")),
    );
    let out = stpc(dir.path(), &["compile", "web.stpc"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stpc_runtime::table::Table::from_json(&out.stdout).expect("stdout is a valid table");
    let out = stpc(dir.path(), &["compile", "web.stpc", "-o", "web.json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let bytes = std::fs::read(dir.path().join("web.json")).expect("written");
    stpc_runtime::table::Table::from_json(&bytes).expect("the file is a valid table");
}

/// Issue 16: `kill -9` during `stpc compile -o` left its temporary file
/// behind. The next write of the same file removes temporaries whose
/// process is gone (and never another live process's).
#[cfg(target_os = "linux")]
#[test]
fn writes_remove_temporaries_left_by_killed_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "web.stpc",
        &format!("{HEAD}{}", contract("web", "", "allow")),
    );
    // PIDs never exceed 2^22 on Linux, so this process cannot exist.
    write(dir.path(), ".web.json.stpc-tmp-4294967", "half a table");
    let live = format!(".web.json.stpc-tmp-{}", std::process::id());
    write(dir.path(), &live, "a write in progress");
    let out = stpc(dir.path(), &["compile", "web.stpc", "-o", "web.json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!dir.path().join(".web.json.stpc-tmp-4294967").exists());
    assert!(
        dir.path().join(&live).exists(),
        "a live process's file is kept"
    );
}

#[test]
fn an_unsound_contract_leaves_the_old_table_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "web.json", "previous table");
    // The last rule allows sensitive arguments: `block when args >= sensitive` is gone.
    let unsound = format!(
        "{HEAD}{}",
        contract("web", "", "allow").replace("        block when args >= sensitive;\n", "")
    );
    write(dir.path(), "web.stpc", &unsound);
    let out = stpc(dir.path(), &["compile", "web.stpc", "-o", "web.json"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error[E0601]")
            && stderr.contains("counterexample: `web_search(q: \"")
            && stderr.contains("(labelled <sensitive>)"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("web.json")).expect("still there"),
        "previous table"
    );
}

#[test]
fn several_contracts_need_contract_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "two.stpc",
        &format!(
            "{HEAD}{}{}",
            contract("strict", "", "block"),
            contract("lenient", "", "allow")
        ),
    );
    let out = stpc(dir.path(), &["compile", "two.stpc"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error[E0504]") && stderr.contains("`strict`, `lenient`"),
        "{stderr}"
    );
    let out = stpc(dir.path(), &["compile", "two.stpc", "--contract", "strict"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = stpc(dir.path(), &["compile", "two.stpc", "--contract", "stirct"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `strict`?"));
}

#[test]
fn params_override_thresholds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = format!(
        "{HEAD}{}",
        contract("web", "(tau = 0.7)", "allow")
            .replace("threshold speculative 0.7", "threshold speculative tau")
    );
    write(dir.path(), "web.stpc", &text);
    let out = stpc(dir.path(), &["compile", "web.stpc", "--param", "tau=0.4"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t = stpc_runtime::table::Table::from_json(&out.stdout).expect("valid");
    assert_eq!(t.params.get("tau"), Some(&0.4));
    assert_eq!(t.thresholds.first().map(|th| th.value), Some(0.4));
    let out = stpc(dir.path(), &["compile", "web.stpc", "--param", "tua=0.4"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error[E0505]") && stderr.contains("did you mean `tau`?"),
        "{stderr}"
    );
    let out = stpc(dir.path(), &["compile", "web.stpc", "--param", "tau"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a malformed flag is a usage error"
    );
}

#[test]
fn graph_writes_dot() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "web.stpc",
        &format!("{HEAD}{}", contract("web", "", "allow")),
    );
    let out = stpc(dir.path(), &["graph", "web.stpc", "--lattice", "ArgLabel"]);
    assert_eq!(out.status.code(), Some(0));
    let dot = String::from_utf8_lossy(&out.stdout);
    assert!(
        dot.starts_with("digraph \"ArgLabel\"") && dot.contains("\"personal\" -> \"sensitive\";"),
        "{dot}"
    );
    let out = stpc(dir.path(), &["graph", "web.stpc", "--diagram"]);
    assert_eq!(out.status.code(), Some(0));
    let dot = String::from_utf8_lossy(&out.stdout);
    assert!(
        dot.contains("label=\"tool\"") && dot.contains("block\\nrule#1"),
        "{dot}"
    );
    let out = stpc(dir.path(), &["graph", "web.stpc"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "one of --lattice and --diagram is required"
    );
}
