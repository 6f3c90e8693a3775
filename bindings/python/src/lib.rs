//! `stpc._native`: the stpc runtime as a Python extension module.
//!
//! The Python package `stpc` (distribution `stpc-monitor`) re-exports these
//! classes. Everything that decides is the Rust runtime itself: the event is
//! read by [`stpc_runtime::event::EventInput`] (the parser of `stpc decide`,
//! so aliases, required fields and unknown-field refusals are the same), and
//! labeling, the table, rewrites, substitutes, deferral, budgets and audit
//! are [`stpc_runtime::Monitor`]. This module only converts values and
//! releases the interpreter lock while the monitor works.
//!
//! Ownership follows the runtime's states: an issued event, a dispatch
//! ticket and a dispatched call can each be used once; using one twice
//! raises `UsedError` instead of dispatching twice. Nothing raised here
//! carries an argument value: messages come from the runtime's errors,
//! which never quote one, and the exceptions a Python substitute or audit
//! callable raises are not repeated (the decision's reason says what
//! failed).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;
use stpc_runtime as rt;
use stpc_runtime::audit::{AuditRecord, AuditSink};
use stpc_runtime::event::EventInput;
use stpc_runtime::signature::TrustedKeys;
use stpc_runtime::table::MISSING;
use stpc_tables::verified::{self, Refused};

pyo3::create_exception!(
    _native,
    StpcError,
    PyException,
    "Base class of every error stpc raises."
);
pyo3::create_exception!(
    _native,
    LoadError,
    StpcError,
    "A table was refused: not a table, another format version, not canonical, a digest or signature that does not match, or labelers that do not compile. `kind` names the check."
);
pyo3::create_exception!(
    _native,
    EventError,
    StpcError,
    "An event the monitor cannot read: a field missing, misspelt or of the wrong type. No argument value is quoted."
);
pyo3::create_exception!(
    _native,
    MonitorError,
    StpcError,
    "A call out of order: no task, a task already active, or an event of an earlier task."
);
pyo3::create_exception!(
    _native,
    AuditError,
    MonitorError,
    "The audit sink failed; the event it concerned was not dispatched."
);
pyo3::create_exception!(
    _native,
    UsedError,
    StpcError,
    "An issued event, dispatch ticket or dispatched call was used a second time."
);

/// The name of the check a load error failed, as the Python table reader
/// names it.
fn load_kind(e: &rt::LoadError) -> &'static str {
    match e {
        rt::LoadError::Json { .. } => "json",
        rt::LoadError::UnsupportedVersion { .. } => "unsupported_version",
        rt::LoadError::NotCanonical => "not_canonical",
        rt::LoadError::DigestMismatch => "digest_mismatch",
        rt::LoadError::Signature(_) => "signature",
        rt::LoadError::Encode => "encode",
        rt::LoadError::IndexOutOfRange { .. } => "index_out_of_range",
        rt::LoadError::Invalid { .. } => "invalid",
        rt::LoadError::ChildCount { .. } => "child_count",
        rt::LoadError::BadPattern { .. } => "bad_pattern",
        rt::LoadError::BadLexicon { .. } => "bad_lexicon",
        _ => "invalid",
    }
}

fn load_error(py: Python<'_>, kind: &str, message: String) -> PyErr {
    let err = LoadError::new_err(message);
    // Setting an attribute on a fresh exception cannot fail in practice;
    // if it did, the error still raises, without `kind`.
    let _ = err.value(py).setattr("kind", kind);
    err
}

fn from_load(py: Python<'_>, e: &rt::LoadError) -> PyErr {
    load_error(py, load_kind(e), e.to_string())
}

fn from_monitor(e: rt::MonitorError) -> PyErr {
    match e {
        rt::MonitorError::Audit(a) => AuditError::new_err(a.to_string()),
        other => MonitorError::new_err(other.to_string()),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic inside the runtime cannot leave a monitor half-updated in a
    // way later calls could exploit (every state change is one assignment
    // after the decision), so a poisoned lock is taken over.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A Python object as JSON (`dict`, `list`, `tuple`, `str`, `int`, `float`,
/// `bool`, `None`).
fn to_json(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    pythonize::depythonize::<Value>(obj).map_err(|_| {
        EventError::new_err(format!(
            "{what} is not JSON (dict, list, str, int, float, bool or None)"
        ))
    })
}

fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, value)?)
}

