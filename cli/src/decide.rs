//! `stpc decide --table TABLE.json EVENT.json`: decide one event (or, with
//! `--stream`, one event per line) against a compiled table, through the
//! runtime's monitor, and print each decision as JSON.
//!
//! The table is loaded with `Table::from_json`, so a table the runtime would
//! refuse decides nothing (exit 2). A stream is one monitor task: budgets
//! start available and are charged by each ALLOW or REWRITE whose labels meet
//! the budget's condition; an event whose `task` differs from the previous
//! one ends that task (budgets reset, pending events dropped) and begins a
//! new one. Control lines `{"promote": "BRANCH"}` and `{"abandon": "BRANCH"}`
//! promote (re-deciding deferred events as committed) or abandon a branch.
//! A bad line yields an error object with its line number and the stream
//! goes on; the exit code is then 1.
//!
//! Error messages never contain argument values.

use std::io::{BufRead, Read, Write};
use std::sync::Arc;

use serde_json::{json, Value};
use stpc_runtime::audit::{AuditRecord, AuditSink, JsonLinesSink};
use stpc_runtime::error::AuditError;
use stpc_runtime::label::index::Index;
use stpc_runtime::{Decided, Engine, Monitor, Outcome as RtOutcome, Promoted, Table};
use stpc_tables::event::{self, EventInput, NamedLabels};

use crate::{output, Format, Global, Outcome};

/// Arguments of `stpc decide`.
#[derive(clap::Args, Debug)]
pub struct DecideArgs {
    /// The compiled table (`stpc compile -o TABLE.json`).
    #[arg(long, value_name = "TABLE")]
    pub table: String,
    /// The event (JSON); `-` reads standard input.
    #[arg(value_name = "EVENT", required_unless_present = "stream")]
    pub event: Option<String>,
    /// Read one event per line (JSON lines) from EVENT, or standard input,
    /// and write one decision per line.
    #[arg(long)]
    pub stream: bool,
    /// Append the monitor's audit records (JSON lines) to this file.
    #[arg(long, value_name = "FILE")]
    pub audit: Option<String>,
    /// Add to each decision why the labelers gave its labels (`labeling`:
    /// per field and for the destination, the rules that fired and on which
    /// span, and the hard negatives that dropped one).
    #[arg(long)]
    pub explain: bool,
    /// Most deferred events a task holds; past it, an event that would be
    /// deferred is blocked (`queue_full`).
    #[arg(long, value_name = "N", default_value_t = stpc_runtime::Limits::default().deferred)]
    pub max_deferred: usize,
    /// Most shadowed results a task holds; past it, an event that would be
    /// shadowed is blocked (`queue_full`).
    #[arg(long, value_name = "N", default_value_t = stpc_runtime::Limits::default().shadowed)]
    pub max_shadowed: usize,
    /// Signature requirements.
    #[command(flatten)]
    pub trust: crate::sign::TrustArgs,
    /// Verify the table before deciding (as `stpc verify TABLE`: sound for
    /// its cuts, fail-closed, total, monotone) and refuse it on any error.
    #[arg(long)]
    pub verify_on_load: bool,
}

/// An audit sink that keeps nothing (the default: `decide` prints decisions).
struct Discard;

impl AuditSink for Discard {
    fn record(&mut self, _rec: &AuditRecord) -> Result<(), AuditError> {
        Ok(())
    }
}

/// Read a file or standard input.
fn read_input(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read `{path}`: {e}"))
    }
}

/// Load and verify a table; the message says why it was refused.
pub fn load_table(path: &str) -> Result<Table, String> {
    let bytes = read_input(path)?;
    Table::from_json(&bytes).map_err(|e| format!("cannot load table `{}`: {e}", display(path)))
}

/// Where the labeler index of the table at `table` lives: beside it, with
/// the extension `index` (`policy.json` → `policy.index`).
#[must_use]
pub fn index_path(table: &std::path::Path) -> std::path::PathBuf {
    table.with_extension("index")
}

