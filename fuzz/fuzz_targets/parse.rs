#![no_main]
//! `cargo +nightly fuzz run parse`: see `stpc_tests::mutation::parse`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| stpc_tests::mutation::parse(data));
