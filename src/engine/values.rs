//! JSON values as the reference's engine tells them apart (E4): Go's
//! equality of `const`, `enum` and `uniqueItems` (numbers as exact
//! rationals, a number equal to a string Go reads as the same rational).
//! Moved here from [`super::numbers`]; the prover of `compat` calls the
//! same functions (issue 34, item 3).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use num_rational::BigRational;
use serde_json::Value;

use super::numbers::{go_rat, instance_rat, schema_rat};

// ---------------------------------------------------------------------------
// Kinds (Go `type`).
// ---------------------------------------------------------------------------

/// `null`.
pub const NULL: u8 = 1;
/// `true` / `false`.
pub const BOOL: u8 = 2;
/// An integral number (Go: an integral `big.Rat`; `1.0` is one).
pub const INT: u8 = 4;
/// A number that is not integral (or one Go cannot read).
pub const FRAC: u8 = 8;
/// A string.
pub const STR: u8 = 16;
/// An array.
pub const ARR: u8 = 32;
/// An object.
pub const OBJ: u8 = 64;
/// Every kind.
pub const ALL: u8 = 127;
/// Every number.
pub const NUMBER: u8 = INT | FRAC;

/// The kinds a `type` name admits (0 for a name that is none).
fn type_name_kinds(name: &str) -> u8 {
    match name {
        "null" => NULL,
        "boolean" => BOOL,
        "integer" => INT,
        "number" => NUMBER,
        "string" => STR,
        "array" => ARR,
        "object" => OBJ,
        _ => 0,
    }
}

/// The kinds a `type` keyword value admits: the union of the names it
/// lists; [`ALL`] when it lists none (Go ignores such a value, and the
/// meta-schema has refused it already).
pub fn type_mask(v: &Value) -> u8 {
    let m = match v {
        Value::String(s) => type_name_kinds(s),
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .fold(0, |m, s| m | type_name_kinds(s)),
        _ => 0,
    };
    if m == 0 {
        ALL
    } else {
        m
    }
}

/// The kind of an instance value: a number is [`INT`] when its exact
/// value ([`instance_rat`]: its literal text in a [`super::numbers::Scope`],
/// else its binary64 value) is integral, else [`FRAC`].
pub fn kind_of(v: &Value) -> u8 {
    match v {
        Value::Null => NULL,
        Value::Bool(_) => BOOL,
        // An integer within 64 bits is one whatever its literal
        // ([`instance_rat`] reads it so): no rational is built.
        Value::Number(n) if n.is_u64() || n.is_i64() => INT,
        Value::Number(n) => {
            if instance_rat(v, n).is_some_and(|r| r.is_integer()) {
                INT
            } else {
                FRAC
            }
        }
        Value::String(_) => STR,
        Value::Array(_) => ARR,
        Value::Object(_) => OBJ,
    }
}

/// The JSON type of a value as `enum` groups them (every number one type,
/// [`NUMBER`]).
pub fn json_kind(v: &Value) -> u8 {
    match v {
        Value::Number(_) => NUMBER,
        other => kind_of(other),
    }
}

/// The kinds of instances a schema value (`const`, an `enum` item) can
/// equal: its own, and for a string Go reads as a number, that number's
/// kind (the one-sided number/string equality, [`equals_instance`]).
pub fn const_kinds(v: &Value) -> u8 {
    match v {
        Value::String(s) => match go_rat(s) {
            Some(r) if r.is_integer() => STR | INT,
            Some(_) => STR | FRAC,
            None => STR,
        },
        other => kind_of(other),
    }
}

// ---------------------------------------------------------------------------
// Equality (Go `equals`, `duplicates`).
// ---------------------------------------------------------------------------

/// A schema value (`const`, an `enum` item), numbers already rational and
/// strings' rationals read on first use.
pub(crate) enum SchemaValue {
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

    /// Its JSON type ([`json_kind`]).
    pub(super) fn json_type(&self) -> u8 {
        match self {
            Self::Null => NULL,
            Self::Bool(_) => BOOL,
            Self::Number(_) => NUMBER,
            Self::String(..) => STR,
            Self::Array(_) => ARR,
            Self::Object(_) => OBJ,
        }
    }

