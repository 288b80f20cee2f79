//! "Did you mean …": the nearest of a few known words to one the author
//! typed, for the help lines of the checks, the proofs and the fixture
//! notes. A leaf module (it imports nothing of the crate), so any of them
//! can call it without an import cycle.

/// The nearest of `candidates` to `word` (edit distance with adjacent
/// transpositions, `strsim::osa_distance`; ASCII
/// case differences count 0, a candidate `word` abbreviates (3 characters
/// or more) counts 1), when within a third of `word`'s length (at least 1).
pub fn nearest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let folded = word.to_ascii_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| {
            let d = if c.to_ascii_lowercase() == folded {
                0
            } else if word.chars().count() >= 3 && c.starts_with(word) {
                1
            } else {
                strsim::osa_distance(word, c)
            };
            (d, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}
