//! `stpc replay` and `stpc eval` as processes: exit codes, stdin, formats.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code"
)]
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn stpc(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stpc"));
    cmd.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

/// Runs `stpc` with `args`, requires it to succeed, and parses its JSON
/// output.
fn stpc_json(args: &[&str]) -> serde_json::Value {
    let out = stpc(args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const NAIVE: &str = "stdlib-contracts/policies/naive.stpc";
const SHADOW: &str = "stdlib-contracts/policies/shadow.stpc";

#[test]
fn replay_reads_stdin_and_reports_exposure() {
    let task = r#"{"task":"lease","label":"legal","candidates":[{"id":"e1","tool":"web_search","destination":"api.brave.com","args":{"q":"tenant rights lease termination penalty"},"branch":"answer","confidence":0.9},{"id":"e2","tool":"web_search","destination":"api.brave.com","args":{"q":"available apartments near me"},"branch":"move","confidence":0.4}],"committed":{"branches":["answer"]}}"#;
    let out = stpc(
        &["replay", "-", "--policy", NAIVE, "--output-format", "json"],
        Some(task),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ghost_calls"], 1);
    assert_eq!(v["observers"][0]["observer"], "provider");
    assert_eq!(v["observers"][0]["delta"], 1);
    let out = stpc(&["replay", "-", "--policy", SHADOW], Some(task));
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("| provider | 1 | 1 | 0 |"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_bad_frontier_line_exits_2_with_its_line_number() {
    let out = stpc(
        &["replay", "-", "--policy", NAIVE],
        Some("# comment\n{\"task\":\"x\",\"candidates\":[]}\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2") && err.contains("no candidates"),
        "{err}"
    );
}

#[test]
fn eval_on_a_generated_corpus_writes_every_format() {
    let dir = std::env::temp_dir().join(format!("stpc-eval-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let frontier = dir.join("f.jsonl");
    let svg = dir.join("fig.svg");
    let common = [
        "eval",
        "--generate",
        "12",
        "--seeds",
        "1",
        "--policy",
        &format!("naive={NAIVE}"),
        "--policy",
        &format!("shadow={SHADOW}"),
        "--observer",
        "provider",
        "--resamples",
        "200",
        "--no-channels",
    ];
    let mut args: Vec<&str> = common.to_vec();
    let fpath = frontier.to_string_lossy().into_owned();
    let spath = svg.to_string_lossy().into_owned();
    args.extend([
        "--write-frontier",
        &fpath,
        "--output-format",
        "svg",
        "-o",
        &spath,
    ]);
    let out = stpc(&args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // The written corpus replays from the file, as JSON.
    let v = stpc_json(&[
        "eval",
        &fpath,
        "--policy",
        &format!("naive={NAIVE}"),
        "--observer",
        "provider",
        "--resamples",
        "200",
        "--output-format",
        "json",
    ]);
    assert_eq!(v["tasks"], 12);
    // The label-noise sweep runs by default (5, 10, 20 %), on request at
    // other rates, and not at all with `--no-label-noise`.
    let json = |extra: &[&str]| {
        let mut args = common.to_vec();
        args.extend(["--output-format", "json"]);
        args.extend(extra);
        stpc_json(&args)
    };
    assert_eq!(
        json(&[])["noise"]["rates"],
        serde_json::json!([0.05, 0.1, 0.2])
    );
    let v = json(&["--noise", "0.1", "--noise-seed", "7"]);
    assert_eq!(
        (&v["noise"]["rates"], &v["noise"]["seed"]),
        (&serde_json::json!([0.1]), &serde_json::json!(7))
    );
    assert!(json(&["--no-label-noise"]).get("noise").is_none());
    let mut args = common.to_vec();
    args.extend(["--label-noise", "1.5"]);
    let out = stpc(&args, None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("probability"));
    let out = stpc(&common, None);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("## Label noise (provider view; Table 10)")
    );
    // Neither a frontier nor `--generate` is a usage error (no policy means
    // the standard library's).
    assert_eq!(stpc(&["eval"], None).status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_with_the_standard_policies_and_label_noise_finishes() {
    // The README's evaluation, on a small corpus: every std policy, the
    // label-noise sweep included. std Rewrite keeps a rewritten ghost for a
    // reissue on promotion, which the noisy replay must attribute (it
    // failed on every corpus of ten tasks or more before).
    let v = stpc_json(&[
        "eval",
        "--generate",
        "10",
        "--seeds",
        "1",
        "--resamples",
        "100",
        "--no-channels",
        "--no-progress",
        "--output-format",
        "json",
    ]);
    assert_eq!(v["tasks"], 10);
    let rows = v["noise"]["rows"].as_array().unwrap();
    assert!(
        rows.iter().any(|r| r["policy"] == "rewrite"),
        "{:?}",
        v["noise"]
    );
}
