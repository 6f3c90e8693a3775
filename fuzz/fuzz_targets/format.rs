#![no_main]
//! `cargo +nightly fuzz run format`: see `stpc_tests::mutation::format`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| stpc_tests::mutation::format(data));
