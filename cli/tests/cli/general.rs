//! Process-level tests of the `stpc` binary: exit codes, standard input,
//! output formats and colour.
//!
//! Exit codes: 0 success, 1 problems found, 2 usage or I/O failure. Inputs
//! are written to a temporary directory that is the child's working
//! directory, so paths in the output are relative and snapshots stable.

#![expect(
    clippy::expect_used,
    reason = "a helper that cannot start or feed the process fails the test"
)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The workspace root, where `examples/` lives.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// `stpc` with a clean environment: no colour or format from the caller.
fn stpc(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stpc"));
    cmd.current_dir(dir)
        .env_remove("STPC_FORMAT")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null());
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("stpc runs")
}

/// Runs with `input` on standard input.
fn run_with_stdin(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stpc starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("stdin accepts the input");
    child.wait_with_output().expect("stpc finishes")
}

fn code(out: &Output) -> i32 {
    out.status
        .code()
        .expect("stpc exits with a code, not a signal")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// A temporary directory holding the given files.
fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (name, text) in files {
        std::fs::File::create(dir.path().join(name))
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .expect("fixture written");
    }
    dir
}

const BROKEN: &str = "contract c {\n    tools web_search\n    threshold speculative 0.7;\n}\n";
const TWO_ERRORS: &str = "enum Mode { committed speculative }\n\ncontrat c {\n    tools a;\n}\n";

#[test]
fn a_clean_file_exits_zero_and_prints_nothing() {
    let out = run(stpc(root()).args(["check", "examples/paper_web_search.stpc"]));
    assert_eq!(code(&out), 0, "stderr: {}", stderr(&out));
    assert_eq!(stderr(&out), "");
    assert_eq!(stdout(&out), "");
}

#[test]
fn syntax_errors_exit_one_with_rendered_diagnostics() {
    let dir = dir_with(&[("broken.stpc", BROKEN)]);
    let out = run(stpc(dir.path()).args(["check", "broken.stpc"]));
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    insta::assert_snapshot!(stderr(&out));
}

#[test]
fn every_file_is_reported_in_one_run() {
    let dir = dir_with(&[("a.stpc", BROKEN), ("b.stpc", TWO_ERRORS)]);
    let out = run(stpc(dir.path()).args(["check", "a.stpc", "b.stpc"]));
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    for expected in [
        "error[E0102]",
        "error[E0114]",
        "error[E0105]",
        "a.stpc:",
        "b.stpc:",
    ] {
        assert!(err.contains(expected), "missing {expected} in:\n{err}");
    }
}

#[test]
fn check_walks_directories_like_fmt_and_test() {
    let dir = dir_with(&[("a.stpc", BROKEN), ("notes.txt", "not a contract")]);
    std::fs::create_dir_all(dir.path().join("sub/.hidden")).expect("dirs");
    std::fs::write(dir.path().join("sub/b.stpc"), TWO_ERRORS).expect("b");
    std::fs::write(dir.path().join("sub/.hidden/c.stpc"), BROKEN).expect("c");
    let out = run(stpc(dir.path()).args(["check", "."]));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("a.stpc:") && err.contains("b.stpc:"), "{err}");
    assert!(
        !err.contains("c.stpc"),
        "hidden directories are skipped: {err}"
    );
    assert!(!err.contains("notes.txt"), "{err}");
    let clean = run(stpc(root()).args(["check", "stdlib-contracts/policies"]));
    assert_eq!(code(&clean), 0, "{}", stderr(&clean));
}

#[test]
fn a_missing_file_exits_two() {
    let dir = dir_with(&[]);
    let out = run(stpc(dir.path()).args(["check", "nowhere.stpc"]));
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.starts_with("error: cannot read `nowhere.stpc`"),
        "{err}"
    );
}

#[test]
fn a_bad_flag_exits_two() {
    let out = run(stpc(root()).args(["check", "--no-such-flag", "x.stpc"]));
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--no-such-flag"), "{}", stderr(&out));
    let out = run(stpc(root()).args(["--format", "yaml", "check", "x.stpc"]));
    assert_eq!(code(&out), 2);
    let out = run(stpc(root()).args(["check"]));
    assert_eq!(code(&out), 2, "a file is required");
}

