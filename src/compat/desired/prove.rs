//! The inclusion prover: `A ⊆ B` for two schema nodes, decided node by
//! node over the profile, with a candidate counterexample when it fails.
//!
//! # Method
//!
//! `A` is a conjunction of schema nodes. `allOf` and local `$ref` are
//! flattened into one list of schema objects ([`Flat`]); `anyOf`, `oneOf`
//! and `if`/`then`/`else` of `A` are split into cases (`oneOf` branch `i`
//! with every other branch negated, `else` with its `if` negated); `not`
//! is kept as a negated node. Each case is then split by the seven
//! instance kinds (null, boolean, integer, non-integral number, string,
//! array, object) and each kind is checked against every schema object of
//! `B`, keyword group by keyword group. Dropping a constraint of `A` only
//! enlarges `A`, so wherever the prover over-approximates `A` a `Yes` stays
//! a proof; a counterexample built from an over-approximation may be wrong,
//! which is why every one is re-checked by the engine before it is shown.
//!
//! Recursion through `$ref` is decided coinductively: a pair (A, B) met
//! again at a deeper instance level is assumed included (a simulation:
//! induction on the depth of a finite JSON document makes it a proof). A
//! pair met again at the same level is a cycle without descent: undecided.
//!
//! Disjointness (`not`, `oneOf`, `if`) is proved by a local conflict
//! (kinds, `const`/`enum`, numeric and length ranges, a required member
//! whose schemas are disjoint) or refuted by a generated common document.

use crate::diag::escape::quote;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::Value;

use super::eval::{format_ok, matches, member_schemas, Member, UNMODELLED};
use super::model::{
    const_kinds, count, json_number, rat, type_mask, Bound, Node, NumSet, Obj, ALL, ARR, BOOL,
    FRAC, INT, KINDS, NULL, OBJ, STR,
};
use super::Budget;
use crate::engine::values::ValueSet;
use crate::engine::ASSERTED_FORMATS;

/// The outcome of one inclusion question.
#[derive(Clone, Debug)]
pub(super) enum Out {
    /// Proved.
    Yes,
    /// A candidate instance accepted by A and refused by B (to be
    /// re-checked), and the address of the A node where it was built.
    No(Value, usize),
    /// Undecided: addresses of the A and B nodes, and why.
    Unk(usize, usize, String),
}

impl Out {
    fn is_yes(&self) -> bool {
        matches!(self, Out::Yes)
    }
}

/// The outcome of a disjointness question.
#[derive(Clone, Debug)]
pub(super) enum Dis {
    /// No instance satisfies both (proved).
    Disjoint,
    /// A candidate instance satisfying both (to be re-checked).
    Overlap(Value),
    /// Undecided.
    Unk(usize, usize, String),
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

/// What kind of disjunction a [`Choice`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChoiceKind {
    Any,
    One,
    If,
}

/// One disjunction of a conjunction: its alternatives, each a list of
/// nodes that hold and a list of nodes that do not.
#[derive(Clone, Debug)]
pub(super) struct Choice<'a> {
    pub key: usize,
    pub kind: ChoiceKind,
    pub alts: Vec<(Vec<Node<'a>>, Vec<Node<'a>>)>,
    pub at: Node<'a>,
}

/// A conjunction with `allOf` and `$ref` flattened.
#[derive(Clone, Debug, Default)]
pub(super) struct Flat<'a> {
    /// The nodes it was built from.
    pub nodes: Vec<Node<'a>>,
    /// Every schema object that applies.
    pub maps: Vec<Node<'a>>,
    /// Nodes the instance must not satisfy.
    pub nots: Vec<Node<'a>>,
    /// Disjunctions not yet split.
    pub choices: Vec<Choice<'a>>,
    /// A `false` schema applies: no instance.
    pub never: bool,
    /// A `$ref` that is not local: the node and the reference.
    pub unresolved: Option<(usize, String)>,
}

impl<'a> Flat<'a> {
    pub fn objs(&self) -> impl Iterator<Item = &'a Obj> + '_ {
        self.maps.iter().filter_map(|n| n.obj())
    }

    /// The address reported for this conjunction.
    pub fn addr(&self) -> usize {
        self.maps
            .first()
            .or(self.nodes.first())
            .map_or(0, |n| n.addr())
    }
}

/// A question of the coinductive guard: the addresses of the A nodes,
/// the address of the B node, and whether it is disjointness (else
/// inclusion).
type GuardKey = (Vec<usize>, usize, bool);

