//! Shared harness for stpc's cross-crate tests.
//!
//! - [`fixtures`]: the `// expect:` protocol of the fixture folders;
//! - [`lowering`]: compile a workspace contract or a text, with a generator
//!   of large contracts in [`generated`];
//! - [`table_builder`]: hand-built tables lowered by brute force, so runtime,
//!   eval and table-tool tests do not depend on the compiler's lowering;
//!   [`web_search_table`] and [`policy_tables`] are the contracts built with it.

pub mod event_mix;
pub mod fixtures;
pub mod generated;
pub mod lowering;
pub mod mutation;
pub mod policy_tables;
pub mod table_builder;
pub mod web_search_table;
