//! `stpc-runtime`: load a compiled Speculative Tool Privacy Contract and
//! decide, at issue time, what each tool call of a speculating agent may do.
//!
//! ```text
//!  table JSON --Table::from_json--> Table (version, digest, structure checked)
//!                                     |
//!                               Engine::new (labeler matchers, name maps, cut matrix)
//!                                     |
//!  ProposedEvent --Monitor::issue--> Issued --decide--> Decided
//!        label (label.rs) -> Point (decide.rs) -> Table::evaluate -> Cell
//!        act: ALLOW/REWRITE -> DispatchTicket, SHADOW -> substitute,
//!             DEFER -> branch queue (promote / abandon), BLOCK -> Denial
//!        audit (audit.rs) before anything leaves
//! ```
//!
//! The runtime never depends on the compiler: it reads the table format
//! ([`table`]) alone, as a runtime in another language would. It never puts
//! an argument value into an error, a `Debug` string or an audit record other
//! than the ones the contract's audit policy grants.

pub mod address;
pub mod audit;
pub mod decide;
pub mod engine;
pub mod entity;
pub mod error;
pub mod event;
pub mod label;
pub mod monitor;
pub mod patterns;
pub mod signature;
mod state;
pub mod table;
pub mod transform;

pub use audit::{AuditRecord, AuditSink, JsonLinesSink, MemorySink};
pub use decide::{Decider, Decision, Point, Query};
pub use engine::Engine;
pub use error::{AuditError, DecideError, LoadError, MonitorError};
pub use label::{Labeler, Labels};
pub use monitor::{
    Completed, Decided, Deferred, Denial, DispatchTicket, Dispatched, FallibleSubstituteFn, Issued,
    LabelHook, Limits, Monitor, Outcome, Promoted, ProposedEvent, Reason, Shadowed,
    SubstituteFailed, SubstituteFn, ToolCall,
};
pub use table::{Action, Table};
