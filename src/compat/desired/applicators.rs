//! The applicators of the inclusion prover ([`super::prove`]): a
//! conjunction flattened through `allOf` and `$ref` with its `anyOf`,
//! `oneOf`, `if`/`then`/`else` and `not` kept as choices; the finite
//! values of a conjunction; inclusion in a disjunction of NEW; and
//! disjointness (`not`, `oneOf`, `if`). Moved from `prove.rs`.

use std::borrow::Cow;
use std::collections::HashSet;
use std::rc::Rc;

use serde_json::Value;

use super::model::{
    const_kinds, json_number, type_mask, Node, NumSet, ALL, ARR, BOOL, FRAC, INT, KINDS, NULL, OBJ,
    STR,
};
use super::prove::{lengths, Choice, ChoiceKind, Dis, Flat, Guard, Out, Prover, SPENT};
use crate::engine::values::ValueSet;

impl<'a> Prover<'a> {
    /// Flattens `nodes` through `allOf` and local `$ref`; disjunctions
    /// whose key is in `consumed` are already split.
    pub fn flatten(&mut self, nodes: &[Node<'a>], consumed: &[usize]) -> Flat<'a> {
        let mut flat = Flat {
            nodes: nodes.to_vec(),
            ..Flat::default()
        };
        let mut seen = HashSet::new();
        let mut stack: Vec<Node<'a>> = nodes.iter().rev().copied().collect();
        while let Some(n) = stack.pop() {
            if !seen.insert(n.addr()) || !self.tick() {
                continue;
            }
            let m = match n.v {
                Value::Bool(true) => continue,
                Value::Object(m) => m,
                _ => {
                    flat.never |= n.v == &Value::Bool(false);
                    continue;
                }
            };
            flat.maps.push(n);
            if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                match n.resolve(r) {
                    Some(t) => stack.push(t),
                    None => flat.unresolved = Some((n.addr(), r.to_owned())),
                }
            }
            if let Some(Value::Array(subs)) = m.get("allOf") {
                stack.extend(subs.iter().rev().map(|s| n.child(s)));
            }
            if let Some(s) = m.get("not") {
                flat.nots.push(n.child(s));
            }
            for (kw, kind) in [("anyOf", ChoiceKind::Any), ("oneOf", ChoiceKind::One)] {
                if let Some(arr @ Value::Array(subs)) = m.get(kw) {
                    let key = std::ptr::from_ref(arr) as usize;
                    if consumed.contains(&key) {
                        continue;
                    }
                    let alts = (0..subs.len())
                        .map(|i| {
                            let pos = subs.get(i).map(|s| n.child(s)).into_iter().collect();
                            let neg = if kind == ChoiceKind::One {
                                subs.iter()
                                    .enumerate()
                                    .filter(|(j, _)| *j != i)
                                    .map(|(_, s)| n.child(s))
                                    .collect()
                            } else {
                                Vec::new()
                            };
                            (pos, neg)
                        })
                        .collect();
                    flat.choices.push(Choice {
                        key,
                        kind,
                        alts,
                        at: n.child(arr),
                    });
                }
            }
            if let Some(c) = m.get("if") {
                let key = std::ptr::from_ref(c) as usize;
                if !consumed.contains(&key) {
                    let c = n.child(c);
                    let mut yes = vec![c];
                    yes.extend(n.kw("then"));
                    let no: Vec<Node<'a>> = n.kw("else").into_iter().collect();
                    flat.choices.push(Choice {
                        key,
                        kind: ChoiceKind::If,
                        alts: vec![(yes, Vec::new()), (no, vec![c])],
                        at: c,
                    });
                }
            }
        }
        flat
    }

    /// The kinds a flattened conjunction admits (ignoring disjunctions).
    pub fn kinds(&mut self, flat: &Flat<'a>) -> u8 {
        if flat.never {
            return 0;
        }
        let mut k = ALL;
        for m in flat.objs() {
            if let Some(t) = m.get("type") {
                k &= type_mask(t);
            }
            if let Some(c) = m.get("const") {
                k &= const_kinds(c);
            }
            if let Some(e @ Value::Array(_)) = m.get("enum") {
                k &= self.value_set(e).kinds();
            }
        }
        k
    }

    /// The engine's set of the `enum` array `e` ([`ValueSet`]), built once
    /// per array (its building charged one step per value).
    pub fn value_set(&mut self, e: &'a Value) -> Rc<ValueSet> {
        let key = std::ptr::from_ref(e) as usize;
        if let Some(s) = self.sets.get(&key) {
            return Rc::clone(s);
        }
        let items = e.as_array().map_or(&[][..], Vec::as_slice);
        self.charge(items.len() as u64);
        let s = Rc::new(ValueSet::new(items));
        self.sets.insert(key, Rc::clone(&s));
        s
    }

    /// True when `flat` provably admits no instance of `kind` (by its
    /// ranges alone).
    pub fn empty_for(&self, flat: &Flat<'a>, kind: u8) -> bool {
        match kind {
            INT | FRAC => NumSet::of(flat.objs()).empty_for(kind),
            STR => {
                let (lo, hi) = lengths(flat, "minLength", "maxLength");
                hi.is_some_and(|h| h < lo)
            }
            ARR => {
                let (lo, hi) = lengths(flat, "minItems", "maxItems");
                hi.is_some_and(|h| h < lo)
            }
            OBJ => {
                let (lo, hi) = lengths(flat, "minProperties", "maxProperties");
                hi.is_some_and(|h| h < lo)
            }
            _ => false,
        }
    }

    /// The values of `kind` a conjunction can take, when it is finite and
    /// known (`const`/`enum`, `null`, booleans), filtered by the
    /// conjunction's other keywords where they decide.
    pub fn finite(&mut self, flat: &Flat<'a>, kind: u8) -> Option<Vec<Value>> {
        const NULLS: &[Value] = &[Value::Null];
        const BOOLS: &[Value] = &[Value::Bool(false), Value::Bool(true)];
        let vals: &[Value] = match kind {
            NULL => NULLS,
            BOOL => BOOLS,
            _ => {
                let mut listed = None;
                for m in flat.objs() {
                    if let Some(c) = m.get("const") {
                        listed = Some(std::slice::from_ref(c));
                        break;
                    }
                    if let Some(Value::Array(items)) = m.get("enum") {
                        listed = Some(items.as_slice());
                        break;
                    }
                }
                listed?
            }
        };
        let mut out = Vec::new();
        // Values already offered, by their JSON text: a set, not a scan of
        // `out` (an `enum` of n values costs n, not n², issue 35 item 4).
        let mut seen: HashSet<String, ahash::RandomState> = HashSet::default();
        for v in vals {
            // A string that Go reads as a number also stands for that
            // number: offered in that form. A value of another JSON type
            // is passed over before any number in it is read.
            let form = match (v, kind) {
                (Value::String(s), INT | FRAC) => {
                    match crate::engine::numbers::go_rat(s).and_then(|r| json_number(&r)) {
                        Some(n) => Cow::Owned(n),
                        None => continue,
                    }
                }
                (Value::Number(_), INT | FRAC)
                | (Value::Null, NULL)
                | (Value::Bool(_), BOOL)
                | (Value::String(_), STR)
                | (Value::Array(_), ARR)
                | (Value::Object(_), OBJ) => Cow::Borrowed(v),
                _ => continue,
            };
            if super::model::kind_of(&form) != kind {
                continue;
            }
            if self.holds_flat(flat, &form, 0) != Some(false) && seen.insert(form.to_string()) {
                out.push(form.into_owned());
            }
        }
        Some(out)
    }

    /// Whether `v` satisfies every object and no negated node of `flat`.
    pub fn holds_flat(&mut self, flat: &Flat<'a>, v: &Value, depth: u32) -> Option<bool> {
        let mut unknown = false;
        for n in flat.maps.clone() {
            match self.holds_map_only(n, v, depth) {
                Some(false) => return Some(false),
                None => unknown = true,
                Some(true) => {}
            }
        }
        for n in flat.nots.clone() {
            match self.holds(n, v, depth + 1) {
                Some(true) => return Some(false),
                None => unknown = true,
                Some(false) => {}
            }
        }
        for ch in flat.choices.clone() {
            let mut any = false;
            let mut unk = false;
            for (pos, neg) in &ch.alts {
                let mut ok = Some(true);
                for p in pos {
                    match self.holds(*p, v, depth + 1) {
                        Some(true) => {}
                        r => {
                            ok = if r == Some(false) {
                                Some(false)
                            } else {
                                ok.and(None)
                            };
                            if r == Some(false) {
                                break;
                            }
                        }
                    }
                }
                if ok == Some(true) {
                    for q in neg {
                        match self.holds(*q, v, depth + 1) {
                            Some(false) => {}
                            Some(true) => {
                                ok = Some(false);
                                break;
                            }
                            None => ok = None,
                        }
                    }
                }
                match ok {
                    Some(true) => any = true,
                    None => unk = true,
                    Some(false) => {}
                }
            }
            if !any {
                if unk {
                    unknown = true;
                } else {
                    return Some(false);
                }
            }
        }
        if unknown {
            None
        } else {
            Some(true)
        }
    }

    /// [`Prover::holds`] of one flattened object (its applicators are in
    /// the [`Flat`] already, so it is checked whole: harmless repetition).
    pub(super) fn holds_map_only(&mut self, n: Node<'a>, v: &Value, depth: u32) -> Option<bool> {
        self.holds(n, v, depth)
    }

    /// `A` with more nodes that hold and more that do not.
    pub(super) fn with(&mut self, a: &Flat<'a>, pos: &[Node<'a>], neg: &[Node<'a>]) -> Flat<'a> {
        let extra = self.flatten(pos, &[]);
        let mut f = a.clone();
        f.nodes.extend(pos.iter().copied());
        f.maps.extend(extra.maps);
        f.nots.extend(extra.nots);
        f.nots.extend(neg.iter().copied());
        f.never |= extra.never;
        f
    }

    /// `A|kind ⊆` one disjunction of `B`.
    pub(super) fn check_choice(&mut self, a: &Flat<'a>, t: u8, ch: &Choice<'a>, lvl: u32) -> Out {
        let a0 = a.addr();
        match ch.kind {
            ChoiceKind::Any => {
                let mut first: Option<Out> = None;
                let mut found: Vec<Value> = Vec::new();
                for (pos, neg) in &ch.alts {
                    let r = self.sub_t_all(a, t, pos, lvl);
                    let r = if r.is_yes() {
                        self.disj_all(a, t, neg, lvl)
                    } else {
                        r
                    };
                    if r.is_yes() {
                        return Out::Yes;
                    }
                    if let Out::No(w, _) = &r {
                        found.push(w.clone());
                    }
                    if first.is_none()
                        || matches!(first, Some(Out::Unk(..))) && matches!(r, Out::No(..))
                    {
                        first = Some(r);
                    }
                }
                // No branch holds all of A: a counterexample of one branch
                // may still be accepted by another. Keep the first one no
                // branch is proved to accept, among the branches' and then
                // A's own examples (issue 35, item 6); else the first
                // outcome. The re-check decides either way.
                if let Some(w) = found.first().cloned() {
                    if ch.alts.len() > 1 && self.accepted_by_some(ch, &w, lvl) {
                        let more = self.gen_many(a, t, lvl, 8);
                        for w in found.into_iter().skip(1).chain(more) {
                            if !self.accepted_by_some(ch, &w, lvl) {
                                return Out::No(w, a0);
                            }
                        }
                    }
                }
                first.unwrap_or_else(|| self.no_gen(a, t, lvl, ch.at))
            }
            ChoiceKind::One => {
                let mut found = None;
                let mut first: Option<Out> = None;
                for (i, (pos, _)) in ch.alts.iter().enumerate() {
                    let r = self.sub_t_all(a, t, pos, lvl);
                    if r.is_yes() {
                        found = Some(i);
                        break;
                    }
                    if first.is_none()
                        || matches!(first, Some(Out::Unk(..))) && matches!(r, Out::No(..))
                    {
                        first = Some(r);
                    }
                }
                let Some(i) = found else {
                    return first.unwrap_or_else(|| self.no_gen(a, t, lvl, ch.at));
                };
                for (j, (pos, _)) in ch.alts.iter().enumerate() {
                    if j == i {
                        continue;
                    }
                    for x in pos {
                        match self.disj(a, t, *x, lvl) {
                            Dis::Disjoint => {}
                            // Also in branch i (A ⊆ branch i): two branches.
                            Dis::Overlap(w) => return Out::No(w, a0),
                            Dis::Unk(p, q, why) => {
                                return Out::Unk(p, q, format!("oneOf: {why}"));
                            }
                        }
                    }
                }
                Out::Yes
            }
            ChoiceKind::If => {
                let Some((pos_then, _)) = ch.alts.first() else {
                    return Out::Yes;
                };
                let Some(cond) = pos_then.first().copied() else {
                    return Out::Yes;
                };
                let then: Vec<Node<'a>> = pos_then.iter().skip(1).copied().collect();
                let els: Vec<Node<'a>> = ch.alts.get(1).map(|(p, _)| p.clone()).unwrap_or_default();
                if self.sub_t(a, t, cond, lvl).is_yes() {
                    return self.sub_t_all(a, t, &then, lvl);
                }
                if matches!(self.disj(a, t, cond, lvl), Dis::Disjoint) {
                    return self.sub_t_all(a, t, &els, lvl);
                }
                let inside = self.with(a, &[cond], &[]);
                let r = if inside.never {
                    Out::Yes
                } else {
                    self.sub_t_all(&inside, t, &then, lvl)
                };
                if !r.is_yes() {
                    return r;
                }
                let outside = self.with(a, &[], &[cond]);
                self.sub_t_all(&outside, t, &els, lvl)
            }
        }
    }

    /// True when some alternative of `ch` is proved to accept `w` (each of
    /// its nodes holds, none of its negated nodes does).
    pub(super) fn accepted_by_some(&mut self, ch: &Choice<'a>, w: &Value, lvl: u32) -> bool {
        for (pos, neg) in &ch.alts {
            let mut accepted = true;
            for p in pos {
                if self.holds(*p, w, lvl) != Some(true) {
                    accepted = false;
                    break;
                }
            }
            if accepted {
                for q in neg {
                    if self.holds(*q, w, lvl) != Some(false) {
                        accepted = false;
                        break;
                    }
                }
            }
            if accepted {
                return true;
            }
        }
        false
    }

    /// `A|kind` is disjoint from every node of `xs`.
    pub(super) fn disj_all(&mut self, a: &Flat<'a>, t: u8, xs: &[Node<'a>], lvl: u32) -> Out {
        for x in xs {
            match self.disj(a, t, *x, lvl) {
                Dis::Disjoint => {}
                Dis::Overlap(w) => return Out::No(w, a.addr()),
                Dis::Unk(p, q, why) => return Out::Unk(p, q, why),
            }
        }
        Out::Yes
    }

    /// A counterexample: any instance of `A|kind` (used where `B` refuses
    /// the whole kind).
    pub(super) fn no_gen(&mut self, a: &Flat<'a>, t: u8, lvl: u32, b: Node<'a>) -> Out {
        match self.gen_flat(a, t, lvl) {
            Some(v) => Out::No(v, a.addr()),
            None => Out::Unk(
                a.addr(),
                b.addr(),
                "NEW refuses some documents here but no example of OLD could be built".into(),
            ),
        }
    }

    /// Whether `A|kind` and `x` share no instance.
    pub fn disj(&mut self, a: &Flat<'a>, t: u8, x: Node<'a>, lvl: u32) -> Dis {
        let a0 = a.addr();
        if !self.tick() {
            return Dis::Unk(a0, x.addr(), SPENT.to_owned());
        }
        let key = (
            a.nodes.iter().map(|n| n.addr()).collect::<Vec<_>>(),
            x.addr(),
            true,
        );
        match self.assume(&key, lvl) {
            Guard::Assumed => return Dis::Disjoint,
            Guard::Blocked(why) => return Dis::Unk(a0, x.addr(), why.to_owned()),
            Guard::Entered => {}
        }
        let r = self.disj_inner(a, t, x, lvl);
        self.release(&key);
        r
    }

    /// Whether `A|kind` is proved disjoint from some node of `xs`.
    pub(super) fn any_disjoint(&mut self, a: &Flat<'a>, t: u8, xs: &[Node<'a>], lvl: u32) -> bool {
        xs.iter()
            .any(|x| matches!(self.disj(a, t, *x, lvl), Dis::Disjoint))
    }