/// What [`Prover::assume`] found.
enum Guard {
    /// Met again deeper: assumed to hold.
    Assumed,
    /// Not entered: undecided, for this reason.
    Blocked(&'static str),
    /// Entered: decide it, then release it.
    Entered,
}

/// The prover's state: budget accounting and coinductive assumptions.
pub(super) struct Prover<'a> {
    pub budget: Budget,
    steps: u64,
    exhausted: bool,
    stack: u32,
    assumed: HashMap<GuardKey, u32>,
    /// While set, [`Prover::disj`] looks for a local conflict only (no
    /// inclusion sub-question, no generated document): see
    /// [`Prover::no_case`].
    local_only: bool,
    /// Pattern inclusions decided so far: the same question comes back for
    /// every case and every use of a `$defs` entry.
    patterns: HashMap<(Vec<String>, i64, Option<i64>, String), super::regular::Incl>,
    /// The engine's sets of the `enum`s met so far, by the address of the
    /// array ([`Prover::value_set`]).
    sets: HashMap<usize, Rc<ValueSet>>,
    _roots: std::marker::PhantomData<&'a Value>,
}

/// The reason given when the work budget runs out.
pub(super) const SPENT: &str = "the work budget ran out before this node was decided";

impl<'a> Prover<'a> {
    pub fn new(budget: Budget) -> Self {
        Prover {
            budget,
            steps: 0,
            exhausted: false,
            stack: 0,
            assumed: HashMap::new(),
            local_only: false,
            patterns: HashMap::new(),
            sets: HashMap::new(),
            _roots: std::marker::PhantomData,
        }
    }

    /// Counts one step; false once the budget is spent.
    pub fn tick(&mut self) -> bool {
        self.steps += 1;
        if self.steps > self.budget.steps {
            self.exhausted = true;
        }
        !self.exhausted
    }

    fn enter(&mut self) -> bool {
        self.stack += 1;
        self.stack <= self.budget.max_depth.saturating_mul(4)
    }

    fn leave(&mut self) {
        self.stack = self.stack.saturating_sub(1);
    }

