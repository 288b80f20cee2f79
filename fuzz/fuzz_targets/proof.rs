//! `$ref` closure + closed-object proof + structural work over arbitrary JSON
//! taken as a desired schema: never panics, never exceeds its budget.
#![no_main]

use form_package::json::pointer::JsonPointer;
use form_package::json::strict;
use form_package::proof::prove_inline_schema;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = strict::parse(data) else {
        return;
    };
    let field = JsonPointer::root().child("desiredSchema");
    let report = prove_inline_schema(&field, &parsed.value, &|_| None);
    assert!(report.operations <= 4097, "{}", report.operations);
    assert!(
        report.structural_work <= 16385,
        "{}",
        report.structural_work
    );
    // Every pointer lies under the field.
    for d in &report.diagnostics {
        assert!(
            d.pointer.as_str().starts_with("/desiredSchema"),
            "{}",
            d.pointer
        );
    }
});
