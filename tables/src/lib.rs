//! `stpc-tables`: tools over compiled decision tables rather than source, the
//! library side of `stpc decide`, `stpc explain --event`, `stpc test`,
//! `stpc diff` and the conformance vectors (`stpc vectors`).
//!
//! Everything here reads `stpc_runtime` tables through the runtime's own
//! API (its labeler and `Decider`), so what these commands report is what
//! an embedding agent's monitor would do. No IO: the CLI reads and writes.
//!
//! - [`event`]: the event JSON of `stpc decide`, and why an event got its
//!   cell ([`event::explain`]);
//! - [`contract_tests`]: a contract's `test` blocks as runtime queries;
//! - [`vectors`]: conformance vectors for readers in other languages;
//! - [`diff`]: the semantic diff of two tables;
//! - [`verified`]: `verify_on_load`, the checks of `stpc verify` before a
//!   loaded table decides anything.

pub mod contract_tests;
pub mod diff;
pub mod event;
pub mod findings;
pub mod vectors;
pub mod verified;

#[cfg(test)]
mod tests;
