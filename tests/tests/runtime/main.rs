//! The runtime's integration tests, one test target: labeling, the monitor
//! and the table format, on hand-built tables (`stpc_tests::web_search_table`)
//! so they do not depend on the compiler.

mod label;
mod layout;
mod monitor;
mod table;
mod terms;