/// An event dictionary as the monitor takes it.
fn read_event(event: &Bound<'_, PyAny>) -> PyResult<rt::ProposedEvent> {
    let value = if let Ok(text) = event.extract::<String>() {
        serde_json::from_str(&text).map_err(|e| {
            EventError::new_err(format!("invalid event JSON at column {}", e.column()))
        })?
    } else {
        // JSON has no NaN or infinity; a Python float that is one would
        // become `null` (read as absent) on the way, so it is refused here.
        if let Ok(d) = event.cast::<PyDict>() {
            if let Some(c) = d.get_item("confidence")? {
                if c.extract::<f64>().is_ok_and(|c| !c.is_finite()) {
                    return Err(EventError::new_err("`confidence` is not a finite number"));
                }
            }
        }
        to_json(event, "the event")?
    };
    if let Value::Object(m) = &value {
        for key in ["labels", "budgets_exhausted", "task"] {
            if m.contains_key(key) {
                return Err(EventError::new_err(format!(
                    "`{key}` is not an event field for the monitor: it labels every event itself, \
                     counts budgets itself and takes the task from begin_task"
                )));
            }
        }
    }
    EventInput::from_value(value)
        .map(EventInput::into_proposed)
        .map_err(EventError::new_err)
}

/// Label ids as names: `{"args", "destination", "fields"}`.
fn label_names<'py>(
    py: Python<'py>,
    table: &rt::Table,
    labels: &rt::Labels,
) -> PyResult<Bound<'py, PyDict>> {
    let arg = |l: Option<u32>| {
        l.and_then(|l| table.lattices.args.label_name(l))
            .unwrap_or(MISSING)
    };
    let out = PyDict::new(py);
    out.set_item("args", arg(labels.args))?;
    out.set_item(
        "destination",
        labels
            .destination
            .and_then(|l| table.lattices.destination.label_name(l))
            .unwrap_or(MISSING),
    )?;
    let fields = PyDict::new(py);
    for (f, l) in &labels.fields {
        fields.set_item(f, arg(Some(*l)))?;
    }
    out.set_item("fields", fields)?;
    Ok(out)
}

fn read_keys(texts: &[String]) -> Result<TrustedKeys, rt::LoadError> {
    let mut keys = TrustedKeys::new();
    for t in texts {
        keys.add(t)?;
    }
    Ok(keys)
}

/// A loaded, compiled decision table: labelers built, digest (and, when
/// asked, signature) checked. One engine serves any number of monitors and
/// threads.
#[pyclass(frozen, module = "stpc", name = "Engine")]
struct Engine {
    inner: Arc<rt::Engine>,
}

impl Engine {
    fn build(
        py: Python<'_>,
        bytes: &[u8],
        index: Option<&[u8]>,
        trusted_keys: Option<&[String]>,
        signature: Option<&str>,
        verify: bool,
    ) -> PyResult<Engine> {
        let built = py.detach(|| -> Result<(rt::Engine, Option<rt::LoadError>), Refused> {
            let trusted = match trusted_keys {
                None => None,
                Some(texts) => {
                    let keys = read_keys(texts)?;
                    let Some(sig) = signature else {
                        return Err(rt::LoadError::Signature(
                            "a signature is required and none was given".to_owned(),
                        )
                        .into());
                    };
                    Some((keys, sig))
                }
            };
            verified::load_with_index(bytes, index, trusted.as_ref().map(|(k, s)| (k, *s)), verify)
        });
        match built {
            Ok((e, refused)) => {
                if let Some(why) = refused {
                    // The same engine, built from the lexicons: say so, as
                    // `stpc decide` does on standard error.
                    let message = std::ffi::CString::new(format!(
                        "the labeler index beside the table is not used ({why}); \
                         the engine was built from the table"
                    ))
                    .unwrap_or_default();
                    let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
                    PyErr::warn(py, category.as_any(), &message, 1)?;
                }
                Ok(Engine { inner: Arc::new(e) })
            }
            Err(Refused::Load(e)) => Err(from_load(py, &e)),
            Err(unsound @ Refused::Unsound(_)) => {
                Err(load_error(py, "unsound", unsound.to_string()))
            }
        }
    }
}

