//! The one keyword model: which Draft 2020-12 keywords hold one subschema,
//! a map of subschemas, or an array of subschemas, and which are object
//! keywords. The proofs (`proof::closed_object`, `proof::work`), the
//! relations walk, the fixture work estimate and the engine's pattern walk
//! all read these lists; each documents which subset it visits and why.

/// Keywords whose value is one subschema, in the order the closed-object
/// proof visits them (`verifier-rules.md` §4.2 step 14; the work estimates
/// of §4.6–§4.7 count the same keywords in the same order).
pub const SINGLE: [&str; 10] = [
    "additionalProperties",
    "items",
    "contains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
];

/// A single-subschema keyword of Draft 2019-09 and earlier that Draft
/// 2020-12 dropped; only the engine's pattern walk still looks inside it.
pub const LEGACY_SINGLE: &str = "additionalItems";

/// Keywords whose value maps names to subschemas.
pub const MAP: [&str; 5] = [
    "$defs",
    "definitions",
    "properties",
    "patternProperties",
    "dependentSchemas",
];

/// Keywords whose value is an array of subschemas.
pub const ARRAY: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];

/// Object keywords that need an explicit `type: object` (§4.2 step 13).
pub const OBJECT: [&str; 9] = [
    "properties",
    "required",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "minProperties",
    "maxProperties",
];

/// How a keyword holds subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One subschema ([`SINGLE`], [`LEGACY_SINGLE`]).
    Single,
    /// A map of names to subschemas ([`MAP`]).
    Map,
    /// An array of subschemas ([`ARRAY`]).
    Array,
}

/// The shape of `keyword`, or `None` for a keyword that holds no subschema.
pub fn shape(keyword: &str) -> Option<Shape> {
    if SINGLE.contains(&keyword) || keyword == LEGACY_SINGLE {
        Some(Shape::Single)
    } else if MAP.contains(&keyword) {
        Some(Shape::Map)
    } else if ARRAY.contains(&keyword) {
        Some(Shape::Array)
    } else {
        None
    }
}

/// What the value of a Draft 2020-12 keyword must be, in words, for the
/// help of a schema the meta-schema refuses (FD222, issue 26 item 5);
/// `None` for a keyword this table does not describe.
pub fn value_shape(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => "a number",
        "multipleOf" => "a number greater than 0",
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
        | "maxProperties" | "minContains" | "maxContains" => "a non-negative integer",
        "pattern" | "format" | "$ref" | "$anchor" | "$dynamicRef" | "$dynamicAnchor"
        | "$id" | "$schema" | "$comment" | "title" | "description" | "contentEncoding"
        | "contentMediaType" => "a string",
        "required" => "an array of unique strings",
        "uniqueItems" | "readOnly" | "writeOnly" | "deprecated" => "a boolean",
        "enum" => "an array",
        "examples" => "an array",
        "type" => "a type name (null, boolean, object, array, number, string, integer) or an array of unique type names",
        "dependentRequired" => "an object whose members are arrays of unique strings",
        k if MAP.contains(&k) => "an object whose members are schemas",
        k if ARRAY.contains(&k) => "a non-empty array of schemas",
        k if SINGLE.contains(&k) => "a schema (an object or a boolean)",
        _ => return None,
    })
}

/// Whether `value` has the shape [`value_shape`] names for `keyword` (the
/// JSON type and sign, not every meta-schema rule: a `pattern` string that
/// does not compile fits). True for a keyword the table does not describe.
pub fn value_fits(keyword: &str, value: &serde_json::Value) -> bool {
    use serde_json::Value;
    let non_negative_integer = |v: &Value| {
        v.as_u64().is_some() || v.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0)
    };
    let unique_strings = |v: &Value| {
        v.as_array().is_some_and(|a| {
            a.iter().all(Value::is_string)
                && a.iter()
                    .enumerate()
                    .all(|(i, x)| !a.iter().take(i).any(|y| y == x))
        })
    };
    match value_shape(keyword) {
        None => true,
        Some("a number") => value.is_number(),
        Some("a number greater than 0") => value.as_f64().is_some_and(|f| f > 0.0),
        Some("a non-negative integer") => non_negative_integer(value),
        Some("a string") => value.is_string(),
        Some("an array of unique strings") => unique_strings(value),
        Some("a boolean") => value.is_boolean(),
        Some("an array") => value.is_array(),
        Some("an object whose members are arrays of unique strings") => value
            .as_object()
            .is_some_and(|m| m.values().all(unique_strings)),
        Some("an object whose members are schemas") => value.is_object(),
        Some("a non-empty array of schemas") => value.as_array().is_some_and(|a| !a.is_empty()),
        Some("a schema (an object or a boolean)") => value.is_object() || value.is_boolean(),
        // `type`.
        Some(_) => value.is_string() || value.is_array(),
    }
}

