//! Exact numbers, decided as the reference's engine decides them
//! (`verifier-rules.md` §12 E4; issue 10, kind 1).
//!
//! The reference (`santhosh-tekuri/jsonschema` v6.0.2) reads every JSON
//! number as a Go `big.Rat` built by `big.Rat.SetString` from a text:
//!
//! - **Instance numbers** (fixture documents) keep their literal text
//!   (`json.Number`), so `1.0000000000000001` is not an integer and
//!   `1e24` is a multiple of `1e23`.
//! - **Schema numbers** come from a definition decoded into binary64, so
//!   each is the shortest decimal text of its binary64 value
//!   ([`super::through_binary64`]): `9223372036854775807` is
//!   `9223372036854776000`.
//! - **Count keywords** (`minLength`, `maxLength`, `minItems`, `maxItems`,
//!   `minProperties`, `maxProperties`, `minContains`, `maxContains`) are
//!   converted with `int(rat.Num().Int64())`: the low 64 bits of the
//!   integer, so `9223372036854775808` is `-9223372036854775808` and
//!   `2^64` (text `18446744073709552000`) is `384` ([`go_int`]).
//! - **Equality** (`const`, `enum`, `uniqueItems`) compares numbers as
//!   rationals, and a *number* compared with a *string* is equal when the
//!   string parses (`big.Rat.SetString`) to the same rational. The rule is
//!   one-sided: the instance value is the left operand for `const`/`enum`
//!   (`16` equals `const: "0x10"`, but `"16"` does not equal `const: 16`);
//!   `uniqueItems` compares each item with the items before it, the later
//!   item on the left, so `["1", 1]` has a duplicate and `[1, "1"]` has
//!   none. `enum` first requires some enum value of the instance's JSON type.
//!   Arrays of more than 20 items are deduplicated through a type-tagged
//!   hash, where a number never meets a string: there equality is strict.
//! - A literal `big.Rat.SetString` refuses (a decimal exponent beyond
//!   ±1,000,000, or an exponent that overflows 64 bits: `1e-1000001`,
//!   `0e-99999999999999999999`) is a number that equals nothing and is not an
//!   integer. Where the reference then dereferences the missing rational
//!   (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
//!   `multipleOf`, `uniqueItems` over more than 20 items) it crashes; we
//!   refuse the instance there, with a message saying so.
//!
//! # Design: the literal text beside the value, by construction
//!
//! `serde_json`'s `arbitrary_precision` feature would change `Number` for
//! the whole build, RFC 8785 digests included, so it stays off: digests keep
//! binary64 semantics untouched. Instead:
//!
//! 1. The strict reader keeps the text of every number literal, in document
//!    order ([`crate::json::strict::parse_value_with_numbers`] →
//!    [`Literals`]).
//! 2. Before validating a fixture, [`Scope::enter`] pairs each number
//!    `Value` of the document with its text by walking the value in the same
//!    order, keyed by the value's address (its identity while the document
//!    is borrowed, the crate's own `NodeIdentity` notion), and makes the
//!    table current for this thread until the scope ends.
//! 3. Every keyword whose answer depends on a number's value is replaced by
//!    a custom keyword (`engine::custom::register`) that reads instance
//!    numbers through that table ([`instance_rat`]) and schema numbers from
//!    their shortest binary64 text ([`schema_rat`]), and compares them as
//!    `num_rational::BigRational` (maintained crates do the arithmetic; only
//!    Go's `SetString` grammar, [`go_rat`], is ours because no crate parses
//!    it). `minContains`/`maxContains` stay the crate's (they need the
//!    `contains` subschema), with their values replaced by Go's `int` first
//!    (`engine::custom::rewrite_contains_counts`).
//!
//! An integer `Value` (`u64`/`i64`) is always exact — the strict reader
//! makes one only from a plain integer literal of that value — so it is read
//! directly; a number without a recorded literal (a document not read by the
//! strict reader) is read from its shortest binary64 text, the reference's
//! reading of a document decoded into binary64.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::Zero;
use serde_json::{Number, Value};

