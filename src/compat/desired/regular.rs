//! `pattern` inclusion as regular-language inclusion, with Go's semantics.
//!
//! Hand-rolled on purpose: deciding `L(OLD) ⊆ L(NEW)` for two Go patterns
//! is one of the proofs this project exists for, and no maintained crate
//! decides inclusion (the `regex` crates match, they do not compare
//! languages). The patterns are parsed by [`crate::engine::goregex::parse`],
//! the very tree the engine's matcher is built from, so both read the same
//! syntax with the same Unicode 15.0.0 sets and case folding.
//!
//! # Method
//!
//! 1. Each pattern becomes a Thompson NFA over code points, with the
//!    empty-width assertions (`^ $ \A \z`, `(?m)` line anchors, ASCII `\b
//!    \B`) as guarded ε-edges. Go's `pattern` is an unanchored search, so
//!    the NFA is wrapped as `Σ* (p) Σ*` (the loops take every character,
//!    `\n` included).
//! 2. The alphabet is partitioned into intervals on which every class of
//!    every pattern agrees (and `\n` and the ASCII word characters stand
//!    alone, for the assertions): a symbol is one interval.
//! 3. Each NFA is determinised on demand (subset construction). A DFA
//!    state is a set of NFA states before ε-closure plus the kind of the
//!    previous character (start, newline, word, other); the closure is
//!    taken when the next symbol (or the end) is known, which decides the
//!    assertions exactly.
//! 4. The product of the OLD automata (a conjunction: every OLD pattern of
//!    the node) and the NEW automaton is explored breadth first. A reached
//!    state where every OLD accepts at the end and NEW does not is a
//!    counterexample; its path, one representative character per symbol,
//!    is the shortest witness string. Exhausting the product without one
//!    proves inclusion.
//!
//! OLD's `minLength`/`maxLength` are first ignored (a larger OLD keeps a
//! proof sound); when the shortest counterexample has a length outside
//! them, the product is explored again with a length counter.
//!
//! Every state created and every product state expanded is counted
//! against a budget; running out is `Unknown`, never a hang.

use std::collections::VecDeque;

use ahash::AHashMap;

use regex_syntax_u15::hir::{ClassUnicode, ClassUnicodeRange};

use crate::engine::goregex::{self, Kind};

/// The outcome of `L(olds) ∩ lengths ⊆ L(new)`.
#[derive(Clone, Debug)]
pub(super) enum Incl {
    /// Proved.
    Yes,
    /// A string every old pattern matches (length in range) that the new
    /// pattern does not match.
    No(String),
    /// Undecided, and why.
    Unknown(String),
}

/// A Go pattern that matches no string: with it as NEW, [`included`]
/// decides whether OLD's patterns match any string of a length range.
pub(super) const NOTHING: &str = r"[^\x00-\x{10FFFF}]";

/// Largest code point.
const MAX_CP: u32 = 0x10FFFF;

/// An empty-width assertion.
#[derive(Clone, Copy, Debug)]
enum Look {
    BeginText,
    EndText,
    BeginLine,
    EndLine,
    WordBoundary,
    NoWordBoundary,
}

#[derive(Clone, Debug)]
enum Edge {
    Eps(usize),
    Look(Look, usize),
    /// Index into `Nfa::classes`, target.
    Class(usize, usize),
}

#[derive(Debug, Default)]
struct Nfa {
    states: Vec<Vec<Edge>>,
    classes: Vec<Vec<(u32, u32)>>,
    start: usize,
    accept: usize,
}

struct Spent;

impl Nfa {
    fn state(&mut self, limit: usize) -> Result<usize, Spent> {
        if self.states.len() >= limit {
            return Err(Spent);
        }
        self.states.push(Vec::new());
        Ok(self.states.len() - 1)
    }

    fn edge(&mut self, from: usize, e: Edge) {
        if let Some(s) = self.states.get_mut(from) {
            s.push(e);
        }
    }

    fn class(&mut self, ranges: Vec<(u32, u32)>) -> usize {
        self.classes.push(ranges);
        self.classes.len() - 1
    }

