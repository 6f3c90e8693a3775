//! The gateway's decision core without a transport: verdicts per action,
//! deferred calls held until promotion or abandonment, tasks kept apart.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a panic is a test failure"
)]

use std::sync::Arc;

use serde_json::{json, Map, Value};
use stpc_proxy::gateway::{Gateway, Verdict, ABANDONED, BLOCKED};
use stpc_proxy::meta::Speculation;
use stpc_runtime::{Engine, MemorySink};

const INTENT: &str = "tenant rights lease termination penalty";

fn gateway() -> (Gateway, MemorySink) {
    let opts = stpc_tests::web_search_table::Options::default();
    let table = stpc_tests::web_search_table::web_search_table(&opts);
    let sink = MemorySink::new();
    let g = Gateway::new(
        Arc::new(Engine::new(Arc::new(table)).unwrap()),
        "api.brave.com",
        Box::new(sink.handle()),
        Vec::new(),
    );
    (g, sink)
}

fn args(q: &str) -> Option<Map<String, Value>> {
    json!({ "q": q }).as_object().cloned()
}

fn spec(task: &str, branch: &str, mode: &str, confidence: f64) -> Speculation {
    Speculation {
        task: task.into(),
        branch: branch.into(),
        mode: mode.into(),
        confidence,
    }
}

#[test]
fn committed_calls_are_forwarded_and_rewritten_ones_carry_the_new_arguments() {
    let (g, audit) = gateway();
    let Verdict::Forward {
        arguments,
        task,
        dispatched,
        decision,
    } = g.call(
        "web_search",
        args("weather in lisbon"),
        &spec("t", "main", "committed", 1.0),
    )
    else {
        panic!("expected a forward");
    };
    assert_eq!(Value::Object(arguments), json!({"q": "weather in lisbon"}));
    assert_eq!(decision["action"], "allow");
    g.complete(&task, *dispatched);
    let Verdict::Forward {
        arguments,
        decision,
        ..
    } = g.call(
        "web_search",
        args(INTENT),
        &spec("t", "main", "committed", 1.0),
    )
    else {
        panic!("expected a rewrite");
    };
    assert_ne!(arguments["q"], json!(INTENT));
    assert_eq!(decision["action"], "rewrite");
    let stages: Vec<String> = audit
        .records()
        .iter()
        .map(|r| format!("{:?}", r.stage))
        .collect();
    assert_eq!(stages, ["Decided", "Completed", "Decided"]);
}

#[test]
fn unknown_tools_are_refused_without_their_arguments() {
    let (g, _) = gateway();
    let Verdict::Refuse {
        code,
        message,
        data,
    } = g.call(
        "delete_all",
        args(INTENT),
        &spec("t", "main", "committed", 1.0),
    )
    else {
        panic!("expected a refusal");
    };
    assert_eq!(code, BLOCKED);
    assert_eq!(data["action"], "block");
    assert!(!message.contains("tenant"));
}

#[tokio::test]
async fn held_calls_resolve_on_promotion_and_on_abandonment() {
    let (g, _) = gateway();
    let Verdict::Hold(promoted) = g.call(
        "web_search",
        args(INTENT),
        &spec("t", "b1", "speculative", 0.1),
    ) else {
        panic!("expected a hold");
    };
    let Verdict::Hold(dropped) = g.call(
        "web_search",
        args(INTENT),
        &spec("t", "b2", "speculative", 0.1),
    ) else {
        panic!("expected a hold");
    };
    // Another task's branch of the same name is not touched.
    let Verdict::Hold(other) = g.call(
        "web_search",
        args(INTENT),
        &spec("u", "b1", "speculative", 0.1),
    ) else {
        panic!("expected a hold");
    };
    assert_eq!(g.promote("t", "b1"), 1);
    match promoted.resolution.await.unwrap() {
        Verdict::Forward { arguments, .. } => assert_ne!(arguments["q"], json!(INTENT)),
        other => panic!("expected the promoted call to be sent, got {other:?}"),
    }
    assert_eq!(g.abandon("t", "b2"), 1);
    match dropped.resolution.await.unwrap() {
        Verdict::Refuse { code, .. } => assert_eq!(code, ABANDONED),
        other => panic!("expected the abandoned error, got {other:?}"),
    }
    assert_eq!(g.end_task("u"), 1);
    match other.resolution.await.unwrap() {
        Verdict::Refuse { code, .. } => assert_eq!(code, ABANDONED),
        other => panic!("expected the abandoned error, got {other:?}"),
    }
    // Settling what holds nothing is harmless.
    assert_eq!(g.promote("t", "b1"), 0);
    assert_eq!(g.abandon("nobody", "b9"), 0);
}

#[test]
fn completing_a_call_of_an_ended_task_does_not_start_it_again() {
    let (g, audit) = gateway();
    let Verdict::Forward {
        task, dispatched, ..
    } = g.call(
        "web_search",
        args("weather in lisbon"),
        &spec("t", "main", "committed", 1.0),
    )
    else {
        panic!("expected a forward");
    };
    assert_eq!(g.tasks().0, 1);
    g.end_task(&task);
    g.complete(&task, *dispatched);
    assert_eq!(g.tasks().0, 0, "completion started the task again");
    assert!(audit
        .records()
        .iter()
        .all(|r| format!("{:?}", r.stage) != "Completed"));
}

#[test]
fn a_slow_substitute_holds_its_own_task_and_no_other() {
    use std::sync::{mpsc, Mutex};
    use std::time::Duration;
    use stpc_proxy::gateway::Substitute;

    let (release, released) = mpsc::channel::<()>();
    let (entered, running) = mpsc::channel::<()>();
    let (released, entered) = (Mutex::new(released), Mutex::new(entered));
    let slow: Substitute = Arc::new(move |_| {
        let _ = entered.lock().unwrap().send(());
        let _ = released
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(20));
        Some(json!({"results": []}))
    });
    let opts = stpc_tests::web_search_table::Options {
        shadow: true,
        ..Default::default()
    };
    let table = stpc_tests::web_search_table::web_search_table(&opts);
    let g = Arc::new(Gateway::new(
        Arc::new(Engine::new(Arc::new(table)).unwrap()),
        "api.brave.com",
        Box::new(MemorySink::new().handle()),
        vec![("local_search".to_owned(), slow)],
    ));
    let ghost = {
        let g = Arc::clone(&g);
        std::thread::spawn(move || {
            g.call(
                "web_search",
                args(INTENT),
                &spec("a", "b1", "speculative", 0.9),
            )
        })
    };
    running
        .recv_timeout(Duration::from_secs(10))
        .expect("the substitute never ran");
    // While task `a`'s substitute runs, task `b` is decided.
    let (done, finished) = mpsc::channel();
    {
        let g = Arc::clone(&g);
        std::thread::spawn(move || {
            let v = g.call(
                "web_search",
                args("weather in lisbon"),
                &spec("b", "main", "committed", 1.0),
            );
            let _ = done.send(matches!(v, Verdict::Forward { .. }));
        });
    }
    let other = finished.recv_timeout(Duration::from_secs(10));
    release.send(()).unwrap();
    assert!(matches!(ghost.join().unwrap(), Verdict::Answer { .. }));
    assert_eq!(other, Ok(true), "task b waited for task a's substitute");
}