    pub(super) fn disj_inner(&mut self, a: &Flat<'a>, t: u8, x: Node<'a>, lvl: u32) -> Dis {
        let a0 = a.addr();
        let xf = self.flatten(&[x], &[]);
        if xf.never || self.kinds(&xf) & t == 0 || self.empty_for(&xf, t) {
            return Dis::Disjoint;
        }
        // x ⊆ a node A excludes.
        let excluded = if self.local_only {
            Vec::new()
        } else {
            a.nots.clone()
        };
        for n in excluded {
            if self.sub(&[x], n, lvl).is_yes() {
                return Dis::Disjoint;
            }
        }
        // A finite: every value fails x.
        if let Some(vals) = self.finite(a, t) {
            if let Some(d) = finite_against(&vals, |v| self.holds(x, v, lvl)) {
                return d;
            }
        }
        // x finite: every value fails A.
        if let Some(vals) = self.finite(&xf, t) {
            if let Some(d) = finite_against(&vals, |v| self.holds_flat(a, v, lvl)) {
                return d;
            }
        }
        // Ranges of the conjunction of both.
        let mut both = a.clone();
        both.maps.extend(xf.maps.iter().copied());
        if self.kinds(&both) & t == 0 || self.empty_for(&both, t) {
            return Dis::Disjoint;
        }
        // A required member whose schemas are disjoint.
        if t == OBJ {
            let mut names = Self::required(a);
            for r in Self::required(&xf) {
                if !names.contains(&r) {
                    names.push(r);
                }
            }
            for name in names {
                let an = self.member_nodes(a, name);
                let xn = self.member_nodes(&xf, name);
                match (an, xn) {
                    (None, _) | (_, None) => return Dis::Disjoint,
                    (Some(an), Some(xn)) => {
                        if xn.is_empty() {
                            continue;
                        }
                        let af = self.flatten(&an, &[]);
                        let kinds = self.kinds(&af);
                        let mut disjoint = true;
                        for k in KINDS {
                            if kinds & k == 0 || self.empty_for(&af, k) {
                                continue;
                            }
                            if !self.any_disjoint(&af, k, &xn, lvl + 1) {
                                disjoint = false;
                                break;
                            }
                        }
                        if disjoint {
                            return Dis::Disjoint;
                        }
                    }
                }
            }
        }
        // x's disjunctions: every branch disjoint.
        for ch in xf.choices.clone() {
            if ch.kind == ChoiceKind::If {
                continue;
            }
            let mut every = true;
            for (pos, _) in &ch.alts {
                if !self.any_disjoint(a, t, pos, lvl) {
                    every = false;
                    break;
                }
            }
            if every {
                return Dis::Disjoint;
            }
        }
        if self.local_only {
            return Dis::Unk(a0, x.addr(), "no local conflict".into());
        }
        // x excludes something A is inside of: A ⊆ not-node of x.
        for n in xf.nots.clone() {
            if self.sub_t(a, t, n, lvl).is_yes() {
                return Dis::Disjoint;
            }
        }
        let mut both = a.clone();
        both.nodes.push(x);
        let more = self.flatten(&[x], &[]);
        both.maps.extend(more.maps);
        both.nots.extend(more.nots);
        both.choices.extend(more.choices);
        match self.gen_flat(&both, t, lvl) {
            Some(w) => Dis::Overlap(w),
            None => Dis::Unk(a0, x.addr(), "neither disjoint nor shown to overlap".into()),
        }
    }
}

/// One side of a disjointness question is a finite set of values, the
/// other a test (`holds`): the first value it passes is an overlap
/// witness; when it fails every value the two are disjoint; `None` when
/// some value is undecided and none passes.
fn finite_against(values: &[Value], mut holds: impl FnMut(&Value) -> Option<bool>) -> Option<Dis> {
    let mut all_fail = true;
    for v in values {
        match holds(v) {
            Some(false) => {}
            Some(true) => return Some(Dis::Overlap(v.clone())),
            None => all_fail = false,
        }
    }
    all_fail.then_some(Dis::Disjoint)
}
