//! Building example instances of a conjunction: the material of every
//! counterexample (a value of OLD placed where inclusion failed, inside a
//! minimal valid document around it). Candidates are filtered by
//! [`Prover::holds_flat`]; the engine re-checks the final document.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::model::{kind_of, Node, NumSet, ALL, ARR, BOOL, FRAC, INT, KINDS, NULL, OBJ, STR};
use super::prove::{lengths, Flat, Prover};
use crate::engine::goregex::{self, Kind};

/// Extra repetitions tried when writing a pattern's example strings.
const EXTRA_REPEATS: [u32; 16] = [
    0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 1000,
];

/// Strings no asserted `format` accepts (the first three also kept
/// around an example: `(`, `[` and a trailing `\\` break a Go pattern).
const FORMAT_BREAKERS: [&str; 8] = ["(", "[", "\\", "*", ")", "%", " ", ""];

/// The characters a varied string is written with.
const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyz0123456789";

/// Most listed strings turned into one pattern for the automata.
const MAX_LISTED_PATTERN: usize = 64;

/// `s` as a Go pattern matching exactly it: ASCII punctuation escaped
/// (Go reads `\` before any of them as that character), the rest as is.
fn go_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Member names tried for members no schema names.
const NAMES: [&str; 6] = ["x", "other", "zz", "a1", "extra", "k"];

/// Example strings for the asserted formats (each valid for its format).
const FORMAT_EXAMPLES: &[(&str, &str)] = &[
    ("date", "2000-01-01"),
    ("date-time", "2000-01-01T00:00:00Z"),
    ("time", "00:00:00Z"),
    ("duration", "P1D"),
    ("period", "2000-01-01T00:00:00Z/P1D"),
    ("email", "a@example.com"),
    ("hostname", "example.com"),
    ("ipv4", "192.0.2.1"),
    ("ipv6", "2001:db8::1"),
    ("uri", "https://example.com/a"),
    ("iri", "https://example.com/a"),
    ("uri-reference", "a"),
    ("iri-reference", "a"),
    ("uri-template", "a"),
    ("uuid", "00000000-0000-4000-8000-000000000000"),
    ("json-pointer", "/a"),
    ("relative-json-pointer", "0"),
    ("regex", "a"),
    ("semver", "1.0.0"),
];

