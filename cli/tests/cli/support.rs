//! Shared helpers of the process-level tests of the table commands
//! (`cli_decide.rs`, `cli_test.rs`): run `stpc` in a temporary directory and
//! render a transcript (exit code, stdout, stderr) for snapshots.

#![expect(
    clippy::unwrap_used,
    reason = "helpers write inputs and drive the process; a failure fails the test"
)]
#![allow(dead_code, reason = "each test target uses a different part")]
#![allow(
    clippy::panic,
    reason = "a helper that cannot parse a decision fails the test, with the transcript"
)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The self-contained contract the tests compile (see the file's header).
pub const SEARCH: &str = include_str!("search.stpc");

/// An `stpc` run: exit code and outputs.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Exit code, stdout and stderr, for a snapshot.
    pub fn transcript(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Run `stpc ARGS` in `dir` with `stdin`, without colour or inherited format.
pub fn stpc(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stpc"))
        .args(args)
        .current_dir(dir)
        .env_remove("STPC_FORMAT")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The child may exit before reading (a refused table): ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A temporary directory holding `search.stpc` and its compiled table
/// `search.table.json`.
pub fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("search.stpc"), SEARCH).unwrap();
    let run = stpc(
        dir.path(),
        &["compile", "search.stpc", "-o", "search.table.json"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    dir
}

/// Insta settings that hide the temporary directory and table digests.
pub fn settings(dir: &Path) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    let path = dir.to_string_lossy().into_owned();
    s.add_filter(&regex_escape(&path), "[TMP]");
    s.add_filter(r"[0-9a-f]{64}", "[DIGEST]");
    s.set_prepend_module_to_snapshot(true);
    s
}

fn regex_escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '/' || c == '_' || c == '-' {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}

/// Standard output of `--format json`: one JSON value per line.
pub fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `stpc decide --table TABLE -` on one event in `dir`: its one JSON line.
pub fn decide_one(dir: &Path, table: &str, event: &str) -> serde_json::Value {
    let run = stpc(dir, &["decide", "--table", table, "-"], event);
    serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("decide printed no decision ({e}): {}", run.transcript()))
}