/// The literal text of every number of one document, in document order
/// (pre-order, object members in source order, array items by index), as
/// [`crate::json::strict::parse_value_with_numbers`] returns them (empty
/// for numbers whose value is an `i64`/`u64`: exact without their text, so
/// never looked up). Cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct Literals(Arc<[Box<str>]>);

impl Literals {
    /// Number of literals.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the document has no number.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<Vec<Box<str>>> for Literals {
    fn from(texts: Vec<Box<str>>) -> Self {
        Self(texts.into())
    }
}

// ---------------------------------------------------------------------------
// Go's big.Rat.SetString grammar (math/big ratconv.go, natconv.go,
// intconv.go; Go 1.25). Hand-rolled because no crate parses Go's grammar;
// the arithmetic is num-bigint's.
// ---------------------------------------------------------------------------

/// A byte reader with one byte of push-back (Go's `io.ByteScanner`).
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn read(&mut self) -> Option<u8> {
        let b = self.bytes.get(self.pos).copied();
        if b.is_some() {
            self.pos += 1;
        }
        b
    }

    fn unread(&mut self) {
        self.pos = self.pos.saturating_sub(1);
    }

    fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }
}

/// A scanned unsigned mantissa: its digits' value, base, and Go's digit
/// count (`<= 0` when a radix point was seen: minus the fraction digits).
struct Nat {
    value: BigUint,
    base: u32,
    count: i64,
}

/// Go's `nat.scan`: `base` 0 (prefix decides) and `frac_ok` as in Go.
/// `None` is a syntax error (no digits, misplaced `_`).
fn scan_nat(r: &mut Reader<'_>, frac_ok: bool) -> Option<Nat> {
    let mut prev = b'.';
    let mut ch = r.read();
    let mut b: u32 = 10;
    let mut prefix = 0u8;
    let mut count: i64 = 0;
    if ch == Some(b'0') {
        prev = b'0';
        count = 1;
        ch = r.read();
        if let Some(c) = ch {
            match c {
                b'b' | b'B' => (b, prefix) = (2, b'b'),
                b'o' | b'O' => (b, prefix) = (8, b'o'),
                b'x' | b'X' => (b, prefix) = (16, b'x'),
                _ if !frac_ok => (b, prefix) = (8, b'0'),
                _ => {}
            }
            if prefix != 0 {
                count = 0;
                if prefix != b'0' {
                    ch = r.read();
                }
            }
        }
    }
    let mut value = BigUint::zero();
    let run = scan_digits(r, ch, prev, count, frac_ok, |c| {
        let d = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'a'..=b'z' => u32::from(c - b'a') + 10,
            b'A'..=b'Z' => u32::from(c - b'A') + 10,
            _ => u32::MAX,
        };
        (d < b).then(|| value = std::mem::take(&mut value) * b + d)
    });
    let (mut count, inval) = (run.count, !run.separators_ok);
    if count == 0 {
        // Only the octal prefix `0` (integer form): decimal zero.
        return (prefix == b'0' && !inval).then(|| Nat {
            value: BigUint::zero(),
            base: 10,
            count: 1,
        });
    }
    if inval {
        return None;
    }
    if let Some(dp) = run.point {
        count = dp - count;
    }
    Some(Nat {
        value,
        base: b,
        count,
    })
}

/// A run of digits as Go's scanners read it ([`scan_nat`], Go's
/// `nat.scan`, and [`scan_exponent`], Go's `scanExponent`).
struct Digits {
    /// The digits read, with those read before the run.
    count: i64,
    /// The digit count where the radix point stood, if one did.
    point: Option<i64>,
    /// True when every `_` separator stood right after a digit and was
    /// followed by a digit.
    separators_ok: bool,
}

