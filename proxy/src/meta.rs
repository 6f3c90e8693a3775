//! Speculation over MCP: what a client says about a `tools/call` in its
//! `params._meta`, and the `stpc/` notifications that settle branches.
//!
//! ```json
//! {"method": "tools/call", "params": {"name": "search", "arguments": {...},
//!   "_meta": {"stpc/task": "t1", "stpc/branch": "b2",
//!             "stpc/mode": "speculative", "stpc/confidence": 0.4}}}
//! {"method": "notifications/stpc/promote", "params": {"task": "t1", "branch": "b2"}}
//! {"method": "notifications/stpc/abandon", "params": {"task": "t1", "branch": "b3"}}
//! {"method": "notifications/stpc/end_task", "params": {"task": "t1"}}
//! ```
//!
//! A call without `stpc/` keys is committed, on branch `main`, in the
//! session's own task. Nothing that decides is assumed beyond that: a call
//! that says it is not committed must say its confidence, and keys of the
//! wrong type are refused. The JSON Schema is `proxy/meta.schema.json`
//! (the keys, the notifications and the refusals).

use serde_json::{Map, Value};

/// The `_meta` keys stpc reads.
pub const TASK: &str = "stpc/task";
/// Branch of the speculative frontier.
pub const BRANCH: &str = "stpc/branch";
/// Execution mode.
pub const MODE: &str = "stpc/mode";
/// Calibrated probability that the branch commits.
pub const CONFIDENCE: &str = "stpc/confidence";

/// Notification methods.
pub const PROMOTE: &str = "notifications/stpc/promote";
/// Abandon a branch.
pub const ABANDON: &str = "notifications/stpc/abandon";
/// End a task.
pub const END_TASK: &str = "notifications/stpc/end_task";

/// Where a call stands on the speculative frontier.
#[derive(Clone, Debug, PartialEq)]
pub struct Speculation {
    /// Task (a session's own task when the client names none).
    pub task: String,
    /// Branch (`main` by default).
    pub branch: String,
    /// Mode (`committed` by default).
    pub mode: String,
    /// Confidence (1.0 for a committed call).
    pub confidence: f64,
}

fn string(meta: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match meta.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`_meta.{key}` must be a string")),
    }
}

/// The speculation of a call from its `_meta` (absent: committed).
///
/// # Errors
///
/// A key of the wrong type, a non-committed call without a confidence, or
/// a confidence that is not a finite number.
pub fn speculation(
    meta: Option<&Map<String, Value>>,
    session_task: &str,
) -> Result<Speculation, String> {
    let empty = Map::new();
    let meta = meta.unwrap_or(&empty);
    let task = string(meta, TASK)?.unwrap_or_else(|| session_task.to_owned());
    let branch = string(meta, BRANCH)?.unwrap_or_else(|| "main".to_owned());
    let mode = string(meta, MODE)?.unwrap_or_else(|| "committed".to_owned());
    let confidence = match meta.get(CONFIDENCE) {
        None | Some(Value::Null) if mode == "committed" => 1.0,
        None | Some(Value::Null) => {
            return Err(format!(
                "a `{mode}` call must say its `_meta.{CONFIDENCE}`; stpc never assumes one"
            ))
        }
        Some(v) => v
            .as_f64()
            .filter(|c| c.is_finite())
            .ok_or_else(|| format!("`_meta.{CONFIDENCE}` must be a finite number"))?,
    };
    Ok(Speculation {
        task,
        branch,
        mode,
        confidence,
    })
}

/// A settling notification's task and branch.
///
/// # Errors
///
/// The params are not `{"task"?: string, "branch": string}` (`branch` not
/// required for `end_task`).
pub fn settle(
    params: Option<&Value>,
    session_task: &str,
    needs_branch: bool,
) -> Result<(String, String), String> {
    let empty = Map::new();
    let p = match params {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(m)) => m,
        Some(_) => return Err("params must be an object".to_owned()),
    };
    let task = string(p, "task")?.unwrap_or_else(|| session_task.to_owned());
    let branch = string(p, "branch")?;
    match branch {
        Some(b) => Ok((task, b)),
        None if !needs_branch => Ok((task, String::new())),
        None => Err("params.branch is required".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test code")]

    use super::*;
    use serde_json::json;

    fn meta(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn no_meta_is_a_committed_call_in_the_sessions_task() {
        let s = speculation(None, "session-1").unwrap();
        assert_eq!(
            s,
            Speculation {
                task: "session-1".into(),
                branch: "main".into(),
                mode: "committed".into(),
                confidence: 1.0
            }
        );
    }

    #[test]
    fn speculative_calls_say_their_branch_and_confidence() {
        let m = meta(
            json!({"stpc/task": "t", "stpc/branch": "b2", "stpc/mode": "speculative", "stpc/confidence": 0.4, "progressToken": 3}),
        );
        let s = speculation(Some(&m), "session").unwrap();
        assert_eq!(
            (
                s.task.as_str(),
                s.branch.as_str(),
                s.mode.as_str(),
                s.confidence
            ),
            ("t", "b2", "speculative", 0.4)
        );
    }

    #[test]
    fn nothing_that_decides_is_assumed() {
        for bad in [
            json!({"stpc/mode": "speculative"}),
            json!({"stpc/mode": "speculative", "stpc/confidence": "high"}),
            json!({"stpc/mode": 3}),
            json!({"stpc/branch": ["b"]}),
        ] {
            assert!(speculation(Some(&meta(bad.clone())), "s").is_err(), "{bad}");
        }
    }

    #[test]
    fn settling_notifications_name_a_branch() {
        assert_eq!(
            settle(Some(&json!({"branch": "b"})), "s", true).unwrap(),
            ("s".into(), "b".into())
        );
        assert_eq!(
            settle(Some(&json!({"task": "t"})), "s", false).unwrap(),
            ("t".into(), String::new())
        );
        assert!(settle(Some(&json!({"task": "t"})), "s", true).is_err());
        assert!(settle(Some(&json!([1])), "s", true).is_err());
    }
}
