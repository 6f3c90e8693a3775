//! The audit hook: what the monitor records about each event, and where.
//!
//! A record carries the decision and its provenance (rule id and name, a
//! reason code), the per-field labels, and, for each field a REWRITE changed,
//! the names of the transforms applied to it — never the new value, which
//! keeps every part of the raw value a transform did not replace. Raw
//! argument values appear only when the contract's audit policy says `with
//! raw args` **and** the event is committed: raw arguments of speculative
//! events never persist. Destinations are recorded by their declared name, or
//! as `<unknown>`, never as the raw string the agent passed (a URL can carry a
//! query).
//!
//! `Debug` on [`AuditRecord`] prints the sizes of value-carrying fields only,
//! so a record in a log line or panic message cannot leak.
//!
//! Two sinks ship: [`JsonLinesSink`] appends one JSON object per line and
//! flushes before the monitor hands out a ticket (so a crash cannot dispatch
//! an unaudited event), and [`MemorySink`] keeps records in memory for tests
//! and embedders that forward them elsewhere. With `scrub after commit`, the
//! monitor calls [`AuditSink::scrub`] at the end of the task, which removes
//! that task's raw arguments.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::AuditError;
use crate::table::Action;

/// Where in its life an event was when the record was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The monitor decided the event.
    Decided,
    /// The embedder reported the dispatched call complete.
    Completed,
    /// The event's branch was abandoned while it was deferred or shadowed.
    Abandoned,
}

/// One label binding in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct FieldLabel {
    /// Field name.
    pub field: String,
    /// Label name.
    pub label: String,
}

/// One audit record.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct AuditRecord {
    /// Task id.
    pub task: String,
    /// Branch id.
    pub branch: String,
    /// Event sequence number within the monitor.
    pub seq: u64,
    /// Life stage.
    pub stage: Stage,
    /// Tool name.
    pub tool: String,
    /// Declared destination name, or `<unknown>`.
    pub destination: String,
    /// Mode the event was decided in.
    pub mode: String,
    /// Action taken (for `decided`).
    pub action: Option<Action>,
    /// Rule that produced the decision.
    pub rule_id: Option<u32>,
    /// Its name.
    pub rule_name: Option<String>,
    /// Reason code (`rule`, `invalid_event`, `rewrite_insufficient`, ...).
    pub reason: Option<String>,
    /// Per-field labels before any rewrite.
    pub labels: Vec<FieldLabel>,
    /// Joined argument label name (`<missing>` when absent).
    pub arg_label: Option<String>,
    /// Destination label name.
    pub dest_label: Option<String>,
    /// Fields a REWRITE changed, each with the names of the transforms
    /// applied to it (a JSON array of strings), never the new value.
    pub transformed: BTreeMap<String, Value>,
    /// Raw arguments: only committed events, only `with raw args`.
    pub raw_args: Option<Value>,
}

impl std::fmt::Debug for AuditRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditRecord")
            .field("task", &self.task)
            .field("branch", &self.branch)
            .field("seq", &self.seq)
            .field("stage", &self.stage)
            .field("tool", &self.tool)
            .field("destination", &self.destination)
            .field("mode", &self.mode)
            .field("action", &self.action)
            .field("rule_id", &self.rule_id)
            .field("rule_name", &self.rule_name)
            .field("reason", &self.reason)
            .field("labels", &self.labels)
            .field(
                "transformed",
                &format_args!("<{} fields>", self.transformed.len()),
            )
            .field(
                "raw_args",
                &format_args!(
                    "<{}>",
                    if self.raw_args.is_some() {
                        "present"
                    } else {
                        "absent"
                    }
                ),
            )
            .finish()
    }
}

/// Where audit records go. Implementations must be durable enough for the
/// embedder's needs before returning `Ok`: the monitor dispatches only after.
pub trait AuditSink {
    /// Record one event.
    ///
    /// # Errors
    ///
    /// Any failure; the monitor then blocks the event (fail closed).
    fn record(&mut self, rec: &AuditRecord) -> Result<(), AuditError>;

    /// Remove the raw arguments of a finished task (`scrub after commit`).
    ///
    /// # Errors
    ///
    /// Any failure; `end_task` reports it.
    fn scrub(&mut self, task: &str) -> Result<(), AuditError> {
        let _ = task;
        Ok(())
    }
}

/// Records kept in memory, readable through a shared handle.
#[derive(Debug, Default, Clone)]
pub struct MemorySink {
    records: Arc<Mutex<Vec<AuditRecord>>>,
}

impl MemorySink {
    /// An empty sink.
    #[must_use]
    pub fn new() -> MemorySink {
        MemorySink::default()
    }

    /// A handle that sees the same records (keep one before boxing the sink).
    #[must_use]
    pub fn handle(&self) -> MemorySink {
        self.clone()
    }

