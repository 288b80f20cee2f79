//! Validation-work estimates (`verifier-rules.md` §4.6 structural, §4.7
//! instance-aware).
//!
//! Both count schema evaluations, are memoised (so computing them is linear
//! in the distinct (schema node[, instance node]) pairs) and saturate at
//! [`WORK_LIMIT`]` + 1` = 16385: every returned value above [`WORK_LIMIT`] is
//! exactly 16385, and computation stops as soon as a sum passes the limit.
//! Unresolvable or non-local `$ref`s add nothing (the `$ref` closure check
//! reports them); a `$ref` cycle, or a recursion deeper than 256 schema
//! edges, saturates (a schema that passed the proof has neither).

use ahash::{AHashMap, AHashSet};

use serde_json::Value;

use super::ref_closure::{is_local_ref, resolve};
use crate::json::member;
use crate::json::pointer::escape;

/// Largest accepted estimate (§4.6, §4.7): a schema or fixture whose estimate
/// is above it is rejected.
pub const WORK_LIMIT: u32 = crate::limits::WORK;

/// The saturated value every estimate above [`WORK_LIMIT`] is reported as.
pub const SATURATED: u32 = WORK_LIMIT + 1;

/// Recursion guard (schema edges); far above the proof's depth limit 64.
const MAX_RECURSION: usize = 256;

use crate::keywords::{ARRAY, SINGLE as SINGLES};

fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(SATURATED)
}

/// Structural validation-work estimate W(root) of `verifier-rules.md` §4.6,
/// in schema evaluations, saturating at 16385.
///
/// boolean → 1; object → 1 + Σ W(`properties` members) + Σ W(`dependentSchemas`
/// members) + Σ W(present single subschemas, `additionalProperties: false`
/// counting 1) + Σ W(elements of `allOf`/`anyOf`/`oneOf`/`prefixItems`) +
/// W(`$ref` target), the target counted again for every occurrence. `$defs`
/// count only through `$ref`. Any other value (not a schema) counts 1.
/// The caller rejects when the result is above [`WORK_LIMIT`].
pub fn structural_work(schema: &Value) -> u32 {
    let mut w = Structural {
        root: schema,
        memo: AHashMap::default(),
        active: AHashSet::default(),
    };
    w.node(schema, String::new(), 0)
}

struct Structural<'a> {
    root: &'a Value,
    memo: AHashMap<String, u32>,
    active: AHashSet<String>,
}

impl<'a> Structural<'a> {
    fn node(&mut self, value: &'a Value, key: String, depth: usize) -> u32 {
        if let Some(w) = self.memo.get(&key) {
            return *w;
        }
        if depth > MAX_RECURSION || self.active.contains(&key) {
            return SATURATED;
        }
        let Value::Object(obj) = value else {
            return 1;
        };
        self.active.insert(key.clone());
        let mut sum = 1u32;
        let children = children_of(obj, &key);
        for (child, child_key) in children {
            sum = add(sum, self.node(child, child_key, depth + 1));
            if sum > WORK_LIMIT {
                break;
            }
        }
        if sum <= WORK_LIMIT {
            if let Some(r) = member(obj, "$ref").filter(|r| is_local_ref(r)) {
                if let Some(t) = r.as_str().and_then(|r| resolve(self.root, r).ok()) {
                    sum = add(sum, self.node(t.value, t.key, depth + 1));
                }
            }
        }
        self.active.remove(&key);
        self.memo.insert(key, sum);
        sum
    }
}

/// The counted structural children of a schema object, with memo keys.
fn children_of<'a>(obj: &'a serde_json::Map<String, Value>, key: &str) -> Vec<(&'a Value, String)> {
    let mut out = Vec::new();
    // Of the map keywords only `properties` and `dependentSchemas` apply to
    // an instance; `$defs`/`definitions` are reached through `$ref`, and
    // `patternProperties` is refused by the proof.
    for kw in ["properties", "dependentSchemas"] {
        if let Some(Value::Object(members)) = member(obj, kw) {
            for (name, child) in members {
                out.push((child, format!("{key}/{kw}/{}", escape(name))));
            }
        }
    }
    for kw in SINGLES {
        if let Some(child) = member(obj, kw) {
            out.push((child, format!("{key}/{kw}")));
        }
    }
    for kw in ARRAY {
        if let Some(Value::Array(items)) = member(obj, kw) {
            for (i, child) in items.iter().enumerate() {
                out.push((child, format!("{key}/{kw}/{i}")));
            }
        }
    }
    out
}