fn read_file(py: Python<'_>, path: &PathBuf, what: &str) -> PyResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        load_error(
            py,
            "io",
            format!("cannot read {what} `{}`: {e}", path.display()),
        )
    })
}

#[pymethods]
impl Engine {
    /// Load a table file, with the labeler index `stpc compile` writes
    /// beside it (`policy.json` -> `policy.index`) when there is one: the
    /// engine then starts in about a third of the time. An index that is
    /// not the one the table names is not used (a `RuntimeWarning` says
    /// so) and the engine is built from the table. With `trusted_keys` (paths of `stpc keygen`
    /// public keys), the table must carry a signature by one of them, read
    /// from `signature` or from `PATH.sig`; anything unsigned, re-sealed or
    /// signed by another key raises `LoadError` (kind `signature`). With
    /// `verify=True`, the table is also verified as `stpc verify` does
    /// (sound for its cuts, fail-closed, total, monotone) and refused with
    /// kind `unsound` on any error.
    #[staticmethod]
    #[pyo3(signature = (path, *, trusted_keys = None, signature = None, verify = false))]
    fn load(
        py: Python<'_>,
        path: PathBuf,
        trusted_keys: Option<Vec<PathBuf>>,
        signature: Option<PathBuf>,
        verify: bool,
    ) -> PyResult<Engine> {
        let bytes = read_file(py, &path, "the table")?;
        // The labeler index `stpc compile` writes beside the table
        // (`policy.json` -> `policy.index`), if there is one to read; it is
        // used only if it is the one the table names.
        let index = std::fs::read(path.with_extension("index")).ok();
        let index = index.as_deref();
        let Some(key_paths) = trusted_keys else {
            return Engine::build(py, &bytes, index, None, None, verify);
        };
        let mut keys = Vec::with_capacity(key_paths.len());
        for k in &key_paths {
            let text = read_file(py, k, "the trusted key")?;
            keys.push(String::from_utf8_lossy(&text).into_owned());
        }
        let sig_path = signature.unwrap_or_else(|| {
            let mut p = path.clone().into_os_string();
            p.push(".sig");
            PathBuf::from(p)
        });
        let sig = std::fs::read_to_string(&sig_path).map_err(|e| {
            load_error(
                py,
                "signature",
                format!(
                    "a signature is required and `{}` cannot be read: {e}",
                    sig_path.display()
                ),
            )
        })?;
        Engine::build(py, &bytes, index, Some(&keys), Some(&sig), verify)
    }

    /// Load a table from its bytes. `trusted_keys` are the texts of public
    /// key files and `signature` the text of the table's `.sig` file;
    /// `verify` as in `load`.
    #[staticmethod]
    #[pyo3(signature = (data, *, trusted_keys = None, signature = None, verify = false))]
    fn from_bytes(
        py: Python<'_>,
        data: Vec<u8>,
        trusted_keys: Option<Vec<String>>,
        signature: Option<String>,
        verify: bool,
    ) -> PyResult<Engine> {
        Engine::build(
            py,
            &data,
            None,
            trusted_keys.as_deref(),
            signature.as_deref(),
            verify,
        )
    }

    /// The contract's name.
    #[getter]
    fn contract(&self) -> String {
        self.inner.table().contract.clone()
    }

    /// The table's SHA-256 digest (hex).
    #[getter]
    fn digest(&self) -> String {
        self.inner.table().digest.clone()
    }

    /// Declared tool names.
    #[getter]
    fn tools(&self) -> Vec<String> {
        self.inner
            .table()
            .tools
            .iter()
            .map(|t| t.name.clone())
            .collect()
    }

    /// Declared destination names.
    #[getter]
    fn destinations(&self) -> Vec<String> {
        self.inner
            .table()
            .destinations
            .iter()
            .map(|d| d.name.clone())
            .collect()
    }

    /// Substitute names the table declares (register an implementation of
    /// each with `Monitor.register_substitute`).
    #[getter]
    fn substitutes(&self) -> Vec<String> {
        self.inner
            .table()
            .substitutes
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }

