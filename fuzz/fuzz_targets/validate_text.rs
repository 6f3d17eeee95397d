//! Fuzz target `validate_text`: arbitrary bytes as plan text (against the calm-weekday request)
//! and as request text (for the calm-weekday plan). The assertions are
//! `fuzz_support::invariants::check_text_input` (see `fuzz/README.md`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_support::check_text_input(data));
