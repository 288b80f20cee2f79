//! JSON values as the reference's engine tells them apart (E4): Go's
//! equality of `const`, `enum` and `uniqueItems` (numbers as exact
//! rationals, a number equal to a string Go reads as the same rational).
//! Moved here from [`super::numbers`]; the prover of `compat` calls the
//! same functions (issue 34, item 3).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use num_rational::BigRational;
use serde_json::{Number, Value};

use super::numbers::{go_rat, instance_rat, schema_rat};

// ---------------------------------------------------------------------------
// Types (Go `type`).
// ---------------------------------------------------------------------------

pub(super) const NULL: u8 = 1;
pub(super) const BOOLEAN: u8 = 2;
pub(super) const NUMBER: u8 = 4;
pub(super) const INTEGER: u8 = 8;
pub(super) const STRING: u8 = 16;
pub(super) const ARRAY: u8 = 32;
pub(super) const OBJECT: u8 = 64;

pub(super) fn instance_type(v: &Value) -> u8 {
    match v {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Number(_) => NUMBER,
        Value::String(_) => STRING,
        Value::Array(_) => ARRAY,
        Value::Object(_) => OBJECT,
    }
}

pub(super) fn type_bit(name: &str) -> u8 {
    match name {
        "null" => NULL,
        "boolean" => BOOLEAN,
        "number" => NUMBER,
        "integer" => INTEGER,
        "string" => STRING,
        "array" => ARRAY,
        "object" => OBJECT,
        _ => 0,
    }
}

pub(super) fn is_integer(v: &Value, n: &Number) -> bool {
    instance_rat(v, n).is_some_and(|r| r.is_integer())
}

// ---------------------------------------------------------------------------
// Equality (Go `equals`, `duplicates`).
// ---------------------------------------------------------------------------

/// A schema value (`const`, an `enum` item), numbers already rational and
/// strings' rationals read on first use.
pub(super) enum SchemaValue {
    Null,
    Bool(bool),
    Number(BigRational),
    String(String, OnceLock<Option<BigRational>>),
    Array(Vec<SchemaValue>),
    Object(HashMap<String, SchemaValue>),
}

impl SchemaValue {
    pub(super) fn new(v: &Value) -> Self {
        match v {
            Value::Null => Self::Null,
            Value::Bool(b) => Self::Bool(*b),
            Value::Number(n) => Self::Number(schema_rat(n)),
            Value::String(s) => Self::String(s.clone(), OnceLock::new()),
            Value::Array(items) => Self::Array(items.iter().map(Self::new).collect()),
            Value::Object(map) => {
                Self::Object(map.iter().map(|(k, v)| (k.clone(), Self::new(v))).collect())
            }
        }
    }

    pub(super) fn json_type(&self) -> u8 {
        match self {
            Self::Null => NULL,
            Self::Bool(_) => BOOLEAN,
            Self::Number(_) => NUMBER,
            Self::String(..) => STRING,
            Self::Array(_) => ARRAY,
            Self::Object(_) => OBJECT,
        }
    }
}

/// Go `equals(instance, want)`: the instance is the left operand.
pub(super) fn equals_schema(inst: &Value, want: &SchemaValue) -> bool {
    match (inst, want) {
        (Value::Null, SchemaValue::Null) => true,
        (Value::Bool(a), SchemaValue::Bool(b)) => a == b,
        (Value::String(a), SchemaValue::String(b, _)) => a == b,
        (Value::Array(a), SchemaValue::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| equals_schema(x, y))
        }
        (Value::Object(a), SchemaValue::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, x)| b.get(k).is_some_and(|y| equals_schema(x, y)))
        }
        (Value::Number(n), SchemaValue::Number(w)) => {
            instance_rat(inst, n).is_some_and(|r| *r == *w)
        }
        (Value::Number(n), SchemaValue::String(s, rat)) => instance_rat(inst, n)
            .is_some_and(|r| rat.get_or_init(|| go_rat(s)).as_ref() == Some(&*r)),
        _ => false,
    }
}

/// Go `equals(a, b)` of two instance values, `a` the left operand.
fn equals_instance(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equals_instance(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| equals_instance(p, q)))
        }
        (Value::Number(n), Value::Number(m)) => match (instance_rat(a, n), instance_rat(b, m)) {
            (Some(p), Some(q)) => p == q,
            _ => false,
        },
        (Value::Number(n), Value::String(s)) => {
            instance_rat(a, n).is_some_and(|r| go_rat(s).as_ref() == Some(&*r))
        }
        _ => false,
    }
}

/// A type-strict key of an instance value (numbers as reduced rationals,
/// object members sorted); `None` when it holds a number Go cannot read.
fn strict_key(v: &Value, out: &mut String) -> Option<()> {
    match v {
        Value::Null | Value::Bool(_) => out.push_str(&v.to_string()),
        Value::String(s) => out.push_str(&Value::String(s.clone()).to_string()),
        Value::Number(n) => {
            let r = instance_rat(v, n)?;
            out.push_str(&format!("n{}/{}", r.numer(), r.denom()));
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                strict_key(item, out)?;
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for k in keys {
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                strict_key(map.get(k.as_str())?, out)?;
                out.push(',');
            }
            out.push('}');
        }
    }
    Some(())
}

/// Largest array the reference deduplicates pairwise (with the
/// number/string rule); longer ones go through a type-tagged hash.
const PAIRWISE_MAX: usize = 20;

/// Go `duplicates`: `Ok(true)` when two items are equal, `Err(())` where
/// the reference crashes (an unreadable number in a hashed array).
pub(super) fn has_duplicates(items: &[Value]) -> Result<bool, ()> {
    if items.len() <= PAIRWISE_MAX {
        for (i, later) in items.iter().enumerate() {
            for earlier in items.iter().take(i) {
                if equals_instance(later, earlier) {
                    return Ok(true);
                }
            }
        }
        return Ok(false);
    }
    let mut seen = HashSet::new();
    for item in items {
        let mut key = String::new();
        strict_key(item, &mut key).ok_or(())?;
        if !seen.insert(key) {
            return Ok(true);
        }
    }
    Ok(false)
}