    /// The labels the table's labelers give a call, without deciding:
    /// `{"args": ..., "destination": ..., "fields": {...}}` with label names
    /// (`<missing>` where no label applies).
    fn label<'py>(
        &self,
        py: Python<'py>,
        tool: &str,
        args: &Bound<'py, PyAny>,
        destination: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let args = to_json(args, "`args`")?;
        let engine = &self.inner;
        let labels = py.detach(|| {
            let d = engine.decider().destination_id(destination);
            engine.labeler().label(tool, &args, d, destination)
        });
        label_names(py, engine.table(), &labels)
    }

    fn __repr__(&self) -> String {
        format!(
            "<stpc.Engine contract={:?} digest={}>",
            self.inner.table().contract,
            self.inner.table().digest.get(..12).unwrap_or("")
        )
    }
}

/// Audit records kept in memory; `records()` returns them as dictionaries.
/// Pass one to `Monitor(audit=...)` and keep it to read what was recorded.
#[pyclass(frozen, module = "stpc", name = "MemoryAudit")]
struct MemoryAudit {
    sink: rt::MemorySink,
}

#[pymethods]
impl MemoryAudit {
    #[new]
    fn new() -> MemoryAudit {
        MemoryAudit {
            sink: rt::MemorySink::new(),
        }
    }

    /// A copy of the records so far, oldest first.
    fn records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for r in self.sink.records() {
            out.append(pythonize::pythonize(py, &r)?)?;
        }
        Ok(out)
    }

    fn __len__(&self) -> usize {
        self.sink.records().len()
    }
}

/// An audit sink that is a Python callable: called with each record (a
/// dictionary) before anything leaves. If it raises, the event is BLOCKed
/// (reason `audit_failed`). If it has a `scrub(task)` method, that is called
/// when a task whose policy scrubs raw arguments ends.
struct CallableSink {
    f: Py<PyAny>,
}

impl AuditSink for CallableSink {
    fn record(&mut self, rec: &AuditRecord) -> Result<(), rt::AuditError> {
        Python::attach(|py| {
            let d = pythonize::pythonize(py, rec).map_err(|_| rt::AuditError::Encode)?;
            self.f
                .call1(py, (d,))
                .map(drop)
                .map_err(|_| rt::AuditError::Refused)
        })
    }

    fn scrub(&mut self, task: &str) -> Result<(), rt::AuditError> {
        Python::attach(|py| {
            let f = self.f.bind(py);
            if !f.hasattr("scrub").unwrap_or(false) {
                return Ok(());
            }
            f.call_method1("scrub", (task,))
                .map(drop)
                .map_err(|_| rt::AuditError::Refused)
        })
    }
}

/// A monitor: one agent session's mediation of its tool calls.
///
/// `audit` is a `MemoryAudit`, a path (records are appended as JSON lines),
/// a callable taking each record, or `None` to record nothing. What a
/// record holds is the table's audit policy: raw arguments only where the
/// contract grants them.
#[pyclass(frozen, module = "stpc", name = "Monitor")]
struct Monitor {
    engine: Arc<rt::Engine>,
    inner: Mutex<rt::Monitor>,
}

struct Discard;

impl AuditSink for Discard {
    fn record(&mut self, _: &AuditRecord) -> Result<(), rt::AuditError> {
        Ok(())
    }
}