/// The one digit-run scanner of Go's grammar, from the byte `ch` on: a
/// digit (a byte `digit` takes, seeing its value; one it refuses ends the
/// run and is pushed back), a `_` separator, and, when `frac_ok`, one
/// radix point. `prev` is `b'0'` when a digit was read just before (a
/// leading `0`), else `b'.'`; `count` the digits read before.
fn scan_digits(
    r: &mut Reader<'_>,
    mut ch: Option<u8>,
    mut prev: u8,
    mut count: i64,
    mut frac_ok: bool,
    mut digit: impl FnMut(u8) -> Option<()>,
) -> Digits {
    let mut inval = false;
    let mut point = None;
    while let Some(c) = ch {
        if c == b'.' && frac_ok {
            frac_ok = false;
            inval |= prev == b'_';
            prev = b'.';
            point = Some(count);
        } else if c == b'_' {
            inval |= prev != b'0';
            prev = b'_';
        } else if digit(c).is_some() {
            prev = b'0';
            count += 1;
        } else {
            r.unread();
            break;
        }
        ch = r.read();
    }
    Digits {
        count,
        point,
        separators_ok: !inval && prev != b'_',
    }
}

/// Go's `scanExponent(r, base2ok=true, sepOk=true)`: `(exponent, base)`;
/// `None` on a syntax error or an exponent outside `i64`.
fn scan_exponent(r: &mut Reader<'_>) -> Option<(i64, u32)> {
    let base = match r.read() {
        None => return Some((0, 10)),
        Some(b'e' | b'E') => 10,
        Some(b'p' | b'P') => 2,
        Some(_) => {
            r.unread();
            return Some((0, 10));
        }
    };
    let mut digits = String::new();
    let mut ch = r.read();
    if let Some(sign @ (b'+' | b'-')) = ch {
        if sign == b'-' {
            digits.push('-');
        }
        ch = r.read();
    }
    let run = scan_digits(r, ch, b'.', 0, false, |c| {
        c.is_ascii_digit().then(|| digits.push(char::from(c)))
    });
    if run.count == 0 {
        return None;
    }
    let exp = digits.parse::<i64>().ok()?;
    if !run.separators_ok {
        return None;
    }
    Some((exp, base))
}

/// Go's `scanSign`: true for `-`; `+` is consumed; anything else is left.
fn scan_sign(r: &mut Reader<'_>) -> Option<bool> {
    match r.read()? {
        b'-' => Some(true),
        b'+' => Some(false),
        _ => {
            r.unread();
            Some(false)
        }
    }
}

/// Go's `Int.SetString(s, 0)`: sign, then an integer with an optional
/// `0b`/`0o`/`0x`/`0` prefix, the whole text.
fn go_int_base0(s: &str) -> Option<BigInt> {
    let mut r = Reader {
        bytes: s.as_bytes(),
        pos: 0,
    };
    let neg = scan_sign(&mut r)?;
    let n = scan_nat(&mut r, false)?;
    if !r.at_end() {
        return None;
    }
    let sign = if neg { Sign::Minus } else { Sign::Plus };
    Some(BigInt::from_biguint(sign, n.value))
}

/// Decimal exponent magnitude above which Go's `Rat.SetString` fails.
const MAX_EXP5: i64 = 1_000_000;
/// Binary exponent magnitude above which Go's `Rat.SetString` fails.
const MAX_EXP2: i64 = 10_000_000;

/// The rational Go's `big.Rat.SetString(s)` gives, or `None` where it fails.
///
/// Accepts what Go accepts (Go 1.25 `math/big`): a fraction `a/b` (each an
/// integer with an optional `0b`/`0o`/`0x`/`0` prefix, `a` signed, `b`
/// non-zero) or a signed mantissa (decimal, or `0b`/`0o`/`0x` prefixed,
/// with an optional radix point and `_` between digits) with an optional
/// `e`/`E` (base 10) or `p`/`P` (base 2) exponent; the whole text must be
/// used. Fails when a decimal exponent (exponent minus fraction digits)
/// exceeds ±1,000,000, a binary one ±10,000,000, or the exponent overflows
/// 64 bits. Every JSON number literal is in this grammar.
pub fn go_rat(s: &str) -> Option<BigRational> {
    if s.is_empty() {
        return None;
    }
    if let Some(r) = plain_decimal(s) {
        return Some(r);
    }
    go_rat_full(s)
}

