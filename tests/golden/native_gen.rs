//! Issue 38 item 1: the generator of `src/schemas/native_gen/`, the
//! published-schema validators compiled to Rust ahead of time, and the test
//! that the committed files are its current output and no other file is
//! there (`BLESS=1 cargo test --test golden native_validators_are_current`
//! rewrites them and removes a stale one). Issue 34 (no production file
//! over 1,500 lines): `mod.rs` holds the tables and includes the
//! functions, split in order at item boundaries into `partN.rs` files of
//! at most [`PART_LINES`] lines each, their text as one file held it. The runtime the generated code calls is
//! `src/schemas/native.rs`; `native.rs` here proves it gives the crate's
//! findings.
//!
//! Every subschema becomes one function; its keywords are emitted in the
//! order the `jsonschema` crate runs them (its keyword priority, then the
//! schema's order), each with its keyword location and the crate's message.
//! A schema whose `$ref` closure uses a keyword this generator does not
//! know is not generated (the crate validates it, as before).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use form_package::schemas::PUBLISHED;
use libtest_mimic::{Failed, Trial};
use serde_json::Value;

/// The schemas switched over to the generated code (the rest are generated
/// and tested but the crate still validates them at run time): every
/// schema `verify`, `check`, `index`, `init`, the trust commands and the
/// contract (Binding, Interface) checks validate against whose findings
/// `native.rs` proves identical. The Draft 2020-12 meta-schema ([`META`])
/// is generated too and always used for inline schemas.
const ENABLED: &[&str] = &[
    "https://forms.takoform.com/schemas/v1alpha1/package-index.schema.json",
    "https://forms.takoform.com/schemas/v1alpha2/package-index.schema.json",
    "https://forms.takoform.com/schemas/v1alpha3/package-index.schema.json",
    "https://forms.takoform.com/schemas/v1alpha4/package-index.schema.json",
    "https://forms.takoform.com/schemas/v1alpha5/package-index.schema.json",
    "https://forms.takoform.com/schemas/v1alpha1/form-definition.schema.json",
    "https://forms.takoform.com/schemas/v1alpha2/form-definition.schema.json",
    "https://forms.takoform.com/schemas/v1alpha3/form-definition.schema.json",
    "https://forms.takoform.com/schemas/v1beta1/form-definition.schema.json",
    "https://forms.takoform.com/schemas/v1/form-definition.schema.json",
    "https://forms.takoform.com/schemas/v1alpha1/form-ref.schema.json",
    "https://forms.takoform.com/schemas/v1alpha2/form-ref.schema.json",
    "https://forms.takoform.com/schemas/v1alpha3/form-ref.schema.json",
    "https://forms.takoform.com/schemas/v1beta1/form-ref.schema.json",
    "https://forms.takoform.com/schemas/v1beta2/form-ref.schema.json",
    "https://forms.takoform.com/schemas/v1/form-ref.schema.json",
    "https://forms.takoform.com/schemas/v1alpha1/form-package-revocation.schema.json",
    "https://forms.takoform.com/schemas/v1/form-package-revocation.schema.json",
    "https://forms.takoform.com/schemas/v1alpha1/form-package-revocation-checkpoint.schema.json",
    "https://forms.takoform.com/schemas/v1/form-package-revocation-checkpoint.schema.json",
    "https://forms.takoform.com/schemas/bindings/v1alpha1/binding-definition.schema.json",
    "https://forms.takoform.com/schemas/bindings/v1alpha2/binding-definition.schema.json",
    "https://forms.takoform.com/schemas/interfaces/v1alpha1/interface-definition.schema.json",
];

/// The folder of the generated files.
const OUTPUT: &str = "src/schemas/native_gen";

/// The most lines of generated items in one `partN.rs` (a longer item
/// stands alone).
const PART_LINES: usize = 1200;

/// The Draft 2020-12 meta-schema the crate checks every inline schema
/// against (issue 38 item 1): generated from the crate's own copy
/// (`referencing::meta`), always switched over (`native::meta_errors`).
const META: &str = "https://json-schema.org/draft/2020-12/schema";

/// The meta-schema and its vocabulary documents, as the crate embeds them.
fn meta_docs() -> Vec<(&'static str, Value)> {
    use referencing::meta as m;
    let d = |v: &std::sync::LazyLock<std::sync::Arc<Value>>| (**v).as_ref().clone();
    vec![
        (META, d(&m::DRAFT202012)),
        (
            "https://json-schema.org/draft/2020-12/meta/core",
            d(&m::DRAFT202012_CORE),
        ),
        (
            "https://json-schema.org/draft/2020-12/meta/applicator",
            d(&m::DRAFT202012_APPLICATOR),
        ),
        (
            "https://json-schema.org/draft/2020-12/meta/unevaluated",
            d(&m::DRAFT202012_UNEVALUATED),
        ),
        (
            "https://json-schema.org/draft/2020-12/meta/validation",
            d(&m::DRAFT202012_VALIDATION),
        ),
        (
            "https://json-schema.org/draft/2020-12/meta/meta-data",
            d(&m::DRAFT202012_META_DATA),
        ),
        (
            "https://json-schema.org/draft/2020-12/meta/format-annotation",
            d(&m::DRAFT202012_FORMAT_ANNOTATION),
        ),
        (
            "https://json-schema.org/draft/2020-12/meta/content",
            d(&m::DRAFT202012_CONTENT),
        ),
    ]
}

/// Whether `doc` is one of the meta-schema documents (its `format` is an
/// annotation: the crate builds the meta-schema validator with its default
/// options, which assert no format in Draft 2020-12).
fn is_meta(doc: &str) -> bool {
    doc.starts_with("https://json-schema.org/draft/2020-12/")
}

/// Keywords that assert nothing (annotations and structure).
const IGNORED: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "$vocabulary",
    "$dynamicAnchor",
    "$anchor",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// The crate's keyword priority (`keywords::keyword_priority`, 0.61.2).