/// What an author who wrote `value` for `keyword` most likely meant, when
/// it is the form of an older draft: `exclusiveMaximum: true` is Draft 4's
/// flag, `items: [...]` is Draft 2019-09's tuple form.
pub fn older_draft_hint(keyword: &str, value: &serde_json::Value) -> Option<&'static str> {
    use serde_json::Value;
    Some(match (keyword, value) {
        ("exclusiveMaximum", Value::Bool(_)) => {
            "Draft 4's boolean flag is gone: write the bound itself (\"exclusiveMaximum\": 10) and drop the \"maximum\" it modified"
        }
        ("exclusiveMinimum", Value::Bool(_)) => {
            "Draft 4's boolean flag is gone: write the bound itself (\"exclusiveMinimum\": 0) and drop the \"minimum\" it modified"
        }
        ("items", Value::Array(_)) => {
            "an array of schemas is `prefixItems` in Draft 2020-12; `items` is the schema of the items after them"
        }
        ("minimum" | "maximum" | "minLength" | "maxLength" | "minItems" | "maxItems"
        | "minProperties" | "maxProperties" | "multipleOf", Value::String(_)) => {
            "write the number without quotes"
        }
        _ => return None,
    })
}

/// The seven JSON Schema type names.
pub const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// What an author who wrote the `type` value `value` most likely meant
/// (issue 36 item 6): for each string that is not one of the seven
/// [`TYPE_NAMES`], the nearest name ([`crate::diag::nearest`]: `int` →
/// `integer`) or another language's name for one (`float` → `number`,
/// `bool` → `boolean`, `dict` → `object`, `list` → `array`). `None` when
/// every name is one of the seven, or none is near.
pub fn type_name_hint(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let names: Vec<&str> = match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let guesses: Vec<String> = names
        .into_iter()
        .filter(|n| !TYPE_NAMES.contains(n))
        .filter_map(|n| {
            let meant = match n.to_ascii_lowercase().as_str() {
                "float" | "double" | "decimal" | "real" => Some("number"),
                "int" | "long" | "int32" | "int64" => Some("integer"),
                "bool" => Some("boolean"),
                "dict" | "map" | "hash" | "record" => Some("object"),
                "list" | "tuple" => Some("array"),
                "str" | "text" => Some("string"),
                "nil" | "none" => Some("null"),
                _ => crate::diag::nearest(n, TYPE_NAMES),
            }?;
            Some(format!("{meant} for {}", crate::diag::escape::quote(n)))
        })
        .collect();
    (!guesses.is_empty()).then(|| {
        format!(
            "did you mean {}? the seven type names: {}",
            guesses.join(", "),
            TYPE_NAMES.join(", ")
        )
    })
}

/// The keyword `pointer` (into a schema) ends at, when its last token is in
/// keyword position: each token after a schema is a keyword, the member of
/// a [`MAP`] keyword and the item of an [`ARRAY`] keyword are schemas again,
/// and the value of a [`SINGLE`] keyword is a schema. `None` for a pointer
/// that ends at a property name, an array item or inside a keyword's value.
pub fn keyword_at(tokens: &[String]) -> Option<&str> {
    walk(tokens).1
}

