//! Forbidden-field vocabulary: the tokenizer and the decision never panic;
//! tokens are non-empty and made of letters and digits only.
#![no_main]

use form_package::vocabulary::{is_forbidden, normalize, tokenize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(name) = std::str::from_utf8(data) else {
        return;
    };
    let tokens = tokenize(name);
    for t in &tokens {
        assert!(!t.is_empty());
        assert!(t.chars().all(char::is_alphanumeric), "{t:?}");
    }
    let _ = normalize(name);
    if let Some(f) = is_forbidden(name) {
        let _ = f.message();
    }
});
