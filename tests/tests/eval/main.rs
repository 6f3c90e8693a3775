//! Replay and evaluation, one test target: corpus generation, frontiers and
//! adapters, traces and observer projections, statistics, label noise, and
//! the paper's ordering of the std policies on a generated corpus.

mod corpus;
mod evaluate;
mod frontier;
mod noise;
mod ordering;
mod stats;
mod trace;
