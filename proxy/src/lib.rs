//! `stpc-proxy`: an MCP gateway that enforces a compiled contract in front
//! of any MCP server (`stpc mcp-proxy`).
//!
//! - [`meta`]: what a client says about a call's speculation
//!   (`params._meta`) and the `stpc/` notifications that settle branches;
//! - [`gateway`]: the decision core (one monitor per task, deferred calls
//!   held until their branch is settled), independent of the transport;
//! - [`mcp`]: the proxy on the official Rust SDK, to a server on stdio or
//!   streamable HTTP;
//! - [`http`]: the same proxy on a streamable-HTTP listener;
//! - [`serve`]: `stpc serve`, the same decisions as a local HTTP sidecar.

pub mod gateway;
pub mod http;
pub mod mcp;
pub mod meta;
pub mod serve;