fn sink_of(
    py: Python<'_>,
    audit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Box<dyn AuditSink + Send>> {
    let Some(a) = audit else {
        return Ok(Box::new(Discard));
    };
    if a.is_none() {
        return Ok(Box::new(Discard));
    }
    if let Ok(m) = a.cast::<MemoryAudit>() {
        return Ok(Box::new(m.get().sink.handle()));
    }
    if let Ok(path) = a.extract::<PathBuf>() {
        let sink = rt::JsonLinesSink::open(&path)
            .map_err(|e| AuditError::new_err(format!("cannot open `{}`: {e}", path.display())))?;
        return Ok(Box::new(sink));
    }
    if a.is_callable() {
        return Ok(Box::new(CallableSink {
            f: a.clone().unbind(),
        }));
    }
    let _ = py;
    Err(pyo3::exceptions::PyTypeError::new_err(
        "audit must be a MemoryAudit, a path, a callable or None",
    ))
}

#[pymethods]
impl Monitor {
    #[new]
    #[pyo3(signature = (engine, *, audit = None, max_deferred = None, max_shadowed = None))]
    fn new(
        py: Python<'_>,
        engine: &Engine,
        audit: Option<&Bound<'_, PyAny>>,
        max_deferred: Option<usize>,
        max_shadowed: Option<usize>,
    ) -> PyResult<Monitor> {
        let sink = sink_of(py, audit)?;
        let mut m = rt::Monitor::with_engine(Arc::clone(&engine.inner), sink);
        let mut limits = m.limits();
        if let Some(d) = max_deferred {
            limits.deferred = d;
        }
        if let Some(s) = max_shadowed {
            limits.shadowed = s;
        }
        m.set_limits(limits);
        Ok(Monitor {
            engine: Arc::clone(&engine.inner),
            inner: Mutex::new(m),
        })
    }

    /// The engine this monitor decides with.
    #[getter]
    fn engine(&self) -> Engine {
        Engine {
            inner: Arc::clone(&self.engine),
        }
    }

    /// Register the implementation of a substitute the table declares: a
    /// callable taking the `ToolCall` and returning a JSON-like result. It
    /// runs locally and its result never reaches an external observer. If
    /// it raises (or returns something that is not JSON), the event is
    /// DEFERred when speculative and BLOCKed when committed (reason
    /// `substitute_failed`).
    fn register_substitute(&self, name: String, f: Py<PyAny>) {
        let run = move |call: &rt::ToolCall| -> Result<Value, rt::SubstituteFailed> {
            Python::attach(|py| {
                let c = Py::new(py, ToolCall::of(call)).map_err(|_| rt::SubstituteFailed)?;
                let result = f.call1(py, (c,)).map_err(|_| rt::SubstituteFailed)?;
                pythonize::depythonize::<Value>(result.bind(py)).map_err(|_| rt::SubstituteFailed)
            })
        };
        lock(&self.inner).register_fallible_substitute(name, Box::new(run));
    }

    /// Start a task: fresh budgets, empty queues.
    fn begin_task(&self, py: Python<'_>, task_id: String) -> PyResult<()> {
        py.detach(|| lock(&self.inner).begin_task(task_id))
            .map_err(from_monitor)
    }

    /// End the task: abandon what is still pending, reset budgets, scrub raw
    /// arguments where the policy says so. Returns how many pending events
    /// were dropped.
    fn end_task(&self, py: Python<'_>) -> PyResult<usize> {
        py.detach(|| lock(&self.inner).end_task())
            .map_err(from_monitor)
    }

    /// Take in an event (a dict, or its JSON text): the first half of
    /// `submit`. Nothing is recorded yet; `decide` the result.
    fn issue(&self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<Issued> {
        let ev = read_event(event)?;
        let issued = py
            .detach(|| lock(&self.inner).issue(ev))
            .map_err(from_monitor)?;
        Ok(Issued {
            seq: issued.seq(),
            inner: Mutex::new(Some(issued)),
        })
    }

    /// Decide an issued event.
    fn decide(&self, py: Python<'_>, issued: &Issued) -> PyResult<Decision> {
        let Some(i) = lock(&issued.inner).take() else {
            return Err(UsedError::new_err(format!(
                "event {} was already decided",
                issued.seq
            )));
        };
        let decided = py
            .detach(|| lock(&self.inner).decide(i))
            .map_err(from_monitor)?;
        Decision::of(py, &self.engine, decided)
    }

    /// Label, decide and act on an event (a dict, or its JSON text), in one
    /// call. The event is `{"tool", "args", "destination", "mode",
    /// "confidence", "branch"}` as `stpc decide` reads it (`name` and
    /// `arguments` are aliases; `args` may be a JSON string; unknown fields
    /// are refused; a non-committed event needs a `confidence`).
    fn submit(&self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<Decision> {
        let ev = read_event(event)?;
        let decided = py
            .detach(|| lock(&self.inner).submit(ev))
            .map_err(from_monitor)?;
        Decision::of(py, &self.engine, decided)
    }

    /// Record that a dispatched call completed.
    fn complete(&self, py: Python<'_>, call: &Dispatched) -> PyResult<()> {
        let Some(d) = lock(&call.inner).take() else {
            return Err(UsedError::new_err(format!(
                "call {} was already completed",
                call.seq
            )));
        };
        py.detach(|| lock(&self.inner).complete(d))
            .map(drop)
            .map_err(from_monitor)
    }

    /// Promote a branch: its deferred events are decided again as
    /// committed, its shadowed events reuse their result or are decided
    /// again, as their substitute says. Returns a `Decision` per re-decided
    /// event and a `Shadowed` per reused result, in issue order.
    fn promote<'py>(&self, py: Python<'py>, branch: &str) -> PyResult<Bound<'py, PyList>> {
        let promoted = py
            .detach(|| lock(&self.inner).promote(branch))
            .map_err(from_monitor)?;
        let out = PyList::empty(py);
        for p in promoted {
            match p {
                rt::Promoted::Decided(d) => {
                    out.append(Py::new(py, Decision::of(py, &self.engine, *d)?)?)?;
                }
                rt::Promoted::Reused(s) => out.append(Py::new(py, Shadowed::of(py, &s)?)?)?,
            }
        }
        Ok(out)
    }

    /// Abandon a branch: its deferred and shadowed events are dropped, never
    /// dispatched. Returns how many.
    fn abandon(&self, py: Python<'_>, branch: &str) -> PyResult<usize> {
        py.detach(|| lock(&self.inner).abandon(branch))
            .map_err(from_monitor)
    }

    /// Events waiting on a branch (deferred or shadowed).
    fn pending(&self, branch: &str) -> usize {
        lock(&self.inner).pending(branch)
    }

    /// Times each budget was charged in this task, by budget name.
    fn budgets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let m = lock(&self.inner);
        let out = PyDict::new(py);
        for (i, b) in self.engine.table().budgets.iter().enumerate() {
            out.set_item(&b.name, m.budget_used(i).unwrap_or(0))?;
        }
        Ok(out)
    }

    fn __repr__(&self) -> String {
        format!("<stpc.Monitor contract={:?}>", self.engine.table().contract)
    }
}

