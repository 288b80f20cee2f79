//! Shared vocabulary of the prover: schema nodes tied to their root, the
//! seven instance kinds the proof splits on (the engine's,
//! [`crate::engine::values`]), and exact numbers.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde_json::{Map, Number, Value};

use crate::engine::numbers;

/// A schema object.
pub(super) type Obj = Map<String, Value>;

/// A schema node and the root its local `$ref`s resolve against.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<'a> {
    /// The whole schema document (after `through_binary64`).
    pub root: &'a Value,
    /// This node.
    pub v: &'a Value,
}

impl<'a> Node<'a> {
    pub fn child(self, v: &'a Value) -> Node<'a> {
        Node { root: self.root, v }
    }

    /// The node's address: its identity while both documents are borrowed.
    pub fn addr(self) -> usize {
        std::ptr::from_ref(self.v) as usize
    }

    pub fn obj(self) -> Option<&'a Obj> {
        self.v.as_object()
    }

    pub fn kw(self, k: &str) -> Option<Node<'a>> {
        self.obj()?.get(k).map(|v| self.child(v))
    }

    pub fn get(self, k: &str) -> Option<&'a Value> {
        self.obj()?.get(k)
    }

    /// The target of a local `$ref` (`#`, `#/$defs/…`, any JSON Pointer
    /// fragment, percent-decoded as a URI fragment); `None` for anything
    /// else (remote, anchors), which the prover reports as undecided.
    pub fn resolve(self, reference: &str) -> Option<Node<'a>> {
        let frag = reference.strip_prefix('#')?;
        let decoded = percent_encoding::percent_decode_str(frag)
            .decode_utf8()
            .ok()?;
        let target = crate::json::pointer::JsonPointer::parse(&decoded)?.resolve(self.root)?;
        Some(self.child(target))
    }
}

/// The kinds of instances (the engine's own, [`crate::engine::values`]:
/// one implementation of Go's `type` for the engine and the prover).
pub(super) use crate::engine::values::{
    const_kinds, kind_of, type_mask, ALL, ARR, BOOL, FRAC, INT, NULL, OBJ, STR,
};
/// Keywords the engine asserts that this prover does not model.
pub(super) const UNMODELLED: &[&str] = &[
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
    "dependentSchemas",
];

/// The kinds in the order the prover visits them.
pub(super) const KINDS: [u8; 7] = [NULL, BOOL, INT, STR, OBJ, ARR, FRAC];

/// The exact value of a number as the engine reads it.
pub(super) fn rat(v: &Value) -> Option<BigRational> {
    v.as_number().map(numbers::schema_rat)
}

/// A count keyword's value as the engine reads it (Go's `int`), `None`
/// when inert (not an integral number).
pub(super) fn count(v: Option<&Value>) -> Option<i64> {
    let r = rat(v?)?;
    r.is_integer().then(|| numbers::go_int(&r))
}

/// A JSON number for `r`: exact for integers within 64 bits, else the
/// nearest binary64 (the caller re-reads it with [`rat`] and checks).
pub(super) fn json_number(r: &BigRational) -> Option<Value> {
    if r.is_integer() {
        let i = r.to_integer();
        if let Ok(x) = i64::try_from(&i) {
            return Some(Value::from(x));
        }
        if let Ok(x) = u64::try_from(&i) {
            return Some(Value::from(x));
        }
    }
    let f = r.to_f64()?;
    Number::from_f64(f).map(Value::Number)
}

/// A lower or upper numeric bound.
#[derive(Clone, Debug)]
pub(super) struct Bound {
    pub v: BigRational,
    pub excl: bool,
}

/// The numbers a conjunction of schema objects admits: the tightest lower
/// and upper bounds and every `multipleOf`.
#[derive(Clone, Debug, Default)]
pub(super) struct NumSet {
    pub lo: Option<Bound>,
    pub hi: Option<Bound>,
    pub mults: Vec<BigRational>,
}

