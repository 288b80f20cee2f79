//! Strings and patterns in the inclusion prover ([`super::prove`]):
//! lengths, `pattern` (literal reasoning, then automata) and `format`.
//! Moved from `prove.rs`.

use crate::diag::escape::quote;

use serde_json::Value;

use super::eval::{format_ok, matches};
use super::model::{count, Node, Obj};
use super::prove::{lengths, Flat, Out, Prover, SPENT};
use crate::engine::ASSERTED_FORMATS;

impl<'a> Prover<'a> {
    pub(super) fn strings(&mut self, a: &Flat<'a>, m: &'a Obj, bm: Node<'a>, lvl: u32) -> Out {
        let a0 = a.addr();
        let (alo, ahi) = lengths(a, "minLength", "maxLength");
        // An OLD string too short for NEW's `minLength`, then one too long
        // for its `maxLength`: each a witness when OLD's lengths allow one.
        let below = count(m.get("minLength"))
            .filter(|&bmin| alo < bmin)
            .map(|bmin| {
                let hi = ahi.map_or(bmin - 1, |a| a.min(bmin - 1));
                (alo, Some(hi), "shorter than NEW's `minLength`")
            });
        let above = count(m.get("maxLength"))
            .filter(|&bmax| ahi.is_none_or(|h| h > bmax))
            .map(|bmax| {
                (
                    alo.max(bmax.saturating_add(1)),
                    ahi,
                    "longer than NEW's `maxLength`",
                )
            });
        for (lo, hi, what) in [below, above].into_iter().flatten() {
            match self.string_between(a, lo, hi) {
                Ok(None) => {}
                Ok(Some(s)) => return Out::No(Value::String(s), a0),
                Err(why) => {
                    return Out::Unk(
                        a0,
                        bm.addr(),
                        format!("no string of OLD {what} was found: {why}"),
                    )
                }
            }
        }
        if let Some(Value::String(p)) = m.get("pattern") {
            let same = a
                .objs()
                .any(|o| o.get("pattern").and_then(Value::as_str) == Some(p));
            if !same {
                let r = self.pattern_included(a, p, bm, lvl);
                if !r.is_yes() {
                    return r;
                }
            }
        }
        if let Some(Value::String(f)) = m.get("format") {
            let same = a
                .objs()
                .any(|o| o.get("format").and_then(Value::as_str) == Some(f));
            if !same && ASSERTED_FORMATS.contains(&f.as_str()) {
                for s in self.gen_strings(a, alo, ahi, 8) {
                    if !format_ok(f, &s) {
                        return Out::No(Value::String(s), a0);
                    }
                }
                if let Some(s) = self.format_breaker(a, f, alo, ahi) {
                    return Out::No(Value::String(s), a0);
                }
                return Out::Unk(
                    a0,
                    bm.addr(),
                    format!(
                        "NEW asserts `format: {f}`, which OLD's strings were not proved to meet"
                    ),
                );
            }
        }
        Out::Yes
    }

    /// A string of `A` with a length in `[lo, hi]`: `Ok(None)` when proved
    /// to have none (its patterns' automata, [`super::regular`]).
    pub(super) fn string_between(
        &mut self,
        a: &Flat<'a>,
        lo: i64,
        hi: Option<i64>,
    ) -> Result<Option<String>, String> {
        if hi.is_some_and(|h| h < lo) {
            return Ok(None);
        }
        if let Some(s) = self.gen_strings(a, lo, hi, 1).pop() {
            return Ok(Some(s));
        }
        let olds: Vec<&str> = a
            .objs()
            .filter_map(|o| o.get("pattern").and_then(Value::as_str))
            .collect();
        if olds.is_empty() {
            return Err("no pattern to decide it".to_owned());
        }
        let mut used = 0u64;
        let r = super::regular::included(
            &olds,
            lo,
            hi,
            super::regular::NOTHING,
            self.budget.regex_work,
            &mut used,
        );
        self.charge(used / 1000 + 1);
        match r {
            super::regular::Incl::Yes => Ok(None),
            super::regular::Incl::No(s) => {
                let v = Value::String(s.clone());
                if self.holds_flat(a, &v, 0) != Some(false) {
                    Ok(Some(s))
                } else {
                    Err("the automata's example is refused by OLD's other keywords".to_owned())
                }
            }
            super::regular::Incl::Unknown(why) => Err(why),
        }
    }

    /// Every string of `A` matches the Go pattern `p` (of `B`).
    pub(super) fn pattern_included(
        &mut self,
        a: &Flat<'a>,
        p: &str,
        bm: Node<'a>,
        _lvl: u32,
    ) -> Out {
        let a0 = a.addr();
        let (alo, ahi) = lengths(a, "minLength", "maxLength");
        let olds: Vec<&str> = a
            .objs()
            .filter_map(|o| o.get("pattern").and_then(Value::as_str))
            .collect();
        // Prefix, suffix and literal reasoning first: no automaton.
        if super::literal::implies(&olds, p) {
            return Out::Yes;
        }
        let decided = self.included(&olds, alo, ahi, p);
        let why = match decided {
            super::regular::Incl::Yes => return Out::Yes,
            super::regular::Incl::No(s) => {
                if self.holds_flat(a, &Value::String(s.clone()), 0) != Some(false)
                    && matches(p, &s) == Some(false)
                {
                    return Out::No(Value::String(s), a0);
                }
                "the automata's counterexample is refused by OLD's other keywords".to_owned()
            }
            super::regular::Incl::Unknown(why) => why,
        };
        for s in self.gen_strings(a, alo, ahi, 8) {
            if matches(p, &s) == Some(false) {
                return Out::No(Value::String(s), a0);
            }
        }
        Out::Unk(a0, bm.addr(), format!("NEW's pattern {}: {why}", quote(p)))
    }

    /// [`super::regular::included`], remembered, its work charged here.
    pub(super) fn included(
        &mut self,
        olds: &[&str],
        lo: i64,
        hi: Option<i64>,
        new: &str,
    ) -> super::regular::Incl {
        let key = (
            olds.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(),
            lo,
            hi,
            new.to_owned(),
        );
        if let Some(r) = self.patterns.get(&key) {
            return r.clone();
        }
        if self.meter.exhausted() {
            return super::regular::Incl::Unknown(SPENT.to_owned());
        }
        let mut used = 0u64;
        let r = super::regular::included(olds, lo, hi, new, self.budget.regex_work, &mut used);
        self.charge(used / 1000 + 1);
        self.patterns.insert(key, r.clone());
        r
    }
}
