//! Arrays in the inclusion prover ([`super::prove`]): items, counts,
//! `uniqueItems`, `contains`. Moved from `prove.rs`.

use serde_json::Value;

use super::model::{count, Node, Obj};
use super::prove::{lengths, Flat, Out, Prover};

impl<'a> Prover<'a> {
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

    pub(super) fn embed_item(&mut self, a: &Flat<'a>, lvl: u32, i: usize, r: Out) -> Out {
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

    pub(super) fn arrays(&mut self, a: &Flat<'a>, m: &'a Obj, bm: Node<'a>, lvl: u32) -> Out {
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
}
