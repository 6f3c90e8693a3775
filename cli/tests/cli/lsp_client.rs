//! A small LSP client that drives `stpc lsp` as an editor would: framed
//! JSON-RPC over the child's stdio (with `lsp-server`'s own framing), a
//! reader thread, requests answered by id, notifications kept in order.
//! Shared by the end-to-end suite (`lsp.rs`) and the latency benchmark
//! (`benches/lsp.rs`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test client: any failure fails the test"
)]
#![allow(dead_code, reason = "the suite and the benchmark use different parts")]

use std::collections::VecDeque;
use std::io::BufReader;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{json, Value};

/// Longest the client waits for one answer.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running `stpc lsp` and its pipes.
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Message>,
    /// What the server wrote to stderr (complete once it has exited).
    pub stderr: std::sync::Arc<std::sync::Mutex<String>>,
    /// Notifications received and not yet taken.
    pub notifications: VecDeque<Notification>,
    next_id: i32,
}

impl Client {
    /// Starts `stpc lsp` and completes the initialize handshake. With
    /// `utf8`, the client offers UTF-8 positions.
    pub fn start(utf8: bool) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stpc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
            sink.lock().unwrap().push_str(&text);
        });
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(m)) = Message::read(&mut reader) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            incoming,
            stderr,
            notifications: VecDeque::new(),
            next_id: 0,
        };
        let encodings = if utf8 {
            json!(["utf-8", "utf-16"])
        } else {
            json!(["utf-16"])
        };
        let init = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": {"general": {"positionEncodings": encodings}},
            }),
        );
        assert!(
            init["capabilities"]["hoverProvider"]
                .as_bool()
                .unwrap_or(false),
            "{init}"
        );
        client.notify("initialized", json!({}));
        client
    }

    /// Sends a request and waits for its result (errors are returned as
    /// `{"error": ...}`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.send(Message::Request(Request::new(
            id.clone(),
            method.to_owned(),
            params,
        )));
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.next_message(deadline) {
                Message::Response(r) if r.id == id => {
                    return match r.error {
                        Some(e) => json!({"error": {"code": e.code, "message": e.message}}),
                        None => r.result.unwrap_or(Value::Null),
                    };
                }
                Message::Notification(n) => self.notifications.push_back(n),
                _ => {}
            }
        }
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(
            method.to_owned(),
            params,
        )));
    }

    /// Sends raw bytes, framed or not (hostile input).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, m: Message) {
        m.write(&mut self.stdin).unwrap();
    }

    fn next_message(&mut self, deadline: Instant) -> Message {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => panic!("stpc lsp did not answer in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("stpc lsp closed its output"),
        }
    }

    /// Waits for the diagnostics of `uri` at `version` (earlier ones are
    /// dropped).
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            while let Some(n) = self.notifications.pop_front() {
                if n.method == "textDocument/publishDiagnostics"
                    && n.params["uri"] == uri
                    && n.params["version"].as_i64() == Some(version)
                {
                    return n.params["diagnostics"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                }
            }
            let m = self.next_message(deadline);
            if let Message::Notification(n) = m {
                self.notifications.push_back(n);
            }
        }
    }

    /// Opens a document.
    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "stpc", "version": 1, "text": text}}),
        );
    }

    /// Replaces a document's whole text.
    pub fn replace(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"text": text}]}),
        );
    }

    /// Shuts the server down and returns its exit code.
    pub fn shutdown(mut self) -> i32 {
        let r = self.request("shutdown", Value::Null);
        assert!(r.is_null(), "{r}");
        self.notify("exit", Value::Null);
        self.wait()
    }

    /// Waits for the server to exit and returns its exit code.
    pub fn wait(&mut self) -> i32 {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "stpc lsp did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// A `file:` URI for a path.
pub fn uri(path: &std::path::Path) -> String {
    lsp_types::Url::from_file_path(path).unwrap().to_string()
}