fn priority(k: &str) -> Option<u8> {
    Some(match k {
        "type" => 1,
        "const" => 5,
        "enum" => 6,
        "minimum" => 10,
        "maximum" => 11,
        "exclusiveMinimum" => 12,
        "minLength" => 20,
        "maxLength" => 21,
        "minItems" => 22,
        "maxItems" => 23,
        "required" => 26,
        "pattern" => 30,
        "format" => 31,
        "uniqueItems" => 35,
        "properties" => 40,
        "patternProperties" => 41,
        "additionalProperties" => 42,
        "propertyNames" => 43,
        "items" => 44,
        "contains" => 47,
        "allOf" => 50,
        "anyOf" => 51,
        "oneOf" => 52,
        "not" => 53,
        "if" => 54,
        "$ref" => 70,
        "$dynamicRef" => 72,
        _ => return None,
    })
}

struct Gen<'a> {
    docs: HashMap<&'a str, Value>,
    /// (document id, pointer) of every node, in numbering order.
    nodes: Vec<(String, String)>,
    index: HashMap<(String, String), usize>,
    done: usize,
    patterns: Vec<String>,
    body: String,
    statics: usize,
}

fn rust_str(s: &str) -> String {
    format!("{s:?}")
}

fn escape_token(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        one.to_owned()
    } else {
        many.to_owned()
    }
}

/// The crate's `write_enum_message` list of options.
fn enum_options(options: &[Value]) -> String {
    let mut f = String::new();
    let total = options.len();
    if total <= 3 {
        for (i, o) in options.iter().enumerate() {
            if i == 0 {
                write!(f, "{o}").unwrap();
            } else if i == total - 1 {
                write!(f, " or {o}").unwrap();
            } else {
                write!(f, ", {o}").unwrap();
            }
        }
    } else {
        let show = 2;
        for (i, o) in options.iter().take(show).enumerate() {
            if i == 0 {
                write!(f, "{o}").unwrap();
            } else {
                write!(f, ", {o}").unwrap();
            }
        }
        write!(f, " or {} other candidates", total - show).unwrap();
    }
    f
}

impl<'a> Gen<'a> {
    fn node(&mut self, doc: &str, ptr: &str) -> usize {
        let key = (doc.to_owned(), ptr.to_owned());
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = self.nodes.len();
        self.nodes.push(key.clone());
        self.index.insert(key, i);
        i
    }

    fn resolve(&self, doc: &str, reference: &str) -> Result<(String, String), String> {
        let (target, frag) = match reference.split_once('#') {
            Some((t, f)) => (t, f),
            None => (reference, ""),
        };
        let id = if target.is_empty() {
            doc.to_owned()
        } else if target.contains("://") {
            target.to_owned()
        } else {
            let dir = doc.rsplit_once('/').map_or("", |(d, _)| d);
            format!("{dir}/{target}")
        };
        if !self.docs.contains_key(id.as_str()) {
            return Err(format!("$ref {reference} names no embedded schema"));
        }
        if !frag.is_empty() && !frag.starts_with('/') {
            return Err(format!("$ref {reference}: anchors are not supported"));
        }
        Ok((id, frag.to_owned()))
    }

    fn schema(&self, doc: &str, ptr: &str) -> Result<&Value, String> {
        let root = self.docs.get(doc).ok_or_else(|| format!("no {doc}"))?;
        root.pointer(ptr)
            .ok_or_else(|| format!("{doc}#{ptr} does not resolve"))
    }

    fn pattern(&mut self, p: &str) -> usize {
        if let Some(i) = self.patterns.iter().position(|q| q == p) {
            return i;
        }
        self.patterns.push(p.to_owned());
        self.patterns.len() - 1
    }

    fn fresh_static(&mut self) -> usize {
        self.statics += 1;
        self.statics
    }