/// One Draft 2020-12 keyword an inline schema of this profile admits, with
/// the check of this profile that governs it (its code's text documents
/// the keyword in the editor, as in `explain`), if one does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admitted {
    /// The keyword, exactly (`additionalProperties`).
    pub name: &'static str,
    /// The code of the finding this profile reports about the keyword's
    /// use (FD213 for `additionalProperties`), `None` for a keyword only
    /// the Draft 2020-12 engine reads.
    pub rule: Option<crate::codes::Code>,
}

/// The keywords an inline schema (`desiredSchema`, `observedSchema`,
/// `outputSchema`, a Legacy `interfaces[].documentSchema`) may carry at a
/// schema position in this profile — the one table of them (the language
/// server's completion reads it; `src/keywords.rs` tests hold it against
/// the proof).
///
/// Spec: the Draft 2020-12 core, applicator, unevaluated, validation,
/// format-annotation and meta-data vocabularies, minus what
/// `verifier-rules.md` refuses at a proven node — §4.2 step 3
/// `patternProperties`, step 4 `dependencies`, step 5 the content
/// keywords, step 7 the resolution-scope keywords, §5 F1 `$dynamicRef`
/// (all in [`REFUSED`]). The seven exempt `x-takoform-*` annotation keys
/// (`current-profile.md` §7.1) are admitted too; they are listed once, in
/// `crate::vocabulary::EXEMPT_KEYS` (the name policy owns them).
/// `$schema` is admitted with the Draft 2020-12 URL only (§4.2 step 6).
pub const ADMITTED: [Admitted; 48] = {
    use crate::codes::Code;
    const fn k(name: &'static str, rule: Option<Code>) -> Admitted {
        Admitted { name, rule }
    }
    [
        // Core.
        k("$schema", Some(Code::NestedDialect)),
        k("$ref", Some(Code::NonLocalRef)),
        k("$defs", None),
        k("$comment", None),
        // Applicators.
        k("type", Some(Code::ImplicitObjectKeywords)),
        k("properties", Some(Code::ForbiddenSchemaName)),
        k("additionalProperties", Some(Code::OpenObjectSchema)),
        k("propertyNames", Some(Code::MapKeyPolicy)),
        k("required", Some(Code::ForbiddenSchemaName)),
        k("dependentRequired", Some(Code::ForbiddenSchemaName)),
        k("dependentSchemas", None),
        k("minProperties", None),
        k("maxProperties", None),
        k("unevaluatedProperties", None),
        k("items", Some(Code::ArrayWithoutItems)),
        k("prefixItems", Some(Code::MalformedSchemaKeyword)),
        k("contains", None),
        k("minContains", None),
        k("maxContains", None),
        k("unevaluatedItems", None),
        k("minItems", None),
        k("maxItems", None),
        k("uniqueItems", None),
        k("allOf", Some(Code::UnsatisfiableAllOf)),
        k("anyOf", Some(Code::MalformedSchemaKeyword)),
        k("oneOf", Some(Code::MalformedSchemaKeyword)),
        k("not", None),
        k("if", None),
        k("then", None),
        k("else", None),
        // Validation.
        k("enum", Some(Code::MalformedSchemaKeyword)),
        k("const", Some(Code::MixedObjectConst)),
        k("minimum", None),
        k("maximum", None),
        k("exclusiveMinimum", None),
        k("exclusiveMaximum", None),
        k("multipleOf", None),
        k("minLength", None),
        k("maxLength", None),
        k("pattern", Some(Code::InlineSchemaCompile)),
        k("format", None),
        // Meta-data annotations.
        k("title", None),
        k("description", None),
        k("default", None),
        k("examples", None),
        k("deprecated", None),
        k("readOnly", None),
        k("writeOnly", None),
    ]
};

