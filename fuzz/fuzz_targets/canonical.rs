//! RFC 8785 canonicalization: for every container the strict reader accepts,
//! the canonical bytes parse again, canonicalize to themselves (fixed point)
//! and read back as the same value (numbers compared as binary64 doubles).
#![no_main]

use form_package::canonical::canonicalize;
use form_package::json::strict;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn as_doubles(v: &Value) -> Value {
    match v {
        Value::Number(n) => Value::from(n.as_f64().unwrap()),
        Value::Array(a) => Value::Array(a.iter().map(as_doubles).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, x)| (k.clone(), as_doubles(x))).collect())
        }
        other => other.clone(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = strict::parse(data) else {
        return;
    };
    let Ok(once) = canonicalize(&parsed.value) else {
        assert!(!parsed.value.is_object() && !parsed.value.is_array());
        return;
    };
    let again = strict::parse(&once).expect("canonical bytes must parse strictly");
    let twice = canonicalize(&again.value).expect("canonical value must canonicalize");
    assert_eq!(once, twice, "canonicalization is not a fixed point");
    assert_eq!(as_doubles(&again.value), as_doubles(&parsed.value));
});