/// An event taken in by `Monitor.issue`, to be decided once.
#[pyclass(frozen, module = "stpc", name = "Issued")]
struct Issued {
    #[pyo3(get)]
    seq: u64,
    inner: Mutex<Option<rt::Issued>>,
}

/// What the monitor decided for one event, and what to do next
/// (`outcome`).
#[pyclass(frozen, module = "stpc", name = "Decision")]
struct Decision {
    /// Sequence number of the event in this monitor.
    #[pyo3(get)]
    seq: u64,
    /// The action taken: `allow`, `rewrite`, `shadow`, `defer` or `block`
    /// (a REWRITE that failed its re-label check reports `defer` or
    /// `block`).
    #[pyo3(get)]
    action: &'static str,
    /// The rule whose cell decided (`None` when the event could not be
    /// placed in the table).
    #[pyo3(get)]
    rule_id: Option<u32>,
    /// Its name.
    #[pyo3(get)]
    rule_name: String,
    /// Why: `rule`, `invalid_event`, `rewrite_insufficient`,
    /// `no_substitute`, `substitute_failed`, `audit_failed`, `queue_full`.
    #[pyo3(get)]
    reason: &'static str,
    /// Detail of the reason: the fields a rewrite left at the cut, the
    /// queue that was full, what made the event invalid.
    #[pyo3(get)]
    detail: Option<Py<PyAny>>,
    /// The table cell (`None` when the event failed closed before one).
    #[pyo3(get)]
    cell: Option<u32>,
    /// The labels the decision used, before any rewrite.
    #[pyo3(get)]
    labels: Py<PyDict>,
    /// `DispatchTicket` (ALLOW, REWRITE), `Shadowed`, `Deferred` or
    /// `Blocked`.
    #[pyo3(get)]
    outcome: Py<PyAny>,
}

