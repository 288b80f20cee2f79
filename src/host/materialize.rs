//! What a host does with one desired document of an exact Form
//! (`host-rules.md` §1.6, the current Core's `Validate` and `Materialize`):
//! the document read as strict I-JSON, its defaults inserted exactly as the
//! Core inserts them ([`insert_defaults`]), the result validated against the
//! Form's `desiredSchema` by our engine (the fixture engine, §12 E1–E6,
//! numbers read from their literal text) and written as RFC 8785 bytes by
//! the project's canonical writer ([`crate::canonical`]).
//!
//! The one implementation of the Core's default insertion: `desired
//! materialize` prints what it makes, and `compat` defines a change of
//! meaning by it (a document valid under both schemas that materializes
//! differently, issue 35 item 1).
//!
//! Default insertion, node by node (the schema node and the value at it):
//! 1. a node whose `x-takoform-discriminator` is a non-empty string D, over
//!    an object: the first `oneOf` branch whose `properties.D.const` is the
//!    value's D is used instead of the node (a missing or non-string D, and
//!    a missing or non-string `const`, read as the empty string, so they
//!    match each other); no branch matches: the value is copied. This test
//!    runs before the `type` test, and a discriminated node's own
//!    `properties` are never read;
//! 2. `type` exactly the string `object`, over an object: each member is
//!    recursed with its `properties` schema when that is an object, else
//!    with `additionalProperties` when that is an object, else copied; then
//!    each `properties` member absent from the value whose schema (an
//!    object) has a `default` gets a copy of it, itself recursed with that
//!    schema (so a defaulted object gets its own members' defaults);
//! 3. `type` exactly `array`, over an array: each item recursed with `items`
//!    when that is an object;
//! 4. anything else is copied: `type` arrays, `$ref`, `allOf`, `anyOf`,
//!    `if`/`then`, `patternProperties`, `prefixItems`. A default behind one
//!    of those is never inserted.
//!
//! Hand-rolled: this is the Core's rule, which no crate implements; the
//! oracle (`../shared/oracle/snapshot-oracle materialize`) is compared byte
//! for byte in the tests (`tests/commands/desired.rs`).

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::engine::numbers::Literals;
use crate::engine::{CompiledSchema, Violation};
use crate::json::strict;

/// The Core's default insertion over `value` by `schema` (see the module
/// docs), as a new value; neither input is changed.
pub fn insert_defaults(schema: &Value, value: &Value) -> Value {
    insert(schema, value, &mut |_| {})
}

/// [`insert_defaults`], calling `number` with the source of every number
/// the result holds (a number of `value`, or of a `default` in `schema`),
/// in the result's document order (pre-order, object members in the order
/// the result holds them, array items by index): what pairs the result's
/// numbers with their literal text ([`Literal`]).
pub fn insert_defaults_tracking(
    schema: &Value,
    value: &Value,
    number: &mut dyn FnMut(&Value),
) -> Value {
    insert(schema, value, number)
}

fn empty() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

/// The object a schema member holds (`None` for any other value, as the
/// Core's type assertion to a map gives nil).
fn object_at<'a>(schema: &'a Map<String, Value>, key: &str) -> Option<&'a Map<String, Value>> {
    schema.get(key).and_then(Value::as_object)
}

fn insert(schema: &Value, value: &Value, number: &mut dyn FnMut(&Value)) -> Value {
    let schema = schema.as_object().unwrap_or_else(|| empty());
    if let Some(d) = schema
        .get("x-takoform-discriminator")
        .and_then(Value::as_str)
        .filter(|d| !d.is_empty())
    {
        let Some(object) = value.as_object() else {
            return copy(value, number);
        };
        let tag = object.get(d).and_then(Value::as_str).unwrap_or("");
        let branches = schema.get("oneOf").and_then(Value::as_array);
        for branch in branches.into_iter().flatten() {
            let declared = branch
                .as_object()
                .and_then(|b| object_at(b, "properties"))
                .and_then(|p| object_at(p, d))
                .and_then(|t| t.get("const"))
                .and_then(Value::as_str)
                .unwrap_or("");
            if declared == tag {
                return insert(branch, value, number);
            }
        }
        return copy(value, number);
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let Some(object) = value.as_object() else {
                return copy(value, number);
            };
            let properties = object_at(schema, "properties");
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            let mut out = Map::new();
            for (key, item) in object {
                let child = properties
                    .and_then(|p| p.get(key))
                    .filter(|c| c.is_object())
                    .or(additional);
                let made = match child {
                    Some(child) => insert(child, item, number),
                    None => copy(item, number),
                };
                out.insert(key.clone(), made);
            }
            for (name, property) in properties.into_iter().flatten() {
                if out.contains_key(name) {
                    continue;
                }
                let Some(declared) = property.as_object().and_then(|p| p.get("default")) else {
                    continue;
                };
                let made = insert(property, declared, number);
                out.insert(name.clone(), made);
            }
            Value::Object(out)
        }
        Some("array") => {
            let Some(items) = value.as_array() else {
                return copy(value, number);
            };
            let item_schema = schema.get("items").filter(|s| s.is_object());
            Value::Array(
                items
                    .iter()
                    .map(|item| match item_schema {
                        Some(s) => insert(s, item, number),
                        None => copy(item, number),
                    })
                    .collect(),
            )
        }
        _ => copy(value, number),
    }
}