    // -----------------------------------------------------------------
    // Flattening

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
        let mut vals: Option<Vec<Value>> = match kind {
            NULL => Some(vec![Value::Null]),
            BOOL => Some(vec![Value::Bool(false), Value::Bool(true)]),
            _ => None,
        };
        if vals.is_none() {
            for m in flat.objs() {
                if let Some(c) = m.get("const") {
                    vals = Some(vec![c.clone()]);
                    break;
                }
                if let Some(Value::Array(items)) = m.get("enum") {
                    vals = Some(items.clone());
                    break;
                }
            }
        }
        let vals = vals?;
        let mut out = Vec::new();
        // Values already offered, by their JSON text: a set, not a scan of
        // `out` (an `enum` of n values costs n, not n², issue 35 item 4).
        let mut seen: HashSet<String> = HashSet::new();
        for v in vals {
            // A string that Go reads as a number also stands for that
            // number: offer both forms.
            let forms: Vec<Value> = match (&v, kind) {
                (Value::String(s), INT | FRAC) => crate::engine::numbers::go_rat(s)
                    .and_then(|r| json_number(&r))
                    .into_iter()
                    .collect(),
                _ => vec![v],
            };
            for f in forms {
                if super::model::kind_of(&f) != kind {
                    continue;
                }
                if self.holds_flat(flat, &f, 0) != Some(false) && seen.insert(f.to_string()) {
                    out.push(f);
                }
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
    fn holds_map_only(&mut self, n: Node<'a>, v: &Value, depth: u32) -> Option<bool> {
        self.holds(n, v, depth)
    }

    // -----------------------------------------------------------------
    // Inclusion

    /// `A ⊆ B`, `A` the conjunction of `a`, `lvl` the instance depth.
    pub fn sub(&mut self, a: &[Node<'a>], b: Node<'a>, lvl: u32) -> Out {
        let a0 = a.first().map_or(0, |n| n.addr());
        if !self.tick() {
            return Out::Unk(a0, b.addr(), SPENT.to_owned());
        }
        if lvl > self.budget.max_depth {
            return Out::Unk(
                a0,
                b.addr(),
                format!(
                    "instances nest deeper than the budget's {} levels here",
                    self.budget.max_depth
                ),
            );
        }
        if b.v == &Value::Bool(true) {
            return Out::Yes;
        }
        if let [only] = a {
            if self.same_closure(*only, b) {
                return Out::Yes;
            }
        }
        let key = (
            a.iter().map(|n| n.addr()).collect::<Vec<_>>(),
            b.addr(),
            false,
        );
        match self.assume(&key, lvl) {
            Guard::Assumed => return Out::Yes,
            Guard::Blocked(why) => return Out::Unk(a0, b.addr(), why.to_owned()),
            Guard::Entered => {}
        }
        let r = self.sub_conj(a.to_vec(), Vec::new(), Vec::new(), b, lvl);
        self.release(&key);
        r
    }

    /// The coinductive guard of [`Prover::sub`] and [`Prover::disj`]: the
    /// question `key` met again at a deeper instance level than where it
    /// was first asked is assumed (a simulation: induction on the depth of
    /// a finite document makes it a proof); met again at the same level it
    /// is a cycle without descent, undecided. Otherwise the question is
    /// entered (nesting counted) and must be [`Prover::release`]d.
    fn assume(&mut self, key: &GuardKey, lvl: u32) -> Guard {
        if let Some(&at) = self.assumed.get(key) {
            return if lvl > at {
                Guard::Assumed
            } else {
                Guard::Blocked("a $ref cycle without a member or item in between")
            };
        }
        if !self.enter() {
            self.leave();
            return Guard::Blocked("the schemas nest too deeply");
        }
        self.assumed.insert(key.clone(), lvl);
        Guard::Entered
    }

    /// Leaves a question [`Prover::assume`] entered.
    fn release(&mut self, key: &GuardKey) {
        self.assumed.remove(key);
        self.leave();
    }

    /// True when `a` and `b` are the same text and every `$ref` reachable
    /// from them resolves to the same text on both sides.
    pub fn same_closure(&mut self, a: Node<'a>, b: Node<'a>) -> bool {
        if a.v != b.v {
            return false;
        }
        let mut refs: Vec<&'a str> = Vec::new();
        let mut seen: HashSet<&'a str> = HashSet::new();
        collect_refs(a.v, &mut refs);
        while let Some(r) = refs.pop() {
            if !seen.insert(r) {
                continue;
            }
            if !self.tick() {
                return false;
            }
            match (a.resolve(r), b.resolve(r)) {
                (Some(x), Some(y)) if x.v == y.v => collect_refs(x.v, &mut refs),
                _ => return false,
            }
        }
        true
    }

    fn sub_conj(
        &mut self,
        a: Vec<Node<'a>>,
        nots: Vec<Node<'a>>,
        consumed: Vec<usize>,
        b: Node<'a>,
        lvl: u32,
    ) -> Out {
        let mut flat = self.flatten(&a, &consumed);
        flat.nots.extend(nots.iter().copied());
        if flat.never {
            return Out::Yes;
        }
        if let Some(ch) = flat.choices.first().cloned() {
            for (pos, neg) in ch.alts {
                if !self.tick() {
                    return Out::Unk(ch.at.addr(), b.addr(), SPENT.to_owned());
                }
                if self.no_case(&flat, &pos, lvl) {
                    continue;
                }
                let mut a2 = a.clone();
                a2.extend(pos);
                let mut n2 = nots.clone();
                n2.extend(neg);
                let mut c2 = consumed.clone();
                c2.push(ch.key);
                if !self.enter() {
                    self.leave();
                    return Out::Unk(
                        ch.at.addr(),
                        b.addr(),
                        "disjunctions nest too deeply".into(),
                    );
                }
                let r = self.sub_conj(a2, n2, c2, b, lvl);
                self.leave();
                if !r.is_yes() {
                    return r;
                }
            }
            return Out::Yes;
        }
        let kinds = self.kinds(&flat);
        for t in KINDS {
            if kinds & t == 0 || self.empty_for(&flat, t) {
                continue;
            }
            let r = self.sub_t(&flat, t, b, lvl);
            if !r.is_yes() {
                return r;
            }
        }
        Out::Yes
    }

    /// True when the case of `a` where every node of `pos` holds is
    /// provably empty: for each kind `a` admits, some node of `pos` is
    /// disjoint from `a`. Such a case is included in anything, so it is not
    /// split further: `n` `if`s over one enumerated member (`if` its value
    /// is X `then` …) leave `n + 1` cases instead of `2^n`.
    fn no_case(&mut self, a: &Flat<'a>, pos: &[Node<'a>], lvl: u32) -> bool {
        if pos.is_empty() {
            return false;
        }
        let kinds = self.kinds(a);
        let was = std::mem::replace(&mut self.local_only, true);
        let empty = KINDS
            .into_iter()
            .filter(|&t| kinds & t != 0 && !self.empty_for(a, t))
            .collect::<Vec<_>>()
            .into_iter()
            .all(|t| self.any_disjoint(a, t, pos, lvl));
        self.local_only = was;
        empty
    }

    /// `A|kind ⊆ B` for one case of `A` (no disjunction left).
    pub fn sub_t(&mut self, a: &Flat<'a>, t: u8, b: Node<'a>, lvl: u32) -> Out {
        let a0 = a.addr();
        if !self.tick() {
            return Out::Unk(a0, b.addr(), SPENT.to_owned());
        }
        if b.v == &Value::Bool(true) {
            return Out::Yes;
        }
        let bf = self.flatten(&[b], &[]);
        if let Some((at, r)) = &bf.unresolved {
            return Out::Unk(
                a0,
                *at,
                format!("the $ref {} is not a local reference", quote(r)),
            );
        }
        if bf.never {
            return self.no_gen(a, t, lvl, b);
        }
        if let Some(vals) = self.finite(a, t) {
            let mut unknown = false;
            for v in vals {
                match self.holds(b, &v, lvl) {
                    Some(true) => {}
                    Some(false) => return Out::No(v, a0),
                    None => unknown = true,
                }
            }
            return if unknown {
                Out::Unk(
                    a0,
                    b.addr(),
                    "a value of OLD's enum could not be checked against NEW".into(),
                )
            } else {
                Out::Yes
            };
        }
        let mut first_unk: Option<Out> = None;
        for bm in bf.maps.clone() {
            let r = self.check_map(a, t, bm, lvl);
            match r {
                Out::Yes => {}
                Out::No(..) => return r,
                Out::Unk(..) => {
                    first_unk.get_or_insert(r);
                }
            }
        }
        for x in bf.nots.clone() {
            match self.disj(a, t, x, lvl) {
                Dis::Disjoint => {}
                Dis::Overlap(w) => return Out::No(w, a0),
                Dis::Unk(p, q, why) => {
                    first_unk.get_or_insert(Out::Unk(p, q, why));
                }
            }
        }
        for ch in bf.choices.clone() {
            let r = self.check_choice(a, t, &ch, lvl);
            match r {
                Out::Yes => {}
                Out::No(..) => return r,
                Out::Unk(..) => {
                    first_unk.get_or_insert(r);
                }
            }
        }
        first_unk.unwrap_or(Out::Yes)
    }

    /// `A|kind ⊆` every node of `bs`.
    fn sub_t_all(&mut self, a: &Flat<'a>, t: u8, bs: &[Node<'a>], lvl: u32) -> Out {
        for b in bs {
            let r = self.sub_t(a, t, *b, lvl);
            if !r.is_yes() {
                return r;
            }
        }
        Out::Yes
    }

    /// `A` with more nodes that hold and more that do not.
    fn with(&mut self, a: &Flat<'a>, pos: &[Node<'a>], neg: &[Node<'a>]) -> Flat<'a> {
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
    fn check_choice(&mut self, a: &Flat<'a>, t: u8, ch: &Choice<'a>, lvl: u32) -> Out {
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
    fn accepted_by_some(&mut self, ch: &Choice<'a>, w: &Value, lvl: u32) -> bool {
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
    fn disj_all(&mut self, a: &Flat<'a>, t: u8, xs: &[Node<'a>], lvl: u32) -> Out {
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
    fn no_gen(&mut self, a: &Flat<'a>, t: u8, lvl: u32, b: Node<'a>) -> Out {
        match self.gen_flat(a, t, lvl) {
            Some(v) => Out::No(v, a.addr()),
            None => Out::Unk(
                a.addr(),
                b.addr(),
                "NEW refuses some documents here but no example of OLD could be built".into(),
            ),
        }
    }

    /// `A|kind ⊆` one schema object of `B` (its own keywords).
    fn check_map(&mut self, a: &Flat<'a>, t: u8, bm: Node<'a>, lvl: u32) -> Out {
        let a0 = a.addr();
        let Some(m) = bm.obj() else {
            return Out::Yes;
        };
        for k in UNMODELLED {
            if m.contains_key(*k) {
                let same = a.maps.iter().any(|n| n.get(k) == m.get(*k));
                if !same {
                    return Out::Unk(a0, bm.addr(), format!("`{k}` is not decided by the prover"));
                }
            }
        }
        if let Some(tv) = m.get("type") {
            if type_mask(tv) & t == 0 {
                return self.no_gen(a, t, lvl, bm);
            }
        }
        if m.contains_key("const") || matches!(m.get("enum"), Some(Value::Array(_))) {
            // A is infinite here (finite A was decided by values).
            for v in self.gen_many(a, t, lvl, 8) {
                if self.holds(bm, &v, lvl) == Some(false) {
                    return Out::No(v, a0);
                }
            }
            if t == STR {
                if let Some(v) = self.string_outside(a, bm, lvl) {
                    return Out::No(v, a0);
                }
            }
            return Out::Unk(
                a0,
                bm.addr(),
                "NEW lists the values allowed here; no value of OLD outside the list was found"
                    .into(),
            );
        }
        match t {
            INT | FRAC => self.numbers(a, t, m, bm),
            STR => self.strings(a, m, bm, lvl),
            OBJ => self.objects(a, m, bm, lvl),
            ARR => self.arrays(a, m, bm, lvl),
            _ => Out::Yes,
        }
    }

    fn numbers(&mut self, a: &Flat<'a>, t: u8, m: &'a Obj, bm: Node<'a>) -> Out {
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
    fn number_in(&mut self, a: &Flat<'a>, set: &NumSet, t: u8, high: bool) -> Option<Value> {
        for c in set.candidates(t, high, 16) {
            if let Some(v) = self.number_value(a, &c, t) {
                if rat(&v).is_some_and(|r| set.admits(&r)) {
                    return Some(v);
                }
            }
        }
        None
    }

    fn number_value(
        &mut self,
        a: &Flat<'a>,
        c: &num_rational::BigRational,
        t: u8,
    ) -> Option<Value> {
        let v = json_number(c)?;
        (super::model::kind_of(&v) == t && self.holds_flat(a, &v, 0) != Some(false)).then_some(v)
    }

    fn strings(&mut self, a: &Flat<'a>, m: &'a Obj, bm: Node<'a>, lvl: u32) -> Out {
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
    fn string_between(
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
    fn pattern_included(&mut self, a: &Flat<'a>, p: &str, bm: Node<'a>, _lvl: u32) -> Out {
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
        if self.exhausted {
            return super::regular::Incl::Unknown(SPENT.to_owned());
        }
        let mut used = 0u64;
        let r = super::regular::included(olds, lo, hi, new, self.budget.regex_work, &mut used);
        self.charge(used / 1000 + 1);
        self.patterns.insert(key, r.clone());
        r
    }

    /// Charges `n` steps (work done by a sub-procedure).
    pub fn charge(&mut self, n: u64) {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.budget.steps {
            self.exhausted = true;
        }
    }

    // -----------------------------------------------------------------
    // Objects

    /// The nodes that apply to member `name` in `A`, or `None` when `A`
    /// forbids the member.
    pub fn member_nodes(&mut self, a: &Flat<'a>, name: &str) -> Option<Vec<Node<'a>>> {
        let mut out = Vec::new();
        for n in a.maps.clone() {
            let Some(m) = n.obj() else { continue };
            if let Some(pn) = m.get("propertyNames") {
                if self.holds(n.child(pn), &Value::String(name.to_owned()), 0) == Some(false) {
                    return None;
                }
            }
            for s in member_schemas(m, name) {
                if let Member::Schema(s) = s {
                    if s == &Value::Bool(false) {
                        return None;
                    }
                    out.push(n.child(s));
                }
            }
        }
        Some(out)
    }

    /// The nodes that apply to every member of `A` not named in any
    /// `properties` of `A` and matching `pattern` (`None`: any such name).
    /// `None` when `A` admits no such member. Over-approximates: a map
    /// with `patternProperties` other than `pattern` contributes nothing.
    fn fresh_nodes(&mut self, a: &Flat<'a>, pattern: Option<&str>) -> Option<Vec<Node<'a>>> {
        let mut out = Vec::new();
        for n in a.maps.clone() {
            let Some(m) = n.obj() else { continue };
            let pp = m.get("patternProperties").and_then(Value::as_object);
            let same_pp = pattern.and_then(|p| pp.and_then(|pp| pp.get(p)));
            if let Some(s) = same_pp {
                out.push(n.child(s));
                continue;
            }
            if pp.is_some_and(|pp| !pp.is_empty()) {
                continue;
            }
            match m.get("additionalProperties") {
                Some(Value::Bool(false)) => return None,
                Some(s) => out.push(n.child(s)),
                None => {}
            }
        }
        Some(out)
    }

    fn required(a: &Flat<'a>) -> Vec<&'a str> {
        let mut out: Vec<&'a str> = Vec::new();
        for m in a.objs() {
            if let Some(Value::Array(r)) = m.get("required") {
                for s in r.iter().filter_map(Value::as_str) {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    fn named(a: &Flat<'a>) -> Vec<&'a str> {
        let mut out: Vec<&'a str> = Vec::new();
        for m in a.objs() {
            if let Some(Value::Object(p)) = m.get("properties") {
                for k in p.keys() {
                    if !out.contains(&k.as_str()) {
                        out.push(k);
                    }
                }
            }
        }
        out
    }

    /// An object of `A` with member `name` set to `value` (or removed when
    /// `value` is `None`).
    fn object_with(
        &mut self,
        a: &Flat<'a>,
        lvl: u32,
        name: &str,
        value: Option<Value>,
    ) -> Option<Value> {
        let mut o = self.gen_object(a, lvl, Some(name))?;
        match value {
            Some(v) => {
                o.insert(name.to_owned(), v);
            }
            None => {
                o.remove(name);
            }
        }
        Some(Value::Object(o))
    }

    fn embed_member(&mut self, a: &Flat<'a>, lvl: u32, name: &str, r: Out) -> Out {
        match r {
            Out::No(w, at) => match self.object_with(a, lvl, name, Some(w)) {
                Some(o) => Out::No(o, at),
                None => Out::Unk(
                    at,
                    a.addr(),
                    format!(
                        "a counterexample for member {} could not be placed in an object of OLD",
                        quote(name)
                    ),
                ),
            },
            other => other,
        }
    }

    fn objects(&mut self, a: &Flat<'a>, m: &'a Obj, bm: Node<'a>, lvl: u32) -> Out {
        let a0 = a.addr();
        let required = Self::required(a);
        let named = Self::named(a);
        if let Some(Value::Array(req)) = m.get("required") {
            for r in req.iter().filter_map(Value::as_str) {
                if !required.contains(&r) {
                    return match self.object_with(a, lvl, r, None) {
                        Some(o) => Out::No(o, a0),
                        None => Out::Unk(
                            a0,
                            bm.addr(),
                            format!(
                                "NEW requires {}; no object of OLD without it was built",
                                quote(r)
                            ),
                        ),
                    };
                }
            }
        }
        // Member counts.
        let (alo, ahi) = lengths(a, "minProperties", "maxProperties");
        let closed = self.fresh_nodes(a, None).is_none()
            && a.objs().all(|o| o.get("patternProperties").is_none());
        let ahi = if closed {
            let allowed = named.len() as i64;
            Some(ahi.map_or(allowed, |h| h.min(allowed)))
        } else {
            ahi
        };
        if let Some(bmax) = count(m.get("maxProperties")) {
            if ahi.is_none_or(|h| h > bmax) {
                return match self.object_sized(a, lvl, bmax.saturating_add(1)) {
                    Some(o) => Out::No(o, a0),
                    None => Out::Unk(
                        a0,
                        bm.addr(),
                        "no object of OLD with more members than NEW's `maxProperties` was built"
                            .into(),
                    ),
                };
            }
        }
        if let Some(bmin) = count(m.get("minProperties")) {
            let least = alo.max(required.len() as i64);
            if least < bmin {
                return match self.gen_object(a, lvl, None) {
                    Some(o) if (o.len() as i64) < bmin => Out::No(Value::Object(o), a0),
                    _ => Out::Unk(
                        a0,
                        bm.addr(),
                        "no object of OLD with fewer members than NEW's `minProperties` was built"
                            .into(),
                    ),
                };
            }
        }
        let b_props = m.get("properties").and_then(Value::as_object);
        let b_pp = m.get("patternProperties").and_then(Value::as_object);
        // Named members of B.
        if let Some(props) = b_props {
            for (name, s) in props {
                let Some(nodes) = self.member_nodes(a, name) else {
                    continue;
                };
                let r = self.sub(&nodes, bm.child(s), lvl + 1);
                if !r.is_yes() {
                    return self.embed_member(a, lvl, name, r);
                }
            }
        }
        // Pattern members of B.
        if let Some(pp) = b_pp {
            for (p, s) in pp {
                for name in &named {
                    if matches(p, name) != Some(true) {
                        continue;
                    }
                    let Some(nodes) = self.member_nodes(a, name) else {
                        continue;
                    };
                    let r = self.sub(&nodes, bm.child(s), lvl + 1);
                    if !r.is_yes() {
                        return self.embed_member(a, lvl, name, r);
                    }
                }
                if let Some(nodes) = self.fresh_nodes(a, Some(p)) {
                    let r = self.sub(&nodes, bm.child(s), lvl + 1);
                    if !r.is_yes() {
                        return match self.fresh_name(a, Some(p), &[]) {
                            Some(name) => self.embed_member(a, lvl, &name, r),
                            None => Out::Unk(
                                a0,
                                bm.addr(),
                                format!(
                                    "members matching {}: no member name of OLD was built",
                                    quote(p)
                                ),
                            ),
                        };
                    }
                }
            }
        }
        // Other members of B.
        if let Some(addl) = m.get("additionalProperties") {
            if addl != &Value::Bool(true) {
                let listed = |name: &str| {
                    b_props.is_some_and(|p| p.contains_key(name))
                        || b_pp.is_some_and(|pp| pp.keys().any(|p| matches(p, name) != Some(false)))
                };
                for name in &named {
                    if listed(name) {
                        continue;
                    }
                    let Some(nodes) = self.member_nodes(a, name) else {
                        continue;
                    };
                    let r = self.sub(&nodes, bm.child(addl), lvl + 1);
                    if !r.is_yes() {
                        return self.embed_member(a, lvl, name, r);
                    }
                }
                if let Some(nodes) = self.fresh_nodes(a, None) {
                    let avoid: Vec<&str> = b_props
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    let fresh = self.fresh_name(a, None, &avoid).filter(|n| !listed(n));
                    let r = self.sub(&nodes, bm.child(addl), lvl + 1);
                    if !r.is_yes() {
                        return match fresh {
                            Some(name) => self.embed_member(a, lvl, &name, r),
                            None => Out::Unk(
                                a0,
                                bm.addr(),
                                "members NEW does not name: no member name of OLD was built".into(),
                            ),
                        };
                    }
                    // B's patternProperties never apply to A's fresh
                    // members when A admits them all; nothing more here.
                }
            }
        }
        // Member names of B.
        if let Some(pn) = m.get("propertyNames") {
            let pn = bm.child(pn);
            for name in &named {
                if self.member_nodes(a, name).is_none() {
                    continue;
                }
                match self.holds(pn, &Value::String((*name).to_owned()), lvl + 1) {
                    Some(true) => {}
                    Some(false) => {
                        let r = match self
                            .member_nodes(a, name)
                            .and_then(|n| self.gen_nodes(&n, ALL, lvl + 1))
                        {
                            Some(v) => Out::No(v, a0),
                            None => {
                                Out::Unk(a0, pn.addr(), "no member value of OLD was built".into())
                            }
                        };
                        return self.embed_member(a, lvl, name, r);
                    }
                    None => {
                        return Out::Unk(
                            a0,
                            pn.addr(),
                            format!("member name {} could not be checked", quote(name)),
                        )
                    }
                }
            }
            if self.fresh_nodes(a, None).is_some()
                || a.objs().any(|o| o.get("patternProperties").is_some())
            {
                let names: Vec<Node<'a>> = a
                    .maps
                    .iter()
                    .filter_map(|n| n.kw("propertyNames"))
                    .collect();
                let nf = self.flatten(&names, &[]);
                let r = self.sub_t(&nf, STR, pn, lvl + 1);
                match r {
                    Out::Yes => {}
                    Out::No(Value::String(name), _) => {
                        let r = match self
                            .member_nodes(a, &name)
                            .and_then(|n| self.gen_nodes(&n, ALL, lvl + 1))
                        {
                            Some(v) => Out::No(v, a0),
                            None => {
                                Out::Unk(a0, pn.addr(), "no member value of OLD was built".into())
                            }
                        };
                        return self.embed_member(a, lvl, &name, r);
                    }
                    Out::No(..) => {
                        return Out::Unk(a0, pn.addr(), "member names: not decided".into());
                    }
                    unk => return unk,
                }
            }
        }
        if let Some(Value::Object(deps)) = m.get("dependentRequired") {
            for (p, qs) in deps {
                if self.member_nodes(a, p).is_none() {
                    continue;
                }
                let Value::Array(qs) = qs else { continue };
                for q in qs.iter().filter_map(Value::as_str) {
                    let implied = required.contains(&q)
                        || a.objs().any(|o| {
                            o.get("dependentRequired")
                                .and_then(|d| d.get(p))
                                .and_then(Value::as_array)
                                .is_some_and(|l| l.iter().any(|x| x.as_str() == Some(q)))
                        });
                    if implied {
                        continue;
                    }
                    let built = self.gen_object(a, lvl, Some(p)).and_then(|mut o| {
                        if !o.contains_key(p) {
                            let nodes = self.member_nodes(a, p)?;
                            let v = self.gen_nodes(&nodes, ALL, lvl + 1)?;
                            o.insert(p.clone(), v);
                        }
                        o.remove(q);
                        Some(Value::Object(o))
                    });
                    return match built {
                        Some(o) => Out::No(o, a0),
                        None => Out::Unk(
                            a0,
                            bm.addr(),
                            format!(
                                "NEW makes {} depend on {}; no object of OLD was built",
                                quote(q),
                                quote(p)
                            ),
                        ),
                    };
                }
            }
        }
        Out::Yes
    }

    // -----------------------------------------------------------------
    // Arrays

    /// The nodes that apply to item `i` of `A` (for `i` at or past every
    /// `prefixItems`, the same for all later items).
    pub fn item_nodes(&self, a: &Flat<'a>, i: usize) -> Vec<Node<'a>> {
        let mut out = Vec::new();
        for n in &a.maps {
            let Some(m) = n.obj() else { continue };
            let prefix = m.get("prefixItems").and_then(Value::as_array);
            match prefix.and_then(|p| p.get(i)) {
                Some(s) => out.push(n.child(s)),
                None => {
                    if let Some(s) = m.get("items") {
                        out.push(n.child(s));
                    }
                }
            }
        }
        out
    }

    fn embed_item(&mut self, a: &Flat<'a>, lvl: u32, i: usize, r: Out) -> Out {
        match r {
            Out::No(w, at) => {
                let (lo, _) = lengths(a, "minItems", "maxItems");
                let len = (i + 1).max(usize::try_from(lo).unwrap_or(0));
                match self.gen_array(a, lvl, len) {
                    Some(mut items) => {
                        if let Some(slot) = items.get_mut(i) {
                            *slot = w;
                        }
                        Out::No(Value::Array(items), at)
                    }
                    None => Out::Unk(
                        at,
                        a.addr(),
                        "a counterexample item could not be placed in an array of OLD".into(),
                    ),
                }
            }
            other => other,
        }
    }

    fn arrays(&mut self, a: &Flat<'a>, m: &'a Obj, bm: Node<'a>, lvl: u32) -> Out {
        let a0 = a.addr();
        let (alo, ahi) = lengths(a, "minItems", "maxItems");
        if let Some(bmin) = count(m.get("minItems")) {
            if alo < bmin {
                let len = usize::try_from(alo.max(0)).unwrap_or(0);
                return match self.gen_array(a, lvl, len) {
                    Some(items) => Out::No(Value::Array(items), a0),
                    None => Out::Unk(
                        a0,
                        bm.addr(),
                        "no array of OLD shorter than NEW's `minItems` was built".into(),
                    ),
                };
            }
        }
        if let Some(bmax) = count(m.get("maxItems")) {
            if ahi.is_none_or(|h| h > bmax) {
                let len = usize::try_from(bmax.saturating_add(1).max(alo)).unwrap_or(usize::MAX);
                let built = if len <= self.budget.max_items {
                    self.gen_array(a, lvl, len)
                } else {
                    None
                };
                return match built {
                    Some(items) => Out::No(Value::Array(items), a0),
                    None => Out::Unk(
                        a0,
                        bm.addr(),
                        "no array of OLD longer than NEW's `maxItems` was built".into(),
                    ),
                };
            }
        }
        let b_prefix = m.get("prefixItems").and_then(Value::as_array);
        let b_items = m.get("items");
        if b_prefix.is_some() || b_items.is_some() {
            let k = a
                .objs()
                .filter_map(|o| o.get("prefixItems").and_then(Value::as_array))
                .map(Vec::len)
                .chain(b_prefix.map(Vec::len))
                .max()
                .unwrap_or(0);
            for i in 0..=k {
                if ahi.is_some_and(|h| h <= i as i64) {
                    break;
                }
                let b = match b_prefix.and_then(|p| p.get(i)) {
                    Some(s) => s,
                    None => match b_items {
                        Some(s) => s,
                        None => continue,
                    },
                };
                let nodes = self.item_nodes(a, i);
                let r = self.sub(&nodes, bm.child(b), lvl + 1);
                if !r.is_yes() {
                    return self.embed_item(a, lvl, i, r);
                }
            }
        }
        if m.get("uniqueItems") == Some(&Value::Bool(true)) {
            let unique = a
                .objs()
                .any(|o| o.get("uniqueItems") == Some(&Value::Bool(true)));
            if !unique && ahi.is_none_or(|h| h > 1) {
                let len = usize::try_from(alo.max(2)).unwrap_or(2);
                let built = self.gen_array(a, lvl, len).and_then(|mut items| {
                    let first = items.first()?.clone();
                    *items.get_mut(1)? = first;
                    Some(Value::Array(items))
                });
                return match built {
                    Some(v) => Out::No(v, a0),
                    None => Out::Unk(
                        a0,
                        bm.addr(),
                        "NEW asks for unique items; no array of OLD with a repeat was built".into(),
                    ),
                };
            }
        }
        if let Some(c) = m.get("contains") {
            let bmin = count(m.get("minContains")).unwrap_or(1);
            if bmin > 0 || m.contains_key("maxContains") {
                if m.contains_key("maxContains") {
                    let same = a.objs().any(|o| {
                        o.get("contains") == Some(c)
                            && o.get("maxContains") == m.get("maxContains")
                            && o.get("minContains") == m.get("minContains")
                    });
                    if !same {
                        return Out::Unk(
                            a0,
                            bm.addr(),
                            "`maxContains` is decided only when unchanged".into(),
                        );
                    }
                } else {
                    let mut ok = false;
                    for n in a.maps.clone() {
                        let Some(ac) = n.kw("contains") else { continue };
                        let amin = count(n.get("minContains")).unwrap_or(1);
                        if amin >= bmin && self.sub(&[ac], bm.child(c), lvl + 1).is_yes() {
                            ok = true;
                            break;
                        }
                    }
                    if !ok {
                        let has_contains = a.objs().any(|o| o.contains_key("contains"));
                        if !has_contains {
                            let len = usize::try_from(alo.max(0)).unwrap_or(0);
                            if let Some(items) = self.gen_array(a, lvl, len) {
                                return Out::No(Value::Array(items), a0);
                            }
                        }
                        return Out::Unk(
                            a0,
                            bm.addr(),
                            "NEW's `contains` is not implied by OLD's".into(),
                        );
                    }
                }
            }
        }
        Out::Yes
    }

    // -----------------------------------------------------------------
    // Disjointness

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
    fn any_disjoint(&mut self, a: &Flat<'a>, t: u8, xs: &[Node<'a>], lvl: u32) -> bool {
        xs.iter()
            .any(|x| matches!(self.disj(a, t, *x, lvl), Dis::Disjoint))
    }

    fn disj_inner(&mut self, a: &Flat<'a>, t: u8, x: Node<'a>, lvl: u32) -> Dis {
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

/// The tightest `[min, max]` of a count keyword pair over `a`.
pub(super) fn lengths(a: &Flat<'_>, min: &str, max: &str) -> (i64, Option<i64>) {
    let mut lo = 0i64;
    let mut hi: Option<i64> = None;
    for m in a.objs() {
        if let Some(c) = count(m.get(min)) {
            lo = lo.max(c);
        }
        if let Some(c) = count(m.get(max)) {
            hi = Some(hi.map_or(c, |h| h.min(c)));
        }
    }
    (lo, hi)
}

fn collect_refs<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match (k.as_str(), x) {
                        ("$ref", Value::String(s)) => out.push(s),
                        _ => stack.push(x),
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
}