impl<'a> Prover<'a> {
    /// One instance of the conjunction of `nodes` of a kind in `mask`.
    pub fn gen_nodes(&mut self, nodes: &[Node<'a>], mask: u8, lvl: u32) -> Option<Value> {
        let flat = self.flatten(nodes, &[]);
        self.gen_any(&flat, mask, lvl)
    }

    fn gen_any(&mut self, flat: &Flat<'a>, mask: u8, lvl: u32) -> Option<Value> {
        if flat.never {
            return None;
        }
        let kinds = self.kinds(flat) & mask;
        for t in KINDS {
            if kinds & t != 0 && !self.empty_for(flat, t) {
                if let Some(v) = self.gen_flat(flat, t, lvl) {
                    return Some(v);
                }
            }
        }
        None
    }

    /// One instance of kind `t` of `a` (its disjunctions resolved by
    /// trying their alternatives in order).
    pub fn gen_flat(&mut self, a: &Flat<'a>, t: u8, lvl: u32) -> Option<Value> {
        self.gen_many(a, t, lvl, 1).into_iter().next()
    }

    /// Up to `n` distinct instances of kind `t` of `a`.
    pub fn gen_many(&mut self, a: &Flat<'a>, t: u8, lvl: u32, n: usize) -> Vec<Value> {
        if !self.tick() || lvl > self.budget.max_depth || a.never {
            return Vec::new();
        }
        if let Some(ch) = a.choices.first().cloned() {
            let mut out = Vec::new();
            let mut rest = a.clone();
            rest.choices.remove(0);
            for (pos, neg) in ch.alts.iter().take(4) {
                let extra = self.flatten(pos, &[]);
                let mut b = rest.clone();
                b.maps.extend(extra.maps);
                b.nots.extend(extra.nots);
                b.nots.extend(neg.iter().copied());
                b.choices.extend(extra.choices);
                b.never |= extra.never;
                if self.kinds(&b) & t == 0 {
                    continue;
                }
                for v in self.gen_many(&b, t, lvl, n) {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
                if out.len() >= n {
                    break;
                }
            }
            out.truncate(n);
            return out;
        }
        let mut cands: Vec<Value> = match self.finite(a, t) {
            Some(vals) => vals,
            None => match t {
                NULL => vec![Value::Null],
                BOOL => vec![Value::Bool(false), Value::Bool(true)],
                INT | FRAC => {
                    let set = NumSet::of(a.objs());
                    let mut c: Vec<Value> = set
                        .candidates(t, false, n.max(2))
                        .iter()
                        .filter_map(super::model::json_number)
                        .collect();
                    c.extend(
                        set.candidates(t, true, 2)
                            .iter()
                            .filter_map(super::model::json_number),
                    );
                    c
                }
                STR => {
                    let (lo, hi) = lengths(a, "minLength", "maxLength");
                    self.gen_strings(a, lo, hi, n)
                        .into_iter()
                        .map(Value::String)
                        .collect()
                }
                OBJ => self
                    .gen_object(a, lvl, None)
                    .map(Value::Object)
                    .into_iter()
                    .collect(),
                ARR => {
                    let (lo, _) = lengths(a, "minItems", "maxItems");
                    let len = usize::try_from(lo.max(0)).unwrap_or(0);
                    self.gen_array(a, lvl, len)
                        .map(Value::Array)
                        .into_iter()
                        .collect()
                }
                _ => Vec::new(),
            },
        };
        cands.retain(|v| kind_of(v) == t);
        let mut out = Vec::new();
        for v in cands {
            if out.len() >= n {
                break;
            }
            if !out.contains(&v) && self.holds_flat(a, &v, 0) != Some(false) {
                out.push(v);
            }
        }
        out
    }

    /// A string of `a` that no asserted `format` named `f` accepts (an
    /// unclosed group or class, a trailing escape, a lone quantifier, …),
    /// placed around `a`'s own examples so that its patterns may keep it:
    /// the witness of `format` added (issue 35, item 6), re-checked by the
    /// engine like every other.
    pub fn format_breaker(
        &mut self,
        a: &Flat<'a>,
        f: &str,
        lo: i64,
        hi: Option<i64>,
    ) -> Option<String> {
        let mut bases: Vec<String> = FORMAT_BREAKERS.iter().map(|s| (*s).to_owned()).collect();
        for e in self.gen_strings(a, lo, hi, 4) {
            for b in FORMAT_BREAKERS.iter().take(3) {
                bases.push(format!("{e}{b}"));
                bases.push(format!("{b}{e}"));
            }
        }
        for base in bases {
            let len = i64::try_from(base.chars().count()).unwrap_or(i64::MAX);
            let pad = "a".repeat(usize::try_from(lo - len).unwrap_or(0));
            for s in [format!("{base}{pad}"), format!("{pad}{base}")] {
                if !self.tick() {
                    return None;
                }
                let l = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
                if l < lo || hi.is_some_and(|h| l > h) || super::eval::format_ok(f, &s) {
                    continue;
                }
                if self.holds_flat(a, &Value::String(s.clone()), 0) != Some(false) {
                    return Some(s);
                }
            }
        }
        None
    }

    /// A string of `a` that `bm` refuses, where `bm` lists the values it
    /// allows (`enum`/`const`): `a`'s examples varied one character at a
    /// time; for `a` without a pattern, more distinct strings of one length
    /// than `bm` lists (so one is outside); for `a` with patterns, the
    /// automata's string of `a` outside the listed strings (issue 35, item
    /// 6). Each candidate is checked against `a` and `bm` here and the
    /// document by the engine.
    pub fn string_outside(&mut self, a: &Flat<'a>, bm: Node<'a>, lvl: u32) -> Option<Value> {
        let (lo, hi) = lengths(a, "minLength", "maxLength");
        let fits = |s: &str| {
            let l = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
            l >= lo && hi.is_none_or(|h| l <= h)
        };
        let mut seen: HashSet<String> = HashSet::new();
        let mut cands: Vec<String> = Vec::new();
        for base in self.gen_strings(a, lo, hi, 8) {
            for c in ALPHABET.chars() {
                let mut replaced: String = base.chars().collect();
                if replaced.pop().is_some() {
                    replaced.push(c);
                    cands.push(replaced);
                }
                cands.push(format!("{base}{c}"));
                cands.push(format!("{c}{base}"));
            }
        }
        let listed: Vec<&'a str> = match bm.obj() {
            Some(m) => m
                .get("enum")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .chain(m.get("const"))
                .filter_map(Value::as_str)
                .collect(),
            None => Vec::new(),
        };
        let patterns: Vec<&'a str> = a
            .objs()
            .filter_map(|o| o.get("pattern").and_then(Value::as_str))
            .collect();
        if patterns.is_empty() {
            // More distinct strings of one length than `bm` lists.
            let n = listed.len() + 1;
            let mut width = 1usize;
            while ALPHABET.len().checked_pow(u32::try_from(width).ok()?)? < n {
                width += 1;
            }
            let width = width.max(usize::try_from(lo).unwrap_or(0));
            for k in 0..n {
                let mut digits = vec![b'a'; width];
                let mut x = k;
                for d in digits.iter_mut().rev() {
                    *d = *ALPHABET.as_bytes().get(x % ALPHABET.len())?;
                    x /= ALPHABET.len();
                }
                cands.push(String::from_utf8(digits).ok()?);
            }
        }
        for s in cands {
            if !self.tick() {
                return None;
            }
            if !fits(&s) || !seen.insert(s.clone()) {
                continue;
            }
            let v = Value::String(s);
            if self.holds_flat(a, &v, 0) != Some(false) && self.holds(bm, &v, lvl) == Some(false) {
                return Some(v);
            }
        }
        if patterns.is_empty() || listed.is_empty() || listed.len() > MAX_LISTED_PATTERN {
            return None;
        }
        // The automata: a string of `a`'s patterns that is none of them.
        let alternatives: Vec<String> = listed.iter().map(|s| go_literal(s)).collect();
        let pattern = format!("^(?:{})$", alternatives.join("|"));
        match self.included(&patterns, lo, hi, &pattern) {
            super::regular::Incl::No(s) => {
                let v = Value::String(s);
                (self.holds_flat(a, &v, 0) != Some(false) && self.holds(bm, &v, lvl) == Some(false))
                    .then_some(v)
            }
            _ => None,
        }
    }

    /// Up to `n` strings of `a` whose length is in `[lo, hi]`.
    pub fn gen_strings(&mut self, a: &Flat<'a>, lo: i64, hi: Option<i64>, n: usize) -> Vec<String> {
        let (alo, ahi) = lengths(a, "minLength", "maxLength");
        let lo = lo.max(alo).max(0);
        let hi = match (hi, ahi) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        if hi.is_some_and(|h| h < lo) {
            return Vec::new();
        }
        let patterns: Vec<&'a str> = a
            .objs()
            .filter_map(|o| o.get("pattern").and_then(Value::as_str))
            .collect();
        let mut bases: Vec<String> = Vec::new();
        for o in a.objs() {
            if let Some(f) = o.get("format").and_then(Value::as_str) {
                if let Some((_, ex)) = FORMAT_EXAMPLES.iter().find(|(name, _)| *name == f) {
                    bases.push((*ex).to_owned());
                }
            }
        }
        if let Some(p) = patterns.first() {
            if let Ok(tree) = goregex::parse(p) {
                for k in EXTRA_REPEATS {
                    if !self.tick() {
                        break;
                    }
                    let mut s = String::new();
                    if example(&tree, k, &mut s, 0) && !bases.contains(&s) {
                        bases.push(s);
                    }
                }
            }
        } else {
            bases.push(String::new());
        }
        let mut out: Vec<String> = Vec::new();
        for base in bases {
            let len = i64::try_from(base.chars().count()).unwrap_or(i64::MAX);
            let mut tries = vec![];
            if len >= lo && hi.is_none_or(|h| len <= h) {
                tries.push(base.clone());
            }
            if len < lo {
                let pad = "a".repeat(usize::try_from(lo - len).unwrap_or(0));
                tries.push(format!("{base}{pad}"));
                tries.push(format!("{pad}{base}"));
            }
            for s in tries {
                if out.len() >= n || !self.tick() {
                    return out;
                }
                let l = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
                if l < lo || hi.is_some_and(|h| l > h) || out.contains(&s) {
                    continue;
                }
                if self.holds_flat(a, &Value::String(s.clone()), 0) != Some(false) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// A minimal object of `a`: its required members (and what they
    /// depend on), then optional ones up to `minProperties`.
    pub fn gen_object(
        &mut self,
        a: &Flat<'a>,
        lvl: u32,
        _set_later: Option<&str>,
    ) -> Option<Map<String, Value>> {
        let (lo, _) = lengths(a, "minProperties", "maxProperties");
        let mut names: Vec<String> = Vec::new();
        for m in a.objs() {
            if let Some(Value::Array(r)) = m.get("required") {
                for s in r.iter().filter_map(Value::as_str) {
                    if !names.iter().any(|n| n == s) {
                        names.push(s.to_owned());
                    }
                }
            }
        }
        // dependentRequired closure.
        let mut i = 0;
        while let Some(p) = names.get(i).cloned() {
            for m in a.objs() {
                if let Some(Value::Array(qs)) = m.get("dependentRequired").and_then(|d| d.get(&p)) {
                    for q in qs.iter().filter_map(Value::as_str) {
                        if !names.iter().any(|n| n == q) {
                            names.push(q.to_owned());
                        }
                    }
                }
            }
            i += 1;
            if i > self.budget.max_items {
                return None;
            }
        }
        let mut o = Map::new();
        for name in names {
            let nodes = self.member_nodes(a, &name)?;
            let v = self.gen_nodes(&nodes, ALL, lvl + 1)?;
            o.insert(name, v);
        }
        let want = usize::try_from(lo.max(0)).unwrap_or(0);
        if o.len() < want {
            self.fill_object(a, lvl, &mut o, want)?;
        }
        Some(o)
    }

    /// Adds optional members to `o` until it has `want` members.
    fn fill_object(
        &mut self,
        a: &Flat<'a>,
        lvl: u32,
        o: &mut Map<String, Value>,
        want: usize,
    ) -> Option<()> {
        if want > self.budget.max_items {
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        for m in a.objs() {
            if let Some(Value::Object(p)) = m.get("properties") {
                names.extend(p.keys().cloned());
            }
        }
        for name in names {
            if o.len() >= want {
                return Some(());
            }
            if o.contains_key(&name) {
                continue;
            }
            if let Some(nodes) = self.member_nodes(a, &name) {
                if let Some(v) = self.gen_nodes(&nodes, ALL, lvl + 1) {
                    o.insert(name, v);
                }
            }
        }
        let mut i = 0usize;
        while o.len() < want {
            i += 1;
            if i > want.saturating_mul(4) + 16 || !self.tick() {
                return None;
            }
            let taken: Vec<&str> = o.keys().map(String::as_str).collect();
            let name = self.fresh_name_n(a, None, &taken, i)?;
            let nodes = self.member_nodes(a, &name)?;
            let v = self.gen_nodes(&nodes, ALL, lvl + 1)?;
            o.insert(name, v);
        }
        Some(())
    }

    /// An object of `a` with exactly `n` members.
    pub fn object_sized(&mut self, a: &Flat<'a>, lvl: u32, n: i64) -> Option<Value> {
        let n = usize::try_from(n).ok()?;
        let mut o = self.gen_object(a, lvl, None)?;
        if o.len() < n {
            self.fill_object(a, lvl, &mut o, n)?;
        }
        (o.len() == n).then_some(Value::Object(o))
    }

    /// An array of `a` with `len` items.
    pub fn gen_array(&mut self, a: &Flat<'a>, lvl: u32, len: usize) -> Option<Vec<Value>> {
        if len > self.budget.max_items {
            return None;
        }
        let unique = a
            .objs()
            .any(|o| o.get("uniqueItems") == Some(&Value::Bool(true)));
        let contains: Vec<Node<'a>> = a.maps.iter().filter_map(|n| n.kw("contains")).collect();
        let mut items: Vec<Value> = Vec::with_capacity(len);
        for i in 0..len {
            let mut nodes = self.item_nodes(a, i);
            if i == 0 {
                nodes.extend(contains.iter().copied());
            }
            let flat = self.flatten(&nodes, &[]);
            let kinds = self.kinds(&flat);
            let mut chosen = None;
            'kinds: for t in KINDS {
                if kinds & t == 0 {
                    continue;
                }
                for v in self.gen_many(&flat, t, lvl + 1, if unique { len + 1 } else { 1 }) {
                    if !unique || !items.contains(&v) {
                        chosen = Some(v);
                        break 'kinds;
                    }
                }
            }
            items.push(chosen?);
        }
        Some(items)
    }

    /// A member name `a` admits that no `properties` of `a` names, matches
    /// `pattern` when given and is not in `avoid`.
    pub fn fresh_name(
        &mut self,
        a: &Flat<'a>,
        pattern: Option<&str>,
        avoid: &[&str],
    ) -> Option<String> {
        self.fresh_name_n(a, pattern, avoid, 1)
    }

    fn fresh_name_n(
        &mut self,
        a: &Flat<'a>,
        pattern: Option<&str>,
        avoid: &[&str],
        nth: usize,
    ) -> Option<String> {
        let mut cands: Vec<String> = Vec::new();
        if let Some(p) = pattern {
            if let Ok(tree) = goregex::parse(p) {
                for k in EXTRA_REPEATS.iter().take(8) {
                    let mut s = String::new();
                    if example(&tree, *k, &mut s, 0) {
                        cands.push(s);
                    }
                }
            }
        }
        let pn: Vec<Node<'a>> = a
            .maps
            .iter()
            .filter_map(|n| n.kw("propertyNames"))
            .collect();
        if !pn.is_empty() {
            let f = self.flatten(&pn, &[]);
            cands.extend(self.gen_strings(&f, 0, None, 8 + nth));
        }
        cands.extend(NAMES.iter().map(|s| (*s).to_owned()));
        cands.extend((0..nth + 4).map(|i| format!("x{i}")));
        let named: Vec<String> = a
            .objs()
            .filter_map(|o| o.get("properties").and_then(Value::as_object))
            .flat_map(|p| p.keys().cloned())
            .collect();
        let mut found = 0usize;
        for c in cands {
            if named.contains(&c) || avoid.contains(&c.as_str()) {
                continue;
            }
            if let Some(p) = pattern {
                if super::eval::matches(p, &c) != Some(true) {
                    continue;
                }
            }
            if self.member_nodes(a, &c).is_some() {
                found += 1;
                if found >= nth {
                    return Some(c);
                }
            }
        }
        None
    }
}

/// Writes a string the Go pattern tree `node` matches (from its start),
/// taking `extra` more repetitions than the least wherever a repeat
/// allows it; false when a part can match nothing.
fn example(node: &goregex::Node, extra: u32, out: &mut String, depth: u32) -> bool {
    if depth > 200 || out.len() > 4096 {
        return false;
    }
    match &node.kind {
        Kind::Empty
        | Kind::BeginLine
        | Kind::EndLine
        | Kind::BeginText
        | Kind::EndText
        | Kind::WordBoundary
        | Kind::NoWordBoundary => true,
        Kind::Literal(cs, _) => cs.iter().all(|c| match char::from_u32(*c) {
            Some(ch) => {
                out.push(ch);
                true
            }
            None => false,
        }),
        Kind::Class(class) => {
            let ranges = class.ranges();
            let nice = ['a', 'A', '0', '-', '_', '.'];
            let pick = nice
                .iter()
                .find(|c| ranges.iter().any(|r| r.start() <= **c && **c <= r.end()))
                .copied()
                .or_else(|| ranges.first().map(|r| r.start()));
            match pick {
                Some(c) => {
                    out.push(c);
                    true
                }
                None => false,
            }
        }
        Kind::AnyNotNl | Kind::Any => {
            out.push('a');
            true
        }
        Kind::Capture(sub) => example(sub, extra, out, depth + 1),
        Kind::Star(sub) => repeat(sub, extra, out, depth),
        Kind::Plus(sub) => repeat(sub, extra.max(1), out, depth),
        Kind::Quest(sub) => repeat(sub, extra.min(1), out, depth),
        Kind::Repeat(sub, min, max) => {
            let n = min.saturating_add(extra);
            let n = max.map_or(n, |m| n.min(m));
            repeat(sub, n, out, depth)
        }
        Kind::Concat(subs) => subs.iter().all(|s| example(s, extra, out, depth + 1)),
        Kind::Alternate(subs) => {
            for s in subs {
                let mark = out.len();
                if example(s, extra, out, depth + 1) {
                    return true;
                }
                out.truncate(mark);
            }
            false
        }
    }
}

fn repeat(sub: &goregex::Node, n: u32, out: &mut String, depth: u32) -> bool {
    for _ in 0..n {
        if !example(sub, 0, out, depth + 1) {
            return false;
        }
    }
    true
}