/// Instance-aware work estimate W(S, I) of `verifier-rules.md` §4.7 for one
/// fixture document `instance` against the inline schema `schema`, in schema
/// evaluations, saturating at 16385 (so a value above [`WORK_LIMIT`] is
/// always exactly 16385, never the unsaturated sum).
///
/// Memo key (schema pointer, instance node, role); the instance node is
/// identified by its address inside `instance`, which is equivalent to its
/// JSON Pointer. The caller rejects the fixture when the result is above
/// [`WORK_LIMIT`].
pub fn instance_work(schema: &Value, instance: &Value) -> u32 {
    let mut w = Instance {
        root: schema,
        memo: AHashMap::default(),
        active: AHashSet::default(),
    };
    w.node(schema, instance, addr(instance), Role::Value, 0)
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Role {
    Value,
    PropertyName,
}

fn addr(v: &Value) -> usize {
    std::ptr::from_ref(v) as usize
}

/// (schema node address, instance node address, role). A schema node is
/// identified by its address: every path to it (a `$ref` or the tree)
/// evaluates the same subschema, so they share one memo entry.
type InstanceKey = (usize, usize, Role);

struct Instance<'a> {
    root: &'a Value,
    // Keys are addresses: a fast keyed hasher (no untrusted keys).
    memo: AHashMap<InstanceKey, u32>,
    active: AHashSet<InstanceKey>,
}

impl<'a> Instance<'a> {
    fn node(
        &mut self,
        schema: &'a Value,
        inst: &Value,
        inst_id: usize,
        role: Role,
        depth: usize,
    ) -> u32 {
        let memo_key = (addr(schema), inst_id, role);
        if let Some(w) = self.memo.get(&memo_key) {
            return *w;
        }
        if depth > MAX_RECURSION || self.active.contains(&memo_key) {
            return SATURATED;
        }
        let Value::Object(obj) = schema else {
            return 1;
        };
        self.active.insert(memo_key);
        // One pass over the schema object instead of a hashed lookup per
        // keyword; the plan below keeps the §4.7 keyword order.
        let kw = Keywords::of(obj);
        let mut plan: Vec<(&'a Value, Target)> = Vec::new();
        match inst {
            Value::Object(members) => {
                let props = kw.properties.and_then(Value::as_object);
                if let Some(props) = props {
                    for (name, s) in props {
                        if let Some(v) = member(members, name) {
                            plan.push((s, Target::Member(v)));
                        }
                    }
                }
                if let Some(Value::Object(deps)) = kw.dependent_schemas {
                    for (name, s) in deps {
                        if member(members, name).is_some() {
                            plan.push((s, Target::Same));
                        }
                    }
                }
                if let Some(ap) = kw.additional_properties {
                    for (name, v) in members {
                        if props.is_none_or(|p| member(p, name).is_none()) {
                            plan.push((ap, Target::Member(v)));
                        }
                    }
                }
                if let Some(pn) = kw.property_names {
                    for (name, v) in members {
                        plan.push((pn, Target::Name(name, v)));
                    }
                }
                if let Some(up) = kw.unevaluated_properties {
                    for v in members.values() {
                        plan.push((up, Target::Member(v)));
                    }
                }
            }
            Value::Array(items) => {
                let prefix = kw.prefix_items.and_then(Value::as_array);
                let plen = prefix.map_or(0, Vec::len);
                if let Some(prefix) = prefix {
                    for (s, v) in prefix.iter().zip(items) {
                        plan.push((s, Target::Member(v)));
                    }
                }
                if let Some(s) = kw.items {
                    for v in items.iter().skip(plen) {
                        plan.push((s, Target::Member(v)));
                    }
                }
                for s in [kw.contains, kw.unevaluated_items].into_iter().flatten() {
                    for v in items {
                        plan.push((s, Target::Member(v)));
                    }
                }
            }
            _ => {}
        }
        for s in [kw.not, kw.if_, kw.then, kw.else_].into_iter().flatten() {
            plan.push((s, Target::Same));
        }
        for list in [kw.all_of, kw.any_of, kw.one_of] {
            if let Some(Value::Array(items)) = list {
                for s in items {
                    plan.push((s, Target::Same));
                }
            }
        }
        if let Some(r) = kw.ref_.filter(|r| is_local_ref(r)) {
            if let Some(t) = r.as_str().and_then(|r| resolve(self.root, r).ok()) {
                plan.push((t.value, Target::Same));
            }
        }
        let mut sum = 1u32;
        for (s, target) in plan {
            let w = match target {
                Target::Same => self.node(s, inst, inst_id, role, depth + 1),
                Target::Member(v) => self.node(s, v, addr(v), Role::Value, depth + 1),
                Target::Name(name, v) => {
                    let as_string = Value::String(name.to_owned());
                    self.node(s, &as_string, addr(v), Role::PropertyName, depth + 1)
                }
            };
            sum = add(sum, w);
            if sum > WORK_LIMIT {
                break;
            }
        }
        self.active.remove(&memo_key);
        self.memo.insert(memo_key, sum);
        sum
    }
}

/// The keywords §4.7 reads from one schema object, found in one pass.
#[derive(Default)]
struct Keywords<'a> {
    properties: Option<&'a Value>,
    dependent_schemas: Option<&'a Value>,
    additional_properties: Option<&'a Value>,
    property_names: Option<&'a Value>,
    unevaluated_properties: Option<&'a Value>,
    prefix_items: Option<&'a Value>,
    items: Option<&'a Value>,
    contains: Option<&'a Value>,
    unevaluated_items: Option<&'a Value>,
    not: Option<&'a Value>,
    if_: Option<&'a Value>,
    then: Option<&'a Value>,
    else_: Option<&'a Value>,
    all_of: Option<&'a Value>,
    any_of: Option<&'a Value>,
    one_of: Option<&'a Value>,
    ref_: Option<&'a Value>,
}

