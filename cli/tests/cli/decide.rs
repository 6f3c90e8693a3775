//! `stpc decide`, `stpc explain --table --event`, `stpc vectors` and
//! `stpc diff` as processes: outputs (snapshots with the temporary directory
//! and digests filtered) and exit codes (0 ok, 1 problems, 2 usage or I/O
//! failure or a refused table).

use crate::support::{decide_one, json_lines, settings, stpc, workspace, SEARCH};

const TOPICAL_SPECULATIVE: &str = r#"{"tool": "search", "args": {"q": "eviction notice for jane@example.com"}, "destination": "search.example", "mode": "speculative", "confidence": 0.9, "branch": "b1"}"#;

#[test]
fn decide_one_event_from_a_file() {
    let dir = workspace();
    std::fs::write(
        dir.path().join("event.json"),
        r#"{"tool": "search", "args": {"q": "eviction notice for jane@example.com"}, "destination": "engine", "mode": "committed"}"#,
    )
    .unwrap();
    let run = stpc(
        dir.path(),
        &["decide", "--table", "search.table.json", "event.json"],
        "",
    );
    assert_eq!(run.code, 0);
    settings(dir.path()).bind(|| insta::assert_snapshot!("decide_rewrite", run.transcript()));
}

#[test]
fn decide_one_event_from_stdin_as_json() {
    let dir = workspace();
    let run = stpc(
        dir.path(),
        &[
            "decide",
            "--format",
            "json",
            "--table",
            "search.table.json",
            "-",
        ],
        TOPICAL_SPECULATIVE,
    );
    assert_eq!(run.code, 0);
    settings(dir.path()).bind(|| insta::assert_snapshot!("decide_shadow_json", run.transcript()));
}

#[test]
fn decide_accepts_openai_style_arguments() {
    let dir = workspace();
    let event = r#"{"name": "search", "arguments": "{\"q\": \"weather\"}", "destination": "https://search.example/q", "mode": "committed"}"#;
    let run = stpc(
        dir.path(),
        &[
            "decide",
            "--format",
            "json",
            "--table",
            "search.table.json",
            "-",
        ],
        event,
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["action"], "allow");
    assert_eq!(v["labels"]["fields"]["q"], "public");
}

#[test]
fn decide_streams_one_decision_per_line_and_keeps_going() {
    let dir = workspace();
    let stream = [
        // Budget `topical` allows two sensitive dispatches per task.
        r#"{"tool": "search", "args": {"q": "a lawsuit"}, "destination": "engine", "mode": "committed"}"#,
        r#"{"tool": "search", "args": {"q": "an eviction"}, "destination": "engine", "mode": "committed"}"#,
        r#"{"tool": "search", "args": {"q": "another lawsuit"}, "destination": "engine", "mode": "committed", "id": 3}"#,
        "not json at all",
        r#"{"tool": "search", "args": {"q": "eviction"}, "destination": "engine", "mode": "speculative", "confidence": 0.2, "branch": "b7"}"#,
        r#"{"tool": "search", "args": "{\"q\": \"my secret", "destination": "engine", "mode": "committed"}"#,
        r#"{"promote": "b7"}"#,
        r#"{"tool": "search", "args": {"q": "weather"}, "destination": "engine", "mode": "speculative", "confidence": 0.1, "branch": "b8"}"#,
        r#"{"abandon": "b8"}"#,
        "",
        // A new task: the budget is available again.
        r#"{"tool": "search", "args": {"q": "a lawsuit"}, "destination": "engine", "mode": "committed", "task": "t2"}"#,
        r#"{"tool": "nope", "args": {}, "destination": "engine", "mode": "committed", "task": "t2"}"#,
        r#"{"tool": "search", "destination": "engine", "confidance": 0.5}"#,
    ]
    .join("\n");
    let run = stpc(
        dir.path(),
        &["decide", "--table", "search.table.json", "--stream"],
        &stream,
    );
    assert_eq!(run.code, 1);
    assert!(
        !run.stdout.contains("secret"),
        "no argument values in errors"
    );
    settings(dir.path()).bind(|| insta::assert_snapshot!("decide_stream", run.transcript()));
}