    /// Builds `node` between fresh states; returns (entry, exit).
    fn build(
        &mut self,
        node: &goregex::Node,
        limit: usize,
        depth: u32,
    ) -> Result<(usize, usize), Spent> {
        if depth > 400 {
            return Err(Spent);
        }
        let s = self.state(limit)?;
        let e = self.state(limit)?;
        match &node.kind {
            Kind::Empty => self.edge(s, Edge::Eps(e)),
            Kind::Literal(cs, fold) => {
                let mut at = s;
                for c in cs {
                    let ranges = if *fold {
                        fold_orbit(*c)
                    } else {
                        vec![(*c, *c)]
                    };
                    let k = self.class(ranges);
                    let next = self.state(limit)?;
                    self.edge(at, Edge::Class(k, next));
                    at = next;
                }
                self.edge(at, Edge::Eps(e));
            }
            Kind::Class(c) => {
                let k = self.class(
                    c.ranges()
                        .iter()
                        .map(|r| (r.start() as u32, r.end() as u32))
                        .collect(),
                );
                self.edge(s, Edge::Class(k, e));
            }
            Kind::AnyNotNl => {
                let k = self.class(vec![(0, 9), (11, MAX_CP)]);
                self.edge(s, Edge::Class(k, e));
            }
            Kind::Any => {
                let k = self.class(vec![(0, MAX_CP)]);
                self.edge(s, Edge::Class(k, e));
            }
            Kind::BeginLine => self.edge(s, Edge::Look(Look::BeginLine, e)),
            Kind::EndLine => self.edge(s, Edge::Look(Look::EndLine, e)),
            Kind::BeginText => self.edge(s, Edge::Look(Look::BeginText, e)),
            Kind::EndText => self.edge(s, Edge::Look(Look::EndText, e)),
            Kind::WordBoundary => self.edge(s, Edge::Look(Look::WordBoundary, e)),
            Kind::NoWordBoundary => self.edge(s, Edge::Look(Look::NoWordBoundary, e)),
            Kind::Capture(sub) => {
                let (a, b) = self.build(sub, limit, depth + 1)?;
                self.edge(s, Edge::Eps(a));
                self.edge(b, Edge::Eps(e));
            }
            Kind::Star(sub) => {
                let (a, b) = self.build(sub, limit, depth + 1)?;
                self.edge(s, Edge::Eps(a));
                self.edge(s, Edge::Eps(e));
                self.edge(b, Edge::Eps(a));
                self.edge(b, Edge::Eps(e));
            }
            Kind::Plus(sub) => {
                let (a, b) = self.build(sub, limit, depth + 1)?;
                self.edge(s, Edge::Eps(a));
                self.edge(b, Edge::Eps(a));
                self.edge(b, Edge::Eps(e));
            }
            Kind::Quest(sub) => {
                let (a, b) = self.build(sub, limit, depth + 1)?;
                self.edge(s, Edge::Eps(a));
                self.edge(s, Edge::Eps(e));
                self.edge(b, Edge::Eps(e));
            }
            Kind::Repeat(sub, min, max) => {
                let mut at = s;
                for _ in 0..*min {
                    let (a, b) = self.build(sub, limit, depth + 1)?;
                    self.edge(at, Edge::Eps(a));
                    at = b;
                }
                match max {
                    None => {
                        let (a, b) = self.build(sub, limit, depth + 1)?;
                        self.edge(at, Edge::Eps(a));
                        self.edge(at, Edge::Eps(e));
                        self.edge(b, Edge::Eps(a));
                        self.edge(b, Edge::Eps(e));
                    }
                    Some(max) => {
                        for _ in *min..*max {
                            let (a, b) = self.build(sub, limit, depth + 1)?;
                            self.edge(at, Edge::Eps(a));
                            self.edge(at, Edge::Eps(e));
                            at = b;
                        }
                        self.edge(at, Edge::Eps(e));
                    }
                }
            }
            Kind::Concat(subs) => {
                let mut at = s;
                for sub in subs {
                    let (a, b) = self.build(sub, limit, depth + 1)?;
                    self.edge(at, Edge::Eps(a));
                    at = b;
                }
                self.edge(at, Edge::Eps(e));
            }
            Kind::Alternate(subs) => {
                for sub in subs {
                    let (a, b) = self.build(sub, limit, depth + 1)?;
                    self.edge(s, Edge::Eps(a));
                    self.edge(b, Edge::Eps(e));
                }
            }
        }
        Ok((s, e))
    }

