#![no_main]
//! `cargo +nightly fuzz run load_table`: see `stpc_tests::mutation::load_table`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| stpc_tests::mutation::load_table(data));
