//! Shared harness for stpc's cross-crate tests.