/// [`go_rat`] by the full grammar alone, without the fast path of plain
/// decimals (`plain_decimal`); the tests' oracle for that fast path.
fn go_rat_full(s: &str) -> Option<BigRational> {
    if s.is_empty() {
        return None;
    }
    if let Some(sep) = s.find('/') {
        let num = go_int_base0(s.get(..sep)?)?;
        let mut r = Reader {
            bytes: s.as_bytes().get(sep + 1..)?,
            pos: 0,
        };
        let den = scan_nat(&mut r, false)?;
        if !r.at_end() || den.value.is_zero() {
            return None;
        }
        return Some(BigRational::new(num, BigInt::from(den.value)));
    }
    let mut r = Reader {
        bytes: s.as_bytes(),
        pos: 0,
    };
    let neg = scan_sign(&mut r)?;
    let mantissa = scan_nat(&mut r, true)?;
    let (exp, ebase) = scan_exponent(&mut r)?;
    if !r.at_end() {
        return None;
    }
    if mantissa.value.is_zero() {
        return Some(BigRational::zero());
    }
    let (mut exp2, mut exp5) = (0i64, 0i64);
    if mantissa.count < 0 {
        let d = mantissa.count;
        match mantissa.base {
            10 => (exp5, exp2) = (d, d),
            8 => exp2 = d.wrapping_mul(3),
            16 => exp2 = d.wrapping_mul(4),
            _ => exp2 = d,
        }
    }
    if ebase == 10 {
        exp5 = exp5.wrapping_add(exp);
    }
    exp2 = exp2.wrapping_add(exp);
    let mut num = mantissa.value;
    let mut den = BigUint::from(1u8);
    if exp5 != 0 {
        let n = exp5.checked_abs()?;
        if n > MAX_EXP5 {
            return None;
        }
        // n <= 1,000,000 fits u32.
        let pow5 = BigUint::from(5u8).pow(u32::try_from(n).ok()?);
        if exp5 > 0 {
            num *= pow5;
        } else {
            den = pow5;
        }
    }
    if !(-MAX_EXP2..=MAX_EXP2).contains(&exp2) {
        return None;
    }
    let shift = usize::try_from(exp2.unsigned_abs()).ok()?;
    if exp2 > 0 {
        num <<= shift;
    } else {
        den <<= shift;
    }
    let sign = if neg { Sign::Minus } else { Sign::Plus };
    Some(BigRational::new(
        BigInt::from_biguint(sign, num),
        BigInt::from(den),
    ))
}

