//! Whether one concrete value satisfies one schema node, as far as the
//! prover can tell (`Some(true)`, `Some(false)`, or `None`: undecided).
//!
//! This is not a second validator: it only steers the prover (which `enum`
//! values of OLD a NEW node keeps, whether a generated candidate is worth
//! offering). Every document the prover returns is re-checked by
//! [`crate::engine`] against both whole schemas before it is shown.

use serde_json::Value;

use super::model::{count, kind_of, rat, type_mask, Node, Obj, FRAC, INT, UNMODELLED};
use super::prove::Prover;
use crate::engine::values::{equals_instance, has_duplicates};
use crate::engine::{goregex, ASSERTED_FORMATS};
use crate::formats;

/// Three-valued conjunction accumulator.
struct All {
    unknown: bool,
}

impl All {
    /// Records `r`; true when the whole conjunction is already false.
    fn fails(&mut self, r: Option<bool>) -> bool {
        match r {
            Some(false) => true,
            None => {
                self.unknown = true;
                false
            }
            Some(true) => false,
        }
    }

    fn end(&self) -> Option<bool> {
        if self.unknown {
            None
        } else {
            Some(true)
        }
    }
}

/// Whether `s` matches the Go `pattern` (unanchored); `None` when it does
/// not compile.
pub(super) fn matches(pattern: &str, s: &str) -> Option<bool> {
    goregex::compile(pattern).ok().map(|r| r.is_match(s))
}

/// Whether `s` is valid for `format` as the engine asserts it (names the
/// engine does not assert are always valid).
pub(super) fn format_ok(format: &str, s: &str) -> bool {
    if !ASSERTED_FORMATS.contains(&format) {
        return true;
    }
    if format == "regex" {
        return goregex::is_valid(s);
    }
    formats::CHECKS
        .iter()
        .find(|(name, _)| *name == format)
        .is_none_or(|(_, check)| check(s))
}

impl<'a> Prover<'a> {
    /// Whether `v` satisfies `n`.
    pub(super) fn holds(&mut self, n: Node<'a>, v: &Value, depth: u32) -> Option<bool> {
        if !self.tick() || depth > self.budget.max_depth {
            return None;
        }
        match n.v {
            Value::Bool(b) => Some(*b),
            Value::Object(m) => self.holds_obj(n, m, v, depth),
            _ => None,
        }
    }

    fn holds_obj(&mut self, n: Node<'a>, m: &'a Obj, v: &Value, depth: u32) -> Option<bool> {
        let mut all = All { unknown: false };
        if UNMODELLED.iter().any(|k| m.contains_key(*k)) {
            all.unknown = true;
        }
        let kind = kind_of(v);
        if let Some(t) = m.get("type") {
            if type_mask(t) & kind == 0 {
                return Some(false);
            }
        }
        if let Some(c) = m.get("const") {
            if !equals_instance(v, c) {
                return Some(false);
            }
        }
        if let Some(e @ Value::Array(items)) = m.get("enum") {
            // The engine's own set: a hash lookup, not a scan. A value that
            // is one of these very items (`finite` offers an `enum`'s items
            // themselves) is in it: Go's equality holds between a schema
            // value and itself, so it is not looked up (issue 35 item 4).
            let own = items.as_ptr_range().contains(&std::ptr::from_ref(v));
            if !own && !self.value_set(e).contains(v) {
                return Some(false);
            }
        }
        match v {
            Value::Number(_) if kind & (INT | FRAC) != 0 => {
                let x = rat(v)?;
                let mut set = super::model::NumSet::default();
                set.add_obj(m);
                if !set.admits(&x) {
                    return Some(false);
                }
                if m.get("multipleOf")
                    .and_then(rat)
                    .is_some_and(|d| d <= num_rational::BigRational::default())
                {
                    return Some(false);
                }
            }
            Value::String(s) => {
                if outside(m, ("minLength", "maxLength"), s.chars().count()) {
                    return Some(false);
                }
                if let Some(Value::String(p)) = m.get("pattern") {
                    if all.fails(matches(p, s)) {
                        return Some(false);
                    }
                }
                if let Some(Value::String(f)) = m.get("format") {
                    if !format_ok(f, s) {
                        return Some(false);
                    }
                }
            }
            Value::Object(o) if self.holds_members(n, m, o, depth, &mut all) => {
                return Some(false);
            }
            Value::Array(a) if self.holds_items(n, m, a, depth, &mut all) => {
                return Some(false);
            }
            _ => {}
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            let r = match n.resolve(r) {
                Some(t) => self.holds(t, v, depth + 1),
                None => None,
            };
            if all.fails(r) {
                return Some(false);
            }
        }
        if let Some(Value::Array(subs)) = m.get("allOf") {
            for s in subs {
                let r = self.holds(n.child(s), v, depth + 1);
                if all.fails(r) {
                    return Some(false);
                }
            }
        }
        if let Some(Value::Array(subs)) = m.get("anyOf") {
            let mut unknown = false;
            let mut any = false;
            for s in subs {
                match self.holds(n.child(s), v, depth + 1) {
                    Some(true) => {
                        any = true;
                        break;
                    }
                    None => unknown = true,
                    Some(false) => {}
                }
            }
            let r = if any {
                Some(true)
            } else if unknown {
                None
            } else {
                Some(false)
            };
            if all.fails(r) {
                return Some(false);
            }
        }
        if let Some(Value::Array(subs)) = m.get("oneOf") {
            let mut yes = 0usize;
            let mut unknown = false;
            for s in subs {
                match self.holds(n.child(s), v, depth + 1) {
                    Some(true) => yes += 1,
                    None => unknown = true,
                    Some(false) => {}
                }
            }
            let r = if yes > 1 {
                Some(false)
            } else if unknown {
                None
            } else {
                Some(yes == 1)
            };
            if all.fails(r) {
                return Some(false);
            }
        }
        if let Some(s) = m.get("not") {
            let r = self.holds(n.child(s), v, depth + 1).map(|b| !b);
            if all.fails(r) {
                return Some(false);
            }
        }
        if let Some(c) = m.get("if") {
            let r = match self.holds(n.child(c), v, depth + 1) {
                Some(true) => match m.get("then") {
                    Some(t) => self.holds(n.child(t), v, depth + 1),
                    None => Some(true),
                },
                Some(false) => match m.get("else") {
                    Some(e) => self.holds(n.child(e), v, depth + 1),
                    None => Some(true),
                },
                None => None,
            };
            if all.fails(r) {
                return Some(false);
            }
        }
        all.end()
    }