/// The Draft 2020-12 keywords this profile refuses at a proven node, with
/// the code of the finding (`verifier-rules.md` §4.2 steps 3–5 and 7, §5
/// F1); never offered.
pub const REFUSED: [(&str, crate::codes::Code); 12] = {
    use crate::codes::Code;
    [
        ("patternProperties", Code::PatternProperties),
        ("dependencies", Code::LegacyDependencies),
        ("contentEncoding", Code::ContentKeyword),
        ("contentMediaType", Code::ContentKeyword),
        ("contentSchema", Code::ContentKeyword),
        ("$id", Code::ResolutionScopeKeyword),
        ("$anchor", Code::ResolutionScopeKeyword),
        ("$dynamicAnchor", Code::ResolutionScopeKeyword),
        ("$recursiveAnchor", Code::ResolutionScopeKeyword),
        ("$recursiveRef", Code::ResolutionScopeKeyword),
        ("$vocabulary", Code::ResolutionScopeKeyword),
        ("$dynamicRef", Code::DynamicRef),
    ]
};

/// Whether the object at `tokens` (a pointer into an inline schema, from
/// its root) is a schema, so its members are keywords: the root is, the
/// value of a [`SINGLE`] keyword is, a member of a [`MAP`] keyword and an
/// item of an [`ARRAY`] keyword are (the walk of [`keyword_at`]). `false`
/// for a `properties` map itself, an `enum` item, a `const` value.
pub fn schema_at(tokens: &[String]) -> bool {
    matches!(walk(tokens).0, At::Schema)
}

/// Where a pointer into a schema ends ([`walk`]).
#[derive(Clone, Copy)]
enum At {
    /// At a schema: the next token is a keyword.
    Schema,
    /// At the value of a [`MAP`] keyword: the next token names a schema.
    Map,
    /// At the value of an [`ARRAY`] keyword: the next token indexes a schema.
    Array,
    /// Inside the value of a keyword that holds no schema.
    Value,
}