/// [`go_rat`]'s fast path (issue 35 item 4: reading every fraction of an
/// 80,000-value `enum` through `BigUint` powers and a `BigInt` gcd was 40 %
/// of a compat run): a plain decimal text `-?D+(.D+)?([eE][+-]?D{1,3})?`
/// whose digits and scale fit 128 bits, read with `u128` arithmetic and a
/// `u128` gcd into the same reduced rational. `None` for every other text
/// (an underscore, a prefix, a leading `+` or `.`, too many digits): the
/// full grammar reads it. Tests `plain_decimals_read_as_the_full_grammar` and the proptest
/// `plain_decimal_agrees_with_the_full_grammar` (`go_rat_full` the oracle).
fn plain_decimal(s: &str) -> Option<BigRational> {
    let b = s.as_bytes();
    let (neg, body) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    let mantissa_end = body
        .iter()
        .position(|c| *c == b'e' || *c == b'E')
        .unwrap_or(body.len());
    let (mantissa, exponent) = body.split_at(mantissa_end);
    let (int, frac) = match mantissa.iter().position(|c| *c == b'.') {
        Some(dot) => (mantissa.get(..dot)?, mantissa.get(dot + 1..)?),
        None => (mantissa, &[][..]),
    };
    let digit = |c: &u8| c.is_ascii_digit();
    if int.is_empty()
        || !int.iter().all(digit)
        || (mantissa.len() > int.len() && frac.is_empty())
        || !frac.iter().all(digit)
        || int.len() + frac.len() > 38
    {
        return None;
    }
    let mut exp: i64 = 0;
    if let Some((_, e)) = exponent.split_first() {
        let (eneg, ed) = match e.split_first() {
            Some((b'-', rest)) => (true, rest),
            Some((b'+', rest)) => (false, rest),
            _ => (false, e),
        };
        if ed.is_empty() || ed.len() > 3 || !ed.iter().all(digit) {
            return None;
        }
        let v: i64 = std::str::from_utf8(ed).ok()?.parse().ok()?;
        exp = if eneg { -v } else { v };
    }
    let mut num: u128 = 0;
    for c in int.iter().chain(frac) {
        num = num * 10 + u128::from(c - b'0');
    }
    let scale = exp - i64::try_from(frac.len()).ok()?;
    let ten = |k: i64| -> Option<u128> { 10u128.checked_pow(u32::try_from(k).ok()?) };
    let sign = if neg { Sign::Minus } else { Sign::Plus };
    if num == 0 {
        return Some(BigRational::zero());
    }
    if scale >= 0 {
        let n = num.checked_mul(ten(scale)?)?;
        return Some(BigRational::from_integer(BigInt::from_biguint(
            sign,
            BigUint::from(n),
        )));
    }
    let den = ten(-scale)?;
    let (mut x, mut y) = (num, den);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    Some(BigRational::new_raw(
        BigInt::from_biguint(sign, BigUint::from(num / x)),
        BigInt::from(den / x),
    ))
}

/// Go's `int(rat.Num().Int64())` for an integral rational: the low 64 bits
/// of the magnitude as a two's-complement `i64`, negated when negative.
pub fn go_int(r: &BigRational) -> i64 {
    let n = r.numer();
    let low = n.magnitude().iter_u64_digits().next().unwrap_or(0);
    // Reinterpreting the low 64 bits is the conversion being modelled.
    #[allow(clippy::cast_possible_wrap)]
    let v = low as i64;
    if n.sign() == Sign::Minus {
        v.wrapping_neg()
    } else {
        v
    }
}

/// The shortest decimal text of a schema number as the reference reads it
/// back after binary64 (integers within 64 bits are already exact).
pub fn schema_text(n: &Number) -> String {
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    // serde_json prints a binary64 with `ryu`: the shortest round-trip
    // digits, and on a tie between two shortest candidates the even one, as
    // Go's `strconv` does (`900719925474099.25` is `900719925474099.2`;
    // core's `{:e}` would print `…099.3`).
    n.to_string()
}

/// The rational of a schema number: its shortest binary64 text read by
/// [`go_rat`] (always readable: the value is finite).
pub fn schema_rat(n: &Number) -> BigRational {
    if let Some(u) = n.as_u64() {
        return BigRational::from_integer(BigInt::from(u));
    }
    if let Some(i) = n.as_i64() {
        return BigRational::from_integer(BigInt::from(i));
    }
    BigRational::clone(&float_rat(n))
}

/// Most binary64 values [`float_rat`] remembers per thread; past it the
/// memory starts over (a few MB at most).
const FLOAT_RATS: usize = 1 << 15;

/// The rational of a schema number that is a binary64 fraction: its
/// shortest text read by [`go_rat`], remembered per thread by its bits.
/// The `compat` prover and the engine read the same `enum` value several
/// times (its kind, the set lookup, the bounds); printing and reading it
/// each time was most of the prover's work on an 80,000-value `enum`
/// (issue 35 item 4).
fn float_rat(n: &Number) -> Rc<BigRational> {
    thread_local! {
        static READ: RefCell<HashMap<u64, Rc<BigRational>, ahash::RandomState>> =
            RefCell::new(HashMap::default());
    }
    let read = || Rc::new(go_rat(&schema_text(n)).unwrap_or_else(BigRational::zero));
    let Some(bits) = n.as_f64().map(f64::to_bits) else {
        return read();
    };
    READ.with(|memo| {
        if let Some(r) = memo.borrow().get(&bits) {
            return Rc::clone(r);
        }
        let r = read();
        let mut memo = memo.borrow_mut();
        if memo.len() >= FLOAT_RATS {
            memo.clear();
        }
        memo.insert(bits, Rc::clone(&r));
        r
    })
}

