//! Strict I-JSON reader: never panics; what it accepts serde_json reads to the
//! same value (when serde_json's own 128-level recursion limit allows it);
//! every error has a span inside the input and a line/column.
#![no_main]

use form_package::json::strict;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match strict::parse(data) {
        Ok(parsed) => {
            if let Ok(theirs) = serde_json::from_slice::<serde_json::Value>(data) {
                assert_eq!(
                    parsed.value, theirs,
                    "strict reader and serde_json disagree"
                );
            }
            for (_, entry) in parsed.spans.iter() {
                let _ = entry;
            }
        }
        Err(e) => {
            assert!(
                e.span.start <= e.span.end && e.span.end <= data.len(),
                "{e:?}"
            );
            let _ = strict::line_col(data, e.span.start);
            let _ = e.to_diagnostic();
            let _ = e.to_string();
        }
    }
});
