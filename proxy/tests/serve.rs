//! `stpc serve`'s HTTP API on its router, without a socket: every outcome,
//! settling, completion, refusals of bad input without its values, the Host
//! check, reloads that never move a task to another table, and every
//! response checked against the OpenAPI description's schemas.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a panic is a test failure"
)]

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use stpc_proxy::gateway::{Gateway, Substitute};
use stpc_proxy::serve::{Sidecar, OPENAPI};
use stpc_runtime::{Engine, MemorySink};
use stpc_tests::web_search_table::{web_search_table, Options};
use tower::ServiceExt;

const INTENT: &str = "tenant rights lease termination penalty";

fn engine(opts: &Options) -> Arc<Engine> {
    Arc::new(Engine::new(Arc::new(web_search_table(opts))).unwrap())
}

fn sidecar(opts: &Options) -> (Arc<Sidecar>, MemorySink) {
    let sink = MemorySink::new();
    let local: Substitute = Arc::new(|_| Some(json!({"results": ["local"]})));
    let g = Gateway::new(
        engine(opts),
        "",
        Box::new(sink.handle()),
        vec![("local_search".to_owned(), local)],
    );
    (
        Sidecar::new(Arc::new(g), vec!["agents.internal".into()]),
        sink,
    )
}

/// The OpenAPI schema `name`, as a validator.
fn schema(name: &str) -> jsonschema::Validator {
    let doc: Value = serde_json::from_str(OPENAPI).unwrap();
    let root = json!({
        "$ref": format!("#/components/schemas/{name}"),
        "components": doc["components"],
    });
    jsonschema::validator_for(&root).unwrap()
}

async fn send(
    s: &Arc<Sidecar>,
    method: &str,
    path: &str,
    body: &str,
    host: &str,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", host)
        .header("content-type", "application/json")
        .body(Body::from(body.to_owned()))
        .unwrap();
    let response = s.router().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value)
}

async fn post(s: &Arc<Sidecar>, path: &str, body: Value) -> Value {
    let (status, v) = send(s, "POST", path, &body.to_string(), "127.0.0.1:8787").await;
    assert_eq!(status, StatusCode::OK, "{path}: {v}");
    v
}

async fn decide(s: &Arc<Sidecar>, event: Value) -> Value {
    let v = post(s, "/v1/decide", event).await;
    let errors: Vec<String> = schema("Decision")
        .iter_errors(&v)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{v} breaks the Decision schema: {errors:?}"
    );
    v
}

fn call(task: &str, q: &str, mode: &str, confidence: f64, branch: &str) -> Value {
    json!({"task": task, "tool": "web_search", "args": {"q": q},
           "destination": "api.brave.com", "mode": mode,
           "confidence": confidence, "branch": branch})
}

fn settled(v: &Value) {
    let errors: Vec<String> = schema("Settled")
        .iter_errors(v)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{v} breaks the Settled schema: {errors:?}"
    );
}

#[tokio::test]
async fn every_outcome_of_a_decision() {
    let (s, _) = sidecar(&Options {
        shadow: true,
        ..Options::default()
    });
    let allow = decide(&s, call("t", "weather in lisbon", "committed", 1.0, "main")).await;
    assert_eq!(allow["outcome"], "dispatch");
    assert_eq!(allow["action"], "allow");
    assert_eq!(allow["arguments"], json!({"q": "weather in lisbon"}));
    assert_eq!(allow["destination"], "brave");
    let rewrite = decide(&s, call("t", INTENT, "committed", 1.0, "main")).await;
    assert_eq!(rewrite["action"], "rewrite");
    assert_eq!(rewrite["outcome"], "dispatch");
    assert_ne!(rewrite["arguments"]["q"], json!(INTENT));
    let shadow = decide(&s, call("t", INTENT, "speculative", 0.9, "b1")).await;
    assert_eq!(shadow["action"], "shadow");
    assert_eq!(shadow["outcome"], "answer");
    assert_eq!(shadow["result"], json!({"results": ["local"]}));
    let block = decide(
        &s,
        json!({"task": "t", "tool": "delete_everything", "args": {"q": INTENT},
               "destination": "api.brave.com", "mode": "committed"}),
    )
    .await;
    assert_eq!(block["outcome"], "refused");
    assert_eq!(block["action"], "block");
    assert!(!block.to_string().contains("tenant"), "{block}");
    let unknown = decide(
        &s,
        json!({"task": "t", "tool": "web_search", "args": {"q": "x"},
               "destination": "exfil.example", "mode": "committed"}),
    )
    .await;
    assert_eq!(
        unknown["outcome"], "refused",
        "an unknown destination fails closed"
    );
    // Every decision names the table that made it, and echoes the id.
    let with_id = decide(
        &s,
        json!({"id": 7, "tool": "web_search", "args": {"q": "x"},
               "destination": "api.brave.com", "mode": "committed"}),
    )
    .await;
    assert_eq!(with_id["id"], 7);
    assert_eq!(with_id["task"], "default");
    assert_eq!(with_id["table"], json!(s.gateway().engine().table().digest));
}