/// Issue 16: a missing `mode` or `confidence` was decided as `committed` and
/// 1.0, the most permissive values. Neither is ever assumed now; a committed
/// event's confidence is 1.0 by definition.
#[test]
fn decide_never_assumes_the_mode_or_the_confidence() {
    let dir = workspace();
    let stream = [
        r#"{"tool": "search", "args": {"q": "weather"}, "destination": "engine"}"#,
        r#"{"tool": "search", "args": {"q": "weather"}, "destination": "engine", "mode": "speculative", "branch": "b1"}"#,
        r#"{"tool": "search", "args": {"q": "weather"}, "destination": "engine", "mode": "committed"}"#,
    ]
    .join("\n");
    let run = stpc(
        dir.path(),
        &[
            "decide",
            "--format",
            "json",
            "--table",
            "search.table.json",
            "--stream",
        ],
        &stream,
    );
    assert_eq!(run.code, 1, "{}", run.transcript());
    let lines = json_lines(&run.stdout);
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(
        lines[0]["error"].as_str().unwrap().contains("no `mode`"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("no `confidence`"),
        "{}",
        lines[1]
    );
    assert!(lines[0].get("action").is_none() && lines[1].get("action").is_none());
    assert_eq!(lines[2]["action"], "allow", "{}", lines[2]);
}

#[test]
fn decide_refuses_a_tampered_table() {
    let dir = workspace();
    let path = dir.path().join("search.table.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("\"ghost\"", "\"ghosT\"", 1)).unwrap();
    let run = stpc(
        dir.path(),
        &["decide", "--table", "search.table.json", "-"],
        TOPICAL_SPECULATIVE,
    );
    assert_eq!(run.code, 2);
    settings(dir.path())
        .bind(|| insta::assert_snapshot!("decide_tampered_table", run.transcript()));
    let run = stpc(
        dir.path(),
        &["decide", "--table", "missing.json", "-"],
        TOPICAL_SPECULATIVE,
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("error: cannot read `missing.json`"),
        "{}",
        run.stderr
    );
}

#[test]
fn decide_reports_bad_events_without_their_values() {
    let dir = workspace();
    let bad = r#"{"tool": "search", "destination": "engine", "confidence": "very secret"}"#;
    let run = stpc(
        dir.path(),
        &["decide", "--table", "search.table.json", "-"],
        bad,
    );
    assert_eq!(run.code, 2);
    assert!(!run.stderr.contains("secret"), "{}", run.stderr);
    let pinned = r#"{"tool": "search", "destination": "engine", "mode": "committed", "labels": {"args": "public"}}"#;
    let run2 = stpc(
        dir.path(),
        &["decide", "--table", "search.table.json", "-"],
        pinned,
    );
    assert_eq!(run2.code, 2);
    let usage = stpc(dir.path(), &["decide", "--table", "search.table.json"], "");
    assert_eq!(usage.code, 2);
    settings(dir.path()).bind(|| {
        insta::assert_snapshot!(
            "decide_bad_events",
            format!(
                "{}\n{}\n{}",
                run.transcript(),
                run2.transcript(),
                usage.transcript()
            )
        )
    });
}

#[test]
fn explain_shows_the_cell_and_the_tested_dimensions() {
    let dir = workspace();
    std::fs::write(dir.path().join("event.json"), TOPICAL_SPECULATIVE).unwrap();
    let human = stpc(
        dir.path(),
        &[
            "explain",
            "--table",
            "search.table.json",
            "--event",
            "event.json",
        ],
        "",
    );
    assert_eq!(human.code, 0);
    let pinned = r#"{"tool": "search", "destination": "engine", "mode": "committed", "labels": {"args": "sensitive", "destination": "open"}, "budgets_exhausted": ["topical"]}"#;
    let json = stpc(
        dir.path(),
        &[
            "explain",
            "--format",
            "json",
            "--table",
            "search.table.json",
            "--event",
            "-",
        ],
        pinned,
    );
    assert_eq!(json.code, 0);
    let unknown = r#"{"tool": "search", "destination": "engine", "mode": "committed", "budgets_exhausted": ["nope"]}"#;
    let bad = stpc(
        dir.path(),
        &["explain", "--table", "search.table.json", "--event", "-"],
        unknown,
    );
    assert_eq!(bad.code, 2);
    let code = stpc(dir.path(), &["explain", "E0101"], "");
    assert_eq!(code.code, 0, "codes are still explained");
    settings(dir.path()).bind(|| {
        insta::assert_snapshot!(
            "explain_event",
            format!(
                "{}\n{}\n{}",
                human.transcript(),
                json.transcript(),
                bad.transcript()
            )
        )
    });
}

