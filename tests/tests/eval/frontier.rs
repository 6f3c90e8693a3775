//! Frontier files: the native format, every adapter, and bad lines.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code"
)]

use std::collections::BTreeMap;

use serde_json::json;
use stpc_eval::frontier::{detect, AdapterOptions, Format, Frontier};

const NATIVE: &str = r#"{"stpc_frontier":1}
# the lease vignette
{"task":"lease","label":"legal","commit_t_ms":400,"candidates":[{"id":"e1","tool":"web_search","destination":"api.brave.com","args":{"q":"tenant rights lease termination penalty"},"branch":"answer","confidence":0.9,"t_ms":100},{"id":"e2","tool":"web_search","destination":"api.brave.com","args":{"q":"available apartments near me"},"branch":"move","confidence":0.4},{"id":"e3","tool":"loan_rates","destination":"api.loanrates.example","args":{"q":"current personal loan rates"},"mode":"speculative","confidence":0.3}],"committed":{"branches":["answer"]}}

{"task":"two","candidates":[{"id":"a","tool":"web_search","destination":"brave","args":{},"mode":"committed"}]}
"#;

fn opts() -> AdapterOptions {
    AdapterOptions {
        destinations: BTreeMap::from([("web_search".to_owned(), "api.brave.com".to_owned())]),
    }
}

#[test]
fn native_format_parses_with_defaults() {
    let f = Frontier::from_jsonl(NATIVE).unwrap();
    assert_eq!(f.tasks.len(), 2);
    let t = &f.tasks[0];
    assert_eq!(t.label.as_deref(), Some("legal"));
    assert_eq!(
        t.candidates[2].branch, "e3",
        "branch defaults to the candidate id"
    );
    assert_eq!(t.candidates[1].mode, "speculative");
    assert_eq!(t.issue_ms(0), 100);
    assert_eq!(t.issue_ms(1), 150, "t_ms defaults to 100 + 50 * index");
    assert_eq!(t.commit_ms(), 400);
    assert_eq!(t.committed_branches(), ["answer"]);
    assert!(t.in_plan(0, &t.committed_branches()) && !t.in_plan(1, &t.committed_branches()));
    let two = &f.tasks[1];
    assert_eq!(two.candidates[0].branch, "main");
    assert!(
        two.in_plan(0, &two.committed_branches()),
        "committed-mode candidates are in the plan"
    );
    assert_eq!(two.commit_ms(), 150);
    assert_eq!(detect(NATIVE).unwrap(), Format::Frontier);
}

fn line_of(text: &str) -> (usize, String) {
    let e = Frontier::from_jsonl(text).unwrap_err();
    (e.line, e.to_string())
}