    /// Emits the function of node `k`.
    #[allow(clippy::too_many_lines)]
    fn emit(&mut self, k: usize) -> Result<(), String> {
        let (doc, ptr) = self.nodes[k].clone();
        let schema = self.schema(&doc, &ptr)?.clone();
        let mut b = String::new();
        let file = PUBLISHED
            .iter()
            .find(|p| p.id == doc)
            .map_or(doc.as_str(), |p| p.file);
        writeln!(b, "/// `{file}#{ptr}`").unwrap();
        writeln!(b, "fn s{k}(v: &Value, c: &mut Ctx) {{").unwrap();
        let map = match &schema {
            Value::Bool(true) => {
                b.push_str("}\n\n");
                self.body.push_str(&b);
                return Ok(());
            }
            Value::Bool(false) => {
                writeln!(
                    b,
                    "    c.fail(Kind::Other, {}, || format!(\"False schema does not allow {{v}}\"));\n}}\n",
                    rust_str(&ptr)
                )
                .unwrap();
                self.body.push_str(&b);
                return Ok(());
            }
            Value::Object(m) => m,
            _ => return Err(format!("{doc}#{ptr}: not a schema")),
        };
        let mut keys: Vec<(&String, &Value)> = Vec::new();
        for (key, value) in map {
            // Annotations, and extension keywords (`x-…`), which the
            // crate ignores in Draft 2020-12.
            if IGNORED.contains(&key.as_str()) || key.starts_with("x-") {
                continue;
            }
            match key.as_str() {
                "minContains" | "maxContains" | "then" | "else" => continue,
                _ => {}
            }
            if priority(key).is_none() {
                return Err(format!("{doc}#{ptr}: keyword {key} is not supported"));
            }
            keys.push((key, value));
        }
        keys.sort_by_key(|(key, _)| priority(key));
        let at = |kw: &str| rust_str(&format!("{ptr}/{kw}"));
        for (key, value) in keys {
            let sp = at(key);
            match key.as_str() {
                "type" => {
                    let test_of = |t: &str| -> Result<&'static str, String> {
                        Ok(match t {
                            "object" => "v.is_object()",
                            "array" => "v.is_array()",
                            "string" => "v.is_string()",
                            "boolean" => "v.is_boolean()",
                            "null" => "v.is_null()",
                            "number" => "v.is_number()",
                            "integer" => "v.as_number().is_some_and(is_integer)",
                            _ => return Err(format!("{doc}#{ptr}: unknown type {t}")),
                        })
                    };
                    let (test, msg) = match value {
                        Value::String(t) => {
                            (test_of(t)?.to_owned(), format!(" is not of type \"{t}\""))
                        }
                        Value::Array(ts) => {
                            // The crate names the types in its own order
                            // (`JsonTypeSet`: null, boolean, integer, number,
                            // string, array, object).
                            const ORDER: [&str; 7] = [
                                "null", "boolean", "integer", "number", "string", "array", "object",
                            ];
                            let mut names: Vec<&str> = Vec::new();
                            for t in ts {
                                let t = t.as_str().ok_or("type item is not a string")?;
                                test_of(t)?;
                                if !names.contains(&t) {
                                    names.push(t);
                                }
                            }
                            names.sort_by_key(|t| ORDER.iter().position(|o| o == t));
                            let tests: Vec<&str> =
                                names.iter().map(|t| test_of(t)).collect::<Result<_, _>>()?;
                            let quoted: Vec<String> =
                                names.iter().map(|t| format!("\"{t}\"")).collect();
                            (
                                format!("({})", tests.join(" || ")),
                                format!(" is not of types {}", quoted.join(", ")),
                            )
                        }
                        _ => return Err(format!("{doc}#{ptr}: type is not a string or an array")),
                    };
                    writeln!(b, "    if !{test} {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}}{{}}\", {})); }}", rust_str(&msg)).unwrap();
                }
                "const" => {
                    let msg = format!("{value} was expected");
                    let test = match value {
                        Value::String(s) => format!("v.as_str() != Some({})", rust_str(s)),
                        other => {
                            let n = self.fresh_static();
                            writeln!(b, "    static C{n}: LazyLock<Value> = LazyLock::new(|| serde_json::from_str({}).unwrap_or_default());", rust_str(&other.to_string())).unwrap();
                            format!("!equal(v, &C{n})")
                        }
                    };
                    writeln!(
                        b,
                        "    if {test} {{ c.fail(Kind::Other, {sp}, || {}.to_owned()); }}",
                        rust_str(&msg)
                    )
                    .unwrap();
                }
                "enum" => {
                    let options = value.as_array().ok_or("enum is not an array")?;
                    let msg = format!(" is not one of {}", enum_options(options));
                    let test = if options.iter().all(Value::is_string) {
                        let alts: Vec<String> = options
                            .iter()
                            .map(|o| rust_str(o.as_str().unwrap_or_default()))
                            .collect();
                        format!("!matches!(v.as_str(), Some({}))", alts.join(" | "))
                    } else {
                        let n = self.fresh_static();
                        writeln!(b, "    static E{n}: LazyLock<Value> = LazyLock::new(|| serde_json::from_str({}).unwrap_or_default());", rust_str(&value.to_string())).unwrap();
                        format!("!E{n}.as_array().is_some_and(|o| o.iter().any(|x| equal(v, x)))")
                    };
                    writeln!(b, "    if {test} {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}}{{}}\", {})); }}", rust_str(&msg)).unwrap();
                }
                "minimum" | "maximum" => {
                    let limit = value
                        .as_u64()
                        .ok_or_else(|| format!("{doc}#{ptr}: {key} {value} is not a u64"))?;
                    let (f, words) = if key == "minimum" {
                        ("ge_u64", "less than the minimum")
                    } else {
                        ("le_u64", "greater than the maximum")
                    };
                    let msg = format!(" is {words} of {value}");
                    writeln!(b, "    if let Value::Number(n) = v {{ if !{f}(n, {limit}) {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}}{{}}\", {})); }} }}", rust_str(&msg)).unwrap();
                }
                "exclusiveMinimum" => {
                    let limit = value
                        .as_u64()
                        .ok_or_else(|| format!("{doc}#{ptr}: {key} {value} is not a u64"))?;
                    let msg = format!(" is less than or equal to the minimum of {value}");
                    writeln!(b, "    if let Value::Number(n) = v {{ if !gt_u64(n, {limit}) {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}}{{}}\", {})); }} }}", rust_str(&msg)).unwrap();
                }
                "minLength" | "maxLength" => {
                    let n = value.as_u64().ok_or("length is not a u64")?;
                    let (op, words) = if key == "minLength" {
                        ("<", "shorter")
                    } else {
                        (">", "longer")
                    };
                    let msg = format!(
                        " is {words} than {n} {}",
                        plural(n, "character", "characters")
                    );
                    writeln!(b, "    if let Value::String(s) = v {{ if chars(s) {op} {n} {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}}{{}}\", {})); }} }}", rust_str(&msg)).unwrap();
                }
                "minItems" | "maxItems" => {
                    let n = value.as_u64().ok_or("items bound is not a u64")?;
                    let (op, words) = if key == "minItems" {
                        ("<", "less")
                    } else {
                        (">", "more")
                    };
                    let msg = format!(" has {words} than {n} {}", plural(n, "item", "items"));
                    writeln!(b, "    if let Value::Array(a) = v {{ if (a.len() as u64) {op} {n} {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}}{{}}\", {})); }} }}", rust_str(&msg)).unwrap();
                }
                "required" => {
                    let names = value.as_array().ok_or("required is not an array")?;
                    writeln!(b, "    if let Value::Object(o) = v {{").unwrap();
                    for name in names {
                        let name = name.as_str().ok_or("required name is not a string")?;
                        let msg = format!("{} is a required property", Value::from(name));
                        writeln!(b, "        if member(o, {}).is_none() {{ c.fail(Kind::Other, {sp}, || {}.to_owned()); }}", rust_str(name), rust_str(&msg)).unwrap();
                    }
                    writeln!(b, "    }}").unwrap();
                }
                "pattern" => {
                    let p = value.as_str().ok_or("pattern is not a string")?;
                    let i = self.pattern(p);
                    let msg = format!(" does not match \"{p}\"");
                    writeln!(b, "    if let Value::String(s) = v {{ if !p{i}(s, c) {{ c.fail(Kind::Pattern({}.to_owned()), {sp}, || format!(\"{{v}}{{}}\", {})); }} }}", rust_str(p), rust_str(&msg)).unwrap();
                }
                // An annotation in the meta-schema (see `is_meta`).
                "format" if is_meta(&doc) => {}
                "format" => {
                    let name = value.as_str().ok_or("format is not a string")?;
                    let msg = format!(" is not a \"{name}\"");
                    writeln!(b, "    if let Value::String(s) = v {{ if !format_ok({}, s) {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}}{{}}\", {})); }} }}", rust_str(name), rust_str(&msg)).unwrap();
                }
                "uniqueItems" => match value {
                    Value::Bool(true) => {
                        writeln!(b, "    if let Value::Array(a) = v {{ if !is_unique(a) {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}} has non-unique elements\")); }} }}").unwrap();
                    }
                    Value::Bool(false) => {}
                    _ => return Err("uniqueItems is not a boolean".into()),
                },
                "properties" => {
                    let props = value.as_object().ok_or("properties is not an object")?;
                    // The crate's `properties` alone (no closed or typed
                    // `additionalProperties` beside it) with 15 or more
                    // members is a map the instance's members are looked up
                    // in: its first error (`validate`) is that of the first
                    // failing member in the instance's order. With fewer it
                    // goes through the schema's members in order.
                    let alone = !matches!(
                        map.get("additionalProperties"),
                        Some(Value::Bool(false) | Value::Object(_))
                    );
                    if alone && props.len() >= 15 {
                        writeln!(b, "    if let Value::Object(o) = v {{ for (k, x) in o {{ match k.as_str() {{").unwrap();
                        for (name, _) in props {
                            let child = format!("{ptr}/properties/{}", escape_token(name));
                            let n = self.node(&doc, &child);
                            writeln!(
                                b,
                                "        {} => {{ let l = c.enter(k); s{n}(x, c); c.leave(l); }}",
                                rust_str(name)
                            )
                            .unwrap();
                        }
                        writeln!(b, "        _ => {{}}\n    }} }} }}").unwrap();
                        continue;
                    }
                    writeln!(b, "    if let Value::Object(o) = v {{").unwrap();
                    for (name, _) in props {
                        let child = format!("{ptr}/properties/{}", escape_token(name));
                        let n = self.node(&doc, &child);
                        writeln!(b, "        if let Some(x) = member(o, {}) {{ let l = c.enter({}); s{n}(x, c); c.leave(l); }}", rust_str(name), rust_str(name)).unwrap();
                    }
                    writeln!(b, "    }}").unwrap();
                }
                "patternProperties" => {
                    let props = value
                        .as_object()
                        .ok_or("patternProperties is not an object")?;
                    writeln!(b, "    if let Value::Object(o) = v {{").unwrap();
                    for (p, _) in props {
                        let child = format!("{ptr}/patternProperties/{}", escape_token(p));
                        let n = self.node(&doc, &child);
                        let i = self.pattern(p);
                        writeln!(b, "        for (k, x) in o {{ if p{i}(k, c) {{ let l = c.enter(k); s{n}(x, c); c.leave(l); }} }}").unwrap();
                    }
                    writeln!(b, "    }}").unwrap();
                }
                "additionalProperties" => {
                    let known: Vec<String> = map
                        .get("properties")
                        .and_then(Value::as_object)
                        .map(|m| m.keys().map(|k| rust_str(k)).collect())
                        .unwrap_or_default();
                    let pats: Vec<usize> = map
                        .get("patternProperties")
                        .and_then(Value::as_object)
                        .map(|m| m.keys().cloned().collect::<Vec<_>>())
                        .unwrap_or_default()
                        .iter()
                        .map(|p| self.pattern(p))
                        .collect();
                    // The names `properties` and `patternProperties` take.
                    let mut parts: Vec<String> = Vec::new();
                    if !known.is_empty() {
                        parts.push(format!("matches!(k.as_str(), {})", known.join(" | ")));
                    }
                    for i in pats {
                        parts.push(format!("p{i}(k, c)"));
                    }
                    let test = parts.join(" || ");
                    // `if !(taken)` around a statement; nothing when no name is taken.
                    let unless = |stmt: &str| {
                        if test.is_empty() {
                            stmt.to_owned()
                        } else {
                            format!("if !({test}) {{ {stmt} }}")
                        }
                    };
                    match value {
                        Value::Bool(false) => {
                            writeln!(b, "    if let Value::Object(o) = v {{").unwrap();
                            writeln!(b, "        let mut unexpected: Vec<String> = Vec::new();")
                                .unwrap();
                            writeln!(
                                b,
                                "        for k in o.keys() {{ {} }}",
                                unless("unexpected.push(k.clone());")
                            )
                            .unwrap();
                            writeln!(b, "        if !unexpected.is_empty() {{ let m = additional_message(&unexpected); c.fail(Kind::AdditionalProperties(unexpected), {sp}, || m); }}").unwrap();
                            writeln!(b, "    }}").unwrap();
                        }
                        Value::Bool(true) => {}
                        Value::Object(m) if m.is_empty() => {}
                        Value::Object(_) => {
                            let n = self.node(&doc, &format!("{ptr}/additionalProperties"));
                            writeln!(
                                b,
                                "    if let Value::Object(o) = v {{ for (k, x) in o {{ {} }} }}",
                                unless(&format!("let l = c.enter(k); s{n}(x, c); c.leave(l);"))
                            )
                            .unwrap();
                        }
                        _ => return Err("additionalProperties is not a schema".into()),
                    }
                }
                "items" if value == &Value::Bool(true) => {}
                "propertyNames" => {
                    if !value.is_object() {
                        return Err(format!(
                            "{doc}#{ptr}: propertyNames must be an object schema"
                        ));
                    }
                    // Each name validated as a string at the object's own
                    // location; the crate wraps each error (its kind is
                    // `PropertyNames`, its message and keyword location the
                    // inner error's).
                    let n = self.node(&doc, &format!("{ptr}/propertyNames"));
                    writeln!(b, "    if let Value::Object(o) = v {{ for k in o.keys() {{ let name = Value::String(k.clone()); c.wrap += 1; s{n}(&name, c); c.wrap -= 1; }} }}").unwrap();
                }
                "items" => {
                    if !value.is_object() {
                        return Err(format!("{doc}#{ptr}: items must be an object schema"));
                    }
                    let n = self.node(&doc, &format!("{ptr}/items"));
                    writeln!(b, "    if let Value::Array(a) = v {{ for (i, x) in a.iter().enumerate() {{ let l = c.enter_index(i); s{n}(x, c); c.leave(l); }} }}").unwrap();
                }
                "contains" => {
                    let n = self.node(&doc, &format!("{ptr}/contains"));
                    let min = map.get("minContains").map(Value::as_u64);
                    let max = map.get("maxContains").map(Value::as_u64);
                    let (min, min_at) = match min {
                        None => (
                            1,
                            if max.is_some() {
                                at("minContains")
                            } else {
                                at("contains")
                            },
                        ),
                        Some(Some(m)) => (m, at("minContains")),
                        Some(None) => return Err("minContains is not a u64".into()),
                    };
                    let (max, max_at) = match max {
                        None => (u64::MAX, at("maxContains")),
                        Some(Some(m)) => (m, at("maxContains")),
                        Some(None) => return Err("maxContains is not a u64".into()),
                    };
                    writeln!(b, "    if let Value::Array(a) = v {{").unwrap();
                    writeln!(b, "        let mut m: u64 = 0;").unwrap();
                    writeln!(b, "        let mut over = false;").unwrap();
                    writeln!(b, "        for x in a {{ if c.valid(x, s{n}) {{ m += 1; if m > {max} {{ over = true; break; }} }} }}").unwrap();
                    writeln!(b, "        if over {{ c.fail(Kind::Contains, {max_at}, || format!(\"None of {{v}} are valid under the given schema\")); }}").unwrap();
                    writeln!(b, "        else if m < {min} {{ c.fail(Kind::Contains, {min_at}, || format!(\"None of {{v}} are valid under the given schema\")); }}").unwrap();
                    writeln!(b, "    }}").unwrap();
                }
                "allOf" | "anyOf" | "oneOf" => {
                    let subs = value.as_array().ok_or("not an array")?;
                    let fns: Vec<usize> = (0..subs.len())
                        .map(|i| self.node(&doc, &format!("{ptr}/{key}/{i}")))
                        .collect();
                    match key.as_str() {
                        "allOf" => {
                            for n in fns {
                                writeln!(b, "    s{n}(v, c);").unwrap();
                            }
                        }
                        "anyOf" => {
                            let any: Vec<String> =
                                fns.iter().map(|n| format!("c.valid(v, s{n})")).collect();
                            writeln!(b, "    if !({}) {{ c.fail(Kind::AnyOf, {sp}, || format!(\"{{v}} is not valid under any of the schemas listed in the 'anyOf' keyword\")); }}", any.join(" || ")).unwrap();
                        }
                        _ => {
                            let list: Vec<String> = fns.iter().map(|n| format!("s{n}")).collect();
                            writeln!(b, "    let mut valid = 0;").unwrap();
                            writeln!(b, "    for f in [{}] {{ if c.valid(v, f) {{ valid += 1; if valid > 1 {{ break; }} }} }}", list.join(", ")).unwrap();
                            writeln!(b, "    if valid == 0 {{ c.fail(Kind::OneOfNotValid, {sp}, || format!(\"{{v}} is not valid under any of the schemas listed in the 'oneOf' keyword\")); }}").unwrap();
                            writeln!(b, "    else if valid > 1 {{ c.fail(Kind::Other, {sp}, || format!(\"{{v}} is valid under more than one of the schemas listed in the 'oneOf' keyword\")); }}").unwrap();
                        }
                    }
                }
                "not" => {
                    let n = self.node(&doc, &format!("{ptr}/not"));
                    let msg = format!("{value} is not allowed for ");
                    writeln!(b, "    if c.valid(v, s{n}) {{ c.fail(Kind::Not, {sp}, || format!(\"{{}}{{v}}\", {})); }}", rust_str(&msg)).unwrap();
                }
                "if" => {
                    let cond = self.node(&doc, &format!("{ptr}/if"));
                    let then = map
                        .get("then")
                        .map(|_| self.node(&doc, &format!("{ptr}/then")));
                    let other = map
                        .get("else")
                        .map(|_| self.node(&doc, &format!("{ptr}/else")));
                    let then = then.map_or(String::new(), |n| format!("s{n}(v, c);"));
                    let other = other.map_or(String::new(), |n| format!("s{n}(v, c);"));
                    match (then.is_empty(), other.is_empty()) {
                        (true, true) => {}
                        (false, true) => {
                            writeln!(b, "    if c.valid(v, s{cond}) {{ {then} }}").unwrap()
                        }
                        (true, false) => {
                            writeln!(b, "    if !c.valid(v, s{cond}) {{ {other} }}").unwrap()
                        }
                        (false, false) => writeln!(
                            b,
                            "    if c.valid(v, s{cond}) {{ {then} }} else {{ {other} }}"
                        )
                        .unwrap(),
                    }
                }
                "$dynamicRef" => {
                    // Only the meta-schema's `#meta`: every one of its
                    // documents declares `$dynamicAnchor: meta`, and
                    // validation always enters at the meta-schema's root,
                    // the outermost resource of the dynamic scope.
                    if !is_meta(&doc) || value.as_str() != Some("#meta") {
                        return Err(format!("{doc}#{ptr}: $dynamicRef {value} is not supported"));
                    }
                    let n = self.node(META, "");
                    writeln!(b, "    s{n}(v, c);").unwrap();
                }
                "$ref" => {
                    let r = value.as_str().ok_or("$ref is not a string")?;
                    let (d, p) = self.resolve(&doc, r)?;
                    let n = self.node(&d, &p);
                    writeln!(b, "    s{n}(v, c);").unwrap();
                }
                other => return Err(format!("{doc}#{ptr}: keyword {other} is not supported")),
            }
        }
        b.push_str("}\n\n");
        self.body.push_str(&b);
        Ok(())
    }
}