// ---------------------------------------------------------------------------
// The current document's literals (per thread, for the duration of a scope).
// ---------------------------------------------------------------------------

struct Table {
    literals: Literals,
    /// Address of a number `Value` → index of its literal.
    index: HashMap<usize, usize>,
    /// Rationals read so far, by literal index (`None` inside: Go fails).
    cache: RefCell<HashMap<usize, Option<Rc<BigRational>>>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<Table>>> = const { RefCell::new(None) };
}

fn address(v: &Value) -> usize {
    std::ptr::from_ref(v) as usize
}

/// While alive, the numbers of one document read from their literal text
/// on this thread (see the module doc). Restores the previous table when
/// dropped.
#[must_use = "the literals are in effect only while the scope lives"]
pub struct Scope {
    previous: Option<Rc<Table>>,
}

impl Scope {
    /// Pairs every number of `document` with its text in `literals` (the
    /// literals of exactly this document, from the strict reader). With
    /// `None`, numbers are read from their values (no table).
    pub fn enter(document: &Value, literals: Option<&Literals>) -> Scope {
        let table = literals.and_then(|l| bind(document, l)).map(Rc::new);
        let previous = CURRENT.with(|c| c.replace(table));
        Scope { previous }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| {
            c.replace(previous);
        });
    }
}

/// The address → literal index table of `document`, or `None` when the
/// literal count does not match (literals of another document).
fn bind(document: &Value, literals: &Literals) -> Option<Table> {
    let mut index = HashMap::new();
    let mut seen = 0usize;
    let mut stack: Vec<&Value> = vec![document];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) => {
                // Integer values are exact without their text.
                if n.as_u64().is_none() && n.as_i64().is_none() {
                    index.insert(address(v), seen);
                }
                seen += 1;
            }
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(map) => stack.extend(map.values().rev()),
            _ => {}
        }
    }
    debug_assert_eq!(seen, literals.len(), "literals belong to this document");
    (seen == literals.len()).then(|| Table {
        literals: literals.clone(),
        index,
        cache: RefCell::new(HashMap::new()),
    })
}

/// The exact rational of an instance number `v` (which holds `n`): its
/// literal text when the current [`Scope`] has one, else its value.
/// `None` when Go's `SetString` cannot read the literal.
pub fn instance_rat(v: &Value, n: &Number) -> Option<Rc<BigRational>> {
    if let Some(u) = n.as_u64() {
        return Some(Rc::new(BigRational::from_integer(BigInt::from(u))));
    }
    if let Some(i) = n.as_i64() {
        return Some(Rc::new(BigRational::from_integer(BigInt::from(i))));
    }
    let from_literal = CURRENT.with(|c| {
        let current = c.borrow();
        let table = current.as_ref()?;
        let at = *table.index.get(&address(v))?;
        let mut cache = table.cache.borrow_mut();
        Some(
            cache
                .entry(at)
                .or_insert_with(|| {
                    table
                        .literals
                        .0
                        .get(at)
                        .and_then(|t| go_rat(t))
                        .map(Rc::new)
                })
                .clone(),
        )
    });
    match from_literal {
        Some(r) => r,
        // Not an integer within 64 bits (those returned above).
        None => Some(float_rat(n)),
    }
}

/// The text shown for an instance number in messages: its literal when
/// known.
fn instance_text(v: &Value, n: &Number) -> String {
    CURRENT
        .with(|c| {
            let current = c.borrow();
            let table = current.as_ref()?;
            let at = *table.index.get(&address(v))?;
            table.literals.0.get(at).map(ToString::to_string)
        })
        .unwrap_or_else(|| n.to_string())
}

pub(super) fn shown(v: &Value) -> String {
    match v {
        Value::Number(n) => instance_text(v, n),
        other => other.to_string(),
    }
}