    /// For a string, the rational Go reads from it (read once).
    fn string_rat(&self) -> Option<&BigRational> {
        match self {
            Self::String(s, rat) => rat.get_or_init(|| go_rat(s)).as_ref(),
            _ => None,
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
        (Value::Number(n), SchemaValue::String(..)) => {
            instance_rat(inst, n).is_some_and(|r| want.string_rat() == Some(&*r))
        }
        _ => false,
    }
}

/// Go `equals(a, b)` of two instance values, `a` the left operand (each
/// number read by [`instance_rat`]; outside a [`super::numbers::Scope`], as
/// in the `compat` prover, `b` may be a schema value: its numbers are then
/// read as the engine reads a schema's).
pub fn equals_instance(a: &Value, b: &Value) -> bool {
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

/// A rational in a strict key: `n` and its numerator and denominator
/// (written straight into `out`: formatting each through a new `String`
/// was a third of the lookups of an `enum` of 80,000 arrays).
fn push_rat(r: &BigRational, out: &mut String) {
    use num_traits::ToPrimitive;
    use std::fmt::Write;
    // A rational is in lowest terms, so each has one of the two forms.
    match (r.numer().to_i64(), r.denom().to_u64()) {
        (Some(n), Some(d)) => {
            out.push(if n < 0 { 'm' } else { 'n' });
            push_digits(n.unsigned_abs(), out);
            out.push('/');
            push_digits(d, out);
        }
        _ => {
            let _ = write!(out, "N{:x}/{:x}", r.numer(), r.denom());
        }
    }
}

/// The decimal digits of `n` (no formatting machinery: a strict key is
/// built for every lookup of an array in an `enum`).
fn push_digits(mut n: u64, out: &mut String) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b'0' + u8::try_from(n % 10).unwrap_or(0);
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    for &d in digits.get(at..).unwrap_or_default() {
        out.push(char::from(d));
    }
}

/// A string in a strict key: `s`, its length in bytes, `:` and its text
/// (the length tells where it ends, so it cannot run into the next token;
/// no copy, no escaping).
fn push_key_string(s: &str, out: &mut String) {
    out.push('s');
    push_digits(u64::try_from(s.len()).unwrap_or(u64::MAX), out);
    out.push(':');
    out.push_str(s);
}

/// One level of a value as its strict key reads it ([`strict_key`]).
enum Level<'a, V> {
    /// A scalar (null, a boolean, a string, a number), its key pushed.
    Scalar,
    /// An array's items.
    Array(&'a [V]),
    /// An object's members, in any order.
    Object(Vec<(&'a String, &'a V)>),
}

/// A value [`strict_key`] walks: an instance value ([`Value`]) or a
/// schema value ([`SchemaValue`]), each knowing its own scalars' keys.
trait Keyed: Sized {
    /// Pushes the key of a scalar (a literal as JSON writes it, a string
    /// by [`push_key_string`], a number as its reduced rational by
    /// [`push_rat`]), or gives a container's items; `None` when it is a
    /// number Go cannot read.
    fn level(&self, out: &mut String) -> Option<Level<'_, Self>>;
}

impl Keyed for Value {
    fn level(&self, out: &mut String) -> Option<Level<'_, Self>> {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::String(s) => push_key_string(s, out),
            Value::Number(n) => push_rat(&*instance_rat(self, n)?, out),
            Value::Array(items) => return Some(Level::Array(items)),
            Value::Object(map) => return Some(Level::Object(map.iter().collect())),
        }
        Some(Level::Scalar)
    }
}

impl Keyed for SchemaValue {
    fn level(&self, out: &mut String) -> Option<Level<'_, Self>> {
        match self {
            SchemaValue::Null => out.push_str("null"),
            SchemaValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            SchemaValue::String(s, _) => push_key_string(s, out),
            SchemaValue::Number(r) => push_rat(r, out),
            SchemaValue::Array(items) => return Some(Level::Array(items)),
            SchemaValue::Object(map) => return Some(Level::Object(map.iter().collect())),
        }
        Some(Level::Scalar)
    }
}

