#![no_main]
//! `cargo +nightly fuzz run decide`: see `stpc_tests::mutation::decide`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| stpc_tests::mutation::decide(data));