/// One atom of a simple pattern: a byte class (ASCII members; negated
/// means any character but those) or a literal, with a count.
struct Atom {
    members: Vec<(u8, u8)>,
    negated: bool,
    min: usize,
    max: usize,
}

/// Parses `^atoms$` (or `^atoms` with literal atoms only) where every atom
/// but the last has a fixed count: greedy matching is then exact. `None`
/// for anything else (the pattern goes to the `regex` crate).
fn simple_pattern(p: &str) -> Option<(Vec<Atom>, bool)> {
    let rest = p.strip_prefix('^')?;
    let (body, anchored) = match rest.strip_suffix('$') {
        Some(b) if !b.ends_with('\\') => (b, true),
        _ => (rest, false),
    };
    let bytes = body.as_bytes();
    let mut atoms: Vec<Atom> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (members, negated) = match b {
            b'[' => {
                let mut j = i + 1;
                let negated = bytes.get(j) == Some(&b'^');
                if negated {
                    j += 1;
                }
                let mut members = Vec::new();
                let mut first = true;
                loop {
                    let c = *bytes.get(j)?;
                    if c == b']' && !first {
                        break;
                    }
                    first = false;
                    let c = if c == b'\\' {
                        j += 1;
                        let e = *bytes.get(j)?;
                        if e.is_ascii_alphanumeric() {
                            return None;
                        }
                        e
                    } else {
                        c
                    };
                    if !c.is_ascii() || c == b'[' {
                        return None;
                    }
                    if bytes.get(j + 1) == Some(&b'-')
                        && bytes.get(j + 2).is_some_and(|&e| e != b']')
                    {
                        let e = bytes[j + 2];
                        if !e.is_ascii() || e == b'\\' || e == b'[' || e < c {
                            return None;
                        }
                        members.push((c, e));
                        j += 3;
                    } else {
                        members.push((c, c));
                        j += 1;
                    }
                }
                i = j + 1;
                (members, negated)
            }
            b'\\' => {
                let e = *bytes.get(i + 1)?;
                if e.is_ascii_alphanumeric() || !e.is_ascii() {
                    return None;
                }
                i += 2;
                (vec![(e, e)], false)
            }
            b if b.is_ascii_alphanumeric() || b":/-_@=,;!'\"%&<>~ ".contains(&b) => {
                i += 1;
                (vec![(b, b)], false)
            }
            _ => return None,
        };
        // Quantifier.
        let (min, max) = match bytes.get(i) {
            Some(b'+') => {
                i += 1;
                (1, usize::MAX)
            }
            Some(b'*') => {
                i += 1;
                (0, usize::MAX)
            }
            Some(b'?') => {
                i += 1;
                (0, 1)
            }
            Some(b'{') => {
                let close = body[i..].find('}')? + i;
                let inner = &body[i + 1..close];
                let (a, z) = match inner.split_once(',') {
                    Some((a, z)) => (a.parse().ok()?, z.parse().ok()?),
                    None => {
                        let n = inner.parse().ok()?;
                        (n, n)
                    }
                };
                i = close + 1;
                (a, z)
            }
            _ => (1, 1),
        };
        if matches!(bytes.get(i), Some(b'?' | b'+')) {
            return None; // lazy or possessive
        }
        atoms.push(Atom {
            members,
            negated,
            min,
            max,
        });
    }
    // Every atom but the last has a fixed count; unanchored only literals.
    let n = atoms.len();
    for (k, a) in atoms.iter().enumerate() {
        if a.min != a.max && (k + 1 != n || !anchored) {
            return None;
        }
    }
    if !anchored && atoms.iter().any(|a| a.negated || a.min != 1) {
        return None;
    }
    Some((atoms, anchored))
}

