//! The keywords this engine decides itself, registered over the crate's
//! (`type`, `const`, `enum`, `uniqueItems`, the numeric bounds,
//! `multipleOf`, the count keywords) with Go's exact numbers
//! ([`super::numbers`]) and Go's equality ([`super::values`]). Moved here
//! from [`super::numbers`].

use jsonschema::{Keyword, ValidationError, ValidationOptions};
use num_rational::BigRational;
use num_traits::Zero;
use serde_json::{Map, Value};

use super::numbers::{go_int, instance_rat, schema_rat, schema_text, shown};
use super::values::{equals_schema, has_duplicates, kind_of, type_mask, SchemaValue, ValueSet};
// ---------------------------------------------------------------------------
// Keywords.
// ---------------------------------------------------------------------------

/// A keyword defined by one check: `Err(message)` when the instance fails.
trait Check: Send + Sync {
    fn check(&self, instance: &Value) -> Result<(), String>;
}

struct Custom<C>(C);

impl<'i, C: Check> Keyword<'i> for Custom<C> {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        self.0.check(instance).map_err(ValidationError::custom)
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        self.0.check(instance).is_ok()
    }
}

/// `type` (Go: the instance's type is listed, or `integer` is listed and
/// the number is an integral rational): the instance's kind is among the
/// kinds the names admit ([`type_mask`], [`kind_of`]).
struct Type {
    kinds: u8,
    names: String,
}

impl Check for Type {
    fn check(&self, instance: &Value) -> Result<(), String> {
        if self.kinds & kind_of(instance) != 0 {
            Ok(())
        } else {
            Err(format!("{} is not of type {}", shown(instance), self.names))
        }
    }
}

struct Const {
    want: SchemaValue,
    text: String,
}

impl Check for Const {
    fn check(&self, instance: &Value) -> Result<(), String> {
        if equals_schema(instance, &self.want) {
            Ok(())
        } else {
            Err(format!("{} was expected", self.text))
        }
    }
}

struct Enum {
    values: ValueSet,
    text: String,
}

impl Check for Enum {
    fn check(&self, instance: &Value) -> Result<(), String> {
        if self.values.contains(instance) {
            Ok(())
        } else {
            Err(format!("{} is not one of {}", shown(instance), self.text))
        }
    }
}

struct UniqueItems;

impl Check for UniqueItems {
    fn check(&self, instance: &Value) -> Result<(), String> {
        let Value::Array(items) = instance else {
            return Ok(());
        };
        match has_duplicates(items) {
            Ok(false) => Ok(()),
            Ok(true) => Err(format!("{} has non-unique elements", shown(instance))),
            Err(()) => Err(CRASH.to_owned()),
        }
    }
}

const CRASH: &str = "a number here is one the reference's engine cannot read \
(Go big.Rat.SetString refuses its exponent) and the reference verifier crashes on it";

#[derive(Clone, Copy)]
enum BoundKind {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
}

struct Bound {
    kind: BoundKind,
    limit: BigRational,
    text: String,
}

impl Check for Bound {
    fn check(&self, instance: &Value) -> Result<(), String> {
        let Value::Number(n) = instance else {
            return Ok(());
        };
        let Some(x) = instance_rat(instance, n) else {
            return Err(CRASH.to_owned());
        };
        let x = &*x;
        let (ok, what) = match self.kind {
            BoundKind::Minimum => (*x >= self.limit, "is less than the minimum of"),
            BoundKind::Maximum => (*x <= self.limit, "is greater than the maximum of"),
            BoundKind::ExclusiveMinimum => (
                *x > self.limit,
                "is less than or equal to the exclusive minimum of",
            ),
            BoundKind::ExclusiveMaximum => (
                *x < self.limit,
                "is greater than or equal to the exclusive maximum of",
            ),
            BoundKind::MultipleOf => (
                // multipleOf > 0 (meta-schema); a zero would be refused.
                !self.limit.is_zero() && (x / &self.limit).is_integer(),
                "is not a multiple of",
            ),
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{} {what} {}", shown(instance), self.text))
        }
    }
}

