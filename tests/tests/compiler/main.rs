//! The compiler's fixtures and pipeline suites, one test target: syntax,
//! diagnostics and verification fixtures, explanations, formatting
//! fixtures, lowering of the paper's contract and of every example, scaling,
//! and the conformance vectors.

mod diagnostics;
mod explanations;
mod fmt_fixtures;
mod lower_examples;
mod lower_fixtures;
mod lower_paper;
mod lower_scaling;
mod lower_verify;
mod stdgen;
mod syntax_fixtures;
mod vectors;