#[tokio::test]
async fn held_calls_are_released_by_promotion_and_dropped_by_abandonment() {
    let (s, audit) = sidecar(&Options::default());
    let held = decide(&s, call("t", INTENT, "speculative", 0.2, "b1")).await;
    assert_eq!(held["outcome"], "held");
    assert_eq!(held["action"], "defer");
    let other = decide(&s, call("t", INTENT, "speculative", 0.2, "b2")).await;
    assert_eq!(other["outcome"], "held");
    let promoted = post(&s, "/v1/tasks/t/promote", json!({"branch": "b1"})).await;
    settled(&promoted);
    let released = promoted["released"].as_array().unwrap();
    assert_eq!(released.len(), 1, "{promoted}");
    assert_eq!(released[0]["seq"], held["seq"]);
    assert_eq!(released[0]["outcome"], "dispatch");
    assert_ne!(released[0]["arguments"]["q"], json!(INTENT));
    // A call on the promoted branch decided later is committed.
    let late = decide(&s, call("t", INTENT, "speculative", 0.2, "b1")).await;
    assert_eq!(late["outcome"], "dispatch", "{late}");
    let abandoned = post(&s, "/v1/tasks/t/abandon", json!({"branch": "b2"})).await;
    settled(&abandoned);
    assert_eq!(abandoned["dropped"], json!([other["seq"]]));
    assert_eq!(abandoned["released"], json!([]));
    // A call on the abandoned branch decided later never goes out.
    let after = decide(&s, call("t", INTENT, "speculative", 0.9, "b2")).await;
    assert_eq!(after["outcome"], "refused", "{after}");
    // Completion is audited once, for a dispatched call only.
    let seq = released[0]["seq"].clone();
    let done = post(&s, "/v1/tasks/t/complete", json!({"seq": seq})).await;
    assert_eq!(done, json!({"completed": true}));
    let again = post(&s, "/v1/tasks/t/complete", json!({"seq": seq})).await;
    assert_eq!(again, json!({"completed": false}));
    let completed = audit
        .records()
        .iter()
        .filter(|r| format!("{:?}", r.stage) == "Completed")
        .count();
    assert_eq!(completed, 1);
    // Ending the task drops what it still holds.
    let held = decide(&s, call("t", INTENT, "speculative", 0.2, "b3")).await;
    let ended = post(&s, "/v1/tasks/t/end", json!({})).await;
    settled(&ended);
    assert_eq!(ended["dropped"], json!([held["seq"]]));
    // No audit record carries the raw speculative text.
    for r in audit.records() {
        let text = format!("{r:?}");
        assert!(!text.contains("tenant rights"), "{text}");
    }
}

