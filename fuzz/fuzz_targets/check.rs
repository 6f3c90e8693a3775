#![no_main]
//! `cargo +nightly fuzz run check`: see `stpc_tests::mutation::check`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| stpc_tests::mutation::check(data));