    /// The object keywords; true when `o` fails one of them.
    fn holds_members(
        &mut self,
        n: Node<'a>,
        m: &'a Obj,
        o: &serde_json::Map<String, Value>,
        depth: u32,
        all: &mut All,
    ) -> bool {
        if outside(m, ("minProperties", "maxProperties"), o.len()) {
            return true;
        }
        if let Some(Value::Array(req)) = m.get("required") {
            if req
                .iter()
                .filter_map(Value::as_str)
                .any(|r| !o.contains_key(r))
            {
                return true;
            }
        }
        if let Some(Value::Object(deps)) = m.get("dependentRequired") {
            for (p, qs) in deps {
                if o.contains_key(p) {
                    if let Value::Array(qs) = qs {
                        if qs
                            .iter()
                            .filter_map(Value::as_str)
                            .any(|q| !o.contains_key(q))
                        {
                            return true;
                        }
                    }
                }
            }
        }
        for (name, value) in o {
            if let Some(pn) = m.get("propertyNames") {
                let r = self.holds(n.child(pn), &Value::String(name.clone()), depth + 1);
                if all.fails(r) {
                    return true;
                }
            }
            for sub in member_schemas(m, name) {
                match sub {
                    Member::Schema(s) => {
                        let r = self.holds(n.child(s), value, depth + 1);
                        if all.fails(r) {
                            return true;
                        }
                    }
                    Member::Unknown => all.unknown = true,
                }
            }
        }
        false
    }

    /// The array keywords; true when `a` fails one of them.
    fn holds_items(
        &mut self,
        n: Node<'a>,
        m: &'a Obj,
        a: &[Value],
        depth: u32,
        all: &mut All,
    ) -> bool {
        if outside(m, ("minItems", "maxItems"), a.len()) {
            return true;
        }
        let prefix: &[Value] = match m.get("prefixItems") {
            Some(Value::Array(p)) => p,
            _ => &[],
        };
        for (i, item) in a.iter().enumerate() {
            let s = prefix.get(i).or_else(|| m.get("items"));
            if let Some(s) = s {
                let r = self.holds(n.child(s), item, depth + 1);
                if all.fails(r) {
                    return true;
                }
            }
        }
        if m.get("uniqueItems") == Some(&Value::Bool(true)) && has_duplicates(a) != Ok(false) {
            return true;
        }
        if let Some(c) = m.get("contains") {
            let mut hits = 0i64;
            for item in a {
                match self.holds(n.child(c), item, depth + 1) {
                    Some(true) => hits += 1,
                    Some(false) => {}
                    None => {
                        all.unknown = true;
                        return false;
                    }
                }
            }
            let min = count(m.get("minContains")).unwrap_or(1);
            if hits < min || count(m.get("maxContains")).is_some_and(|c| hits > c) {
                return true;
            }
        }
        false
    }
}

/// One schema that applies to a member.
pub(super) enum Member<'a> {
    Schema(&'a Value),
    /// A `patternProperties` name that does not compile.
    Unknown,
}

/// The schemas of `m` that apply to the member `name`: `properties`, each
/// matching `patternProperties`, else `additionalProperties`.
pub(super) fn member_schemas<'a>(m: &'a Obj, name: &str) -> Vec<Member<'a>> {
    let mut out = Vec::new();
    let mut named = false;
    if let Some(s) = m.get("properties").and_then(|p| p.get(name)) {
        out.push(Member::Schema(s));
        named = true;
    }
    if let Some(Value::Object(pp)) = m.get("patternProperties") {
        for (p, s) in pp {
            match matches(p, name) {
                Some(true) => {
                    out.push(Member::Schema(s));
                    named = true;
                }
                Some(false) => {}
                None => out.push(Member::Unknown),
            }
        }
    }
    if !named {
        if let Some(s) = m.get("additionalProperties") {
            out.push(Member::Schema(s));
        }
    }
    out
}

/// True when `n` (a string's length in code points, an object's member
/// count, an array's length) is outside the bounds the schema `m` sets
/// with the keyword pair `(min, max)` (`minLength`/`maxLength`,
/// `minProperties`/`maxProperties`, `minItems`/`maxItems`).
fn outside(m: &Obj, (min, max): (&str, &str), n: usize) -> bool {
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    count(m.get(min)).is_some_and(|c| n < c) || count(m.get(max)).is_some_and(|c| n > c)
}