fn class_fn(members: &[(u8, u8)]) -> String {
    let arms: Vec<String> = members
        .iter()
        .map(|&(a, z)| {
            if a == z {
                format!("{a}")
            } else {
                format!("{a}..={z}")
            }
        })
        .collect();
    format!("|x: u8| matches!(x, {})", arms.join(" | "))
}

/// True when matching the UTF-8 bytes of a string with `p` compiled
/// without Unicode gives the answer `p` gives on its characters, so the
/// cheaper byte automaton (no UTF-8 ranges compiled) can stand in: `p` is
/// ASCII, has no `.`, no class escapes (`\d`, `\w`, …) and no flags, and
/// every negated class repeats without bound (`[^~/]*`, or an alternative
/// of a group that does: `(?:[^~/]|~0)+`), so a character of several
/// bytes is one repetition per byte instead of one in all, never a count.
fn bytes_safe(p: &str) -> bool {
    let b = p.as_bytes();
    if !p.is_ascii() {
        return false;
    }
    // Per open group: whether a negated class in it needs the group to repeat.
    let mut groups: Vec<bool> = Vec::new();
    let unbounded = |i: usize| matches!(b.get(i), Some(b'*' | b'+'));
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if b.get(i + 1).is_none_or(u8::is_ascii_alphanumeric) {
                    return false;
                }
                i += 2;
            }
            b'.' => return false,
            b'(' => {
                if b.get(i + 1) == Some(&b'?') {
                    if b.get(i + 2) != Some(&b':') {
                        return false;
                    }
                    i += 3;
                } else {
                    i += 1;
                }
                groups.push(false);
            }
            b')' => {
                let Some(needs) = groups.pop() else {
                    return false;
                };
                i += 1;
                if needs && !unbounded(i) {
                    // The group is one alternative of an enclosing one.
                    match (b.get(i), groups.last_mut()) {
                        (Some(b'|' | b')'), Some(outer)) => *outer = true,
                        _ => return false,
                    }
                }
            }
            b'[' => {
                let negated = b.get(i + 1) == Some(&b'^');
                let mut j = i + if negated { 2 } else { 1 };
                let mut first = true;
                loop {
                    match b.get(j) {
                        None => return false,
                        Some(b']') if !first => break,
                        Some(b'\\') => {
                            if b.get(j + 1).is_none_or(u8::is_ascii_alphanumeric) {
                                return false;
                            }
                            j += 2;
                        }
                        Some(b'[') => return false,
                        Some(_) => j += 1,
                    }
                    first = false;
                }
                i = j + 1;
                if negated && !unbounded(i) {
                    match (b.get(i), groups.last_mut()) {
                        (Some(b'|' | b')'), Some(g)) => *g = true,
                        _ => return false,
                    }
                }
            }
            _ => i += 1,
        }
    }
    groups.is_empty()
}