    /// A copy of the records so far.
    #[must_use]
    pub fn records(&self) -> Vec<AuditRecord> {
        self.records
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl AuditSink for MemorySink {
    fn record(&mut self, rec: &AuditRecord) -> Result<(), AuditError> {
        self.records
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(rec.clone());
        Ok(())
    }

    fn scrub(&mut self, task: &str) -> Result<(), AuditError> {
        let mut records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
        for r in records.iter_mut().filter(|r| r.task == task) {
            r.raw_args = None;
        }
        Ok(())
    }
}

/// Appends one JSON object per line to a file.
#[derive(Debug)]
pub struct JsonLinesSink {
    path: PathBuf,
    file: File,
    skipped: usize,
}

impl JsonLinesSink {
    /// Open (creating if needed) a file for appending.
    ///
    /// # Errors
    ///
    /// The file cannot be opened.
    pub fn open(path: impl AsRef<Path>) -> Result<JsonLinesSink, AuditError> {
        let path = path.as_ref().to_path_buf();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(&path)?;
        let skipped = usize::from(cut_torn_tail(&file)?);
        Ok(JsonLinesSink {
            path,
            file,
            skipped,
        })
    }

    /// Lines that were not records (a line torn by a crash or a full disk
    /// in an earlier run) and that [`AuditSink::scrub`] dropped, so far.
    #[must_use]
    pub fn skipped_lines(&self) -> usize {
        self.skipped
    }

    fn rewrite_scrubbed(&mut self, task: &str, tmp: &Path) -> Result<(), AuditError> {
        let reader = BufReader::new(File::open(&self.path)?);
        let mut out = File::create(tmp)?;
        for line in reader.split(b'\n') {
            let line = line?;
            // A line that is not a record (torn by a crash or a full disk)
            // is dropped and counted: it may hold half of a raw value, and
            // it must not stop every later scrub.
            let Ok(mut rec) = serde_json::from_slice::<AuditRecord>(&line) else {
                if !line.is_empty() {
                    self.skipped += 1;
                }
                continue;
            };
            if rec.task == task {
                rec.raw_args = None;
            }
            let mut bytes = serde_json::to_vec(&rec).map_err(|_| AuditError::Encode)?;
            bytes.push(b'\n');
            out.write_all(&bytes)?;
        }
        out.sync_all()?;
        Ok(())
    }
}

/// Cuts a last line without its newline (a record torn by a crash or a full
/// disk in an earlier run) off the file, so the next record starts on a line
/// of its own instead of being glued to garbage and lost. Returns whether a
/// tail was cut.
fn cut_torn_tail(file: &File) -> Result<bool, AuditError> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(false);
    }
    let mut reader = file;
    let mut last = [0_u8; 1];
    reader.seek(SeekFrom::Start(len - 1))?;
    reader.read_exact(&mut last)?;
    if last[0] == b'\n' {
        return Ok(false);
    }
    // Back to the last newline, a block at a time.
    let mut end = len;
    let mut block = vec![0_u8; 64 * 1024];
    let keep = loop {
        let start = end.saturating_sub(block.len() as u64);
        let n = usize::try_from(end - start).unwrap_or(0);
        let buf = block.get_mut(..n).unwrap_or_default();
        reader.seek(SeekFrom::Start(start))?;
        reader.read_exact(buf)?;
        if let Some(i) = buf.iter().rposition(|b| *b == b'\n') {
            break start + i as u64 + 1;
        }
        if start == 0 {
            break 0;
        }
        end = start;
    };
    file.set_len(keep)?;
    Ok(true)
}

impl AuditSink for JsonLinesSink {
    fn record(&mut self, rec: &AuditRecord) -> Result<(), AuditError> {
        let mut line = serde_json::to_vec(rec).map_err(|_| AuditError::Encode)?;
        line.push(b'\n');
        // One write per record, so concurrent readers never see half a line
        // from this process; if the write fails part-way (a full disk), the
        // file is cut back to where the record began, so no torn line is
        // left for the next reader or the next scrub.
        let before = self.file.metadata()?.len();
        if let Err(e) = self.file.write_all(&line).and_then(|()| self.file.flush()) {
            let _ = self.file.set_len(before);
            return Err(e.into());
        }
        Ok(())
    }

    fn scrub(&mut self, task: &str) -> Result<(), AuditError> {
        self.file.flush()?;
        let tmp = self
            .path
            .with_extension(format!("scrub.{}.tmp", std::process::id()));
        if let Err(e) = self.rewrite_scrubbed(task, &tmp) {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        if let Err(e) = std::fs::rename(&tmp, &self.path) {
            let _ = std::fs::remove_file(&tmp);
            return Err(e.into());
        }
        self.file = OpenOptions::new().append(true).open(&self.path)?;
        Ok(())
    }
}