#[test]
fn vectors_are_written_beside_the_table_or_to_stdout() {
    let dir = workspace();
    let run = stpc(
        dir.path(),
        &[
            "compile",
            "search.stpc",
            "-o",
            "out.table.json",
            "--emit",
            "vectors",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let beside = std::fs::read_to_string(dir.path().join("out.vectors.jsonl")).unwrap();
    let stdout = stpc(dir.path(), &["vectors", "search.table.json"], "");
    assert_eq!(stdout.code, 0);
    assert_eq!(stdout.stdout, beside, "the same vectors either way");
    let from_source = stpc(dir.path(), &["vectors", "search.stpc", "-o", "v.jsonl"], "");
    assert_eq!(from_source.code, 0);
    let from_source = std::fs::read_to_string(dir.path().join("v.jsonl")).unwrap();
    // The cases are the same; the header names the table they were made
    // from, and a table written with `-o` names its labeler index, so its
    // digest is not the one of the table compiled in memory.
    let body = |text: &str| text.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&from_source), body(&beside));
    let header: serde_json::Value = serde_json::from_str(beside.lines().next().unwrap()).unwrap();
    assert_eq!(header["kind"], "header");
    assert_eq!(header["contract"], "search_policy");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.table.json")).unwrap())
            .unwrap();
    assert_eq!(
        header["digest"], written["digest"],
        "the header names the table written"
    );
    let kinds: std::collections::BTreeSet<String> = beside
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        [
            "decide",
            "event",
            "header",
            "label_arg",
            "label_destination",
            "monitor"
        ]
    );
    let refused = stpc(dir.path(), &["vectors", "-"], "{\"format_version\": 9}");
    assert_eq!(refused.code, 2);
    let no_output = stpc(
        dir.path(),
        &["compile", "search.stpc", "--emit", "vectors"],
        "",
    );
    assert_eq!(no_output.code, 2, "--emit vectors needs -o");
    settings(dir.path()).bind(|| insta::assert_snapshot!("vectors_refused", refused.transcript()));
}

#[test]
fn diff_of_a_contract_with_itself_is_empty() {
    let dir = workspace();
    let run = stpc(
        dir.path(),
        &[
            "diff",
            "search.stpc",
            "search.table.json",
            "--fail-on-weakening",
        ],
        "",
    );
    assert_eq!(run.code, 0);
    settings(dir.path()).bind(|| insta::assert_snapshot!("diff_same", run.transcript()));
}

#[test]
fn diff_flags_weakenings() {
    let dir = workspace();
    // NEW trusts speculation: no gate (low-confidence speculation goes
    // out), and topical speculation is rewritten and sent instead of
    // shadowed. Committed topical queries are rewritten by the same rule in
    // both, so that region does not change.
    let weaker = SEARCH
        .replace("    threshold speculative 0.7;\n", "")
        .replace(
            "        gate: defer when speculative and confidence < threshold;\n",
            "",
        )
        .replace(
            "        ghost: shadow when speculative and args >= sensitive;\n",
            "",
        )
        .replace("expect shadow by ghost;", "expect rewrite by scrub;");
    std::fs::write(dir.path().join("weaker.stpc"), weaker).unwrap();
    let human = stpc(dir.path(), &["diff", "search.stpc", "weaker.stpc"], "");
    assert_eq!(human.code, 0, "{}", human.transcript());
    let failing = stpc(
        dir.path(),
        &["diff", "--fail-on-weakening", "search.stpc", "weaker.stpc"],
        "",
    );
    assert_eq!(failing.code, 1);
    assert_eq!(failing.stdout, human.stdout);
    let back = stpc(
        dir.path(),
        &["diff", "--fail-on-weakening", "weaker.stpc", "search.stpc"],
        "",
    );
    assert_eq!(
        back.code,
        0,
        "the reverse only strengthens:\n{}",
        back.transcript()
    );
    let json = stpc(
        dir.path(),
        &["diff", "--format", "json", "search.stpc", "weaker.stpc"],
        "",
    );
    assert_eq!(json.code, 0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert!(v["weakenings"].as_u64().unwrap() >= 1);
    assert!(v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["direction"] == "weakening"));
    settings(dir.path()).bind(|| {
        insta::assert_snapshot!("diff_weaker", human.transcript());
        insta::assert_snapshot!("diff_stronger", back.transcript());
    });
}

#[test]
fn diff_fails_on_inputs_it_cannot_read() {
    let dir = workspace();
    std::fs::write(dir.path().join("broken.stpc"), "contract c {").unwrap();
    let broken = stpc(dir.path(), &["diff", "search.stpc", "broken.stpc"], "");
    assert_eq!(broken.code, 1, "{}", broken.transcript());
    let missing = stpc(dir.path(), &["diff", "search.stpc", "nope.json"], "");
    assert_eq!(missing.code, 2);
    settings(dir.path()).bind(|| insta::assert_snapshot!("diff_missing", missing.transcript()));
}