    /// The NFA of an unanchored search for `pattern`: `Σ* (p) Σ*`.
    fn search(pattern: &str, limit: usize) -> Result<Nfa, String> {
        let tree = goregex::parse(pattern).map_err(|e| format!("pattern does not parse: {e}"))?;
        let mut n = Nfa::default();
        let spent = |_| "the pattern's automaton exceeds the budget".to_owned();
        let pre = n.state(limit).map_err(spent)?;
        let all = n.class(vec![(0, MAX_CP)]);
        n.edge(pre, Edge::Class(all, pre));
        let (a, b) = n.build(&tree, limit, 0).map_err(spent)?;
        let post = n.state(limit).map_err(spent)?;
        n.edge(pre, Edge::Eps(a));
        n.edge(b, Edge::Eps(post));
        n.edge(post, Edge::Class(all, post));
        n.start = pre;
        n.accept = post;
        Ok(n)
    }
}

/// The simple case-folding orbit of `c` (Unicode 15.0.0), as ranges.
fn fold_orbit(c: u32) -> Vec<(u32, u32)> {
    let Some(ch) = char::from_u32(c) else {
        return Vec::new();
    };
    let mut class = ClassUnicode::new([ClassUnicodeRange::new(ch, ch)]);
    // Tables are compiled in; on error the character stands alone.
    let _ = class.try_case_fold_simple();
    class
        .ranges()
        .iter()
        .map(|r| (r.start() as u32, r.end() as u32))
        .collect()
}

/// The kind of the character before a position (or the start).
const START: u8 = 0;
const NEWLINE: u8 = 1;
const WORD: u8 = 2;
const OTHER: u8 = 3;
/// As the "next" kind: the end of the text.
const END: u8 = 4;

fn kind_of(c: u32) -> u8 {
    match c {
        0x0A => NEWLINE,
        0x30..=0x39 | 0x41..=0x5A | 0x61..=0x7A | 0x5F => WORD,
        _ => OTHER,
    }
}

fn look_holds(l: Look, prev: u8, next: u8) -> bool {
    let word = |k: u8| k == WORD;
    match l {
        Look::BeginText => prev == START,
        Look::EndText => next == END,
        Look::BeginLine => prev == START || prev == NEWLINE,
        Look::EndLine => next == END || next == NEWLINE,
        Look::WordBoundary => word(prev) != word(next),
        Look::NoWordBoundary => word(prev) == word(next),
    }
}

/// One symbol of the partition: an interval of code points.
#[derive(Clone, Copy, Debug)]
struct Symbol {
    lo: u32,
    hi: u32,
    kind: u8,
}

impl Symbol {
    /// A readable character of the interval.
    fn representative(&self) -> char {
        let nice = ['a', 'A', '0', '.', '-', '_', ' ', '/', ':'];
        nice.iter()
            .copied()
            .find(|c| (self.lo..=self.hi).contains(&(*c as u32)))
            .or_else(|| {
                (self.lo..=self.hi.min(self.lo.saturating_add(4096))).find_map(char::from_u32)
            })
            .unwrap_or('a')
    }
}