/// A type-strict key of an instance or schema value, the same for equal
/// values of either kind (numbers as reduced rationals, a string as its
/// length and text, object members sorted); `None` when it holds a number
/// Go cannot read (an instance's; a schema value's always reads).
fn strict_key<V: Keyed>(v: &V, out: &mut String) -> Option<()> {
    match v.level(out)? {
        Level::Scalar => {}
        Level::Array(items) => {
            out.push('[');
            for item in items {
                strict_key(item, out)?;
                out.push(',');
            }
            out.push(']');
        }
        Level::Object(mut members) => {
            members.sort_unstable_by_key(|(k, _)| *k);
            out.push('{');
            for (k, x) in members {
                push_key_string(k, out);
                out.push(':');
                strict_key(x, out)?;
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
#[allow(clippy::result_unit_err)]
pub fn has_duplicates(items: &[Value]) -> Result<bool, ()> {
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

// ---------------------------------------------------------------------------
// Sets of values (`enum`), looked up by hashing.
// ---------------------------------------------------------------------------

/// True when `v` holds, below its top level, a string Go reads as a
/// number (an instance number there may equal it: no strict key finds it).
fn nested_number_text(v: &SchemaValue) -> bool {
    let mut stack: Vec<&SchemaValue> = match v {
        SchemaValue::Array(items) => items.iter().collect(),
        SchemaValue::Object(map) => map.values().collect(),
        _ => return false,
    };
    while let Some(x) = stack.pop() {
        match x {
            SchemaValue::String(..) if x.string_rat().is_some() => return true,
            SchemaValue::Array(items) => stack.extend(items),
            SchemaValue::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    false
}

/// The first index of each distinct value of a list, found by a 64-bit
/// hash of the value and confirmed by comparing the value itself (`same`):
/// the values are not copied into the map (an `enum` of 80,000 values,
/// issue 35 item 4). Two different values with one hash keep the later in
/// `spill`, scanned in order, so every answer is exact.
#[derive(Default)]
struct FirstIndex {
    map: HashMap<u64, usize, ahash::RandomState>,
    spill: Vec<usize>,
}

impl FirstIndex {
    /// Records value `i` of hash `h`; `same(j)`: value `j` equals value `i`.
    fn insert(&mut self, h: u64, i: usize, same: impl Fn(usize) -> bool) {
        match self.map.get(&h) {
            None => {
                self.map.insert(h, i);
            }
            Some(&j) if same(j) => {}
            Some(_) => self.spill.push(i),
        }
    }

    /// The first index of a value of hash `h` that `same` accepts.
    fn find(&self, h: u64, same: impl Fn(usize) -> bool) -> Option<usize> {
        match self.map.get(&h) {
            None => None,
            Some(&j) if same(j) => Some(j),
            Some(_) => self.spill.iter().copied().find(|&k| same(k)),
        }
    }
}

/// The process's hash keys for [`FirstIndex`] (random: no package can
/// choose values whose hashes collide).
fn hash_state() -> &'static ahash::RandomState {
    static STATE: OnceLock<ahash::RandomState> = OnceLock::new();
    STATE.get_or_init(ahash::RandomState::new)
}

fn hash_str(s: &str) -> u64 {
    hash_state().hash_one(s)
}

/// The hash of a rational from its numerator and denominator. Every
/// rational here is in lowest terms with a positive denominator (`go_rat`,
/// `from_integer` and `num-rational`'s arithmetic keep that form), so equal
/// rationals hash equally; `Ratio`'s own `Hash` expands a continued
/// fraction (a big division per term), which was most of the cost of an
/// `enum` of 80,000 numbers.
fn hash_rat(r: &BigRational) -> u64 {
    debug_assert!(
        {
            let lowest = r.reduced();
            lowest.numer() == r.numer() && lowest.denom() == r.denom()
        },
        "{r} is not in lowest terms"
    );
    hash_state().hash_one((r.numer(), r.denom()))
}

/// The values of an `enum`, indexed so that Go's `enum` test of one
/// instance (some value of the instance's JSON type, and one value it
/// equals: Go's `equals`, the instance on the left) is a hash lookup,
/// not a scan: a set of `n` values against `n` instances costs `n`, not
/// `n²` (issue 35, item 4). Exact, with Go's quirks:
///
/// - a string instance equals exactly the same string;
/// - a number instance equals a number of the same rational and a string Go
///   reads as that rational (`16` equals `"0x10"`): one set of rationals
///   holds both, built on the first number looked up;
/// - an array or object instance is looked up by its strict key (numbers as
///   rationals, members sorted); the few container values that hold a
///   string Go reads as a number are compared one by one, as Go does.
///
/// The engine's `enum` keyword and the `compat` prover both ask it, and
/// the authoring lint FD225 asks it which earlier value an item repeats
/// ([`ValueSet::position`]): each lookup keeps the first index of what it
/// finds.
pub struct ValueSet {
    values: Vec<SchemaValue>,
    /// The JSON types of the values (`enum` first requires the instance's).
    types: u8,
    /// The first index of a value of each JSON type (`types`' bits).
    first_of_type: Vec<(u8, usize)>,
    null: Option<usize>,
    falses: Option<usize>,
    trues: Option<usize>,
    /// The strings, by their hash (compared on a hit).
    strings: FirstIndex,
    /// Numbers and strings Go reads as numbers, as rationals by their hash
    /// (compared on a hit).
    numbers: OnceLock<FirstIndex>,
    /// Strict keys of the container values, and the indices of those that
    /// hold a string Go reads as a number (ascending).
    containers: OnceLock<(HashMap<String, usize, ahash::RandomState>, Vec<usize>)>,
    /// The union of [`const_kinds`] of the values.
    kinds: OnceLock<u8>,
}

impl ValueSet {
    /// The set of an `enum`'s `items`.
    pub fn new(items: &[Value]) -> Self {
        let values: Vec<SchemaValue> = items.iter().map(SchemaValue::new).collect();
        let mut set = ValueSet {
            types: values.iter().fold(0u8, |acc, v| acc | v.json_type()),
            first_of_type: Vec::new(),
            values: Vec::new(),
            null: None,
            falses: None,
            trues: None,
            strings: FirstIndex::default(),
            numbers: OnceLock::new(),
            containers: OnceLock::new(),
            kinds: OnceLock::new(),
        };
        for (i, v) in values.iter().enumerate() {
            let ty = v.json_type();
            if !set.first_of_type.iter().any(|(t, _)| *t == ty) {
                set.first_of_type.push((ty, i));
            }
            let first = match v {
                SchemaValue::Null => &mut set.null,
                SchemaValue::Bool(true) => &mut set.trues,
                SchemaValue::Bool(false) => &mut set.falses,
                SchemaValue::String(s, _) => {
                    set.strings.insert(
                        hash_str(s),
                        i,
                        |j| matches!(values.get(j), Some(SchemaValue::String(t, _)) if t == s),
                    );
                    continue;
                }
                _ => continue,
            };
            first.get_or_insert(i);
        }
        set.values = values;
        set
    }

    /// How many values (repeats counted).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when the `enum` lists no value (nothing passes it).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Go's `enum` test: `inst` has the JSON type of some value and equals
    /// one of them.
    pub fn contains(&self, inst: &Value) -> bool {
        self.position(inst, self.values.len()).is_some()
    }

    /// Go's `enum` test of `inst` against the first `before` values alone:
    /// the index of the first of them it equals, `None` when it equals none
    /// or none of them has its JSON type. An `enum` item `j` that
    /// `position(item, j)` finds adds no document the earlier values do not
    /// already admit (FD225).
    pub fn position(&self, inst: &Value, before: usize) -> Option<usize> {
        let kind = json_kind(inst);
        if self.types & kind == 0
            || !self
                .first_of_type
                .iter()
                .any(|(t, i)| t & kind != 0 && *i < before)
        {
            return None;
        }
        let found = match inst {
            Value::Null => self.null,
            Value::Bool(true) => self.trues,
            Value::Bool(false) => self.falses,
            Value::String(s) => self.strings.find(
                hash_str(s),
                |j| matches!(self.values.get(j), Some(SchemaValue::String(t, _)) if t == s),
            ),
            Value::Number(n) => instance_rat(inst, n).and_then(|r| {
                self.numbers()
                    .find(hash_rat(&r), |j| self.rat_of(j) == Some(&*r))
            }),
            Value::Array(_) | Value::Object(_) => {
                let (exact, quirky) = self.containers.get_or_init(|| {
                    let mut exact = HashMap::default();
                    let mut quirky = Vec::new();
                    for (i, v) in self.values.iter().enumerate() {
                        if !matches!(v, SchemaValue::Array(_) | SchemaValue::Object(_)) {
                            continue;
                        }
                        if nested_number_text(v) {
                            quirky.push(i);
                        } else {
                            let mut key = String::new();
                            if strict_key(v, &mut key).is_some() {
                                exact.entry(key).or_insert(i);
                            }
                        }
                    }
                    (exact, quirky)
                });
                let mut key = String::new();
                let hashed = strict_key(inst, &mut key).and_then(|()| exact.get(&key).copied());
                let scanned = quirky
                    .iter()
                    .copied()
                    .take_while(|i| *i < before)
                    .find(|&i| self.values.get(i).is_some_and(|w| equals_schema(inst, w)));
                hashed.into_iter().chain(scanned).min()
            }
        };
        found.filter(|i| *i < before)
    }

    /// The rational of value `i`: a number's, or a string's that Go reads
    /// as a number.
    fn rat_of(&self, i: usize) -> Option<&BigRational> {
        match self.values.get(i)? {
            SchemaValue::Number(r) => Some(r),
            v @ SchemaValue::String(..) => v.string_rat(),
            _ => None,
        }
    }

    fn numbers(&self) -> &FirstIndex {
        self.numbers.get_or_init(|| {
            let mut out = FirstIndex::default();
            for i in 0..self.values.len() {
                if let Some(r) = self.rat_of(i) {
                    out.insert(hash_rat(r), i, |j| self.rat_of(j) == Some(r));
                }
            }
            out
        })
    }

    /// The kinds of the instances some value can equal (the union of
    /// [`const_kinds`]).
    pub fn kinds(&self) -> u8 {
        *self.kinds.get_or_init(|| {
            self.values.iter().fold(0u8, |acc, v| {
                acc | match v {
                    SchemaValue::String(..) => match v.string_rat() {
                        Some(r) if r.is_integer() => STR | INT,
                        Some(_) => STR | FRAC,
                        None => STR,
                    },
                    SchemaValue::Number(r) if r.is_integer() => INT,
                    SchemaValue::Number(_) => FRAC,
                    other => other.json_type(),
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The set answers as Go's `enum` does, quirks included, and as the
    /// linear scan it replaces ([`equals_schema`] over every value).
    #[test]
    fn value_set_is_gos_enum() {
        let items = vec![
            json!("0x10"),
            json!(1.5),
            json!("a"),
            json!([1, "2"]),
            json!({"k": 3}),
            json!(null),
            json!(false),
        ];
        let set = ValueSet::new(&items);
        let scan = |inst: &Value| {
            let types = items.iter().fold(0u8, |a, v| a | json_kind(v));
            types & json_kind(inst) != 0
                && items
                    .iter()
                    .any(|w| equals_schema(inst, &SchemaValue::new(w)))
        };
        for (inst, want) in [
            (json!(16), true),     // a number equals a string Go reads as it
            (json!(16.0), true),   // 16.0 is 16
            (json!("16"), false),  // one-sided: a string never equals "0x10"'s number
            (json!("0x10"), true), // the string itself
            (json!(1.5), true),
            (json!(3), false),
            (json!("a"), true),
            (json!("b"), false),
            (json!([1, 2]), true), // 2 equals "2" inside an array
            (json!([1, "2"]), true),
            (json!([1, "02"]), false),
            (json!({"k": 3.0}), true),
            (json!({"k": 3, "l": 1}), false),
            (json!(null), true),
            (json!(false), true),
            (json!(true), false),
        ] {
            assert_eq!(set.contains(&inst), want, "{inst}");
            assert_eq!(scan(&inst), want, "scan {inst}");
        }
        // `position` names the first value equal, as Go's test of the
        // values before it would find it (FD225).
        assert_eq!(set.position(&json!(16), 7), Some(0));
        assert_eq!(set.position(&json!([1, 2]), 7), Some(3));
        assert_eq!(set.position(&json!([1, 2]), 3), None);
        assert_eq!(set.position(&json!(false), 6), None);
        assert_eq!(set.position(&json!(false), 7), Some(6));
        // The type gate counts only the values before: "1" then 1 lists
        // two values (1 alone is refused by ["1"]), 2, "1", 1 lists one
        // twice (the number 2 opens the gate, then 1 equals "1").
        let gate = ValueSet::new(&[json!("1"), json!(1)]);
        assert_eq!(gate.position(&json!(1), 1), None);
        let gate = ValueSet::new(&[json!(2), json!("1"), json!(1)]);
        assert_eq!(gate.position(&json!(1), 2), Some(1));
        // Go's `enum` first asks for a value of the instance's JSON type:
        // with no number listed, 16 is refused though it equals "0x10".
        let strings = ValueSet::new(&[json!("0x10")]);
        assert!(!strings.contains(&json!(16)));
        assert_eq!(strings.kinds(), STR | INT);
        assert_eq!(set.kinds(), STR | INT | FRAC | ARR | OBJ | NULL | BOOL);
    }

    /// Two different values with one hash both stay findable, each at its
    /// first index (the spill), and a repeat keeps the first index. Near
    /// miss: a value of that hash that equals none is not found.
    #[test]
    fn first_index_survives_hash_collisions() {
        let values = ["a", "b", "a", "c", "b"];
        let mut index = FirstIndex::default();
        for (i, v) in values.iter().enumerate() {
            // Every value has the hash 7: all but the first collide.
            index.insert(7, i, |j| values.get(j) == Some(v));
        }
        let find = |v: &str| index.find(7, |j| values.get(j) == Some(&v));
        assert_eq!(find("a"), Some(0));
        assert_eq!(find("b"), Some(1));
        assert_eq!(find("c"), Some(3));
        assert_eq!(find("d"), None);
        assert_eq!(index.find(8, |_| true), None);
        // Rationals hash by their lowest terms: 1/2 read from "0.5" and
        // from "0.50" (and 2 from "2.0") are one key.
        let half = go_rat("0.50").unwrap_or_default();
        assert_eq!(
            hash_rat(&half),
            hash_rat(&go_rat("0.5").unwrap_or_default())
        );
        let two = go_rat("2.0").unwrap_or_default();
        assert_eq!(
            hash_rat(&two),
            hash_rat(&BigRational::from_integer(2.into()))
        );
        // Strict keys: a rational by its sign, digits and denominator,
        // past 64 bits in hexadecimal; a string by its length and text.
        let key = |t: &str| {
            let mut k = String::new();
            push_rat(&go_rat(t).unwrap_or_default(), &mut k);
            k
        };
        assert_eq!(key("0"), "n0/1");
        assert_eq!(key("-3.5"), "m7/2");
        assert_eq!(key("3.5"), "n7/2");
        assert_eq!(key("18446744073709551616"), "N10000000000000000/1");
        let mut k = String::new();
        push_key_string("a,b", &mut k);
        assert_eq!(k, "s3:a,b");
    }

    /// `type`'s kinds: `integer` admits integral numbers (`1.0` too),
    /// `number` every number; a value listing no type name admits all.
    #[test]
    fn type_kinds() {
        assert_eq!(type_mask(&json!("integer")), INT);
        assert_eq!(type_mask(&json!(["number", "null"])), INT | FRAC | NULL);
        assert_eq!(type_mask(&json!("bogus")), ALL);
        assert_eq!(kind_of(&json!(1.0)), INT);
        assert_eq!(kind_of(&json!(1.5)), FRAC);
        assert_eq!(const_kinds(&json!("0x10")), STR | INT);
        assert_eq!(const_kinds(&json!("0.5")), STR | FRAC);
    }

    /// Duplicate D3: one walk keys both value kinds, and equal values of
    /// either kind get the same key, written as before (members sorted, a
    /// string its length and text, a number its reduced rational). Near
    /// misses: a string of a number's text and the same number, and `1`
    /// and `[1]`, key apart.
    #[test]
    fn one_walk_keys_instance_and_schema_values_alike() {
        let key = |v: &Value| {
            let mut instance = String::new();
            strict_key(v, &mut instance).unwrap();
            let mut schema = String::new();
            strict_key(&SchemaValue::new(v), &mut schema).unwrap();
            assert_eq!(instance, schema, "{v}");
            instance
        };
        let v = json!({"b": [1, "x", null, true], "a": 1.50, "": {}});
        assert_eq!(key(&v), "{s0::{},s1:a:n3/2,s1:b:[n1/1,s1:x,null,true,],}");
        assert_eq!(key(&json!(1.5)), key(&json!(1.50)));
        assert_ne!(key(&json!("1")), key(&json!(1)));
        assert_ne!(key(&json!(1)), key(&json!([1])));
    }
}
