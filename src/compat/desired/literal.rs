//! A cheap `pattern` inclusion before the automata (issue 35, item 6):
//! prefix, suffix and literal reasoning over the engine's own parse tree
//! ([`crate::engine::goregex::parse`]).
//!
//! Go's `pattern` is an unanchored search. A NEW pattern that is a plain
//! literal `L` (no operator, no case folding) accepts exactly the strings
//! that contain `L`; `^L` those that start with it, `L$` those that end
//! with it. An OLD pattern tells what each string it accepts must hold:
//! every literal run of its top-level sequence (a `Concat` not under an
//! alternation, a `?`, a `*` or a `{0,n}`) is a substring of every match,
//! hence of every string; a sequence that starts with `^` (`\A`, no `m`
//! flag) and a literal run gives a prefix, one that ends with a literal
//! run and `$` (`\z`) a suffix. When some OLD pattern's facts imply NEW's
//! form the inclusion is proved without building an automaton, so an
//! OLD pattern whose automaton would exhaust the budget (`[ab]*a[ab]{19}`)
//! no longer makes the pair `unknown`. Anything else is left to the
//! automata ([`super::regular`]), which stay the decision procedure.

use crate::engine::goregex::{self, Kind, Node};

/// What every string an OLD pattern accepts holds.
#[derive(Debug, Default)]
struct Facts {
    /// It starts with this text (the pattern starts with `^` and a literal).
    prefix: String,
    /// It ends with this text (the pattern ends with a literal and `$`).
    suffix: String,
    /// It contains each of these texts.
    factors: Vec<String>,
}

/// The text of a literal node matched exactly (no case folding, no
/// surrogate), `None` for any other node.
fn literal(node: &Node) -> Option<String> {
    match &node.kind {
        Kind::Literal(cps, false) => cps.iter().map(|&c| char::from_u32(c)).collect(),
        Kind::Capture(inner) => literal(inner),
        Kind::Empty => Some(String::new()),
        _ => None,
    }
}

/// True for a node that matches the empty string only at a position
/// (it consumes nothing): a literal run continues across it.
fn zero_width(node: &Node) -> bool {
    matches!(
        node.kind,
        Kind::BeginText
            | Kind::EndText
            | Kind::BeginLine
            | Kind::EndLine
            | Kind::WordBoundary
            | Kind::NoWordBoundary
    )
}

/// Substrings every match of `node` contains.
fn factors(node: &Node, out: &mut Vec<String>) {
    match &node.kind {
        Kind::Capture(inner) | Kind::Plus(inner) => factors(inner, out),
        Kind::Repeat(inner, min, _) if *min >= 1 => factors(inner, out),
        Kind::Literal(..) => out.extend(literal(node).filter(|s| !s.is_empty())),
        Kind::Concat(items) => {
            let mut run = String::new();
            for item in items {
                if let Some(s) = literal(item) {
                    run.push_str(&s);
                } else if !zero_width(item) {
                    if !run.is_empty() {
                        out.push(std::mem::take(&mut run));
                    }
                    factors(item, out);
                }
            }
            if !run.is_empty() {
                out.push(run);
            }
        }
        _ => {}
    }
}

/// The facts of an OLD pattern (`None`: it does not parse).
fn facts(pattern: &str) -> Option<Facts> {
    let tree = goregex::parse(pattern).ok()?;
    let mut f = Facts::default();
    factors(&tree, &mut f.factors);
    if let Kind::Concat(items) = &tree.kind {
        if matches!(items.first().map(|n| &n.kind), Some(Kind::BeginText)) {
            for item in items.iter().skip(1) {
                match literal(item) {
                    Some(s) => f.prefix.push_str(&s),
                    None => break,
                }
            }
        }
        if matches!(items.last().map(|n| &n.kind), Some(Kind::EndText)) {
            let mut rev: Vec<String> = Vec::new();
            for item in items.iter().rev().skip(1) {
                match literal(item) {
                    Some(s) => rev.push(s),
                    None => break,
                }
            }
            f.suffix = rev.into_iter().rev().collect();
        }
    }
    Some(f)
}

/// The form of a NEW pattern this module decides.
enum Form {
    /// `L`: the string contains `L`.
    Contains(String),
    /// `^L`: the string starts with `L`.
    Starts(String),
    /// `L$`: the string ends with `L`.
    Ends(String),
}

fn form(pattern: &str) -> Option<Form> {
    let tree = goregex::parse(pattern).ok()?;
    if let Some(s) = literal(&tree) {
        return Some(Form::Contains(s));
    }
    let Kind::Concat(items) = &tree.kind else {
        return None;
    };
    let text = |nodes: &[Node]| -> Option<String> { nodes.iter().map(literal).collect() };
    match (
        items.first().map(|n| &n.kind),
        items.last().map(|n| &n.kind),
    ) {
        (Some(Kind::BeginText), Some(Kind::EndText)) => None,
        (Some(Kind::BeginText), _) => text(items.get(1..)?).map(Form::Starts),
        (_, Some(Kind::EndText)) => text(items.get(..items.len() - 1)?).map(Form::Ends),
        _ => text(items).map(Form::Contains),
    }
}

/// True when every string all of `olds` accept is proved to match `new`
/// (an unanchored Go pattern) by prefix, suffix or literal reasoning;
/// false when this module cannot tell (the automata decide then).
pub(super) fn implies(olds: &[&str], new: &str) -> bool {
    let Some(form) = form(new) else {
        return false;
    };
    olds.iter().filter_map(|p| facts(p)).any(|f| match &form {
        Form::Contains(l) => {
            l.is_empty()
                || f.prefix.contains(l.as_str())
                || f.suffix.contains(l.as_str())
                || f.factors.iter().any(|x| x.contains(l.as_str()))
        }
        Form::Starts(l) => f.prefix.starts_with(l.as_str()),
        Form::Ends(l) => f.suffix.ends_with(l.as_str()),
    })
}

#[cfg(test)]
mod tests {
    use super::implies;

    #[test]
    fn literal_reasoning() {
        let hard = "^id-[ab]*a[ab]{19}$";
        assert!(implies(&[hard], "id-"));
        assert!(implies(&[hard], "^id"));
        assert!(implies(&[hard], "d-"));
        assert!(implies(&["^ab(c|d)ef$"], "ef$"));
        assert!(implies(&["x(?:abc)+y"], "abc"));
        assert!(implies(&["^a", "b$"], "b$"));
        // Near misses: not implied (the automata decide).
        assert!(!implies(&[hard], "id-b"));
        assert!(!implies(&[hard], "^d"));
        assert!(!implies(&["^(?i)id-"], "id-"));
        assert!(!implies(&["^(ab|cd)"], "ab"));
        assert!(!implies(&["^a?b"], "ab"));
        assert!(!implies(&["(?m)^ab"], "^ab"));
        assert!(!implies(&["ab"], "^ab"));
        assert!(!implies(&["^ab$"], "^ab$"));
    }
}
