//! Numbers in the inclusion prover ([`super::prove`]): bounds and
//! `multipleOf` as exact rationals. Moved from `prove.rs`.

use serde_json::Value;

use super::model::{json_number, rat, Bound, Node, NumSet, Obj};
use super::prove::{Flat, Out, Prover};

impl<'a> Prover<'a> {
    pub(super) fn numbers(&mut self, a: &Flat<'a>, t: u8, m: &'a Obj, bm: Node<'a>) -> Out {
        let a0 = a.addr();
        let set = NumSet::of(a.objs());
        // (keyword, is lower bound, exclusive)
        for (kw, lower, excl) in [
            ("minimum", true, false),
            ("exclusiveMinimum", true, true),
            ("maximum", false, false),
            ("exclusiveMaximum", false, true),
        ] {
            let Some(bv) = m.get(kw).and_then(rat) else {
                continue;
            };
            let ok = if lower {
                set.lo
                    .as_ref()
                    .is_some_and(|lo| lo.v > bv || (lo.v == bv && (lo.excl || !excl)))
            } else {
                set.hi
                    .as_ref()
                    .is_some_and(|hi| hi.v < bv || (hi.v == bv && (hi.excl || !excl)))
            };
            if ok {
                continue;
            }
            // The part of A beyond B's bound.
            let mut beyond = set.clone();
            if lower {
                beyond.lower(Bound { v: bv, excl: !excl });
            } else {
                beyond.raise(Bound { v: bv, excl: !excl });
            }
            if beyond.empty_for(t) {
                continue;
            }
            if let Some(v) = self.number_in(a, &beyond, t, lower) {
                return Out::No(v, a0);
            }
            return Out::Unk(
                a0,
                bm.addr(),
                format!("no number of OLD beyond NEW's `{kw}` was found, none was ruled out"),
            );
        }
        if let Some(d) = m.get("multipleOf").and_then(rat) {
            let ok = set.step(t).is_some_and(|s| (s / &d).is_integer());
            if !ok {
                for c in set.candidates(t, false, 64) {
                    if !(&c / &d).is_integer() {
                        if let Some(v) = self.number_value(a, &c, t) {
                            return Out::No(v, a0);
                        }
                    }
                }
                return Out::Unk(
                    a0,
                    bm.addr(),
                    "NEW's `multipleOf` is not implied by OLD's and no counterexample was found"
                        .into(),
                );
            }
        }
        Out::Yes
    }

    /// A JSON number of kind `t` in `set` that satisfies `A` (nearest the
    /// bound being crossed).
    pub(super) fn number_in(
        &mut self,
        a: &Flat<'a>,
        set: &NumSet,
        t: u8,
        high: bool,
    ) -> Option<Value> {
        for c in set.candidates(t, high, 16) {
            if let Some(v) = self.number_value(a, &c, t) {
                if rat(&v).is_some_and(|r| set.admits(&r)) {
                    return Some(v);
                }
            }
        }
        None
    }

    pub(super) fn number_value(
        &mut self,
        a: &Flat<'a>,
        c: &num_rational::BigRational,
        t: u8,
    ) -> Option<Value> {
        let v = json_number(c)?;
        (super::model::kind_of(&v) == t && self.holds_flat(a, &v, 0) != Some(false)).then_some(v)
    }
}
