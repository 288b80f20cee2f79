//! Positions: byte offsets to `line:column`, one unit for every output.
//!
//! The unit is the one SARIF calls `unicodeCodePoints` (SARIF 2.1.0
//! §3.14.17, `columnKind`): lines and columns are 1-based, a column counts
//! Unicode code points from the start of its line (`é` is one column, `😀`
//! is one column), and a line ends at LF, CR LF or a lone CR (SARIF 2.1.0
//! §3.30.2; JSON allows all three as whitespace). Invalid UTF-8 still gets a
//! position: every byte that is not a UTF-8 continuation byte counts as one.
//!
//! The human header and `help:` line, JSON `line`/`column`, SARIF regions,
//! GitHub `line=`/`col=` and JUnit all read positions from here, so they give
//! the same `line:column` for the same finding (issue 10 item 5).
//! [`LineIndex`] is built once per file (O(file size)); each lookup is then
//! O(log lines + 256) instead of O(offset), so N findings of a file of S
//! bytes cost O(S + N log S).

/// A 1-based line and column (code points), see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in Unicode code points.
    pub column: usize,
}

/// Code-point counts are checkpointed every this many bytes.
const CHECKPOINT: usize = 256;

/// True for a byte that starts a code point (or is a stray byte of invalid
/// UTF-8 that counts as one).
fn starts_char(b: u8) -> bool {
    !(0x80..0xC0).contains(&b)
}

/// The line index of one file (see the module docs).
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset where each line starts (the first is 0).
    line_starts: Vec<usize>,
    /// Code points in `bytes[..i * CHECKPOINT]`.
    chars_before: Vec<usize>,
}

impl LineIndex {
    /// Indexes `bytes` in one pass (memory: 8 bytes per line plus 8 bytes
    /// per 256 bytes of input).
    pub fn new(bytes: &[u8]) -> Self {
        let mut line_starts = vec![0];
        let mut chars_before = Vec::with_capacity(bytes.len() / CHECKPOINT + 2);
        let mut chars = 0;
        for (k, block) in bytes.chunks(CHECKPOINT).enumerate() {
            chars_before.push(chars);
            // Counted with no branch per byte (the compiler vectorizes it).
            chars += block.iter().filter(|&&b| starts_char(b)).count();
            let base = k * CHECKPOINT;
            for (j, &b) in block.iter().enumerate() {
                let i = base + j;
                let ends_line = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
                if ends_line {
                    line_starts.push(i + 1);
                }
            }
        }
        chars_before.push(chars);
        LineIndex {
            line_starts,
            chars_before,
        }
    }

    /// Code points in `bytes[..offset]`.
    fn chars_to(&self, bytes: &[u8], offset: usize) -> usize {
        let block = offset / CHECKPOINT;
        let base = self.chars_before.get(block).copied().unwrap_or(0);
        base + bytes
            .get(block * CHECKPOINT..offset)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| starts_char(b))
            .count()
    }

    /// The position of byte `offset` in `bytes` (the bytes this index was
    /// built from); offsets past the end are clamped to `bytes.len()`.
    pub fn position(&self, bytes: &[u8], offset: usize) -> Position {
        let offset = offset.min(bytes.len());
        // Lines whose start is <= offset; the first start is 0, so >= 1.
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let column = 1 + self.chars_to(bytes, offset) - self.chars_to(bytes, start);
        Position { line, column }
    }

    /// `(line, column)` of `offset`, as [`LineIndex::position`].
    pub fn line_col(&self, bytes: &[u8], offset: usize) -> (usize, usize) {
        let p = self.position(bytes, offset);
        (p.line, p.column)
    }

    /// Number of lines (a file ending in a line break has an empty last line).
    pub fn lines(&self) -> usize {
        self.line_starts.len()
    }
}

/// The position of one offset without an index: O(offset). For one or two
/// lookups in a file (a single diagnostic); use [`LineIndex`] for more.
/// The strict reader's rule ([`crate::json::strict::line_col`]), so a
/// finding is placed where the reader that refused it says.
pub fn position(bytes: &[u8], offset: usize) -> Position {
    let (line, column) = crate::json::strict::line_col(bytes, offset);
    Position { line, column }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lc(bytes: &[u8], off: usize) -> (usize, usize) {
        let p = position(bytes, off);
        (p.line, p.column)
    }

    #[test]
    fn index_agrees_with_the_linear_scan_and_the_strict_reader() {
        let text = "ab\ncé€😀x\r\n\ny\rz\r\r\n".repeat(100).into_bytes();
        let idx = LineIndex::new(&text);
        for off in 0..=text.len() + 3 {
            assert_eq!(idx.line_col(&text, off), lc(&text, off), "{off}");
            assert_eq!(
                idx.line_col(&text, off),
                crate::json::strict::line_col(&text, off),
                "{off}"
            );
        }
        let empty = LineIndex::new(b"");
        assert_eq!(empty.line_col(b"", 5), (1, 1));
        // Invalid UTF-8 still gets a position.
        let bad = b"\xff\xfe\n\x80a";
        let idx = LineIndex::new(bad);
        for off in 0..=bad.len() {
            assert_eq!(idx.line_col(bad, off), lc(bad, off), "{off}");
        }
    }

    #[test]
    fn columns_count_code_points() {
        // `é` is 2 bytes, `😀` 4: the `x` after them is column 3, not 7.
        let s = "é😀x".as_bytes();
        assert_eq!(lc(s, 6), (1, 3));
        assert_eq!(LineIndex::new(s).line_col(s, 6), (1, 3));
    }

    #[test]
    fn lf_crlf_and_lone_cr_each_end_a_line() {
        let s = b"a\rb\r\nc\nd";
        let idx = LineIndex::new(s);
        assert_eq!(idx.lines(), 4);
        assert_eq!(idx.line_col(s, 2), (2, 1)); // b, after a lone CR
        assert_eq!(idx.line_col(s, 3), (2, 2)); // the CR of CR LF
        assert_eq!(idx.line_col(s, 4), (2, 3)); // its LF: still line 2
        assert_eq!(idx.line_col(s, 5), (3, 1)); // c
        assert_eq!(idx.line_col(s, 7), (4, 1)); // d
                                                // Near miss: CR LF is one line end, not two.
        assert_eq!(LineIndex::new(b"a\r\nb").lines(), 2);
        // Also when the CR closes one checkpoint block and the LF opens the
        // next, and in the block after a code point that spans a boundary.
        let mut long = vec![b'a'; CHECKPOINT - 1];
        long.extend_from_slice("\r\n😀b".as_bytes());
        let idx = LineIndex::new(&long);
        assert_eq!(idx.lines(), 2);
        assert_eq!(idx.line_col(&long, long.len() - 1), (2, 2));
        assert_eq!(
            idx.line_col(&long, long.len() - 1),
            lc(&long, long.len() - 1)
        );
    }
}