#[tokio::test]
async fn bad_input_is_refused_with_a_reason_and_without_its_values() {
    let (s, _) = sidecar(&Options::default());
    let error = schema("Error");
    for (body, code) in [
        ("{", "invalid_event"),
        ("[]", "invalid_event"),
        (
            r#"{"tool":"web_search","args":{"q":"secret words"},"destination":"api.brave.com"}"#,
            "invalid_event",
        ),
        (
            r#"{"tool":"web_search","args":{"q":"x"},"destination":"api.brave.com","mode":"speculative"}"#,
            "invalid_event",
        ),
        (
            r#"{"tool":"web_search","args":{"q":"x"},"destination":"api.brave.com","mode":"speculative","confidence":"secret words"}"#,
            "invalid_event",
        ),
        (
            r#"{"tool":"web_search","args":"secret words","destination":"api.brave.com","mode":"committed"}"#,
            "invalid_event",
        ),
        (
            r#"{"tool":"web_search","args":["secret words"],"destination":"api.brave.com","mode":"committed"}"#,
            "invalid_event",
        ),
        (
            r#"{"tool":"web_search","destination":"api.brave.com","mode":"committed","labels":{}}"#,
            "invalid_event",
        ),
        (
            r#"{"tool":"web_search","destination":"api.brave.com","mode":"committed","secret words":1}"#,
            "invalid_event",
        ),
    ] {
        let (status, v) = send(&s, "POST", "/v1/decide", body, "localhost").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["error"]["code"], code, "{body}: {v}");
        assert!(error.is_valid(&v), "{v}");
        assert!(!v.to_string().contains("secret"), "{body}: {v}");
    }
    for (path, body) in [
        ("/v1/tasks/t/promote", "{}"),
        ("/v1/tasks/t/promote", r#"{"branch": 3}"#),
        ("/v1/tasks/t/abandon", "not json"),
        ("/v1/tasks/t/complete", r#"{"seq": "x"}"#),
    ] {
        let (status, v) = send(&s, "POST", path, body, "localhost").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path} {body}: {v}");
        assert_eq!(v["error"]["code"], "invalid_body");
        assert!(error.is_valid(&v), "{v}");
    }
    let huge = format!(r#"{{"tool":"t","args":{{"q":"{}"}}}}"#, "x".repeat(2 << 20));
    let (status, _) = send(&s, "POST", "/v1/decide", &huge, "localhost").await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn only_loopback_and_allowed_hosts_are_served() {
    let (s, _) = sidecar(&Options::default());
    for host in [
        "localhost",
        "localhost:8787",
        "127.0.0.1:1",
        "[::1]:8787",
        "agents.internal",
    ] {
        let (status, v) = send(&s, "GET", "/v1/health", "", host).await;
        assert_eq!(status, StatusCode::OK, "{host}");
        assert_eq!(v, json!({"status": "ok"}));
    }
    for host in [
        "evil.example",
        "localhost.evil.example",
        "127.0.0.1.nip.io:80",
        "",
    ] {
        let (status, v) = send(&s, "GET", "/v1/health", "", host).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}");
        assert_eq!(v["error"]["code"], "forbidden_host");
    }
}

#[tokio::test]
async fn a_reload_applies_to_new_tasks_and_never_moves_an_open_one() {
    let (s, _) = sidecar(&Options::default());
    let old = s.gateway().engine().table().digest.clone();
    let before = decide(&s, call("old", INTENT, "speculative", 0.2, "b1")).await;
    assert_eq!(before["table"], json!(old));
    let stricter = engine(&Options {
        budget_limit: 1,
        ..Options::default()
    });
    let new = stricter.table().digest.clone();
    assert_ne!(new, old);
    s.reload(stricter);
    let (_, info) = send(&s, "GET", "/v1/table", "", "localhost").await;
    assert!(schema("TableInfo").is_valid(&info), "{info}");
    assert_eq!(info["digest"], json!(new));
    assert_eq!(info["reloads"], 1);
    assert_eq!(info["tasks_on_older_tables"], 1);
    // The open task keeps its table, and its held call is released by it.
    let still = decide(&s, call("old", "weather", "committed", 1.0, "main")).await;
    assert_eq!(still["table"], json!(old));
    let promoted = post(&s, "/v1/tasks/old/promote", json!({"branch": "b1"})).await;
    assert_eq!(promoted["released"][0]["table"], json!(old));
    let fresh = decide(&s, call("new", "weather", "committed", 1.0, "main")).await;
    assert_eq!(fresh["table"], json!(new));
    // Once it ends, the task starts again on the new table.
    post(&s, "/v1/tasks/old/end", json!({})).await;
    let restarted = decide(&s, call("old", "weather", "committed", 1.0, "main")).await;
    assert_eq!(restarted["table"], json!(new));
    s.refused("the new table's digest does not match".into());
    let (_, info) = send(&s, "GET", "/v1/table", "", "localhost").await;
    assert_eq!(info["digest"], json!(new));
    assert_eq!(
        info["last_reload_error"],
        "the new table's digest does not match"
    );
}

#[tokio::test]
async fn every_documented_route_is_served_and_nothing_else() {
    let (s, _) = sidecar(&Options::default());
    // The schemas check something: a dispatch without what to send, or an
    // outcome the API does not have, is not a Decision.
    let decision = schema("Decision");
    assert!(!decision.is_valid(&json!({"task": "t", "table": "d", "outcome": "dispatch"})));
    assert!(!decision.is_valid(&json!({"task": "t", "table": "d", "outcome": "maybe"})));
    assert!(
        decision.is_valid(&json!({"task": "t", "table": "d", "outcome": "refused",
        "error": {"code": -32001, "message": "m"}}))
    );
    let doc: Value = serde_json::from_str(OPENAPI).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    assert_eq!(paths.len(), 8);
    for (path, ops) in paths {
        for method in ops.as_object().unwrap().keys() {
            let concrete = path.replace("{task}", "t");
            let body = if concrete.ends_with("/decide") {
                r#"{"tool":"web_search","destination":"api.brave.com","mode":"committed"}"#
            } else if concrete.ends_with("/complete") {
                r#"{"seq": 0}"#
            } else {
                r#"{"branch": "b"}"#
            };
            let (status, _) = send(&s, &method.to_uppercase(), &concrete, body, "localhost").await;
            assert_eq!(status, StatusCode::OK, "{method} {path}");
        }
    }
    let (status, v) = send(&s, "GET", "/v2/decide", "", "localhost").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(schema("Error").is_valid(&v));
    let (status, _) = send(&s, "GET", "/v1/decide", "", "localhost").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}