#[test]
fn decide_explain_says_which_rules_fired_without_the_values() {
    let dir = workspace();
    std::fs::write(dir.path().join("event.json"), TOPICAL_SPECULATIVE).unwrap();
    let run = stpc(
        dir.path(),
        &[
            "decide",
            "--table",
            "search.table.json",
            "--explain",
            "event.json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let fields = out["labeling"]["fields"].as_array().unwrap();
    let q = fields.iter().find(|f| f["field"] == "q").unwrap();
    assert!(
        !q["fired"].as_array().unwrap().is_empty(),
        "the rules that labeled `q` are listed: {q}"
    );
    assert!(out["labeling"]["destination"].is_object());
    // Spans and lexicon entries, never the argument itself.
    let labeling = out["labeling"].to_string();
    assert!(!labeling.contains("jane@example.com"), "{labeling}");
    let plain = stpc(
        dir.path(),
        &["decide", "--table", "search.table.json", "event.json"],
        "",
    );
    let out: serde_json::Value = serde_json::from_str(&plain.stdout).unwrap();
    assert!(out.get("labeling").is_none(), "only asked for");
}

#[test]
fn a_closed_stdout_ends_the_stream_quietly() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let dir = workspace();
    let mut child = Command::new(env!("CARGO_BIN_EXE_stpc"))
        .args(["decide", "--table", "search.table.json", "--stream", "-"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // Like `| head -1`: read one decision, then close the pipe.
    let line = format!("{TOPICAL_SPECULATIVE}\n");
    stdin.write_all(line.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).unwrap();
    assert!(first.contains("\"action\""), "{first}");
    // The reader is gone; the writer goes on.
    for _ in 0..200 {
        if stdin.write_all(line.as_bytes()).is_err() {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
}

#[test]
fn label_and_explain_survive_a_closed_stdout() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = workspace();
    for args in [
        vec!["label", "--table", "search.table.json", "-"],
        vec!["explain", "E0101"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stpc"))
            .args(&args)
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the command writes.
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(format!("{TOPICAL_SPECULATIVE}\n").repeat(50).as_bytes());
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
    }
}

/// Issue 16: a whole question written as an argument *key* was allowed and
/// written verbatim to the audit record. Keys of undeclared fields are
/// labelled like values, and the record names them `<undeclared>`.
#[test]
fn argument_keys_are_labelled_and_never_audited_verbatim() {
    let dir = workspace();
    let event = r#"{"tool": "search", "args": {"q": "weather", "my eviction lawsuit next week": ""}, "destination": "engine", "mode": "committed"}"#;
    let run = stpc(
        dir.path(),
        &[
            "decide",
            "--format",
            "json",
            "--table",
            "search.table.json",
            "--audit",
            "audit.jsonl",
            "-",
        ],
        event,
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_ne!(v["action"], "allow", "{v}");
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    assert!(!audit.contains("eviction"), "{audit}");
    let record: serde_json::Value = serde_json::from_str(audit.lines().next().unwrap()).unwrap();
    let fields: Vec<&str> = record["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["field"].as_str().unwrap())
        .collect();
    assert!(
        fields.contains(&"q") && fields.contains(&"<undeclared>"),
        "{fields:?}"
    );
}

/// Issue 16: `https://evil.example\@search.example/` was classified as the
/// declared `search.example` (the host after the last `@`), while WHATWG
/// parsers and urllib3 connect to `evil.example`. Backslashes, userinfo and
/// control characters are refused (the destination is unknown: BLOCK), and a
/// dispatch names the declared address to connect to.
#[test]
fn destinations_that_parsers_read_differently_are_refused() {
    let dir = workspace();
    let event = |d: &str| {
        format!(
            r#"{{"tool": "search", "args": {{"q": "weather"}}, "destination": {}, "mode": "committed"}}"#,
            serde_json::Value::String(d.to_owned())
        )
    };
    let stream = [
        event(r"https://evil.example\@search.example/"),
        event("https://evil.example@search.example/"),
        event("https://search.example\\x"),
        event("https://search.example/\u{0}x"),
        event("https://search.example/q?weather=1"),
    ]
    .join("\n");
    let run = stpc(
        dir.path(),
        &[
            "decide",
            "--format",
            "json",
            "--table",
            "search.table.json",
            "--stream",
        ],
        &stream,
    );
    let lines = json_lines(&run.stdout);
    assert_eq!(lines.len(), 5, "{}", run.transcript());
    for refused in &lines[..4] {
        assert_eq!(refused["action"], "block", "{refused}");
        assert!(refused["dispatch_to"].is_null(), "{refused}");
    }
    let ok = &lines[4];
    assert_eq!(ok["action"], "allow", "{ok}");
    assert_eq!(ok["dispatch_to"]["destination"], "engine");
    assert_eq!(ok["dispatch_to"]["address"]["value"], "search.example");
}

/// Issue 16: a table with one cell weakened (`unknown_tool` → allow) and its
/// digest recomputed was accepted. With `--trusted-key`, only a table signed
/// by a trusted key loads: the re-sealed one, an unsigned one and one signed
/// by another key are refused (exit 2); the signed original decides.
#[test]
fn a_resealed_table_is_refused_when_a_signature_is_required() {
    use stpc_runtime::table::Table;
    let dir = workspace();
    let p = dir.path();
    for key in ["ours", "theirs"] {
        let run = stpc(p, &["keygen", "--out", key], "");
        assert_eq!(run.code, 0, "{}", run.transcript());
    }
    let run = stpc(p, &["sign", "--key", "ours", "search.table.json"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let unknown = r#"{"tool": "nope", "args": {}, "destination": "engine", "mode": "committed"}"#;
    let decide = |table: &str, key: &str| {
        stpc(
            p,
            &[
                "decide",
                "--format",
                "json",
                "--table",
                table,
                "--trusted-key",
                key,
                "-",
            ],
            unknown,
        )
    };
    let ok = decide("search.table.json", "ours.pub");
    assert_eq!(ok.code, 0, "{}", ok.transcript());
    assert!(ok.stdout.contains(r#""action":"block""#), "{}", ok.stdout);
    let other = decide("search.table.json", "theirs.pub");
    assert_eq!(other.code, 2);
    assert!(
        other.stdout.contains("not trusted"),
        "{}",
        other.transcript()
    );

    // The attack: weaken the unknown-tool cell, recompute the digest, keep
    // the old signature beside it.
    let text = std::fs::read_to_string(p.join("search.table.json")).unwrap();
    let mut table: Table = serde_json::from_str(&text).unwrap();
    let cell = table
        .cells
        .iter_mut()
        .find(|c| c.rule_name == "unknown_tool")
        .expect("the unknown_tool cell");
    cell.action = stpc_runtime::Action::Allow;
    let resealed = table.seal().unwrap().to_json_pretty().unwrap() + "\n";
    std::fs::write(p.join("resealed.json"), resealed).unwrap();
    std::fs::copy(p.join("search.table.json.sig"), p.join("resealed.json.sig")).unwrap();
    // Without a signature requirement the digest alone accepts it, and it
    // allows the unknown tool: what the signature exists to stop.
    let open = stpc(
        p,
        &[
            "decide",
            "--format",
            "json",
            "--table",
            "resealed.json",
            "-",
        ],
        unknown,
    );
    assert!(
        open.stdout.contains(r#""action":"allow""#),
        "{}",
        open.transcript()
    );
    let refused = decide("resealed.json", "ours.pub");
    assert_eq!(refused.code, 2, "{}", refused.transcript());
    assert!(
        refused.stdout.contains("another table's digest"),
        "{}",
        refused.transcript()
    );
    assert!(!refused.stdout.contains(r#""action""#));
    // Unsigned: refused too.
    std::fs::remove_file(p.join("resealed.json.sig")).unwrap();
    let unsigned = decide("resealed.json", "ours.pub");
    assert_eq!(unsigned.code, 2);
    assert!(
        unsigned.stdout.contains("signature is required"),
        "{}",
        unsigned.transcript()
    );
}

/// Issue 16: with the audit on a full disk, events were refused but the
/// command exited 0. Every event the audit cannot record is blocked, the
/// stream goes on (tasks still begin and end), and the exit code is 1.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_blocks_every_event_and_fails_the_run() {
    let dir = workspace();
    let stream = [
        r#"{"tool": "search", "args": {"q": "weather"}, "destination": "engine", "mode": "committed"}"#,
        r#"{"tool": "search", "args": {"q": "weather"}, "destination": "engine", "mode": "committed", "task": "t2"}"#,
    ]
    .join("\n");
    let run = stpc(
        dir.path(),
        &[
            "decide",
            "--format",
            "json",
            "--table",
            "search.table.json",
            "--audit",
            "/dev/full",
            "--stream",
        ],
        &stream,
    );
    assert_eq!(run.code, 1, "{}", run.transcript());
    let lines = json_lines(&run.stdout);
    assert_eq!(lines.len(), 2, "{}", run.transcript());
    for l in &lines {
        assert_eq!(l["action"], "block", "{l}");
        assert_eq!(l["reason"], "audit_failed", "{l}");
    }
    assert!(
        run.stderr.contains("the audit failed 2 time(s)"),
        "{}",
        run.stderr
    );
}

/// Issue 16: `stpc diff --fail-on-weakening` exited 0 for weakenings outside
/// the cells. Each fixture under `tests/fixtures/diff/` weakens the paper's
/// contract one way; each is flagged, and the reverse change is not.
#[test]
fn diff_flags_weakenings_outside_the_cells() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let paper = root.join("examples/paper_web_search.stpc");
    let dir = tempfile::tempdir().unwrap();
    for (fixture, expect) in [
        ("budget-raised", "! weakening    budget: budget `sensitive_dispatches` allows more dispatches per task: 5 -> 50"),
        ("raw-args-granted", "! weakening    audit: raw arguments are granted to the audit sinks"),
        ("transform-swapped", "! weakening    rewrite: rule `scrub` rewrites using [\"redact_pii\"] instead of [\"generic_query\"]"),
        ("labeler-narrowed", "! weakening    labeler: the labelers differ:"),
    ] {
        let new = root.join(format!("tests/fixtures/diff/{fixture}.stpc"));
        let args = |a: &std::path::Path, b: &std::path::Path| {
            vec![
                "diff".to_owned(),
                "--fail-on-weakening".to_owned(),
                a.display().to_string(),
                b.display().to_string(),
            ]
        };
        let forward = args(&paper, &new);
        let run = stpc(dir.path(), &forward.iter().map(String::as_str).collect::<Vec<_>>(), "");
        assert_eq!(run.code, 1, "{fixture}: {}", run.transcript());
        assert!(run.stdout.contains(expect), "{fixture}: {}", run.stdout);
        if fixture != "transform-swapped" {
            let back = args(&new, &paper);
            let run = stpc(dir.path(), &back.iter().map(String::as_str).collect::<Vec<_>>(), "");
            assert_eq!(run.code, 0, "{fixture} reversed: {}", run.transcript());
            assert!(run.stdout.contains("strengthening"), "{fixture} reversed: {}", run.stdout);
        }
    }
}

/// Issue 16: nothing could re-verify a table without its source. `stpc
/// verify` re-checks a table alone: the compiled one is sound; one with the
/// unknown-tool cell weakened and its digest recomputed is reported, cell
/// and counterexample, with the compiler's codes.
#[test]
fn verify_rechecks_a_table_without_its_source() {
    use stpc_runtime::table::Table;
    let dir = workspace();
    let p = dir.path();
    let ok = stpc(p, &["verify", "search.table.json"], "");
    assert_eq!(ok.code, 0, "{}", ok.transcript());
    assert!(
        ok.stderr.contains("verified `search_policy`"),
        "{}",
        ok.stderr
    );
    let text = std::fs::read_to_string(p.join("search.table.json")).unwrap();
    let mut table: Table = serde_json::from_str(&text).unwrap();
    let cell = table
        .cells
        .iter_mut()
        .find(|c| c.rule_name == "unknown_tool")
        .unwrap();
    cell.action = stpc_runtime::Action::Allow;
    let resealed = table.seal().unwrap().to_json_pretty().unwrap() + "\n";
    std::fs::write(p.join("resealed.json"), resealed).unwrap();
    let bad = stpc(p, &["verify", "--format", "json", "resealed.json"], "");
    assert_eq!(bad.code, 1, "{}", bad.transcript());
    let codes = json_lines(&bad.stdout);
    let fail_closed = codes
        .iter()
        .find(|d| d["code"] == "E0603")
        .unwrap_or_else(|| panic!("{}", bad.stdout));
    assert!(fail_closed["message"]
        .as_str()
        .unwrap()
        .contains("`unknown_tool`"));
    assert!(
        fail_closed["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("counterexample: a call to an `<unknown>` tool"),
        "{fail_closed}"
    );
}

/// Issue 16: `verify_on_load`. `stpc decide --verify-on-load` runs the
/// checks of `stpc verify` before deciding: the compiled table decides, the
/// re-sealed one (which the digest alone accepts) is refused with its code,
/// and nothing is decided with it.
#[test]
fn decide_can_verify_the_table_on_load() {
    use stpc_runtime::table::Table;
    let dir = workspace();
    let p = dir.path();
    let unknown = r#"{"tool": "nope", "args": {}, "destination": "engine", "mode": "committed"}"#;
    let decide = |table: &str| {
        stpc(
            p,
            &[
                "decide",
                "--format",
                "json",
                "--verify-on-load",
                "--table",
                table,
                "-",
            ],
            unknown,
        )
    };
    let ok = decide("search.table.json");
    assert_eq!(ok.code, 0, "{}", ok.transcript());
    assert!(ok.stdout.contains(r#""action":"block""#), "{}", ok.stdout);
    let text = std::fs::read_to_string(p.join("search.table.json")).unwrap();
    let mut table: Table = serde_json::from_str(&text).unwrap();
    table
        .cells
        .iter_mut()
        .find(|c| c.rule_name == "unknown_tool")
        .unwrap()
        .action = stpc_runtime::Action::Allow;
    let resealed = table.seal().unwrap().to_json_pretty().unwrap() + "\n";
    std::fs::write(p.join("resealed.json"), resealed).unwrap();
    let refused = decide("resealed.json");
    assert_eq!(refused.code, 2, "{}", refused.transcript());
    assert!(
        refused.stdout.contains("does not verify") && refused.stdout.contains("E0603"),
        "{}",
        refused.transcript()
    );
    assert!(
        !refused.stdout.contains(r#""action""#),
        "{}",
        refused.stdout
    );
}

/// A transform that declares a public output but emits sensitive text: the
/// cell says REWRITE, the monitor refuses to dispatch it. `explain --event`
/// shows both, with the runtime's reason, and numbers the rule from 1 as
/// its generated name does.
#[test]
fn explain_shows_the_runtime_outcome_where_it_differs_from_the_cell() {
    let dir = workspace();
    let contract = r#"use std::labels;
use std::modes;
use std::observers;
use std::tools::{web_search, brave};
use std::labelers;

transform liar(text) -> public { constant "my eviction lawyer for my lease"; }

contract c {
    tools web_search;
    destinations brave;
    labelers std_args, std_destinations;
    forbid args >= sensitive at provider;
    decide {
        block unless tool allowed;
        block unless destination allowed;
        block when labels missing;
        rewrite using liar when args >= sensitive;
        allow;
    }
}
"#;
    std::fs::write(dir.path().join("liar.stpc"), contract).unwrap();
    let compiled = stpc(dir.path(), &["compile", "liar.stpc", "-o", "liar.json"], "");
    assert_eq!(compiled.code, 0, "{}", compiled.transcript());
    let event = r#"{"tool": "web_search", "args": {"q": "how do I break my lease early eviction"}, "destination": "brave", "mode": "committed", "confidence": 1.0}"#;
    let human = stpc(
        dir.path(),
        &["explain", "--table", "liar.json", "--event", "-"],
        event,
    );
    assert_eq!(human.code, 0, "{}", human.transcript());
    let first = human.stdout.lines().next().unwrap_or_default();
    assert_eq!(first, "REWRITE by rule 4 `rule#4` (cell 2 of contract `c`)");
    assert!(
        human.stdout.contains(
            "the runtime decides BLOCK (reason `rewrite_insufficient`): the cell says REWRITE"
        ),
        "{}",
        human.stdout
    );
    assert!(
        !human.stdout.contains("eviction lawyer"),
        "no argument text is printed"
    );
    let json = stpc(
        dir.path(),
        &[
            "explain",
            "--format",
            "json",
            "--table",
            "liar.json",
            "--event",
            "-",
        ],
        event,
    );
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(v["action"], "rewrite");
    assert_eq!(v["runtime"]["action"], "block");
    assert_eq!(v["runtime"]["reason"], "rewrite_insufficient");
    assert_eq!(
        v["runtime"]["rule_id"], v["rule_id"],
        "the same rule decided both"
    );
    // Where both agree, the human output adds nothing.
    let public = r#"{"tool": "web_search", "args": {"q": "weather"}, "destination": "brave", "mode": "committed", "confidence": 1.0}"#;
    let agree = stpc(
        dir.path(),
        &["explain", "--table", "liar.json", "--event", "-"],
        public,
    );
    assert!(
        agree.stdout.starts_with("ALLOW by rule 5 `rule#5`"),
        "{}",
        agree.stdout
    );
    assert!(
        !agree.stdout.contains("the runtime decides"),
        "{}",
        agree.stdout
    );
}

/// Issue 12, finding 1: a tool's own destinations are enforced. Under std
/// Naive, `brave` is allowed for `web_search`, but `email_send` declares
/// only `gmail` and `ms_graph`: an e-mail to the search engine is placed at
/// `<unknown>` and BLOCKed, even by a rule that names `brave` explicitly.
#[test]
fn a_call_goes_only_to_its_own_tools_destinations() {
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let naive = format!("{root}/../stdlib-contracts/policies/naive.stpc");
    let compiled = stpc(dir.path(), &["compile", &naive, "-o", "naive.json"], "");
    assert_eq!(compiled.code, 0, "{}", compiled.transcript());
    let to = |tool: &str, args: &str, dest: &str| {
        format!(
            r#"{{"tool": "{tool}", "args": {args}, "destination": "{dest}", "mode": "committed", "confidence": 1.0}}"#
        )
    };
    let mail = r#"{"recipient": "a@example.org", "subject": "hi", "body": "hello"}"#;
    let v = decide_one(
        dir.path(),
        "naive.json",
        &to(
            "email_send",
            mail,
            "https://api.brave.com/res/v1/web/search",
        ),
    );
    assert_eq!(v["action"], "block", "{v}");
    assert_eq!(v["rule_name"], "unknown_destination", "{v}");
    // The same e-mail to its own destination, and a search to brave, go out.
    let v = decide_one(
        dir.path(),
        "naive.json",
        &to("email_send", mail, "gmail.googleapis.com"),
    );
    assert_eq!(v["action"], "allow", "{v}");
    let v = decide_one(
        dir.path(),
        "naive.json",
        &to("web_search", r#"{"q": "weather"}"#, "api.brave.com"),
    );
    assert_eq!(v["action"], "allow", "{v}");

    // A rule that names the destination cannot reopen it for another tool.
    let contract = r#"use std::labels;
use std::modes;
use std::observers;
use std::tools::{web_search, email_send, brave, gmail};
use std::labelers;

contract mail_and_search {
    tools web_search, email_send;
    destinations brave, gmail;
    labelers std_args, std_destinations;
    forbid args >= sensitive at provider;
    decide {
        block unless tool allowed;
        block when labels missing;
        quick: allow when destination == brave and args <= public;
        block unless destination allowed;
        block when args >= sensitive;
        allow;
    }
}
"#;
    std::fs::write(dir.path().join("quick.stpc"), contract).unwrap();
    let compiled = stpc(
        dir.path(),
        &["compile", "quick.stpc", "-o", "quick.json"],
        "",
    );
    assert_eq!(compiled.code, 0, "{}", compiled.transcript());
    let verified = stpc(dir.path(), &["verify", "quick.json"], "");
    assert_eq!(verified.code, 0, "{}", verified.transcript());
    let v = decide_one(
        dir.path(),
        "quick.json",
        &to("email_send", mail, "api.brave.com"),
    );
    assert_eq!(v["action"], "block", "{v}");
    let v = decide_one(
        dir.path(),
        "quick.json",
        &to("web_search", r#"{"q": "weather"}"#, "api.brave.com"),
    );
    assert_eq!(v["rule_name"], "quick", "{v}");
}

/// Issue 12, finding 5: the verifier accepts REWRITE for a tool without
/// arguments because the runtime refuses what no transform can change; the
/// runtime does refuse it (BLOCK committed, DEFER speculative) and
/// dispatches the plain call.
#[test]
fn a_rewrite_that_cannot_change_anything_is_refused_not_dispatched() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(format!(
        "{}/../tests/fixtures/verify/rewrite-tool-without-arguments.stpc",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    std::fs::write(dir.path().join("c.stpc"), src).unwrap();
    let compiled = stpc(dir.path(), &["compile", "c.stpc", "-o", "c.json"], "");
    assert_eq!(compiled.code, 0, "{}", compiled.transcript());
    let decide = |event: &str| decide_one(dir.path(), "c.json", event);
    let plain = decide(
        r#"{"tool": "get_balance", "args": {}, "destination": "bank_api", "mode": "committed", "confidence": 1.0}"#,
    );
    assert_eq!(plain["action"], "allow", "{plain}");
    let keyed = r#"{"tool": "get_balance", "args": {"how do I break my lease early because of eviction": ""}, "destination": "bank_api", "mode": "MODE", "confidence": 0.9}"#;
    let committed = decide(&keyed.replace("MODE", "committed"));
    assert_eq!(committed["action"], "block", "{committed}");
    assert_eq!(committed["reason"], "rewrite_insufficient", "{committed}");
    let speculative = decide(&keyed.replace("MODE", "speculative"));
    assert_eq!(speculative["action"], "defer", "{speculative}");
}

/// `stpc compile -o` writes the labeler index beside the table and the
/// table names it; `stpc decide` uses it, and decides the same when it is
/// missing or refused (an edited index is reported, never used).
#[test]
fn the_labeler_index_beside_a_table_is_used_only_when_it_is_the_named_one() {
    let dir = workspace();
    let index = dir.path().join("search.table.index");
    let bytes = std::fs::read(&index).expect("compile -o writes the index");
    let table: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("search.table.json")).unwrap())
            .unwrap();
    assert_eq!(table["index"]["bytes"], bytes.len());
    assert_eq!(
        table["index"]["sha256"].as_str().unwrap(),
        stpc_runtime::label::index::sha256_hex(&bytes)
    );
    let decide = || {
        stpc(
            dir.path(),
            &["decide", "--table", "search.table.json", "-"],
            TOPICAL_SPECULATIVE,
        )
    };
    let with = decide();
    assert_eq!(with.code, 0, "{}", with.transcript());
    assert_eq!(with.stderr, "");
    let mut edited = bytes.clone();
    let last = edited.len() - 1;
    edited[last] ^= 0x40;
    std::fs::write(&index, &edited).unwrap();
    let refused = decide();
    assert_eq!(refused.code, 0, "{}", refused.transcript());
    assert_eq!(refused.stdout, with.stdout);
    assert!(
        refused
            .stderr
            .starts_with("warning: the labeler index `search.table.index` is not used"),
        "{}",
        refused.stderr
    );
    std::fs::remove_file(&index).unwrap();
    let missing = decide();
    assert_eq!(missing.code, 0, "{}", missing.transcript());
    assert_eq!(missing.stdout, with.stdout);
    assert_eq!(missing.stderr, "");
}