impl Decision {
    fn of(py: Python<'_>, engine: &rt::Engine, d: rt::Decided) -> PyResult<Decision> {
        let labels = label_names(py, engine.table(), d.labels())?.unbind();
        let detail: Option<Py<PyAny>> = match d.reason() {
            rt::Reason::RewriteInsufficient { fields } => {
                Some(PyList::new(py, fields)?.into_any().unbind())
            }
            rt::Reason::QueueFull { queue } => {
                Some(pyo3::types::PyString::new(py, queue).into_any().unbind())
            }
            rt::Reason::InvalidEvent(e) => Some(
                pyo3::types::PyString::new(py, &e.to_string())
                    .into_any()
                    .unbind(),
            ),
            _ => None,
        };
        let seq = d.seq();
        let action = d.action().as_str();
        let rule_id = d.rule_id();
        let rule_name = d.rule_name().to_owned();
        let reason = d.reason().code();
        let cell = d.cell();
        let outcome: Py<PyAny> = match d.into_outcome() {
            rt::Outcome::Dispatch(t) => Py::new(
                py,
                DispatchTicket {
                    seq: t.seq(),
                    tool: t.tool().to_owned(),
                    inner: Mutex::new(Some(t)),
                },
            )?
            .into_any(),
            rt::Outcome::Shadowed(s) => Py::new(py, Shadowed::of(py, &s)?)?.into_any(),
            rt::Outcome::Deferred(x) => Py::new(
                py,
                Deferred {
                    seq: x.seq(),
                    branch: x.branch().to_owned(),
                },
            )?
            .into_any(),
            rt::Outcome::Blocked(b) => Py::new(
                py,
                Blocked {
                    seq: b.seq(),
                    reason: b.reason().code(),
                },
            )?
            .into_any(),
        };
        Ok(Decision {
            seq,
            action,
            rule_id,
            rule_name,
            reason,
            detail,
            cell,
            labels,
            outcome,
        })
    }
}

#[pymethods]
impl Decision {
    /// The ticket when the call may be dispatched (ALLOW, REWRITE), else
    /// `None`.
    #[getter]
    fn ticket(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        let o = self.outcome.bind(py);
        o.is_instance_of::<DispatchTicket>()
            .then(|| o.clone().unbind())
    }

    /// The decision as a dictionary (`seq`, `action`, `rule_id`,
    /// `rule_name`, `reason`, `cell`, `labels`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("seq", self.seq)?;
        d.set_item("action", self.action)?;
        d.set_item("rule_id", self.rule_id)?;
        d.set_item("rule_name", &self.rule_name)?;
        d.set_item("reason", self.reason)?;
        d.set_item("cell", self.cell)?;
        d.set_item("labels", self.labels.bind(py).copy()?)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<stpc.Decision seq={} action={} rule={:?} reason={}>",
            self.seq, self.action, self.rule_name, self.reason
        )
    }
}

/// Permission to dispatch one call (ALLOW, or a REWRITE whose output
/// re-labelled below the cut). `dispatch()` it to get the payload.
#[pyclass(frozen, module = "stpc", name = "DispatchTicket")]
struct DispatchTicket {
    #[pyo3(get)]
    seq: u64,
    /// Tool name, for routing.
    #[pyo3(get)]
    tool: String,
    inner: Mutex<Option<rt::DispatchTicket>>,
}

#[pymethods]
impl DispatchTicket {
    /// Mark the call as sent and get its payload (once).
    fn dispatch(&self) -> PyResult<Dispatched> {
        let Some(t) = lock(&self.inner).take() else {
            return Err(UsedError::new_err(format!(
                "ticket {} was already dispatched",
                self.seq
            )));
        };
        let d = t.dispatch();
        Ok(Dispatched {
            seq: d.seq(),
            call: ToolCall::of(d.call()),
            inner: Mutex::new(Some(d)),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<stpc.DispatchTicket seq={} tool={:?}>",
            self.seq, self.tool
        )
    }
}

/// A call on its way: the payload to send, then `Monitor.complete` it.
#[pyclass(frozen, module = "stpc", name = "Dispatched")]
struct Dispatched {
    #[pyo3(get)]
    seq: u64,
    call: ToolCall,
    inner: Mutex<Option<rt::Dispatched>>,
}

#[pymethods]
impl Dispatched {
    /// The payload: tool, destination and the (possibly rewritten)
    /// arguments.
    #[getter]
    fn call(&self) -> ToolCall {
        self.call.clone()
    }

    /// Shorthand for `call.args`.
    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.call.args)
    }

    fn __repr__(&self) -> String {
        format!(
            "<stpc.Dispatched seq={} tool={:?}>",
            self.seq, self.call.tool
        )
    }
}