fn emit_pattern(out: &mut String, i: usize, p: &str) {
    writeln!(out, "/// `{}`", p.replace('`', "\\`")).unwrap();
    match simple_pattern(p) {
        Some((atoms, anchored)) => {
            writeln!(out, "fn p{i}(s: &str, _c: &mut Ctx) -> bool {{").unwrap();
            writeln!(out, "    let b = s.as_bytes();").unwrap();
            writeln!(out, "    let i = 0;").unwrap();
            let mut k = 0;
            while k < atoms.len() {
                // A run of single literal bytes: one comparison.
                let lit: Vec<u8> = atoms[k..]
                    .iter()
                    .take_while(|a| {
                        !a.negated
                            && a.min == 1
                            && a.max == 1
                            && a.members.len() == 1
                            && a.members[0].0 == a.members[0].1
                    })
                    .map(|a| a.members[0].0)
                    .collect();
                if lit.len() > 1 {
                    let text = String::from_utf8(lit.clone()).unwrap();
                    writeln!(
                        out,
                        "    if !b.get(i..).is_some_and(|r| r.starts_with(b{})) {{ return false; }}",
                        rust_str(&text)
                    )
                    .unwrap();
                    writeln!(out, "    let i = i + {};", lit.len()).unwrap();
                    k += lit.len();
                    continue;
                }
                let a = &atoms[k];
                k += 1;
                let class = class_fn(&a.members);
                let max = if a.max == usize::MAX {
                    "usize::MAX".to_owned()
                } else {
                    a.max.to_string()
                };
                if a.negated {
                    writeln!(out, "    let (i, n) = run_not(s, i, {max}, {class});").unwrap();
                } else {
                    writeln!(out, "    let (i, n) = run(b, i, {max}, {class});").unwrap();
                }
                if a.min > 0 {
                    writeln!(out, "    if n < {} {{ return false; }}", a.min).unwrap();
                } else {
                    writeln!(out, "    let _ = n;").unwrap();
                }
            }
            if anchored {
                writeln!(out, "    i == b.len()").unwrap();
            } else {
                writeln!(out, "    let _ = i;\n    true").unwrap();
            }
            writeln!(out, "}}\n").unwrap();
        }
        None if bytes_safe(p) => {
            writeln!(out, "fn p{i}(s: &str, c: &mut Ctx) -> bool {{").unwrap();
            writeln!(
                out,
                "    static R: OnceLock<Option<regex::bytes::Regex>> = OnceLock::new();"
            )
            .unwrap();
            writeln!(out, "    regex_match_bytes(&R, {}, s, c)", rust_str(p)).unwrap();
            writeln!(out, "}}\n").unwrap();
        }
        None => {
            writeln!(out, "fn p{i}(s: &str, c: &mut Ctx) -> bool {{").unwrap();
            writeln!(
                out,
                "    static R: OnceLock<Option<regex::Regex>> = OnceLock::new();"
            )
            .unwrap();
            writeln!(out, "    regex_match(&R, {}, s, c)", rust_str(p)).unwrap();
            writeln!(out, "}}\n").unwrap();
        }
    }
}