/// A copy of `value`, reporting its numbers in document order.
fn copy(value: &Value, number: &mut dyn FnMut(&Value)) -> Value {
    match value {
        Value::Number(_) => {
            number(value);
            value.clone()
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| copy(i, number)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), copy(v, number)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// The literal text of the numbers of a document read by the strict
/// reader, by the address of each number in its parsed value: what keeps
/// `1.0000000000000001` (not an integer) exact when it is copied from the
/// desired document into the materialized one.
#[derive(Debug, Default)]
pub struct Literal {
    texts: HashMap<usize, Box<str>>,
}

impl Literal {
    /// Pairs every number of `document` with its text in `numbers` (the
    /// strict reader's, [`strict::parse_value_with_numbers`], in document
    /// order). Numbers past the end of `numbers` get none.
    pub fn add(&mut self, document: &Value, numbers: &[Box<str>]) {
        let mut at = 0usize;
        let mut stack: Vec<&Value> = vec![document];
        while let Some(v) = stack.pop() {
            match v {
                Value::Number(_) => {
                    if let Some(t) = numbers.get(at) {
                        self.texts.insert(std::ptr::from_ref(v) as usize, t.clone());
                    }
                    at += 1;
                }
                Value::Array(items) => stack.extend(items.iter().rev()),
                Value::Object(map) => stack.extend(map.values().rev()),
                _ => {}
            }
        }
    }

    /// The text of the number `v` when it is a number of a document
    /// added (empty for an integer value, exact without it).
    pub fn text(&self, v: &Value) -> Option<Box<str>> {
        self.texts.get(&(std::ptr::from_ref(v) as usize)).cloned()
    }
}

/// The desired document of one request, read as the Core reads it.
#[derive(Debug)]
pub struct Desired {
    /// The value (strict I-JSON).
    pub value: Value,
    /// The literal text of its numbers, in document order.
    pub numbers: Vec<Box<str>>,
}

/// Reads `bytes` as strict I-JSON (`verifier-rules.md` §2.1), keeping the
/// literal text of every number.
///
/// # Errors
/// The strict reader's refusal (duplicate member, lone surrogate, a number
/// out of range, …).
pub fn read(bytes: &[u8]) -> Result<Desired, strict::ParseError> {
    strict::parse_value_with_numbers(bytes).map(|(value, numbers)| Desired { value, numbers })
}

/// How many violations a refused document reports at most (the rest are
/// counted).
pub const MAX_VIOLATIONS: usize = 100;

/// The violations of `value` (whose numbers' texts are `numbers`) against
/// the compiled desired schema, up to [`MAX_VIOLATIONS`], and how many more
/// there are. Empty: the Core's `Validate` accepts it.
pub fn violations(
    schema: &CompiledSchema,
    value: &Value,
    numbers: Vec<Box<str>>,
) -> (Vec<Violation>, usize) {
    let literals = Literals::from(numbers);
    schema.violations_counted(value, Some(&literals), MAX_VIOLATIONS, true)
}

/// A materialized desired document: the value after default insertion and
/// the literal text of its numbers (document order), ready to validate.
#[derive(Debug)]
pub struct Materialized {
    /// The value with the defaults inserted.
    pub value: Value,
    /// The literal text of its numbers, in document order.
    pub numbers: Vec<Box<str>>,
}

/// Inserts the defaults of `schema` (the Form's `desiredSchema`) into
/// `desired`. A number copied from the document keeps its literal text; a
/// number copied from a `default` is read as binary64, as the Core reads
/// the definition (`1.0000000000000001` there is the integer 1).
pub fn materialize(schema: &Value, desired: &Desired) -> Materialized {
    let mut own = Literal::default();
    own.add(&desired.value, &desired.numbers);
    let mut numbers = Vec::new();
    let value = insert(schema, &desired.value, &mut |n| {
        numbers.push(own.text(n).unwrap_or_else(|| binary64_text(n)));
    });
    Materialized { value, numbers }
}

/// The text the engine reads a number without a literal by: empty for an
/// integer value (exact), else its shortest binary64 text.
fn binary64_text(v: &Value) -> Box<str> {
    match v {
        Value::Number(n) if n.as_u64().is_none() && n.as_i64().is_none() => {
            crate::engine::numbers::schema_text(n).into()
        }
        _ => Box::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ins(schema: Value, value: Value) -> Value {
        insert_defaults(&schema, &value)
    }

    /// Rule 2: an absent member with a default is filled, a present one kept;
    /// near miss: a required-but-absent member without a default stays absent.
    #[test]
    fn an_absent_member_gets_its_default() {
        let s = json!({"type": "object", "properties": {
            "a": {"type": "string", "default": "x"},
            "b": {"type": "string"}}});
        assert_eq!(ins(s.clone(), json!({})), json!({"a": "x"}));
        assert_eq!(ins(s, json!({"a": "y"})), json!({"a": "y"}));
    }

    /// Rule 2: a defaulted object gets its members' defaults; near miss: an
    /// object given without the member keeps what it was given plus defaults.
    #[test]
    fn a_defaulted_object_gets_nested_defaults() {
        let s = json!({"type": "object", "properties": {
            "o": {"type": "object", "default": {}, "properties": {
                "n": {"type": "integer", "default": 3}}}}});
        assert_eq!(ins(s.clone(), json!({})), json!({"o": {"n": 3}}));
        assert_eq!(ins(s, json!({"o": {"n": 4}})), json!({"o": {"n": 4}}));
    }

    /// Rule 2: `additionalProperties` schemas recurse; `properties` wins.
    #[test]
    fn additional_properties_recurse() {
        let s = json!({"type": "object", "additionalProperties": {
            "type": "object", "properties": {"d": {"default": true}}}});
        assert_eq!(
            ins(s, json!({"k": {}, "l": 1})),
            json!({"k": {"d": true}, "l": 1})
        );
    }

    /// Rule 3: items recurse; near miss: `prefixItems` does not.
    #[test]
    fn items_recurse_and_prefix_items_do_not() {
        let item = json!({"type": "object", "properties": {"d": {"default": 1}}});
        assert_eq!(
            ins(json!({"type": "array", "items": item}), json!([{}, 2])),
            json!([{"d": 1}, 2])
        );
        assert_eq!(
            ins(json!({"type": "array", "prefixItems": [item]}), json!([{}])),
            json!([{}])
        );
    }

    /// Rule 1: the branch the discriminator selects; a missing tag matches
    /// a branch without a string `const`; near miss: no branch matches.
    #[test]
    fn the_discriminator_selects_one_branch() {
        let s = json!({"x-takoform-discriminator": "t", "type": "object",
            "properties": {"p": {"default": 0}},
            "oneOf": [
                {"type": "object", "properties": {"t": {"const": "a"}, "x": {"default": "A"}}},
                {"type": "object", "properties": {"t": {"const": "b"}, "y": {"default": "B"}}},
                {"type": "object", "properties": {"t": {"type": "string"}, "z": {"default": "Z"}}}]});
        assert_eq!(
            ins(s.clone(), json!({"t": "b"})),
            json!({"t": "b", "y": "B"})
        );
        assert_eq!(ins(s.clone(), json!({})), json!({"z": "Z"}));
        assert_eq!(ins(s.clone(), json!({"t": "c"})), json!({"t": "c"}));
        assert_eq!(ins(s, json!("a")), json!("a"));
    }

    /// Rule 4: nothing behind `$ref`, `allOf`, `anyOf`, `if`, a `type` array.
    #[test]
    fn nothing_is_inserted_behind_other_keywords() {
        let d = json!({"type": "object", "properties": {"d": {"default": 1}}});
        for s in [
            json!({"$ref": "#/$defs/d", "$defs": {"d": d}}),
            json!({"allOf": [d]}),
            json!({"anyOf": [d]}),
            json!({"if": true, "then": d}),
            json!({"type": ["object"], "properties": {"d": {"default": 1}}}),
        ] {
            assert_eq!(ins(s, json!({})), json!({}));
        }
        // Near miss: the same default reached through `properties`.
        assert_eq!(ins(d, json!({})), json!({"d": 1}));
    }

    /// A `properties` member that is not an object falls back to
    /// `additionalProperties`, as the Core's map assertion does.
    #[test]
    fn a_boolean_property_schema_falls_back_to_additional_properties() {
        let s = json!({"type": "object", "properties": {"k": true},
            "additionalProperties": {"type": "object", "properties": {"d": {"default": 1}}}});
        assert_eq!(ins(s, json!({"k": {}})), json!({"k": {"d": 1}}));
    }

    /// The document's numbers keep their literal text; a default's is read
    /// as binary64 (the oracle: a default `1.0000000000000001` of an
    /// `integer` member materializes as `1`, valid), in the result's order.
    #[test]
    fn numbers_keep_their_text_and_defaults_are_binary64() {
        let def = br#"{"type":"object","properties":{"a":{"default":1.0000000000000001},"c":{"default":3},"b":{}}}"#;
        let schema = strict::parse_value(def).unwrap();
        let desired = read(br#"{"b":2.0}"#).unwrap();
        let m = materialize(&schema, &desired);
        assert_eq!(m.value, json!({"b": 2.0, "a": 1.0, "c": 3}));
        let texts: Vec<&str> = m.numbers.iter().map(AsRef::as_ref).collect();
        assert_eq!(texts, ["2.0", "1.0", ""]);
    }
}