/// Walks `tokens` from a schema: each token after a schema is a keyword,
/// the member of a [`MAP`] keyword and the item of an [`ARRAY`] keyword
/// are schemas again, and the value of a [`SINGLE`] keyword is a schema.
/// Returns where the walk ends and the keyword the last token is, if it
/// is one.
fn walk(tokens: &[String]) -> (At, Option<&str>) {
    let mut at = At::Schema;
    let mut last = None;
    for t in tokens {
        (at, last) = match at {
            At::Schema => (
                match shape(t) {
                    Some(Shape::Single) => At::Schema,
                    Some(Shape::Map) => At::Map,
                    Some(Shape::Array) => At::Array,
                    None => At::Value,
                },
                Some(t.as_str()),
            ),
            At::Map | At::Array => (At::Schema, None),
            At::Value => (At::Value, None),
        };
    }
    (at, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 36 item 6: a misspelt or foreign type name names the one
    /// meant; near misses: the seven names, and a name near none of them.
    #[test]
    fn a_wrong_type_name_says_which_was_meant() {
        use serde_json::json;
        let hint = |v| type_name_hint(&v);
        assert_eq!(
            hint(json!("int")).as_deref(),
            Some("did you mean integer for \"int\"? the seven type names: null, boolean, object, array, number, string, integer")
        );
        assert!(hint(json!(["strin", "null"]))
            .unwrap()
            .starts_with("did you mean string for \"strin\"?"));
        assert!(hint(json!("float"))
            .unwrap()
            .starts_with("did you mean number"));
        assert_eq!(hint(json!("integer")), None);
        assert_eq!(hint(json!(["string", "null"])), None);
        assert_eq!(hint(json!("xyzzy")), None);
    }

    #[test]
    fn every_keyword_has_one_shape() {
        assert_eq!(shape("items"), Some(Shape::Single));
        assert_eq!(shape("additionalItems"), Some(Shape::Single));
        assert_eq!(shape("patternProperties"), Some(Shape::Map));
        assert_eq!(shape("prefixItems"), Some(Shape::Array));
        // Near misses: keywords that hold no subschema.
        assert_eq!(shape("required"), None);
        assert_eq!(shape("const"), None);
        let mut all: Vec<&str> = SINGLE.iter().chain(&MAP).chain(&ARRAY).copied().collect();
        all.sort_unstable();
        let n = all.len();
        all.dedup();
        assert_eq!(all.len(), n, "a keyword has two shapes");
    }

    /// Issue 26 item 5: FD222's help names what the keyword must be.
    #[test]
    fn a_keyword_in_keyword_position_has_its_shape() {
        let t = |p: &str| p.split('/').skip(1).map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            keyword_at(&t("/properties/ttl/exclusiveMaximum")),
            Some("exclusiveMaximum")
        );
        assert_eq!(keyword_at(&t("/items/maxLength")), Some("maxLength"));
        assert_eq!(keyword_at(&t("/allOf/0/type")), Some("type"));
        // Near misses: a property named like a keyword, an enum item.
        assert_eq!(keyword_at(&t("/properties/minimum")), None);
        assert_eq!(keyword_at(&t("/enum/0")), None);
        assert_eq!(value_shape("exclusiveMaximum"), Some("a number"));
        assert_eq!(value_shape("x-vendor"), None);
        assert!(
            older_draft_hint("exclusiveMaximum", &serde_json::json!(true))
                .unwrap()
                .contains("the bound itself")
        );
        assert_eq!(
            older_draft_hint("exclusiveMaximum", &serde_json::json!(10)),
            None
        );
        assert!(!value_fits("exclusiveMaximum", &serde_json::json!(true)));
        assert!(!value_fits("minLength", &serde_json::json!(-1)));
        // Near misses: a pattern string fits (what is wrong is its regex).
        assert!(value_fits("pattern", &serde_json::json!("(?=a)")));
        assert!(value_fits("maxLength", &serde_json::json!(63)));
    }

    /// Issue 24 item 5: the admitted keywords are what the proof lets
    /// through, the refused ones what it refuses, each with its code.
    #[test]
    fn the_admitted_table_agrees_with_the_proof() {
        use crate::codes::Code;
        use crate::json::pointer::JsonPointer;
        use serde_json::json;
        let none = |_: &crate::proof::NameQuery<'_>| None;
        let prove = |k: &str, v: serde_json::Value| {
            let mut s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object", "additionalProperties": false});
            s[k] = v;
            crate::proof::prove_inline_schema(&JsonPointer::from("/desiredSchema"), &s, &none)
                .diagnostics
                .into_iter()
                .map(|d| d.code)
                .collect::<Vec<Code>>()
        };
        let refused: Vec<Code> = REFUSED.iter().map(|(_, c)| *c).collect();
        let exempt = crate::vocabulary::EXEMPT_KEYS.map(|name| Admitted { name, rule: None });
        let all = || ADMITTED.into_iter().chain(exempt);
        let mut names: Vec<&str> = all().map(|a| a.name).collect();
        for a in all() {
            let codes = prove(a.name, json!({"type": "string"}));
            assert!(
                !codes.iter().any(|c| refused.contains(c)),
                "{} is refused: {codes:?}",
                a.name
            );
            assert!(!REFUSED.iter().any(|(r, _)| *r == a.name), "{}", a.name);
        }
        for (k, code) in REFUSED {
            let v = if k.starts_with('$') {
                json!("#/x")
            } else {
                json!({})
            };
            assert!(prove(k, v).contains(&code), "{k} does not fire {code:?}");
        }
        // Every subschema keyword of Draft 2020-12 the proof walks is
        // offered, but the refused and the pre-2020-12 names.
        for k in SINGLE.iter().chain(&MAP).chain(&ARRAY) {
            let known = names.contains(k) || ["patternProperties", "definitions"].contains(k);
            assert!(known, "{k} is missing");
        }
        assert_eq!(names.len(), 48 + 7);
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 48 + 7, "a keyword is listed twice");
        // Schema positions: the walk of `keyword_at`.
        let t = |p: &str| p.split('/').skip(1).map(str::to_owned).collect::<Vec<_>>();
        assert!(schema_at(&[]));
        assert!(schema_at(&t("/properties/a/items")));
        assert!(schema_at(&t("/allOf/0")));
        // Near misses: a properties map, a const value, an enum.
        assert!(!schema_at(&t("/properties")));
        assert!(!schema_at(&t("/const")));
        assert!(!schema_at(&t("/properties/a/enum")));
    }
}
