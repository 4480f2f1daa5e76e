#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| credence::fuzzing::run_manifest(data));