#[derive(Clone, Copy)]
enum CountKind {
    MinLength,
    MaxLength,
    MinItems,
    MaxItems,
    MinProperties,
    MaxProperties,
}

struct Count {
    kind: CountKind,
    /// Go's `int` of the schema value (may be negative after wrapping).
    limit: i64,
}

impl Check for Count {
    fn check(&self, instance: &Value) -> Result<(), String> {
        let len = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let (got, min, unit) = match (self.kind, instance) {
            (CountKind::MinLength, Value::String(s)) => {
                (len(s.chars().count()), true, "characters")
            }
            (CountKind::MaxLength, Value::String(s)) => {
                (len(s.chars().count()), false, "characters")
            }
            (CountKind::MinItems, Value::Array(a)) => (len(a.len()), true, "items"),
            (CountKind::MaxItems, Value::Array(a)) => (len(a.len()), false, "items"),
            (CountKind::MinProperties, Value::Object(m)) => (len(m.len()), true, "properties"),
            (CountKind::MaxProperties, Value::Object(m)) => (len(m.len()), false, "properties"),
            _ => return Ok(()),
        };
        if min && got < self.limit {
            Err(format!(
                "{} has fewer than {} {unit} ({got})",
                shown(instance),
                self.limit
            ))
        } else if !min && got > self.limit {
            Err(format!(
                "{} has more than {} {unit} ({got})",
                shown(instance),
                self.limit
            ))
        } else {
            Ok(())
        }
    }
}

/// A keyword that checks nothing (Go ignores a keyword whose value has the
/// wrong type; the meta-schema has refused it already).
struct Inert;

impl Check for Inert {
    fn check(&self, _: &Value) -> Result<(), String> {
        Ok(())
    }
}

type Boxed = Box<dyn for<'i> Keyword<'i>>;

fn boxed<C: Check + 'static>(c: C) -> Boxed {
    Box::new(Custom(c))
}

/// `type`: the kinds of the type names it lists (every kind when none).
fn type_keyword(value: &Value) -> Boxed {
    boxed(Type {
        kinds: type_mask(value),
        names: value.to_string(),
    })
}

/// `const`.
fn const_keyword(value: &Value) -> Boxed {
    boxed(Const {
        want: SchemaValue::new(value),
        text: value.to_string(),
    })
}

/// `enum` (inert unless an array).
fn enum_keyword(value: &Value) -> Boxed {
    let Value::Array(items) = value else {
        return boxed(Inert);
    };
    boxed(Enum {
        values: ValueSet::new(items),
        text: value.to_string(),
    })
}

/// `uniqueItems` (inert unless `true`).
fn unique_items_keyword(value: &Value) -> Boxed {
    if value == &Value::Bool(true) {
        boxed(UniqueItems)
    } else {
        boxed(Inert)
    }
}

fn bound(kind: BoundKind, value: &Value) -> Boxed {
    match value {
        Value::Number(n) => boxed(Bound {
            kind,
            limit: schema_rat(n),
            text: schema_text(n),
        }),
        _ => boxed(Inert),
    }
}

fn count(kind: CountKind, value: &Value) -> Boxed {
    match value {
        Value::Number(n) => {
            let r = schema_rat(n);
            if r.is_integer() {
                boxed(Count {
                    kind,
                    limit: go_int(&r),
                })
            } else {
                boxed(Inert)
            }
        }
        _ => boxed(Inert),
    }
}

/// The crate's keyword factory for a keyword built from its value alone
/// (the parent schema and the location are not read).
fn factory(
    make: impl Fn(&Value) -> Boxed + Send + Sync + 'static,
) -> impl for<'a> Fn(
    &'a Map<String, Value>,
    &'a Value,
    jsonschema::paths::Location,
) -> Result<Boxed, ValidationError<'a>>
       + Send
       + Sync
       + 'static {
    move |_, value, _| Ok(make(value))
}

