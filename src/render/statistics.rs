//! `verify --statistics`: the count of findings per code, the one
//! document on stdout when the flag is given.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;

/// `--statistics`: the count of findings per code, in id order, as a table
/// (`human`) — `count  id  name` — or a JSON array of
/// `{"code", "name", "count"}` (`json`).
pub fn output<'a>(diags: impl Iterator<Item = &'a Diagnostic>, json: bool) -> String {
    let mut counts: BTreeMap<&'static str, (&'static str, usize)> = BTreeMap::new();
    for d in diags {
        let info = d.code.info();
        counts.entry(info.id).or_insert((info.name, 0)).1 += d.weight();
    }
    if json {
        let rows: Vec<serde_json::Value> = counts
            .iter()
            .map(|(id, (name, n))| serde_json::json!({"code": id, "name": name, "count": n}))
            .collect();
        return format!("{}\n", serde_json::Value::Array(rows));
    }
    let w = counts
        .values()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for (id, (name, n)) in &counts {
        out.push_str(&format!("{n:>w$}\t{id}\t{name}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;

    #[test]
    fn statistics_counts_per_code() {
        let d = [
            Diagnostic::new(Code::OpenObjectSchema, "a"),
            Diagnostic::new(Code::OpenObjectSchema, "b"),
            Diagnostic::new(Code::RootNotDirectory, "c"),
        ];
        assert_eq!(
            output(d.iter(), false),
            "1\tFD001\troot-not-directory\n2\tFD213\topen-object-schema\n"
        );
        assert_eq!(
            output(d.iter(), true),
            "[{\"code\":\"FD001\",\"name\":\"root-not-directory\",\"count\":1},{\"code\":\"FD213\",\"name\":\"open-object-schema\",\"count\":2}]\n"
        );
    }
}
