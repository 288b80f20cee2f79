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

#[cfg(test)]
mod tests {
    use super::*;

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
}