impl NumSet {
    pub fn of<'x>(maps: impl IntoIterator<Item = &'x Obj>) -> NumSet {
        let mut s = NumSet::default();
        for m in maps {
            s.add_obj(m);
        }
        s
    }

    pub fn add_obj(&mut self, m: &Obj) {
        if let Some(r) = m.get("minimum").and_then(rat) {
            self.raise(Bound { v: r, excl: false });
        }
        if let Some(r) = m.get("exclusiveMinimum").and_then(rat) {
            self.raise(Bound { v: r, excl: true });
        }
        if let Some(r) = m.get("maximum").and_then(rat) {
            self.lower(Bound { v: r, excl: false });
        }
        if let Some(r) = m.get("exclusiveMaximum").and_then(rat) {
            self.lower(Bound { v: r, excl: true });
        }
        if let Some(r) = m.get("multipleOf").and_then(rat) {
            if r > BigRational::zero() {
                self.mults.push(r);
            }
        }
    }

    pub fn raise(&mut self, b: Bound) {
        let tighter = match &self.lo {
            None => true,
            Some(lo) => b.v > lo.v || (b.v == lo.v && b.excl),
        };
        if tighter {
            self.lo = Some(b);
        }
    }

    pub fn lower(&mut self, b: Bound) {
        let tighter = match &self.hi {
            None => true,
            Some(hi) => b.v < hi.v || (b.v == hi.v && b.excl),
        };
        if tighter {
            self.hi = Some(b);
        }
    }

    pub fn admits(&self, x: &BigRational) -> bool {
        let lo_ok = self
            .lo
            .as_ref()
            .is_none_or(|b| if b.excl { *x > b.v } else { *x >= b.v });
        let hi_ok = self
            .hi
            .as_ref()
            .is_none_or(|b| if b.excl { *x < b.v } else { *x <= b.v });
        lo_ok && hi_ok && self.mults.iter().all(|m| (x / m).is_integer())
    }

    /// The least common multiple of the `multipleOf`s (and of 1 for
    /// integers): every admitted value of `kind` is a multiple of it.
    pub fn step(&self, kind: u8) -> Option<BigRational> {
        let mut all = self.mults.clone();
        if kind == INT {
            all.push(BigRational::from_integer(BigInt::from(1)));
        }
        let mut it = all.into_iter();
        let first = it.next()?;
        Some(it.fold(first, |a, b| rat_lcm(&a, &b)))
    }

    /// True when the interval alone is empty for `kind` (a proof).
    pub fn empty_for(&self, kind: u8) -> bool {
        if let (Some(lo), Some(hi)) = (&self.lo, &self.hi) {
            if lo.v > hi.v || (lo.v == hi.v && (lo.excl || hi.excl)) {
                return true;
            }
        }
        if kind == FRAC {
            if let Some(step) = self.step(FRAC) {
                if step.is_integer() {
                    return true;
                }
            }
        }
        if let (Some(step), Some(lo), Some(hi)) = (self.step(kind), &self.lo, &self.hi) {
            // No multiple of the step between the bounds.
            let one = BigRational::from_integer(BigInt::from(1));
            let q = &lo.v / &step;
            let first = if lo.excl && q.is_integer() {
                q + &one
            } else {
                q.ceil()
            };
            let q = &hi.v / &step;
            let last = if hi.excl && q.is_integer() {
                q - &one
            } else {
                q.floor()
            };
            if first > last {
                return true;
            }
        }
        false
    }

    /// Candidate values of `kind` in the set (up to `n`), nearest the upper
    /// end first when `high`, else nearest the lower end (or zero).
    pub fn candidates(&self, kind: u8, high: bool, n: usize) -> Vec<BigRational> {
        let mut out = Vec::new();
        // The closed ends themselves and the middle come first: the
        // nearest values to a bound (`0.30000000000000004` past `0.3`).
        let mut ends: Vec<BigRational> = Vec::new();
        let closed_hi = self.hi.as_ref().filter(|b| !b.excl).map(|b| b.v.clone());
        let closed_lo = self.lo.as_ref().filter(|b| !b.excl).map(|b| b.v.clone());
        if high {
            ends.extend(closed_hi);
            ends.extend(closed_lo);
        } else {
            ends.extend(closed_lo);
            ends.extend(closed_hi);
        }
        if let (Some(lo), Some(hi)) = (&self.lo, &self.hi) {
            ends.push((&lo.v + &hi.v) / BigRational::from_integer(BigInt::from(2)));
        }
        for x in ends {
            if (kind == INT) == x.is_integer() && self.admits(&x) && !out.contains(&x) {
                out.push(x);
            }
        }
        let steps: Vec<BigRational> = match self.step(kind) {
            Some(s) => vec![s],
            None => [2i64, 1024, 1 << 40]
                .iter()
                .map(|d| BigRational::new(BigInt::from(1), BigInt::from(*d)))
                .collect(),
        };
        for step in steps {
            let one = BigRational::from_integer(BigInt::from(1));
            // k range from the bounds.
            let kmin = self.lo.as_ref().map(|b| {
                let q = &b.v / &step;
                let c = q.ceil();
                if b.excl && c == q {
                    c + &one
                } else {
                    c
                }
            });
            let kmax = self.hi.as_ref().map(|b| {
                let q = &b.v / &step;
                let f = q.floor();
                if b.excl && f == q {
                    f - &one
                } else {
                    f
                }
            });
            let start = match (high, &kmin, &kmax) {
                (true, _, Some(h)) => h.clone(),
                (false, Some(l), _) => l.clone(),
                (true, Some(l), None) => l.clone() + BigRational::from_integer(BigInt::from(8)),
                (false, None, Some(h)) => {
                    let z = BigRational::zero();
                    if h < &z {
                        h.clone()
                    } else {
                        z
                    }
                }
                _ => BigRational::zero(),
            };
            let mut k = start;
            for _ in 0..64 {
                if kmin.as_ref().is_some_and(|l| k < *l) || kmax.as_ref().is_some_and(|h| k > *h) {
                    break;
                }
                let x = &k * &step;
                let is_int = x.is_integer();
                if (kind == INT) == is_int && self.admits(&x) && !out.contains(&x) {
                    out.push(x);
                    if out.len() >= n {
                        return out;
                    }
                }
                if high {
                    k -= &one;
                } else {
                    k += &one;
                }
            }
        }
        out
    }
}

fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let (mut a, mut b) = (a.clone(), b.clone());
    while !b.is_zero() {
        let r = &a % &b;
        a = b;
        b = r;
    }
    if a < BigInt::zero() {
        -a
    } else {
        a
    }
}

/// The least common multiple of two positive rationals (reduced forms):
/// `lcm(p, r) / gcd(q, s)` for `p/q` and `r/s`.
fn rat_lcm(a: &BigRational, b: &BigRational) -> BigRational {
    let g = gcd(a.numer(), b.numer());
    if g.is_zero() {
        return a.clone();
    }
    let num = a.numer() / &g * b.numer();
    let den = gcd(a.denom(), b.denom());
    BigRational::new(num, den)
}
