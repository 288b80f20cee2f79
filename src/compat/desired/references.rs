//! `$ref` in the inclusion prover ([`super::prove`]): the coinductive
//! guard (a question met again deeper is assumed, at the same depth it is
//! a cycle without descent) and the same text on both sides. Moved from
//! `prove.rs`.

use std::collections::HashSet;

use serde_json::Value;

use super::model::Node;
use super::prove::{Guard, GuardKey, Prover};

impl<'a> Prover<'a> {
    /// The coinductive guard of [`Prover::sub`] and [`Prover::disj`]: the
    /// question `key` met again at a deeper instance level than where it
    /// was first asked is assumed (a simulation: induction on the depth of
    /// a finite document makes it a proof); met again at the same level it
    /// is a cycle without descent, undecided. Otherwise the question is
    /// entered (nesting counted) and must be [`Prover::release`]d.
    pub(super) fn assume(&mut self, key: &GuardKey, lvl: u32) -> Guard {
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
    pub(super) fn release(&mut self, key: &GuardKey) {
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