/// The engine of a table loaded from `path`. When the table names a
/// labeler index, the index beside it is loaded instead of building the
/// lexicon automata; an index that is missing or not the one the table
/// names (edited, truncated, from another compile) is never used: the
/// engine is then built from the lexicons, the same engine more slowly,
/// and a refused index is reported on standard error.
pub fn engine(table: Table, path: &str) -> Result<Engine, String> {
    let beside = table.index.is_some() && path != "-";
    engine_from(table, path, || if beside { read_index(path) } else { None })
}

/// The table at `path`, checked as [`load_checked`] checks it, and its
/// engine, as [`engine`] builds it. Start-up on two cores: a second thread
/// compiles the process's entity recognisers and reads and decodes the
/// labeler index beside the table while this one reads and checks the
/// table (about half of a one-event `stpc decide` each); the index is used
/// only if it is the one the checked table names.
pub fn load_engine(
    path: &str,
    trust: &crate::sign::TrustArgs,
    verify: bool,
) -> Result<Engine, String> {
    if path == "-" {
        return engine(load_checked(path, trust, verify)?, path);
    }
    let preload = move || {
        let _ = stpc_runtime::entity::Recognisers::shared();
        read_index(path)
    };
    std::thread::scope(|s| {
        let helper = std::thread::Builder::new().spawn_scoped(s, preload);
        let table = load_checked(path, trust, verify)?;
        match helper {
            // A helper that panicked (a runtime bug) leaves no index: the
            // engine is built from the lexicons.
            Ok(h) => engine_from(table, path, || h.join().ok().flatten()),
            Err(_) => engine(table, path),
        }
    })
}

/// The labeler index beside the table at `path`, decoded; `None` when
/// there is no file to read.
fn read_index(path: &str) -> Option<Result<Index, stpc_runtime::LoadError>> {
    let bytes = std::fs::read(index_path(std::path::Path::new(path))).ok()?;
    Some(Index::decode(&bytes))
}

/// [`engine`] with the index beside `path` from `index` (`None`: there is
/// no readable file), called while the labeler's expressions compile.
fn engine_from(
    table: Table,
    path: &str,
    index: impl FnOnce() -> Option<Result<Index, stpc_runtime::LoadError>>,
) -> Result<Engine, String> {
    use stpc_runtime::LoadError;
    let table = Arc::new(table);
    if table.index.is_some() {
        let mut missing = false;
        let built = Engine::with_index_from(Arc::clone(&table), || {
            index().unwrap_or_else(|| {
                missing = true;
                Err(LoadError::Index("there is no index file beside the table"))
            })
        });
        match built {
            Ok(engine) => return Ok(engine),
            Err(LoadError::Index(_)) if missing => {}
            Err(e @ LoadError::Index(_)) => crate::errln!(
                "warning: the labeler index `{}` is not used ({e}); building it from the table",
                index_path(std::path::Path::new(path)).display()
            ),
            Err(e) => return Err(format!("cannot compile the table: {e}")),
        }
    }
    Engine::new(table).map_err(|e| format!("cannot compile the table: {e}"))
}

