//! Objects in the inclusion prover ([`super::prove`]): members,
//! `required`, member counts, `additionalProperties`,
//! `patternProperties`, `propertyNames`, `dependentRequired`. Moved from
//! `prove.rs`.

use crate::diag::escape::quote;

use serde_json::Value;

use super::eval::{matches, member_schemas, Member};
use super::model::{count, Node, Obj, ALL, STR};
use super::prove::{lengths, Flat, Out, Prover};

impl<'a> Prover<'a> {
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
    pub(super) fn fresh_nodes(
        &mut self,
        a: &Flat<'a>,
        pattern: Option<&str>,
    ) -> Option<Vec<Node<'a>>> {
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

    pub(super) fn required(a: &Flat<'a>) -> Vec<&'a str> {
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

    pub(super) fn named(a: &Flat<'a>) -> Vec<&'a str> {
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
    pub(super) fn object_with(
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

    pub(super) fn embed_member(&mut self, a: &Flat<'a>, lvl: u32, name: &str, r: Out) -> Out {
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

    pub(super) fn objects(&mut self, a: &Flat<'a>, m: &'a Obj, bm: Node<'a>, lvl: u32) -> Out {
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
}