/// The generated files (name in [`OUTPUT`], text): `mod.rs`, then the
/// `partN.rs` it includes.
pub fn generate() -> Vec<(String, String)> {
    let mut docs: HashMap<&str, Value> = PUBLISHED
        .iter()
        .map(|p| (p.id, serde_json::from_str(p.text).unwrap()))
        .collect();
    docs.extend(meta_docs());
    // One generator per root, so a root that fails leaves nothing behind;
    // then one shared generator over the roots that succeeded.
    let mut ok_roots: Vec<&str> = Vec::new();
    let mut skipped: BTreeMap<&str, String> = BTreeMap::new();
    for p in PUBLISHED {
        let mut g = new_gen(&docs);
        match run(&mut g, &[p.id]) {
            Ok(()) => ok_roots.push(p.id),
            Err(e) => {
                skipped.insert(p.file, e);
            }
        }
    }
    // The meta-schema must generate: inline schemas depend on it.
    run(&mut new_gen(&docs), &[META]).unwrap();
    ok_roots.push(META);
    let mut g = new_gen(&docs);
    run(&mut g, &ok_roots).unwrap();
    let mut out = String::new();
    out.push_str("// @generated by tests/golden/native_gen.rs from schemas/*.json; do not edit.\n");
    out.push_str(
        "// `BLESS=1 cargo test --test golden native_validators_are_current` rewrites it.\n",
    );
    for (file, why) in &skipped {
        writeln!(out, "// Not generated: {file}: {why}").unwrap();
    }
    out.push_str("\nuse super::*;\nuse std::sync::{LazyLock, OnceLock};\n\n");
    out.push_str("/// The schemas validated by this code at run time (the rest by the crate).\n");
    writeln!(out, "pub(super) const ENABLED: &[&str] = &[").unwrap();
    for id in ENABLED {
        assert!(ok_roots.contains(id), "{id} is enabled but not generated");
        writeln!(out, "    {},", rust_str(id)).unwrap();
    }
    out.push_str("];\n\n");
    out.push_str("/// The generated validator of the schema `id`.\n");
    out.push_str(
        "pub(super) fn root(id: &str) -> Option<fn(&Value, &mut Ctx)> {\n    Some(match id {\n",
    );
    for id in &ok_roots {
        let n = g.index[&((*id).to_owned(), String::new())];
        writeln!(out, "        {} => s{n},", rust_str(id)).unwrap();
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    out.push_str("/// The generated matcher of the published pattern `p` (the tests).\n");
    out.push_str("pub(super) fn pattern(p: &str) -> Option<fn(&str, &mut Ctx) -> bool> {\n    Some(match p {\n");
    for (i, p) in g.patterns.iter().enumerate() {
        writeln!(out, "        {} => p{i},", rust_str(p)).unwrap();
    }
    out.push_str("        _ => return None,\n    })\n}\n");
    let mut items = g.body.clone();
    for (i, p) in g.patterns.clone().iter().enumerate() {
        emit_pattern(&mut items, i, p);
    }
    let parts = split_items(&items, PART_LINES);
    out.push('\n');
    for n in 1..=parts.len() {
        writeln!(out, "include!(\"part{n}.rs\");").unwrap();
    }
    let mut files = vec![("mod.rs".to_owned(), out)];
    for (n, part) in parts.into_iter().enumerate() {
        let head = format!(
            "// @generated by tests/golden/native_gen.rs from schemas/*.json; do not edit.\n// Part {} of the validators, included by mod.rs.\n\n",
            n + 1
        );
        files.push((format!("part{}.rs", n + 1), head + &part));
    }
    files
}

/// `items` (generated items, each ending in a blank line, none holding
/// one) cut in order into runs of whole items of at most `most` lines.
fn split_items(items: &str, most: usize) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut part = String::new();
    for item in items.split_inclusive("\n\n") {
        let lines = |t: &str| t.lines().count();
        if !part.is_empty() && lines(&part) + lines(item) > most {
            parts.push(std::mem::take(&mut part));
        }
        part.push_str(item);
    }
    if !part.is_empty() {
        parts.push(part);
    }
    parts
}

