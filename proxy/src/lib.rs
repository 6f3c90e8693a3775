//! `stpc-proxy`: an MCP gateway that enforces a compiled contract in front
//! of any MCP server (`stpc mcp-proxy`).
//!
//! - [`meta`]: what a client says about a call's speculation
//!   (`params._meta`) and the `stpc/` notifications that settle branches;
//! - [`gateway`]: the decision core (one monitor per task, deferred calls
//!   held until their branch is settled), independent of the transport;
//! - [`mcp`]: the stdio proxy on the official Rust SDK;
//! - [`serve`]: `stpc serve`, the same decisions as a local HTTP sidecar.

pub mod gateway;
pub mod mcp;
pub mod meta;
pub mod serve;