/// Registers this module's keywords (`type`, `const`, `enum`,
/// `uniqueItems`, the five numeric bounds and the six count keywords) in
/// place of the crate's.
pub fn register<R>(options: ValidationOptions<'_, R>) -> ValidationOptions<'_, R> {
    let bounds = [
        ("minimum", BoundKind::Minimum),
        ("maximum", BoundKind::Maximum),
        ("exclusiveMinimum", BoundKind::ExclusiveMinimum),
        ("exclusiveMaximum", BoundKind::ExclusiveMaximum),
        ("multipleOf", BoundKind::MultipleOf),
    ];
    let counts = [
        ("minLength", CountKind::MinLength),
        ("maxLength", CountKind::MaxLength),
        ("minItems", CountKind::MinItems),
        ("maxItems", CountKind::MaxItems),
        ("minProperties", CountKind::MinProperties),
        ("maxProperties", CountKind::MaxProperties),
    ];
    let mut options = options
        .with_keyword("type", factory(type_keyword))
        .with_keyword("const", factory(const_keyword))
        .with_keyword("enum", factory(enum_keyword))
        .with_keyword("uniqueItems", factory(unique_items_keyword));
    for (name, kind) in bounds {
        options = options.with_keyword(name, factory(move |v| bound(kind, v)));
    }
    for (name, kind) in counts {
        options = options.with_keyword(name, factory(move |v| count(kind, v)));
    }
    options
}

/// False when [`rewrite_contains_counts`] has nothing to rewrite in
/// `schema`: no object anywhere in it (schema position or not) has a
/// `contains` member. [`super::compile`] then builds the schema as it is,
/// without a copy.
pub fn may_rewrite_contains_counts(schema: &Value) -> bool {
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if crate::json::member(map, "contains").is_some() {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

/// Replaces `minContains`/`maxContains` (next to `contains`, in every
/// schema position) by values the crate reads as Go's `int` does
/// ([`go_int`]): a count at or below 0 becomes `minContains: 0`; a negative
/// `maxContains` (every array fails) becomes `minContains: 1, maxContains:
/// 0`. Only non-negative integral values are rewritten, so meta-schema
/// refusals are unchanged. `schema` has been through
/// [`super::through_binary64`].
pub fn rewrite_contains_counts(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if crate::json::member(map, "contains").is_some() {
        let go = |v: Option<&Value>| -> Option<i64> {
            let n = v?.as_number()?;
            let r = schema_rat(n);
            (r.is_integer() && r >= BigRational::zero()).then(|| go_int(&r))
        };
        let min_ok = crate::json::member(map, "minContains").is_none()
            || go(crate::json::member(map, "minContains")).is_some();
        if let Some(c) = go(crate::json::member(map, "minContains")) {
            map.insert("minContains".into(), Value::from(c.max(0)));
        }
        if let Some(c) = go(crate::json::member(map, "maxContains")) {
            if c >= 0 {
                map.insert("maxContains".into(), Value::from(c));
            } else if min_ok {
                map.insert("minContains".into(), Value::from(1));
                map.insert("maxContains".into(), Value::from(0));
            }
        }
    }
    for (k, v) in map.iter_mut() {
        match crate::keywords::shape(k.as_str()) {
            Some(crate::keywords::Shape::Single) => rewrite_contains_counts(v),
            Some(crate::keywords::Shape::Map) => {
                if let Value::Object(m) = v {
                    m.values_mut().for_each(rewrite_contains_counts);
                }
            }
            Some(crate::keywords::Shape::Array) => {
                if let Value::Array(items) = v {
                    items.iter_mut().for_each(rewrite_contains_counts);
                }
            }
            None => {}
        }
    }
}
