//! proptest properties across the pipeline, one test target: lattice laws
//! and type-directed contracts, the semantic diff against brute force,
//! formatting, lowering against a reference interpreter, and the parser.

mod check;
mod diff;
mod exposure;
mod fmt;
mod index;
mod label;
mod lower;
mod mutation;
mod syntax;
