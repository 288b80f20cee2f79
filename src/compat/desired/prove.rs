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
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

use super::meter::Meter;
use super::model::{count, type_mask, Node, Obj, ARR, FRAC, INT, KINDS, OBJ, STR, UNMODELLED};
use super::Budget;
use crate::engine::values::ValueSet;

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
    pub(super) fn is_yes(&self) -> bool {
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
pub(super) type GuardKey = (Vec<usize>, usize, bool);

/// What [`Prover::assume`] found.
pub(super) enum Guard {
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
    /// Steps spent and nesting entered.
    pub(super) meter: Meter,
    pub(super) assumed: HashMap<GuardKey, u32>,
    /// While set, [`Prover::disj`] looks for a local conflict only (no
    /// inclusion sub-question, no generated document): see
    /// [`Prover::no_case`].
    pub(super) local_only: bool,
    /// Pattern inclusions decided so far: the same question comes back for
    /// every case and every use of a `$defs` entry.
    pub(super) patterns: HashMap<(Vec<String>, i64, Option<i64>, String), super::regular::Incl>,
    /// The engine's sets of the `enum`s met so far, by the address of the
    /// array ([`Prover::value_set`]).
    pub(super) sets: HashMap<usize, Rc<ValueSet>, ahash::RandomState>,
    pub(super) _roots: std::marker::PhantomData<&'a Value>,
}

/// The reason given when the work budget runs out.
pub(super) const SPENT: &str = "the work budget ran out before this node was decided";

impl<'a> Prover<'a> {
    pub fn new(budget: Budget) -> Self {
        Prover {
            budget,
            meter: Meter::new(&budget),
            assumed: HashMap::new(),
            local_only: false,
            patterns: HashMap::new(),
            sets: HashMap::default(),
            _roots: std::marker::PhantomData,
        }
    }

    /// Counts one step; false once the budget is spent.
    pub fn tick(&mut self) -> bool {
        self.meter.tick()
    }

    /// Enters one level of nesting (false: too deep; leave it anyway).
    pub(super) fn enter(&mut self) -> bool {
        self.meter.enter()
    }

    /// Leaves a level [`Prover::enter`] entered.
    pub(super) fn leave(&mut self) {
        self.meter.leave();
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

    pub(super) fn sub_conj(
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
    pub(super) fn no_case(&mut self, a: &Flat<'a>, pos: &[Node<'a>], lvl: u32) -> bool {
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
    pub(super) fn sub_t_all(&mut self, a: &Flat<'a>, t: u8, bs: &[Node<'a>], lvl: u32) -> Out {
        for b in bs {
            let r = self.sub_t(a, t, *b, lvl);
            if !r.is_yes() {
                return r;
            }
        }
        Out::Yes
    }

    /// `A|kind ⊆` one schema object of `B` (its own keywords).
    pub(super) fn check_map(&mut self, a: &Flat<'a>, t: u8, bm: Node<'a>, lvl: u32) -> Out {
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

    /// Charges `n` steps (work done by a sub-procedure).
    pub fn charge(&mut self, n: u64) {
        self.meter.charge(n);
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