fn new_gen<'a>(docs: &HashMap<&'a str, Value>) -> Gen<'a> {
    Gen {
        docs: docs.clone(),
        nodes: Vec::new(),
        index: HashMap::new(),
        done: 0,
        patterns: Vec::new(),
        body: String::new(),
        statics: 0,
    }
}

fn run(g: &mut Gen<'_>, roots: &[&str]) -> Result<(), String> {
    for id in roots {
        g.node(id, "");
    }
    while g.done < g.nodes.len() {
        let k = g.done;
        g.done += 1;
        g.emit(k)?;
    }
    Ok(())
}

fn current() -> Result<(), Failed> {
    let want = generate();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(OUTPUT);
    let bless = std::env::var_os("BLESS").is_some();
    let mut wrong = Vec::new();
    for (name, text) in &want {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_ref() == Some(text) {
            continue;
        }
        if bless {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{OUTPUT}: {e}"))?;
            std::fs::write(&path, text).map_err(|e| format!("{OUTPUT}/{name}: {e}"))?;
        } else {
            wrong.push(format!("{name} is not the generator's output"));
        }
    }
    // No stale file: every file of the folder is one the generator writes.
    for entry in std::fs::read_dir(&dir).map_err(|e| format!("{OUTPUT}: {e}"))? {
        let entry = entry.map_err(|e| format!("{OUTPUT}: {e}"))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if want.iter().any(|(n, _)| *n == name) {
            continue;
        }
        if bless {
            std::fs::remove_file(entry.path()).map_err(|e| format!("{OUTPUT}/{name}: {e}"))?;
        } else {
            wrong.push(format!("{name} is not generated (stale)"));
        }
    }
    if wrong.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{OUTPUT}: {} (BLESS=1 cargo test --test golden native_validators_are_current rewrites them)",
        wrong.join("; ")
    )
    .into())
}

/// The generated files' shape (issue 34): each is under 1,500 lines, the
/// parts are the items in order (their text, headers left out, is the
/// items as one file held them) and `mod.rs` includes each part once.
/// Near miss: an item longer than a part stands alone, none is cut.
fn parts_are_whole_items_in_order() -> Result<(), Failed> {
    let files = generate();
    for (name, text) in &files {
        let lines = text.lines().count();
        if lines > 1500 {
            return Err(format!("{name}: {lines} lines").into());
        }
    }
    let (_, root) = &files[0];
    for (name, text) in &files[1..] {
        assert_eq!(
            root.matches(&format!("include!(\"{name}\");")).count(),
            1,
            "{name}"
        );
        assert!(text.contains("do not edit"), "{name}");
    }
    let items = "a\n\nb\nb\nb\n\nc\n\n";
    assert_eq!(split_items(items, 2), ["a\n\n", "b\nb\nb\n\n", "c\n\n"]);
    assert_eq!(split_items(items, 6), ["a\n\nb\nb\nb\n\n", "c\n\n"]);
    assert_eq!(split_items(items, 100).concat(), items);
    Ok(())
}

pub fn trials() -> Vec<Trial> {
    vec![
        Trial::test("native_validators_are_current", current),
        Trial::test(
            "native_parts_are_whole_items_in_order",
            parts_are_whole_items_in_order,
        ),
    ]
}