impl<'a> Keywords<'a> {
    fn of(obj: &'a serde_json::Map<String, Value>) -> Self {
        let mut k = Keywords::default();
        for (name, v) in obj {
            let slot = match name.as_str() {
                "properties" => &mut k.properties,
                "dependentSchemas" => &mut k.dependent_schemas,
                "additionalProperties" => &mut k.additional_properties,
                "propertyNames" => &mut k.property_names,
                "unevaluatedProperties" => &mut k.unevaluated_properties,
                "prefixItems" => &mut k.prefix_items,
                "items" => &mut k.items,
                "contains" => &mut k.contains,
                "unevaluatedItems" => &mut k.unevaluated_items,
                "not" => &mut k.not,
                "if" => &mut k.if_,
                "then" => &mut k.then,
                "else" => &mut k.else_,
                "allOf" => &mut k.all_of,
                "anyOf" => &mut k.any_of,
                "oneOf" => &mut k.one_of,
                "$ref" => &mut k.ref_,
                _ => continue,
            };
            *slot = Some(v);
        }
        k
    }
}

/// Which instance a planned child evaluation runs on.
enum Target<'i> {
    /// The same instance (and role) as the parent.
    Same,
    /// A member or element value.
    Member(&'i Value),
    /// A member name, as a string instance, identified by its value's node.
    Name(&'i str, &'i Value),
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    /// `$defs` with Node0 = `base` and NodeK = allOf of two refs to NodeK-1
    /// (one plain, one percent-encoded), K = 1..=levels.
    pub(crate) fn doubling_defs(base: Value, levels: usize) -> Value {
        let mut defs = serde_json::Map::new();
        defs.insert("Node0".to_owned(), base);
        for k in 1..=levels {
            defs.insert(
                format!("Node{k}"),
                json!({"allOf": [
                    {"$ref": format!("#/$defs/Node{}", k - 1)},
                    {"$ref": format!("#/%24defs/Node{}", k - 1)}
                ]}),
            );
        }
        Value::Object(defs)
    }

    pub(crate) fn doubling_root(levels: usize) -> Value {
        let base = json!({"type": "object", "additionalProperties": false,
                          "properties": {"flag": {"type": "boolean"}}});
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "$defs": doubling_defs(base, levels),
            "properties": {
                "config": {"$ref": format!("#/$defs/Node{levels}")},
                "name": {"type": "string"}
            }
        })
    }

    fn array_chain(levels: usize) -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "array",
            "$defs": doubling_defs(json!({"type": "string"}), levels),
            "items": {"$ref": format!("#/$defs/Node{levels}")}
        })
    }

    #[test]
    fn worked_structural_example() {
        assert_eq!(structural_work(&doubling_root(10)), 6145);
        assert_eq!(structural_work(&doubling_root(11)), 12289);
        assert_eq!(structural_work(&doubling_root(12)), SATURATED);
        assert!(structural_work(&doubling_root(12)) > WORK_LIMIT);
        // Deep chains stay fast: saturation stops the sum, memo keeps it linear.
        assert_eq!(structural_work(&doubling_root(60)), SATURATED);
    }

    #[test]
    fn structural_basics() {
        assert_eq!(structural_work(&json!(true)), 1);
        assert_eq!(structural_work(&json!({})), 1);
        // $defs are not counted unless referenced.
        assert_eq!(
            structural_work(&json!({"$defs": {"a": {"type": "string"}}})),
            1
        );
        // additionalProperties false counts 1; each property 1.
        let s = json!({"type": "object", "additionalProperties": false,
                       "properties": {"a": {"type": "string"}, "b": false}});
        assert_eq!(structural_work(&s), 4);
        // A ref target is counted per occurrence.
        let s = json!({"$defs": {"x": {"not": true}},
                       "anyOf": [{"$ref": "#/$defs/x"}, {"$ref": "#/$defs/x"}]});
        assert_eq!(structural_work(&s), 1 + 2 * (1 + 2));
        // Unresolvable refs add nothing; cycles saturate.
        assert_eq!(structural_work(&json!({"$ref": "#/nope"})), 1);
        assert_eq!(structural_work(&json!({"$ref": "#"})), SATURATED);
    }

    #[test]
    fn worked_instance_example() {
        let s = array_chain(7);
        assert_eq!(structural_work(&s), 511);
        let n32 = Value::Array(vec![json!("x"); 32]);
        assert_eq!(instance_work(&s, &n32), 1 + 32 * 510);
        // 1 + 64·510 = 32641 unsaturated; reported saturated as 16385.
        let n64 = Value::Array(vec![json!("x"); 64]);
        assert_eq!(instance_work(&s, &n64), SATURATED);
        assert!(instance_work(&s, &n64) > WORK_LIMIT);
    }

    #[test]
    fn instance_amplifiers() {
        let defs = doubling_defs(json!({"type": "string"}), 7);
        let marker = json!({"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9._-]{0,63}$",
                            "x-takoform-fieldPolicy": "portable-data-only-v1"});
        let node7 = json!({"$ref": "#/$defs/Node7"});
        let map: serde_json::Map<String, Value> =
            (0..64).map(|i| (format!("k{i}"), json!("v"))).collect();
        let map = Value::Object(map);
        let contains = json!({"type": "array", "$defs": defs, "items": {"type": "string"},
                              "contains": node7});
        let arr = Value::Array(vec![json!("x"); 64]);
        assert_eq!(instance_work(&contains, &arr), SATURATED);
        let typed = json!({"type": "object", "$defs": defs, "propertyNames": marker,
                           "additionalProperties": node7});
        assert_eq!(instance_work(&typed, &map), SATURATED);
        let pn = json!({"type": "object", "$defs": defs, "additionalProperties": false,
                        "propertyNames": node7});
        assert_eq!(instance_work(&pn, &map), SATURATED);
        // Near miss: 4 members stay far below the limit.
        let small: serde_json::Map<String, Value> =
            (0..4).map(|i| (format!("k{i}"), json!("v"))).collect();
        // typed map: 1 + 4·W(pn marker on name)=4·1 + 4·W(ap → 1 + 509)=4·510
        assert_eq!(
            instance_work(&typed, &Value::Object(small)),
            1 + 4 + 4 * 510
        );
    }

    #[test]
    fn instance_rules() {
        let s = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "dependentSchemas": {"a": {"not": false}},
            "additionalProperties": false,
            "unevaluatedProperties": false
        });
        let i = json!({"a": "x", "b": 1});
        // 1 + props a (1) + dep a on I (1 + not 1 = 2) + ap for b (1) + up for a, b (2)
        assert_eq!(instance_work(&s, &i), 1 + 1 + 2 + 1 + 2);
        // Non-object instance: only the instance-independent children count.
        assert_eq!(instance_work(&s, &json!(3)), 1);
        let t = json!({"type": "array", "prefixItems": [true, true, true], "items": false,
                       "if": true, "then": true, "else": true});
        // no element reaches `items` here
        assert_eq!(instance_work(&t, &json!([1, 2])), 1 + 2 + 3);
        assert_eq!(instance_work(&t, &json!([1, 2, 3, 4])), 1 + 3 + 1 + 3);
    }
}