/// The rational Go reads from `s`, as `a/b` text; a convenience for tests.
#[cfg(test)]
fn reads(s: &str) -> Option<String> {
    go_rat(s).map(|r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path of plain decimals reads the same rational as the
    /// full grammar (the `BigUint` path, reached here by writing the text
    /// with a `_` the fast path declines), over random and edge texts.
    /// Near miss: texts the fast path declines (a prefix, `+`, `.5`, `5.`,
    /// too many digits) still read by the full grammar.
    #[test]
    fn plain_decimals_read_as_the_full_grammar() {
        let slow = |s: &str| -> Option<BigRational> {
            // `1_2.5` is `12.5` to Go; the fast path declines any `_`.
            let t = if s.starts_with('-') {
                format!("-{}_{}", &s[1..2], &s[2..])
            } else {
                format!("{}_{}", &s[..1], &s[1..])
            };
            if t.contains("_.") || t.contains("_e") || t.contains("_E") || t.ends_with('_') {
                return None;
            }
            go_rat(&t)
        };
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "7",
            "0.5",
            "0.1",
            "-2.50",
            "1e3",
            "1E-3",
            "12.5e+2",
            "020",
            "0.000",
            "123456789012345678901234567890.12345678",
            "9007199254740993",
            "1.5e-300",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let int = x % 100_000;
            let frac = (x >> 20) % 10_000;
            let exp = i64::try_from((x >> 40) % 41).unwrap_or(0) - 20;
            texts.push(match (x >> 60) % 4 {
                0 => format!("{int}"),
                1 => format!("{int}.{frac}"),
                2 => format!("-{int}.{frac}e{exp}"),
                _ => format!("{int}E{exp}"),
            });
        }
        let mut compared = 0;
        for t in &texts {
            let fast = plain_decimal(t);
            if let Some(want) = slow(t) {
                if let Some(f) = fast {
                    assert_eq!(f, want, "{t}");
                    compared += 1;
                }
                assert_eq!(go_rat(t), Some(want), "{t}");
            }
        }
        assert!(compared > 1500, "{compared}");
        for declined in [
            "0x10",
            "+16",
            ".16e2",
            "16.",
            "1_6",
            "1e1000",
            "1".repeat(40).as_str(),
        ] {
            assert!(plain_decimal(declined).is_none(), "{declined}");
        }
        assert_eq!(go_rat("0x10").map(|r| r.to_string()), Some("16".into()));
        assert_eq!(go_rat(".16e2").map(|r| r.to_string()), Some("16".into()));
    }

    proptest::proptest! {
        /// The fast path reads every plain decimal text as the full
        /// grammar does (the oracle), digits and exponents of any length
        /// (beyond 128 bits it declines and the full grammar reads it).
        #[test]
        fn plain_decimal_agrees_with_the_full_grammar(
            s in "-?[0-9]{1,45}(\\.[0-9]{1,45})?([eE][+-]?[0-9]{1,4})?"
        ) {
            let full = go_rat_full(&s);
            proptest::prop_assert!(full.is_some(), "{s}");
            if let Some(fast) = plain_decimal(&s) {
                proptest::prop_assert_eq!(Some(fast), full.clone(), "{}", s);
            }
            proptest::prop_assert_eq!(go_rat(&s), full, "{}", s);
        }

        /// Near miss: on any other text (a sign, a prefix, `_`, a lone
        /// dot, letters) `go_rat` answers as the full grammar does, the
        /// fast path declining or agreeing.
        #[test]
        fn go_rat_is_the_full_grammar_on_any_text(s in "[-+0-9._eEpPxXoObB/a-f]{0,24}") {
            let full = go_rat_full(&s);
            if let Some(fast) = plain_decimal(&s) {
                proptest::prop_assert_eq!(Some(fast), full.clone(), "{}", s);
            }
            proptest::prop_assert_eq!(go_rat(&s), full, "{}", s);
        }
    }

    #[test]
    fn go_rat_grammar() {
        for (s, want) in [
            ("16", Some("16")),
            ("0x10", Some("16")),
            ("0X10", Some("16")),
            ("1_6", Some("16")),
            ("0x_10", Some("16")),
            ("0_16", Some("16")),
            ("0x1p4", Some("16")),
            ("0x1P4", Some("16")),
            ("0x1.0p4", Some("16")),
            ("0x10p0", Some("16")),
            ("32/2", Some("16")),
            ("020/1", Some("16")),
            ("0x10/0x1", Some("16")),
            ("+16", Some("16")),
            ("16.", Some("16")),
            (".16e2", Some("16")),
            ("160e-1", Some("16")),
            ("1.6e0_1", Some("16")),
            ("0b10000", Some("16")),
            ("0o20", Some("16")),
            ("020", Some("20")),
            ("0x10e0", Some("4320")),
            ("0b1e4", Some("10000")),
            ("1p4", Some("16")),
            ("0.5", Some("1/2")),
            ("-0", Some("0")),
            ("0e-99999999999999999", Some("0")),
            (" 16", None),
            ("16/+1", None),
            ("1_6_", None),
            ("1__6", None),
            ("1_.6e1", None),
            ("1.6_e1", None),
            ("16e", None),
            ("", None),
            ("-", None),
            (".", None),
            ("0x", None),
            ("1/0", None),
            ("08/1", None),
            ("1e-1000001", None),
            ("0e-99999999999999999999", None),
            ("true", None),
            ("<nil>", None),
        ] {
            assert_eq!(reads(s).as_deref(), want, "{s:?}");
        }
    }

    #[test]
    fn go_int_wraps_like_int64() {
        let r = |s: &str| go_rat(s).unwrap_or_default();
        assert_eq!(go_int(&r("5")), 5);
        assert_eq!(go_int(&r("9223372036854775808")), i64::MIN);
        assert_eq!(go_int(&r("18446744073709552000")), 384);
        assert_eq!(go_int(&r("36893488147419103000")), -232);
        assert_eq!(go_int(&r("1e300")), 0);
    }

    #[test]
    fn schema_numbers_read_from_shortest_text() {
        let n = |s: &str| serde_json::from_str::<Number>(s).unwrap_or_else(|_| Number::from(0));
        assert_eq!(schema_text(&n("0.1")), "0.1");
        // A tie between two shortest texts goes to the even digit, as in Go.
        assert_eq!(schema_text(&n("9007199254740993e-1")), "900719925474099.2");
        assert_eq!(schema_rat(&n("0.1")).to_string(), "1/10");
        assert_eq!(schema_text(&n("1e23")), "1e+23");
        assert_eq!(schema_rat(&n("1e23")), go_rat("1e23").unwrap_or_default());
    }

    #[test]
    fn literals_pair_with_values_in_document_order() {
        let text = br#"{"z": 1.5, "a": [0.25, 7, {"m": 1e-400}], "b": 1.0000000000000001}"#;
        let (value, numbers) =
            crate::json::strict::parse_value_with_numbers(text).unwrap_or_default();
        let literals = Literals::from(numbers);
        assert_eq!(literals.len(), 5);
        let _scope = Scope::enter(&value, Some(&literals));
        let at = |p: &str| value.pointer(p).cloned().unwrap_or_default();
        let rat = |p: &str| {
            let v = value.pointer(p).unwrap_or(&Value::Null);
            match v {
                Value::Number(n) => instance_rat(v, n).map(|r| r.to_string()),
                _ => None,
            }
        };
        assert_eq!(at("/z"), serde_json::json!(1.5));
        assert_eq!(rat("/z").as_deref(), Some("3/2"));
        assert_eq!(rat("/a/0").as_deref(), Some("1/4"));
        assert_eq!(rat("/a/1").as_deref(), Some("7"));
        assert_eq!(rat("/a/2/m"), Some(format!("1/1{}", "0".repeat(400))));
        assert_eq!(
            rat("/b").as_deref(),
            Some("10000000000000001/10000000000000000")
        );
    }
}