/// A path as messages name it (`<stdin>` for `-`).
fn display(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// A table from a table file (`.json`, or any file whose first non-blank
/// byte is `{`) or compiled from a contract (`.stpc`). Diagnostics of a
/// contract that does not compile are printed; the error is then the outcome
/// to exit with.
pub fn table_or_contract(
    global: &Global,
    path: &str,
    contract: Option<&str>,
) -> Result<Table, Outcome> {
    let bytes = read_input(path).map_err(|m| {
        output::fail(global, &m);
        Outcome::Failure
    })?;
    let is_table =
        path.ends_with(".json") || bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if is_table {
        return Table::from_json(&bytes).map_err(|e| {
            output::fail(
                global,
                &format!("cannot load table `{}`: {e}", display(path)),
            );
            Outcome::Failure
        });
    }
    let mut map = stpc_compiler::SourceMap::new();
    let mut diagnostics = stpc_compiler::Diagnostics::new();
    let name = display(path);
    let Ok(text) = String::from_utf8(bytes) else {
        output::fail(global, &format!("`{name}` is not UTF-8"));
        return Err(Outcome::Failure);
    };
    let id = map.add(name, text);
    let options = stpc_compiler::CompileOptions {
        contract: contract.map(str::to_owned),
        params: Vec::new(),
    };
    let mut loader = |p: &str| std::fs::read_to_string(p).ok();
    let table = stpc_compiler::compile(&mut map, &[id], &mut loader, &options, &mut diagnostics);
    let errors = diagnostics.has_errors();
    if errors {
        output::emit(global, &map, &diagnostics.sorted());
    }
    match table {
        Some(t) if !errors => Ok(t),
        _ => Err(Outcome::Problems),
    }
}

/// A monitor over the table with a stub for every declared substitute (the
/// CLI has no real ones: the stub's result names the substitute).
fn monitor(
    engine: Engine,
    audit: Option<&str>,
    limits: stpc_runtime::Limits,
) -> Result<Monitor, String> {
    let sink: Box<dyn AuditSink + Send> = match audit {
        Some(path) => Box::new(
            JsonLinesSink::open(path)
                .map_err(|e| format!("cannot open audit file `{path}`: {e}"))?,
        ),
        None => Box::new(Discard),
    };
    Ok(monitor_with(Arc::new(engine), sink, limits))
}

/// A monitor over a built engine with the CLI's substitute stubs; `stpc
/// explain --event` runs its event through one to show the runtime's
/// outcome beside the cell's.
pub(crate) fn monitor_with(
    engine: Arc<Engine>,
    sink: Box<dyn AuditSink + Send>,
    limits: stpc_runtime::Limits,
) -> Monitor {
    let mut m = Monitor::with_engine(engine, sink);
    m.set_limits(limits);
    stpc_tables::vectors::stand_in_substitutes(&mut m);
    m
}

/// The audit sink of a monitor that records nothing.
pub(crate) fn discard() -> Box<dyn AuditSink + Send> {
    Box::new(Discard)
}

/// One session: a monitor and its current task.
struct Session {
    monitor: Monitor,
    task: Option<String>,
    explain: bool,
    /// Events the audit could not record (`audit_failed`) and failed task
    /// ends (abandon records, scrubs): any of them makes the exit non-zero.
    audit_problems: usize,
}

impl Session {
    fn ensure_task(&mut self, task: Option<&str>) -> Result<(), String> {
        let wanted = task.unwrap_or("stream");
        if self.task.as_deref() == Some(wanted) {
            return Ok(());
        }
        if self.task.is_some() {
            self.finish_task();
        }
        self.monitor.begin_task(wanted).map_err(|e| e.to_string())?;
        self.task = Some(wanted.to_owned());
        Ok(())
    }

    /// Ends the current task; a failure (an abandon record or the scrub
    /// the audit could not write) is reported and counted, and the task is
    /// over either way, so the stream goes on.
    fn finish_task(&mut self) {
        if let Err(e) = self.monitor.end_task() {
            self.audit_problems += 1;
            crate::errln!(
                "error: ending task `{}`: {e}",
                self.task.as_deref().unwrap_or("")
            );
        }
        self.task = None;
    }

    /// Decide one event and describe the result.
    fn decide(&mut self, ev: &EventInput) -> Result<Value, String> {
        if ev.labels.is_some() || !ev.budgets_exhausted.is_empty() {
            return Err(
                "`labels` and `budgets_exhausted` are read by `stpc explain --event`, not by `decide` (its monitor labels and counts)"
                    .to_owned(),
            );
        }
        self.ensure_task(ev.task.as_deref())?;
        let engine = Arc::clone(self.monitor.engine());
        let table = engine.table();
        // The labels and the cell are the monitor's own (the event is
        // labeled once); `--explain` labels it again, with the reasons.
        let labeling = if self.explain {
            event::labels_why(&engine, ev, true)?.1
        } else {
            None
        };
        let decided = self
            .monitor
            .submit(ev.proposed())
            .map_err(|e| e.to_string())?;
        let labels = decided.labels().clone();
        let cell = decided.cell();
        let mut out = self.describe(decided, cell)?;
        if let Value::Object(m) = &mut out {
            // Fields a REWRITE changed: names only.
            let changed: Vec<String> = match (m.get("args"), &ev.args) {
                (Some(Value::Object(after)), Value::Object(before)) => after
                    .iter()
                    .filter(|(k, v)| before.get(*k) != Some(*v))
                    .map(|(k, _)| k.clone())
                    .collect(),
                _ => Vec::new(),
            };
            m.insert("transformed".into(), json!(changed));
            m.insert("labels".into(), json!(labels.names(table)));
            if let Some(why) = labeling {
                m.insert("labeling".into(), json!(why));
            }
            if let Some(id) = &ev.id {
                m.insert("id".into(), id.clone());
            }
        }
        Ok(out)
    }

    /// The JSON of a decision; dispatches a ticket (and completes it) so the
    /// audit trail is whole.
    fn describe(&mut self, decided: Decided, cell: Option<u32>) -> Result<Value, String> {
        let action = decided.action();
        let rule_id = decided.rule_id();
        let rule_name = decided.rule_name().to_owned();
        let reason = decided.reason().code();
        let seq = decided.seq();
        let mut args = Value::Null;
        let mut substitute = Value::Null;
        let mut dispatch_to = Value::Null;
        match decided.into_outcome() {
            RtOutcome::Dispatch(ticket) => {
                let sent = ticket.dispatch();
                if action == stpc_runtime::Action::Rewrite {
                    args = sent.call().args().clone();
                }
                // What to connect to: the declared destination, never the
                // raw string (which may carry a query or parse differently).
                if let (Some(name), Some(address)) = (
                    sent.call().declared_destination(),
                    sent.call().declared_address(),
                ) {
                    dispatch_to = json!({"destination": name, "address": address});
                }
                self.monitor.complete(sent).map_err(|e| e.to_string())?;
            }
            RtOutcome::Shadowed(s) => substitute = Value::String(s.substitute().to_owned()),
            RtOutcome::Deferred(_) | RtOutcome::Blocked(_) => {}
        }
        Ok(json!({
            "seq": seq,
            "action": action.as_str(),
            "rule_id": rule_id,
            "rule_name": rule_name,
            "cell": cell.map_or(Value::Null, Value::from),
            "reason": reason,
            "args": args,
            "substitute": substitute,
            "dispatch_to": dispatch_to,
        }))
    }

    fn promote(&mut self, branch: &str) -> Result<Vec<Value>, String> {
        self.ensure_task(self.task.clone().as_deref())?;
        let promoted = self.monitor.promote(branch).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for p in promoted {
            let mut v = match p {
                Promoted::Decided(d) => {
                    let cell = d.cell();
                    self.describe(*d, cell)?
                }
                Promoted::Reused(s) => json!({
                    "seq": s.seq(), "action": "shadow", "reason": "reused", "substitute": s.substitute(),
                }),
            };
            if let Value::Object(m) = &mut v {
                m.insert("promoted".into(), Value::String(branch.to_owned()));
            }
            out.push(v);
        }
        Ok(out)
    }
}

fn print_line(v: &Value) -> bool {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{v}")
        .and_then(|()| stdout.flush())
        .is_ok()
}

/// Loads a table that decides: its signature checked when keys are given,
/// and, with `verify`, the checks of `stpc verify` (`--verify-on-load`).
///
/// # Errors
///
/// A message saying why the table is refused.
pub fn load_checked(
    path: &str,
    trust: &crate::sign::TrustArgs,
    verify: bool,
) -> Result<Table, String> {
    let table = load_table(path)?;
    trust.check(path, &table)?;
    if verify {
        stpc_tables::verified::verify(&table).map_err(|e| format!("`{path}` is refused: {e}"))?;
    }
    Ok(table)
}

/// Runs `stpc decide`.
pub fn run(global: &Global, args: DecideArgs) -> Outcome {
    if args.event.as_deref() == Some("-") && args.table == "-" {
        output::fail(
            global,
            "the table and the event cannot both be read from standard input",
        );
        return Outcome::Failure;
    }
    let engine = match load_engine(&args.table, &args.trust, args.verify_on_load) {
        Ok(e) => e,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let limits = stpc_runtime::Limits {
        deferred: args.max_deferred,
        shadowed: args.max_shadowed,
    };
    let monitor = match monitor(engine, args.audit.as_deref(), limits) {
        Ok(m) => m,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let mut session = Session {
        monitor,
        task: None,
        explain: args.explain,
        audit_problems: 0,
    };
    if args.stream {
        return stream(global, &mut session, args.event.as_deref().unwrap_or("-"));
    }
    let path = args.event.as_deref().unwrap_or("-");
    let text = match read_input(path)
        .and_then(|b| String::from_utf8(b).map_err(|_| format!("`{path}` is not UTF-8")))
    {
        Ok(t) => t,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let result = EventInput::parse(&text).and_then(|ev| session.decide(&ev));
    match result {
        Ok(v) => {
            let text = if global.format == Format::Human {
                serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string())
            } else {
                v.to_string()
            };
            crate::outln!("{text}");
            if session.task.is_some() {
                session.finish_task();
            }
            if v.get("reason").and_then(Value::as_str) == Some("audit_failed")
                || session.audit_problems > 0
            {
                crate::errln!("error: the audit failed; the event was not dispatched");
                Outcome::Problems
            } else {
                Outcome::Success
            }
        }
        Err(message) => {
            output::fail(global, &message);
            Outcome::Failure
        }
    }
}

/// A control line: `{"promote": "b"}` or `{"abandon": "b"}`.
fn control(line: &str) -> Option<(String, String)> {
    let v: Value = serde_json::from_str(line).ok()?;
    let m = v.as_object()?;
    if m.len() != 1 {
        return None;
    }
    let (k, b) = m.iter().next()?;
    (k == "promote" || k == "abandon").then(|| Some((k.clone(), b.as_str()?.to_owned())))?
}

fn stream(global: &Global, session: &mut Session, path: &str) -> Outcome {
    let reader: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                output::fail(global, &format!("cannot read `{path}`: {e}"));
                return Outcome::Failure;
            }
        }
    };
    let mut failed = 0usize;
    for (i, line) in reader.split(b'\n').enumerate() {
        let n = i + 1;
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                output::fail(global, &format!("cannot read line {n}: {e}"));
                return Outcome::Failure;
            }
        };
        let Ok(line) = String::from_utf8(line) else {
            failed += 1;
            print_line(&json!({"line": n, "error": "the line is not UTF-8"}));
            continue;
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let results = match control(line) {
            Some((kind, branch)) if kind == "promote" => session.promote(&branch),
            Some((_, branch)) => session
                .ensure_task(session.task.clone().as_deref())
                .and_then(|()| session.monitor.abandon(&branch).map_err(|e| e.to_string()))
                .map(|dropped| vec![json!({"abandoned": branch, "dropped": dropped})]),
            None => EventInput::parse(line)
                .and_then(|ev| session.decide(&ev))
                .map(|v| vec![v]),
        };
        match results {
            Ok(values) => {
                for mut v in values {
                    if v.get("reason").and_then(Value::as_str) == Some("audit_failed") {
                        session.audit_problems += 1;
                    }
                    if let Value::Object(m) = &mut v {
                        m.insert("line".into(), Value::from(n));
                    }
                    if !print_line(&v) {
                        return Outcome::Failure;
                    }
                }
            }
            Err(message) => {
                failed += 1;
                if !print_line(&json!({"line": n, "error": message})) {
                    return Outcome::Failure;
                }
            }
        }
    }
    // The last task ends with the stream (its scrub included).
    if session.task.is_some() {
        session.finish_task();
    }
    if failed > 0 {
        crate::errln!("error: {failed} line(s) could not be decided");
    }
    if session.audit_problems > 0 {
        crate::errln!(
            "error: the audit failed {} time(s); those events were not dispatched",
            session.audit_problems
        );
    }
    if failed > 0 || session.audit_problems > 0 {
        Outcome::Problems
    } else {
        Outcome::Success
    }
}