#[test]
fn bad_lines_are_errors_with_their_line_numbers() {
    let ok = r#"{"task":"a","candidates":[{"id":"x","tool":"t","destination":"d","args":{},"confidence":0.5}]}"#;
    let cases = [
        ("{not json", "not valid JSON"),
        (r#"{"task":"b"}"#, "not a frontier task"),
        (r#"{"task":"b","candidates":[]}"#, "no candidates"),
        (
            r#"{"task":"b","candidates":[{"id":"x","tool":"t","destination":"d","args":[],"confidence":0.5}]}"#,
            "must be a JSON object",
        ),
        (
            r#"{"task":"b","candidates":[{"id":"x","tool":"t","destination":"d","args":{},"confidence":1.5}]}"#,
            "confidence must be in [0, 1]",
        ),
        (
            r#"{"task":"b","candidates":[{"id":"x","tool":"t","destination":"d","args":{}}]}"#,
            "without `confidence`",
        ),
        (
            r#"{"task":"b","candidates":[{"id":"x","tool":"t","destination":"d","args":{},"confidence":0.5},{"id":"x","tool":"t","destination":"d","args":{},"confidence":0.5}]}"#,
            "duplicate candidate id",
        ),
        (
            r#"{"task":"b","candidates":[{"id":"x","tool":"t","destination":"d","args":{},"confidence":0.5}],"committed":{"branches":["nope"]}}"#,
            "committed branch `nope`",
        ),
        (
            r#"{"task":"b","candidates":[{"id":"x","tool":"t","destination":"d","args":{},"confidence":0.5}],"committed":{"candidates":["nope"]}}"#,
            "committed candidate `nope`",
        ),
        (
            r#"{"task":"b","candidates":[{"id":"x","tool":"t","destination":"d","args":{},"confidence":0.5,"extra":1}]}"#,
            "unknown field",
        ),
        (ok, "duplicate task id `a` (first on line 2)"),
    ];
    for (bad, msg) in cases {
        let text = format!("# header comment\n{ok}\n\n{bad}\n{ok}\n");
        let (line, m) = line_of(&text);
        assert_eq!(line, 4, "{bad}: {m}");
        assert!(m.starts_with("line 4: ") && m.contains(msg), "{bad}: {m}");
    }
    assert_eq!(line_of("{\"stpc_frontier\":2}\n").0, 1);
}

#[test]
fn errors_never_quote_argument_values() {
    let text = r#"{"task":"b","candidates":[{"id":"x","tool":"t","destination":"d","args":"my secret diagnosis","confidence":0.5}]}"#;
    let e = Frontier::from_jsonl(text).unwrap_err().to_string();
    assert!(!e.contains("secret"), "{e}");
    let e = Frontier::from_jsonl("{\"task\": \"my secret")
        .unwrap_err()
        .to_string();
    assert!(!e.contains("secret"), "{e}");
}

#[test]
fn openai_tool_calls_with_string_arguments() {
    let line = json!({
        "task": "t1", "label": "health",
        "messages": [
            {"role": "user", "content": "I found a lump"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "web_search", "arguments": "{\"q\":\"breast lump what next\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "doc_retrieval", "arguments": "{\"query\":\"oncology referral\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_1", "content": "..."}
        ],
        "speculation": {
            "call_1": {"mode": "speculative", "branch": "b1", "confidence": 0.8},
            "call_2": {"mode": "speculative", "branch": "b2", "confidence": 0.2, "destination": "oncology"}
        },
        "committed": ["call_1"]
    });
    let f = Frontier::parse(&format!("{line}\n"), Format::Auto, &opts()).unwrap();
    let t = &f.tasks[0];
    assert_eq!(t.candidates.len(), 2);
    assert_eq!(t.candidates[0].args, json!({"q": "breast lump what next"}));
    assert_eq!(t.candidates[0].destination, "api.brave.com");
    assert_eq!(t.candidates[1].destination, "oncology");
    assert_eq!(t.committed_branches(), ["b1"]);
    // Arguments that are not a JSON object string are an error on that line.
    let bad = line
        .to_string()
        .replace(r#"{\"q\":\"breast lump what next\"}"#, "not json");
    let e = Frontier::parse(&format!("\n{bad}\n"), Format::Openai, &opts()).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    // A tool without a destination is an error, not a silent drop.
    let e = Frontier::parse(
        &format!("{line}\n"),
        Format::Openai,
        &AdapterOptions::default(),
    )
    .unwrap_err();
    assert!(e.message.contains("no destination"), "{e}");
}

#[test]
fn mcp_tools_call_with_meta_and_commit_notifications() {
    let text = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "web_search", "arguments": {"q": "severance negotiation tips"},
            "_meta": {"stpc/task": "job", "stpc/branch": "b1", "stpc/mode": "speculative", "stpc/confidence": 0.3, "stpc/destination": "api.duckduckgo.com", "stpc/t_ms": 120}}}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}}),
        json!({"jsonrpc": "2.0", "id": "x2", "method": "tools/call", "params": {"name": "calendar_lookup", "arguments": {"who": "me"},
            "_meta": {"stpc/task": "job", "stpc/branch": "b2", "stpc/mode": "speculative", "stpc/confidence": 0.6, "stpc/destination": "calendar.googleapis.com"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/stpc/commit", "params": {"task": "job", "branches": ["b2"], "label": "employment", "t_ms": 500}}),
    ]
    .iter()
    .map(ToString::to_string)
    .collect::<Vec<_>>()
    .join("\n");
    assert_eq!(detect(&text).unwrap(), Format::Mcp);
    let f = Frontier::parse(&text, Format::Auto, &opts()).unwrap();
    let t = &f.tasks[0];
    assert_eq!(t.task, "job");
    assert_eq!(t.label.as_deref(), Some("employment"));
    assert_eq!(
        t.candidates
            .iter()
            .map(|c| c.id.as_str())
            .collect::<Vec<_>>(),
        ["1", "x2"]
    );
    assert_eq!(t.candidates[0].t_ms, Some(120));
    assert_eq!(t.commit_ms(), 500);
    assert_eq!(t.committed_branches(), ["b2"]);
    // A tools/call without stpc metadata (a log as MCP clients write it)
    // belongs to the task `session` and is committed.
    let plain = format!(
        "{text}\n{}",
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "web_search", "arguments": {}}})
    );
    let f = Frontier::parse(&plain, Format::Mcp, &opts()).unwrap();
    let session = f.tasks.iter().find(|t| t.task == "session").unwrap();
    assert_eq!(session.candidates.len(), 1);
    assert_eq!(session.candidates[0].mode, "committed");
    // A commit for an unknown task fails.
    let bad = json!({"jsonrpc": "2.0", "method": "notifications/stpc/commit", "params": {"task": "ghost"}}).to_string();
    assert_eq!(
        Frontier::parse(&bad, Format::Mcp, &opts())
            .unwrap_err()
            .line,
        1
    );
}

#[test]
fn agentdojo_function_calls() {
    let line = json!({
        "suite_name": "banking", "pipeline_name": "gpt-4o", "user_task_id": "user_task_3", "injection_task_id": null,
        "label": "financial",
        "messages": [
            {"role": "system", "content": "..."},
            {"role": "user", "content": "pay my rent"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"function": "get_most_recent_transactions", "args": {"n": 100}, "id": "c1", "placeholder_args": null},
                {"function": "send_money", "args": {"recipient": "GB29NWBK60161331926819", "amount": 1100, "subject": "rent"}, "id": "c2"}
            ]},
            {"role": "tool", "content": "...", "tool_call_id": "c1", "tool_call": {"function": "get_most_recent_transactions", "args": {"n": 100}}, "error": null}
        ],
        "speculation": {"c1": {"mode": "speculative", "branch": "look", "confidence": 0.5}},
        "utility": true, "security": true
    });
    let f = Frontier::parse(&line.to_string(), Format::Auto, &opts()).unwrap();
    let t = &f.tasks[0];
    assert_eq!(t.task, "banking/user_task_3");
    assert_eq!(t.candidates.len(), 2);
    assert_eq!(
        t.candidates[0].destination, "banking",
        "destination defaults to the suite"
    );
    assert_eq!(t.candidates[0].mode, "speculative");
    assert_eq!(
        t.candidates[1].mode, "committed",
        "calls without speculation fields are committed"
    );
    assert_eq!(t.candidates[1].args["amount"], json!(1100));
    let bad = line.to_string().replace("\"suite_name\":\"banking\",", "");
    assert_eq!(
        Frontier::parse(&format!("#c\n{bad}"), Format::Agentdojo, &opts())
            .unwrap_err()
            .line,
        2
    );
}

#[test]
fn undetectable_format_is_an_error() {
    let e = detect("\n{\"foo\": 1}\n").unwrap_err();
    assert_eq!(e.line, 2);
}