/// A tool call's payload. `declared_destination` and `address` say where
/// the monitor resolved it: connect there, not to the raw string the agent
/// wrote.
#[pyclass(frozen, module = "stpc", name = "ToolCall")]
#[derive(Clone)]
struct ToolCall {
    #[pyo3(get)]
    tool: String,
    /// The destination as the agent wrote it.
    #[pyo3(get)]
    destination: String,
    /// The declared destination it resolved to (`None` if undeclared).
    #[pyo3(get)]
    declared_destination: Option<String>,
    address: Option<Value>,
    args: Value,
}

impl ToolCall {
    fn of(call: &rt::ToolCall) -> ToolCall {
        ToolCall {
            tool: call.tool().to_owned(),
            destination: call.destination().to_owned(),
            declared_destination: call.declared_destination().map(str::to_owned),
            address: call
                .declared_address()
                .and_then(|a| serde_json::to_value(a).ok()),
            args: call.args().clone(),
        }
    }
}

#[pymethods]
impl ToolCall {
    /// The arguments to send (a fresh copy on each access).
    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.args)
    }

    /// The declared destination's address (`{"kind", "value"}`), if any.
    #[getter]
    fn address<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.address.as_ref().map(|a| to_py(py, a)).transpose()
    }

    fn __repr__(&self) -> String {
        // Never the arguments: a repr ends up in logs.
        format!(
            "<stpc.ToolCall tool={:?} destination={:?}>",
            self.tool,
            self.declared_destination.as_deref().unwrap_or("<unknown>")
        )
    }
}

/// SHADOW: the substitute's result, produced locally; nothing left the
/// boundary.
#[pyclass(frozen, module = "stpc", name = "Shadowed")]
struct Shadowed {
    #[pyo3(get)]
    seq: u64,
    /// The substitute that ran.
    #[pyo3(get)]
    substitute: String,
    /// Its result.
    #[pyo3(get)]
    result: Py<PyAny>,
}

impl Shadowed {
    fn of(py: Python<'_>, s: &rt::Shadowed) -> PyResult<Shadowed> {
        Ok(Shadowed {
            seq: s.seq(),
            substitute: s.substitute().to_owned(),
            result: to_py(py, s.result())?.unbind(),
        })
    }
}

#[pymethods]
impl Shadowed {
    fn __repr__(&self) -> String {
        format!(
            "<stpc.Shadowed seq={} substitute={:?}>",
            self.seq, self.substitute
        )
    }
}

/// DEFER: the event waits on its branch; `Monitor.promote(branch)` decides
/// it again as committed, `Monitor.abandon(branch)` drops it.
#[pyclass(frozen, module = "stpc", name = "Deferred")]
struct Deferred {
    #[pyo3(get)]
    seq: u64,
    #[pyo3(get)]
    branch: String,
}

#[pymethods]
impl Deferred {
    fn __repr__(&self) -> String {
        format!("<stpc.Deferred seq={} branch={:?}>", self.seq, self.branch)
    }
}

/// BLOCK: the event is dropped.
#[pyclass(frozen, module = "stpc", name = "Blocked")]
struct Blocked {
    #[pyo3(get)]
    seq: u64,
    /// The reason code (as `Decision.reason`).
    #[pyo3(get)]
    reason: &'static str,
}

#[pymethods]
impl Blocked {
    fn __repr__(&self) -> String {
        format!("<stpc.Blocked seq={} reason={}>", self.seq, self.reason)
    }
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("StpcError", py.get_type::<StpcError>())?;
    m.add("LoadError", py.get_type::<LoadError>())?;
    m.add("EventError", py.get_type::<EventError>())?;
    m.add("MonitorError", py.get_type::<MonitorError>())?;
    m.add("AuditError", py.get_type::<AuditError>())?;
    m.add("UsedError", py.get_type::<UsedError>())?;
    m.add_class::<Engine>()?;
    m.add_class::<Monitor>()?;
    m.add_class::<MemoryAudit>()?;
    m.add_class::<Issued>()?;
    m.add_class::<Decision>()?;
    m.add_class::<DispatchTicket>()?;
    m.add_class::<Dispatched>()?;
    m.add_class::<ToolCall>()?;
    m.add_class::<Shadowed>()?;
    m.add_class::<Deferred>()?;
    m.add_class::<Blocked>()?;
    m.add("RUNTIME_VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