#[test]
fn dash_reads_standard_input() {
    let out = run_with_stdin(stpc(root()).args(["check", "-"]), BROKEN.as_bytes());
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.contains("<stdin>:2:21"), "{err}");
    insta::assert_snapshot!(err);

    let clean = std::fs::read(root().join("examples/paper_web_search.stpc")).expect("example");
    let out = run_with_stdin(stpc(root()).args(["check", "-"]), &clean);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn invalid_utf8_on_stdin_is_e0112_with_a_location() {
    let mut input = b"enum Mode { committed }\nenum Other { a".to_vec();
    input.extend([0xFF, 0xFE]);
    input.extend(b" }\n");
    let out = run_with_stdin(stpc(root()).args(["check", "-"]), &input);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("error[E0112]"), "{err}");
    assert!(err.contains("<stdin>:2:15"), "{err}");
    assert!(
        !err.contains("E0110"),
        "the lossy text is not parsed: {err}"
    );
    insta::assert_snapshot!(err);

    let out = run_with_stdin(
        stpc(root()).args(["--format", "json", "check", "-"]),
        &input,
    );
    assert_eq!(code(&out), 1);
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON line");
    assert_eq!(line["code"], "E0112");
    assert_eq!(line["labels"][0]["line"], 2);
    assert_eq!(line["labels"][0]["column"], 15);
}

#[test]
fn json_output_is_one_object_per_line() {
    let dir = dir_with(&[("b.stpc", TWO_ERRORS)]);
    let out = run(stpc(dir.path()).args(["--format", "json", "check", "b.stpc"]));
    assert_eq!(code(&out), 1);
    assert_eq!(stderr(&out), "", "json goes to stdout only");
    let text = stdout(&out);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is a JSON object"))
        .collect();
    assert_eq!(lines.len(), 2);
    for d in &lines {
        assert!(
            d["code"].as_str().is_some_and(|c| c.starts_with("E01")),
            "{d}"
        );
        assert_eq!(d["severity"], "error");
        assert!(d["message"].as_str().is_some_and(|m| !m.is_empty()), "{d}");
        let labels = d["labels"].as_array().expect("labels");
        let primary = labels
            .iter()
            .find(|l| l["style"] == "primary")
            .expect("a primary label");
        assert_eq!(primary["file"], "b.stpc");
        assert!(primary["line"].as_u64().is_some_and(|n| n >= 1), "{d}");
        assert!(primary["column"].as_u64().is_some_and(|n| n >= 1), "{d}");
    }
    insta::assert_snapshot!(text);

    // The environment variable selects the format too.
    let out = run(stpc(dir.path())
        .env("STPC_FORMAT", "json")
        .args(["check", "b.stpc"]));
    assert_eq!(stdout(&out), text);
}

#[test]
fn json_reports_operational_errors_without_a_code() {
    let dir = dir_with(&[]);
    let out = run(stpc(dir.path()).args(["--format", "json", "check", "nowhere.stpc"]));
    assert_eq!(code(&out), 2);
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON line");
    assert!(line["code"].is_null());
    assert_eq!(line["severity"], "error");
}

const ESC: &str = "\u{1b}[";

#[test]
fn output_to_a_pipe_or_under_no_color_has_no_escapes() {
    let dir = dir_with(&[("broken.stpc", BROKEN)]);
    // Not a terminal: no colour under `auto`.
    let out = run(stpc(dir.path()).args(["check", "broken.stpc"]));
    assert!(!stderr(&out).contains(ESC), "{:?}", stderr(&out));
    // NO_COLOR, even when colour is otherwise possible.
    let out = run(stpc(dir.path()).env("NO_COLOR", "1").args([
        "--color",
        "auto",
        "check",
        "broken.stpc",
    ]));
    assert!(!stderr(&out).contains(ESC), "{:?}", stderr(&out));
    let out = run(stpc(dir.path()).args(["--color", "never", "check", "broken.stpc"]));
    assert!(!stderr(&out).contains(ESC), "{:?}", stderr(&out));
    // `always` does colour, so the checks above are meaningful.
    let out = run(stpc(dir.path()).args(["--color", "always", "check", "broken.stpc"]));
    assert!(stderr(&out).contains(ESC), "{:?}", stderr(&out));
}

#[test]
fn explain_prints_the_explanation() {
    let out = run(stpc(root()).args(["explain", "E0102"]));
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        stpc_compiler::explanation("E0102").expect("E0102 is explained")
    );
    insta::assert_snapshot!(stdout(&out));
    // Codes are case-insensitive.
    let out = run(stpc(root()).args(["explain", "e0102"]));
    assert_eq!(code(&out), 0);
}

#[test]
fn explain_of_an_unknown_code_exits_two() {
    let out = run(stpc(root()).args(["explain", "E9999"]));
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    insta::assert_snapshot!(stderr(&out));
}