fn partition(nfas: &[&Nfa]) -> Vec<Symbol> {
    let mut cuts: Vec<u32> = vec![
        0, 0x0A, 0x0B, 0x30, 0x3A, 0x41, 0x5B, 0x5F, 0x60, 0x61, 0x7B, 0xD800, 0xE000,
    ];
    for n in nfas {
        for class in &n.classes {
            for (lo, hi) in class {
                cuts.push(*lo);
                if *hi < MAX_CP {
                    cuts.push(hi + 1);
                }
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out: Vec<Symbol> = Vec::new();
    for (i, lo) in cuts.iter().enumerate() {
        let hi = cuts.get(i + 1).map_or(MAX_CP, |n| n - 1);
        // Surrogates never occur in a string.
        if (0xD800..=0xDFFF).contains(lo) {
            continue;
        }
        out.push(Symbol {
            lo: *lo,
            hi,
            kind: kind_of(*lo),
        });
    }
    // Readable characters first: the breadth-first search then prefers
    // them among witnesses of the same length.
    out.sort_by_key(|s| match s.lo {
        0x61..=0x7A => 0,
        0x41..=0x5A => 1,
        0x30..=0x39 => 2,
        0x20..=0x7E => 3,
        0x80..=0xFFFF => 4,
        _ => 5,
    });
    out
}

fn class_has(ranges: &[(u32, u32)], c: u32) -> bool {
    ranges
        .binary_search_by(|(lo, hi)| {
            if *hi < c {
                std::cmp::Ordering::Less
            } else if *lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// A lazily determinised NFA.
struct Dfa<'n> {
    nfa: &'n Nfa,
    /// State id → (NFA states before closure, previous kind).
    states: Vec<(Vec<usize>, u8)>,
    ids: AHashMap<(Vec<usize>, u8), u32>,
    /// Transitions, `symbols` slots per state (`u32::MAX`: not built).
    next: Vec<u32>,
    symbols: usize,
    /// Closures by (state, kind of the next character or the end).
    closed: AHashMap<(u32, u8), std::rc::Rc<Vec<usize>>>,
    accepts: AHashMap<u32, bool>,
    /// Scratch for closures: the generation each NFA state was last seen.
    seen: Vec<u32>,
    generation: u32,
}

impl<'n> Dfa<'n> {
    fn new(nfa: &'n Nfa, symbols: usize) -> Self {
        let mut d = Dfa {
            nfa,
            states: Vec::new(),
            ids: AHashMap::new(),
            next: Vec::new(),
            symbols,
            closed: AHashMap::new(),
            accepts: AHashMap::new(),
            seen: vec![0; nfa.states.len()],
            generation: 0,
        };
        d.intern(vec![nfa.start], START);
        d
    }

    fn intern(&mut self, set: Vec<usize>, prev: u8) -> u32 {
        if let Some(id) = self.ids.get(&(set.clone(), prev)) {
            return *id;
        }
        let id = u32::try_from(self.states.len()).unwrap_or(u32::MAX);
        self.states.push((set.clone(), prev));
        self.ids.insert((set, prev), id);
        self.next
            .extend(std::iter::repeat_n(u32::MAX, self.symbols));
        id
    }

    /// The ε-closure of state `id` when the next character has kind
    /// `next` (or `END`).
    fn closure(&mut self, id: u32, next: u8, work: &mut u64) -> std::rc::Rc<Vec<usize>> {
        if let Some(c) = self.closed.get(&(id, next)) {
            return c.clone();
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.iter_mut().for_each(|g| *g = 0);
            self.generation = 1;
        }
        let g = self.generation;
        let (set, prev) = match self.states.get(id as usize) {
            Some((set, prev)) => (set.as_slice(), *prev),
            None => (&[][..], OTHER),
        };
        let mut stack: Vec<usize> = set.to_vec();
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            match self.seen.get_mut(s) {
                Some(flag) if *flag != g => *flag = g,
                _ => continue,
            }
            *work += 1;
            out.push(s);
            for e in self.nfa.states.get(s).map_or(&[][..], Vec::as_slice) {
                match e {
                    Edge::Eps(t) => stack.push(*t),
                    Edge::Look(l, t) if look_holds(*l, prev, next) => stack.push(*t),
                    _ => {}
                }
            }
        }
        let out = std::rc::Rc::new(out);
        self.closed.insert((id, next), out.clone());
        out
    }

    fn is_dead(&self, id: u32) -> bool {
        self.states
            .get(id as usize)
            .is_none_or(|(s, _)| s.is_empty())
    }

    fn step(&mut self, id: u32, sym_index: usize, sym: &Symbol, work: &mut u64) -> u32 {
        let slot = (id as usize) * self.symbols + sym_index;
        if let Some(t) = self.next.get(slot).filter(|t| **t != u32::MAX) {
            return *t;
        }
        let closed = self.closure(id, sym.kind, work);
        let mut out: Vec<usize> = Vec::new();
        for s in closed.iter() {
            for e in self.nfa.states.get(*s).map_or(&[][..], Vec::as_slice) {
                if let Edge::Class(k, t) = e {
                    *work += 1;
                    if self
                        .nfa
                        .classes
                        .get(*k)
                        .is_some_and(|c| class_has(c, sym.lo))
                    {
                        out.push(*t);
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        let prev = if out.is_empty() { OTHER } else { sym.kind };
        let t = self.intern(out, prev);
        if let Some(x) = self.next.get_mut(slot) {
            *x = t;
        }
        t
    }

    fn accepts(&mut self, id: u32, work: &mut u64) -> bool {
        if let Some(a) = self.accepts.get(&id) {
            return *a;
        }
        let a = self.closure(id, END, work).contains(&self.nfa.accept);
        self.accepts.insert(id, a);
        a
    }
}

/// Decides whether every string matched (unanchored, Go semantics) by all
/// of `olds`, with a length (code points) in `[lo, hi]`, is matched by
/// `new`. `budget` is the work allowed (states built, edges followed);
/// the work done is added to `used`.
pub(super) fn included(
    olds: &[&str],
    lo: i64,
    hi: Option<i64>,
    new: &str,
    budget: u64,
    used: &mut u64,
) -> Incl {
    let mut work = 0u64;
    let r = included_inner(olds, lo, hi, new, budget, &mut work);
    *used = used.saturating_add(work);
    r
}

fn included_inner(
    olds: &[&str],
    lo: i64,
    hi: Option<i64>,
    new: &str,
    budget: u64,
    work: &mut u64,
) -> Incl {
    let limit = usize::try_from(budget).unwrap_or(usize::MAX).min(1 << 20);
    let mut nfas = Vec::new();
    for p in olds.iter().chain(std::iter::once(&new)) {
        match Nfa::search(p, limit) {
            Ok(n) => nfas.push(n),
            Err(why) => return Incl::Unknown(why),
        }
    }
    let refs: Vec<&Nfa> = nfas.iter().collect();
    let symbols = partition(&refs);
    let Some((new_nfa, old_nfas)) = nfas.split_last() else {
        return Incl::Unknown("no automaton".to_owned());
    };
    // First without lengths (a larger OLD: a proof stays a proof).
    match explore(old_nfas, new_nfa, &symbols, None, budget, work) {
        Explored::Proved => Incl::Yes,
        Explored::Spent => Incl::Unknown(format!(
            "the automata exceeded the budget ({budget} steps) before inclusion was decided"
        )),
        Explored::Counter(s) => {
            let n = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
            if n >= lo && hi.is_none_or(|h| n <= h) {
                return Incl::No(s);
            }
            let cap = hi.map_or(lo, |h| h.saturating_add(1)).max(lo);
            match explore(
                old_nfas,
                new_nfa,
                &symbols,
                Some((lo, hi, cap)),
                budget,
                work,
            ) {
                Explored::Proved => Incl::Yes,
                Explored::Counter(s) => Incl::No(s),
                Explored::Spent => Incl::Unknown(format!(
                    "the automata with OLD's length bounds exceeded the budget ({budget} steps)"
                )),
            }
        }
    }
}

/// A product state: each OLD automaton's state, NEW's, the length counter.
type Key = (Vec<u32>, u32, i64);

enum Explored {
    Proved,
    Counter(String),
    Spent,
}

/// Breadth-first search of the product for a state OLD accepts and NEW
/// refuses; `lengths` = (min, max, cap of the counter).
fn explore(
    olds: &[Nfa],
    new: &Nfa,
    symbols: &[Symbol],
    lengths: Option<(i64, Option<i64>, i64)>,
    budget: u64,
    work: &mut u64,
) -> Explored {
    let mut old_dfas: Vec<Dfa<'_>> = olds.iter().map(|n| Dfa::new(n, symbols.len())).collect();
    let mut new_dfa = Dfa::new(new, symbols.len());
    let start: Key = (vec![0; old_dfas.len()], 0, 0);
    let mut parent: AHashMap<Key, Option<(Key, usize)>> = AHashMap::new();
    parent.insert(start.clone(), None);
    let mut queue: VecDeque<Key> = VecDeque::new();
    queue.push_back(start);
    while let Some(key) = queue.pop_front() {
        if *work > budget {
            return Explored::Spent;
        }
        let (olds_at, new_at, len) = &key;
        let in_range = lengths.is_none_or(|(lo, hi, _)| *len >= lo && hi.is_none_or(|h| *len <= h));
        if in_range {
            let mut all = true;
            for (d, s) in old_dfas.iter_mut().zip(olds_at) {
                if !d.accepts(*s, work) {
                    all = false;
                    break;
                }
            }
            if all && !new_dfa.accepts(*new_at, work) {
                return Explored::Counter(path(&parent, &key, symbols));
            }
        }
        if lengths.is_some_and(|(_, hi, _)| hi.is_some_and(|h| *len >= h)) {
            continue;
        }
        'symbols: for (i, sym) in symbols.iter().enumerate() {
            *work += 1;
            let mut next_olds = Vec::with_capacity(olds_at.len());
            for (d, s) in old_dfas.iter_mut().zip(olds_at) {
                let t = d.step(*s, i, sym, work);
                if d.is_dead(t) {
                    continue 'symbols;
                }
                next_olds.push(t);
            }
            let next_new = new_dfa.step(*new_at, i, sym, work);
            let next_len = match lengths {
                Some((_, _, cap)) => (len + 1).min(cap),
                None => 0,
            };
            let next: Key = (next_olds, next_new, next_len);
            if !parent.contains_key(&next) {
                parent.insert(next.clone(), Some((key.clone(), i)));
                queue.push_back(next);
            }
        }
    }
    Explored::Proved
}

fn path(parent: &AHashMap<Key, Option<(Key, usize)>>, key: &Key, symbols: &[Symbol]) -> String {
    let mut chars = Vec::new();
    let mut at = key.clone();
    while let Some(Some((p, i))) = parent.get(&at) {
        chars.push(symbols.get(*i).map_or('a', Symbol::representative));
        at = p.clone();
        if chars.len() > 1 << 16 {
            break;
        }
    }
    chars.iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn incl(old: &str, new: &str) -> String {
        match included(&[old], 0, None, new, 2_000_000, &mut 0) {
            Incl::Yes => "yes".to_owned(),
            Incl::No(s) => format!("no:{s}"),
            Incl::Unknown(w) => format!("unknown:{w}"),
        }
    }

    #[test]
    fn inclusion_of_go_patterns() {
        assert_eq!(incl("^a+$", "^a*$"), "yes");
        assert_eq!(incl("^a*$", "^a+$"), "no:");
        assert_eq!(incl("^[a-z]{1,3}$", "^[a-z]+$"), "yes");
        assert_eq!(incl("^[a-z]+$", "^[a-z]{1,3}$"), "no:aaaa");
        // Unanchored: `b` anywhere.
        assert_eq!(incl("^abc$", "b"), "yes");
        assert_eq!(incl("b", "^abc$"), "no:b");
        // Case folding and classes.
        assert_eq!(incl("^(?i)k$", "^[kK\u{212A}]$"), "yes");
        assert_eq!(incl("^[kK\u{212A}]$", "^k$"), "no:A".replace('A', "K"));
        // Word boundaries are ASCII.
        assert_eq!(incl("\\bab\\b", "ab"), "yes");
        assert_eq!(incl("ab", "\\bab\\b"), "no:aab");
        // Multi-line anchors.
        assert_eq!(incl("(?m)^a$", "a"), "yes");
        assert_eq!(incl("a", "(?m)^a$"), "no:aa");
        // A character only NEW excludes.
        assert_eq!(incl("^[^\\s]+$", "^[^\\s\u{a0}]+$"), "no:\u{a0}");
        // The corpus's cron change.
        let old = "^[0-9*,-]+(?:/[1-9][0-9]*)? [0-9*,-]+(?:/[1-9][0-9]*)? [0-9*,-]+(?:/[1-9][0-9]*)? [0-9*,-]+(?:/[1-9][0-9]*)? [0-9*,-]+(?:/[1-9][0-9]*)?$";
        assert_eq!(incl(old, "^\\S+ \\S+ \\S+ \\S+ \\S+$"), "yes");
        assert!(incl("^\\S+ \\S+ \\S+ \\S+ \\S+$", old).starts_with("no:"));
    }

    #[test]
    fn nothing_matches_nothing() {
        assert_eq!(incl("^[a-z]+$", NOTHING), "no:a");
        let r = included(&["^[a-z]{3,}$"], 0, Some(2), NOTHING, 100_000, &mut 0);
        assert!(matches!(r, Incl::Yes), "{r:?}");
    }

    #[test]
    fn lengths_bound_the_old_side() {
        let r = included(&["^[a-z]+$"], 0, Some(3), "^[a-z]{1,3}$", 1_000_000, &mut 0);
        assert!(matches!(r, Incl::Yes), "{r:?}");
        let r = included(&["^[a-z]*$"], 2, Some(5), "^[a-z]{2,}$", 1_000_000, &mut 0);
        assert!(matches!(r, Incl::Yes), "{r:?}");
        let r = included(&["^[a-z]*$"], 1, Some(5), "^[a-z]{2,}$", 1_000_000, &mut 0);
        assert!(matches!(r, Incl::No(ref s) if s == "a"), "{r:?}");
    }

    #[test]
    fn hostile_counted_repeats_end_within_the_budget() {
        let r = included(&["(a{1000}){1}"], 0, None, "(a{999}|b){1}", 10_000, &mut 0);
        assert!(
            matches!(r, Incl::Unknown(_) | Incl::No(_) | Incl::Yes),
            "{r:?}"
        );
        let r = included(
            &["[ab]*a[ab]{20}"],
            0,
            None,
            "[ab]*b[ab]{20}",
            50_000,
            &mut 0,
        );
        assert!(matches!(r, Incl::Unknown(_)), "{r:?}");
    }
}
