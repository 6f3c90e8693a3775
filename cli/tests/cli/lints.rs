//! Lint levels: `stpc.toml` found upward, per-path overrides, the
//! `--allow`/`--warn`/`--deny` flags, inline suppressions with and without
//! a reason, unused suppressions, and bad configuration (exit 2 with the
//! file's line).

#![allow(clippy::unwrap_used, reason = "test helpers: a failure fails the test")]

use crate::support::stpc;

/// A contract with one W0002 (a rule after the default) on line 15.
const AFTER_DEFAULT: &str = "use std::labels;
use std::modes;
use std::observers;
use std::tools::{web_search, brave};
use std::labelers;

contract web {
    tools web_search;
    destinations brave;
    labelers std_args, std_destinations;
    forbid args >= sensitive at provider;
    decide {
        block unless tool allowed;
        block;
        allow;
    }
}
";

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("legacy/deep")).unwrap();
    std::fs::write(dir.path().join("a.stpc"), AFTER_DEFAULT).unwrap();
    std::fs::write(dir.path().join("legacy/deep/b.stpc"), AFTER_DEFAULT).unwrap();
    dir
}

fn codes(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.starts_with("warning[") || l.starts_with("error["))
        .map(|l| l.split(':').next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn without_configuration_warnings_are_reported_and_pass() {
    let dir = project();
    let run = stpc(dir.path(), &["check", "a.stpc", "legacy"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(codes(&run.stderr), ["warning[W0002]", "warning[W0002]"]);
}

#[test]
fn the_project_file_sets_levels_globally_and_per_path() {
    let dir = project();
    std::fs::write(
        dir.path().join("stpc.toml"),
        "[lints]\nW0002 = \"deny\"\n\n[[overrides]]\npaths = [\"legacy/**\"]\nlints = { W0002 = \"allow\" }\n",
    )
    .unwrap();
    let run = stpc(dir.path(), &["check", "a.stpc", "legacy"], "");
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(codes(&run.stderr), ["error[W0002]"], "{}", run.stderr);
    assert!(run.stderr.contains("a.stpc:15:9"), "{}", run.stderr);
    assert!(run
        .stderr
        .contains("`W0002` is denied by the lint configuration"));
    // Found upward from the contract, not from the working directory.
    let nested = stpc(&dir.path().join("legacy"), &["check", "deep/b.stpc"], "");
    assert_eq!(nested.code, 0, "{}", nested.transcript());
    assert!(codes(&nested.stderr).is_empty(), "{}", nested.stderr);
    // A nearer file wins over the one above it.
    std::fs::write(
        dir.path().join("legacy/stpc.toml"),
        "[lints]\nwarnings = \"deny\"\n",
    )
    .unwrap();
    let nearer = stpc(dir.path(), &["check", "legacy/deep/b.stpc"], "");
    assert_eq!(nearer.code, 1, "{}", nearer.transcript());
    // The command line wins over the file; `compile` fails on a denied warning.
    let allowed = stpc(dir.path(), &["check", "--allow", "W0002", "a.stpc"], "");
    assert_eq!(allowed.code, 0, "{}", allowed.transcript());
    assert!(codes(&allowed.stderr).is_empty());
    let compiled = stpc(dir.path(), &["compile", "a.stpc", "-o", "a.json"], "");
    assert_eq!(compiled.code, 1, "{}", compiled.transcript());
    assert!(
        !dir.path().join("a.json").exists(),
        "no table for a denied warning"
    );
    // `--deny warnings` denies what is reported; it never un-allows what
    // the project file allows (here, W0002 under `legacy/`).
    std::fs::remove_file(dir.path().join("legacy/stpc.toml")).unwrap();
    let denied = stpc(dir.path(), &["check", "--deny", "warnings", "legacy"], "");
    assert_eq!(denied.code, 0, "{}", denied.transcript());
    assert!(codes(&denied.stderr).is_empty(), "{}", denied.stderr);
    // A relative `--config` still matches its per-path overrides.
    let relative = stpc(
        dir.path(),
        &["check", "--config", "stpc.toml", "legacy/deep/b.stpc"],
        "",
    );
    assert_eq!(relative.code, 0, "{}", relative.transcript());
    assert!(codes(&relative.stderr).is_empty(), "{}", relative.stderr);
    // `--config` replaces the search.
    std::fs::write(
        dir.path().join("quiet.toml"),
        "[lints]\nwarnings = \"allow\"\n",
    )
    .unwrap();
    let explicit = stpc(
        dir.path(),
        &["check", "--config", "quiet.toml", "a.stpc", "legacy"],
        "",
    );
    assert_eq!(explicit.code, 0, "{}", explicit.transcript());
    assert!(codes(&explicit.stderr).is_empty(), "{}", explicit.stderr);
}

#[test]
fn flags_take_codes_or_warnings_and_refuse_errors() {
    let dir = project();
    let deny = stpc(dir.path(), &["check", "--deny", "warnings", "a.stpc"], "");
    assert_eq!(deny.code, 1);
    assert_eq!(codes(&deny.stderr), ["error[W0002]"]);
    let mixed = stpc(
        dir.path(),
        &["check", "--deny", "warnings", "--warn", "W0002", "a.stpc"],
        "",
    );
    // `--deny warnings` raises what is still a warning, W0002 set to
    // `warn` included (rustc's `-D warnings`).
    assert_eq!(mixed.code, 1, "{}", mixed.transcript());
    let error = stpc(dir.path(), &["check", "--allow", "E0601", "a.stpc"], "");
    assert_eq!(error.code, 2);
    assert!(
        error.stderr.contains("errors cannot be allowed"),
        "{}",
        error.stderr
    );
    let unknown = stpc(dir.path(), &["check", "--deny", "W9999", "a.stpc"], "");
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("`W9999` is not a warning code"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn bad_configuration_fails_with_its_location() {
    let dir = project();
    for (text, want) in [
        (
            "[lints]\nW0002 = \"loud\"\n",
            "stpc.toml:2:9: `loud` is not a level",
        ),
        (
            "[lints]\nE0601 = \"allow\"\n",
            "stpc.toml:2:1: `E0601` is an error",
        ),
        (
            "[lint]\n",
            "stpc.toml:1:2: invalid lint configuration: unknown field `lint`",
        ),
        (
            "[[overrides]]\npaths = [\"a/[\"]\n",
            "stpc.toml:2:10: invalid path pattern",
        ),
        ("[lints\n", "invalid lint configuration"),
    ] {
        std::fs::write(dir.path().join("stpc.toml"), text).unwrap();
        let run = stpc(dir.path(), &["check", "a.stpc"], "");
        assert_eq!(run.code, 2, "{text}: {}", run.transcript());
        assert!(run.stderr.contains(want), "{text}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

#[test]
fn inline_suppressions_need_a_reason_and_are_reported_when_unused() {
    let dir = project();
    let with_reason = AFTER_DEFAULT.replace(
        "        allow;\n",
        "        allow; // stpc: allow(W0002) -- kept until the allow-list review\n",
    );
    std::fs::write(dir.path().join("a.stpc"), &with_reason).unwrap();
    let run = stpc(dir.path(), &["check", "--deny", "warnings", "a.stpc"], "");
    assert_eq!(
        run.code,
        0,
        "a suppression wins over a level: {}",
        run.transcript()
    );
    assert!(codes(&run.stderr).is_empty(), "{}", run.stderr);

    let above = AFTER_DEFAULT.replace(
        "        allow;\n",
        "        // stpc: allow(W0002) -- on its own line, it concerns the next rule\n\n        allow;\n",
    );
    std::fs::write(dir.path().join("a.stpc"), &above).unwrap();
    let run = stpc(dir.path(), &["check", "a.stpc"], "");
    assert!(codes(&run.stderr).is_empty(), "{}", run.stderr);

    let no_reason =
        AFTER_DEFAULT.replace("        allow;\n", "        allow; // stpc: allow(W0002)\n");
    std::fs::write(dir.path().join("a.stpc"), &no_reason).unwrap();
    let run = stpc(dir.path(), &["check", "a.stpc"], "");
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        codes(&run.stderr),
        ["warning[W0002]", "error[E0425]"],
        "{}",
        run.stderr
    );
    assert!(run
        .stderr
        .contains("a suppression needs a reason after `--`"));

    let unused = AFTER_DEFAULT.replace(
        "        block;\n",
        "        block; // stpc: allow(W0602) -- nothing to suppress here\n",
    );
    std::fs::write(dir.path().join("a.stpc"), &unused).unwrap();
    let run = stpc(dir.path(), &["check", "a.stpc"], "");
    assert_eq!(
        codes(&run.stderr),
        ["warning[W0010]", "warning[W0002]"],
        "{}",
        run.stderr
    );
    // W0010 has a level like any warning.
    std::fs::write(dir.path().join("stpc.toml"), "[lints]\nW0010 = \"allow\"\n").unwrap();
    let run = stpc(dir.path(), &["check", "a.stpc"], "");
    assert_eq!(codes(&run.stderr), ["warning[W0002]"], "{}", run.stderr);
}
