//! `stpc replay` on traces as they are logged: provider API responses
//! (OpenAI `chat.completion`, Responses API, Anthropic messages, in the
//! shapes their documentation gives) and an MCP JSON-RPC log without stpc
//! metadata, each replayed against the contract `stpc import` made of the
//! same tools, with no `--destination` (each tool declares one).

#![expect(clippy::unwrap_used, reason = "a failed step fails the test")]

use serde_json::Value;

use crate::support::stpc;

fn copy(dir: &std::path::Path, rel: &str) -> String {
    let name = std::path::Path::new(rel)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel))
        .unwrap();
    std::fs::write(dir.join(&name), text).unwrap();
    name
}

/// The JSON replay report of `trace` against the contract imported from
/// `tools`.
fn replay(tools: &str, trace: &str, extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let tools = copy(dir.path(), tools);
    let trace = copy(dir.path(), trace);
    let run = stpc(dir.path(), &["import", &tools, "-o", "policy.stpc"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let mut args = vec![
        "replay",
        "--policy",
        "policy.stpc",
        "--no-progress",
        "--output-format",
        "json",
    ];
    args.extend_from_slice(extra);
    args.push(&trace);
    let run = stpc(dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    serde_json::from_str(&run.stdout).unwrap()
}

#[test]
fn a_raw_chat_completion_replays_each_tool_call() {
    let r = replay(
        "tests/cli/import/openai_chat.json",
        "tests/cli/traces/openai_chat_completion.jsonl",
        &[],
    );
    assert_eq!(
        (r["tasks"].as_u64(), r["candidates"].as_u64()),
        (Some(1), Some(2))
    );
    // The weather is allowed; the e-mail carrying a diagnosis is blocked.
    assert_eq!(r["decisions"], serde_json::json!({"allow": 1, "block": 1}));
    assert_eq!(r["speculative"], 0);
}

#[test]
fn responses_api_items_replay_grouped_by_their_task() {
    let r = replay(
        "tests/cli/import/openai_responses.json",
        "tests/cli/traces/openai_responses.jsonl",
        &["--input-format", "api"],
    );
    // The response names its task in `metadata`; the bare item is its own.
    assert_eq!(
        (r["tasks"].as_u64(), r["candidates"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(r["decisions"], serde_json::json!({"allow": 2}));
}

#[test]
fn anthropic_tool_use_blocks_replay() {
    let r = replay(
        "tests/cli/import/anthropic.json",
        "tests/cli/traces/anthropic_messages.jsonl",
        &[],
    );
    assert_eq!(
        (r["tasks"].as_u64(), r["candidates"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(r["decisions"], serde_json::json!({"allow": 2}));
}

#[test]
fn an_mcp_log_without_stpc_metadata_is_one_committed_session() {
    let r = replay(
        "tests/cli/import/mcp_response.json",
        "tests/cli/traces/mcp_session.jsonl",
        &[],
    );
    assert_eq!(
        (r["tasks"].as_u64(), r["candidates"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(r["speculative"], 0);
    let decided: u64 = r["decisions"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(Value::as_u64)
        .sum();
    assert_eq!(decided, 3, "{}", r["decisions"]);
}

#[test]
fn a_trace_that_is_not_a_provider_response_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let tools = copy(dir.path(), "tests/cli/import/anthropic.json");
    assert_eq!(
        stpc(dir.path(), &["import", &tools, "-o", "p.stpc"], "").code,
        0
    );
    std::fs::write(
        dir.path().join("t.jsonl"),
        "{\"type\": \"message\", \"content\": []}\n{\"object\": \"list\"}\n",
    )
    .unwrap();
    let run = stpc(
        dir.path(),
        &[
            "replay",
            "--policy",
            "p.stpc",
            "--no-progress",
            "--input-format",
            "api",
            "t.jsonl",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("line 2") && run.stderr.contains("not a provider response"),
        "{}",
        run.stderr
    );
}

#[test]
fn per_call_reports_each_candidate_its_outcome_and_what_each_observer_received() {
    let rows = replay(
        "tests/cli/import/mcp_response.json",
        "tests/cli/traces/mcp_speculative.jsonl",
        &["--per-call"],
    );
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    // A speculative read on the abandoned branch b1: allowed, sent, a ghost
    // call, and the provider received its field's label and the
    // destination's.
    let read = &rows[0];
    assert_eq!(
        (
            read["tool"].as_str(),
            read["decision"].as_str(),
            read["dispatch"].as_str()
        ),
        (Some("search_notes"), Some("allow"), Some("sent"))
    );
    assert_eq!(read["ghost"], true);
    let provider: Vec<&str> = read["received"]["provider"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        provider.iter().any(|f| f.starts_with("query=")),
        "{provider:?}"
    );
    assert!(
        provider.contains(&"<destination>=sensitive"),
        "{provider:?}"
    );
    // Labels, never values.
    assert!(!serde_json::to_string(&rows).unwrap().contains("grocery"));
    // A speculative write on the committed branch b2: deferred by its rule,
    // re-decided on promotion and sent; not a ghost.
    let write = &rows[1];
    assert_eq!(
        (
            write["decision"].as_str(),
            write["rule"].as_str(),
            write["promoted"].as_str()
        ),
        (Some("defer"), Some("writes_wait"), Some("allow"))
    );
    assert_eq!(write["dispatch"], "deferred, sent on promotion");
    assert_eq!(write["ghost"], false);
}
