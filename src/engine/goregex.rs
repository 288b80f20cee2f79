//! Go's regular-expression grammar (`regexp/syntax` with the `Perl` flags,
//! as `regexp.Compile` uses it), decided here and translated for the
//! `regex` crate (`verifier-rules.md` §12 E2; issue 10 kind 3).
//!
//! Why our own parser: no crate parses Go's grammar, and the `regex` crate's
//! own grammar differs in both directions (it refuses `^*`, `a(?i)*`, `(?)`,
//! `(?P<1>a)`, duplicate names, `[\w-z]`, `\<`; it reads `\<` as a word
//! boundary, `a{01}` as a repeat, `\p{Greek}` as Script_Extensions, and it
//! has newer Unicode tables). The rules were learnt by reading Go 1.25's
//! `src/regexp/syntax/parse.go` and `perl_groups.go` (BSD-3-Clause) and by
//! running the reference verifier; no code was copied or translated.
//!
//! Shape: [`parse`] decides acceptance exactly as Go does and builds a tree
//! in which every character set is explicit (a [`ClassUnicode`] computed
//! from Unicode 15.0.0 tables, with `(?i)` already applied by simple case
//! folding); [`translate`] writes that tree in the `regex` crate's syntax
//! using only `\x{…}` escapes, bracketed ranges, `(?:…)` groups, counted
//! repeats and the anchors `\A \z (?m:^) (?m:$) (?-u:\b) (?-u:\B)`, so
//! the crate never applies a Unicode table or case folding of its own.
//!
//! Unicode version: Go 1.25's tables are Unicode 15.0.0. Categories,
//! scripts and case folding come from `regex-syntax` 0.7.5 (dependency
//! `regex-syntax-u15`), whose tables are Unicode 15.0.0, so characters
//! assigned after 15.0 (e.g. U+1C89) are neither letters nor case pairs
//! here, as in the reference.
//!
//! Go rules kept (each has a row in the tests below):
//! - A repeat applies to whatever item precedes it, including empty-width
//!   assertions (`^*`, `\b+`) and an item before a flag group (`a(?i)*`);
//!   it is refused only with nothing before it (start, `(`, `|`) or right
//!   after another repeat (`a**`, `a{2}*`; one lazy `?` is allowed).
//! - `{n}`, `{n,}`, `{n,m}` with decimal counts without leading zeros; any
//!   other `{` is a literal (`a{01}`, `a{,2}`). Counts over 1000, `n > m`,
//!   and nested counted repeats whose product along a path exceeds 1000
//!   (`(a{10}){101}`) are refused.
//! - Flag groups `(?flags)` / `(?flags:…)` over `i m s U` with one `-`;
//!   `(?)` and `(?ii)` are accepted, `(?-)` and `(?i-)` refused.
//! - Capture names are non-empty ASCII letters, digits and `_` (leading
//!   digits and duplicates allowed).
//! - Escapes: any escaped ASCII punctuation, space or control character is
//!   itself (`\<`, `\ `, `\_`); `\a \f \n \r \t \v`, octal `\0`, `\123`,
//!   `\x41`, `\x{10FFFF}` (surrogates allowed, they match nothing); `\d \s
//!   \w` and negations are ASCII; `\pL`, `\p{Name}`, `\p{^Name}`, `\PL`;
//!   `\A \z \b \B \Q…\E` outside classes. Everything else is refused.
//! - Unicode class names are looked up after Go 1.25's canonicalisation
//!   (case-insensitive; `_`, `-`, space ignored): general categories and
//!   their long aliases, `Any`, `ASCII`, `Assigned`, `LC`, and the scripts
//!   whose Go name survives canonicalisation (so `Old_Italic` is refused by
//!   the reference and here). Binary properties (`Alphabetic`) and
//!   `Script=` forms are refused.
//! - Classes: `]` first is literal, `-` is literal unless it makes a range,
//!   `[\w-z]` and `[!--]` are fine, POSIX `[:name:]` must be a known name,
//!   `[` is literal.
//! - Limits: nesting height 1000, program size and rune count as Go counts
//!   them (approximated where Go's internal node reuse matters).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use regex_syntax_u15::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

/// Go's maximum counted repetition (`{n}`, `{n,m}`), also the bound on the
/// product of nested counted repetitions.
pub const MAX_REPEAT: u32 = 1000;
/// Go's maximum parse-tree height (`expression nests too deeply`).
const MAX_HEIGHT: u32 = 1000;
/// Go's maximum program size in instructions (128 MiB / 40-byte insts).
const MAX_SIZE: u64 = (128 << 20) / 40;
/// Go's maximum number of runes held by the tree (128 MiB / 4 bytes).
const MAX_RUNES: u64 = (128 << 20) / 4;
/// The `regex` crate's compiled-size limit: large enough for anything Go
/// accepts that a real schema holds (`\pL{1000}` needs ~100 MiB of NFA).
const RUST_SIZE_LIMIT: usize = 1 << 30;
/// The `regex` crate's nesting limit: above what Go's height limit allows
/// after translation (each Go node adds at most two levels).
const RUST_NEST_LIMIT: u32 = 4 * MAX_HEIGHT;

/// True when Go's `regexp.Compile` accepts `pattern` (what `format:
/// "regex"` asserts, §12 E3, and the acceptance half of `pattern`).
pub fn is_valid(pattern: &str) -> bool {
    parse(pattern).is_ok()
}

/// Compiles a Go pattern for an unanchored search with Go's semantics.
///
/// Outcomes are cached by pattern text (bounded), so a pattern checked by
/// the schema walk and then compiled by the keyword is built once. The
/// compiled pattern is shared (`Arc`), not cloned: a cloned `Regex` starts
/// with empty search caches, a shared one keeps them warm across schemas,
/// packages and threads (the crate keeps one cache per thread).
///
/// # Errors
/// Go's reason when Go refuses the pattern (e.g. ``invalid escape sequence:
/// `\e` ``), or the `regex` crate's reason if it cannot build the
/// translation (not expected for anything Go accepts).
pub fn compile(pattern: &str) -> Result<Arc<regex::Regex>, String> {
    /// Outcomes by pattern, shared by every thread: bounded, cleared at
    /// `LIMIT` patterns.
    const LIMIT: usize = 4096;
    type Outcomes = HashMap<String, Result<Arc<regex::Regex>, String>>;
    static CACHE: LazyLock<Mutex<Outcomes>> = LazyLock::new(|| Mutex::new(HashMap::new()));
    if let Some(hit) = CACHE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(pattern)
    {
        return hit.clone();
    }
    let outcome = compile_uncached(pattern).map(Arc::new);
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    if cache.len() >= LIMIT {
        cache.clear();
    }
    cache.insert(pattern.to_owned(), outcome.clone());
    outcome
}

fn compile_uncached(pattern: &str) -> Result<regex::Regex, String> {
    let translated = translate(pattern)?;
    regex::RegexBuilder::new(&translated)
        .size_limit(RUST_SIZE_LIMIT)
        .nest_limit(RUST_NEST_LIMIT)
        .build()
        .map_err(|e| {
            e.to_string()
                .lines()
                .last()
                .unwrap_or("invalid pattern")
                .trim()
                .to_owned()
        })
}

/// Parses `pattern` as Go does and writes it in the `regex` crate's syntax
/// (see the module doc for the subset used).
///
/// # Errors
/// Go's reason when Go refuses the pattern.
pub fn translate(pattern: &str) -> Result<String, String> {
    let tree = parse(pattern)?;
    let mut out = String::with_capacity(pattern.len() * 4);
    emit(&tree, &mut out);
    Ok(out)
}

// ---------------------------------------------------------------------------
// The tree

/// One node of the parse tree (Go's operators, with explicit sets).
#[derive(Clone, Debug)]
pub enum Kind {
    /// Matches the empty string.
    Empty,
    /// A literal string (code points; a surrogate matches nothing). With
    /// `fold`, each code point matches its simple case-folding orbit.
    Literal(Vec<u32>, bool),
    /// A set of characters (Unicode 15.0.0, folding already applied).
    Class(ClassUnicode),
    /// `.` without `s`: any character but `\n`.
    AnyNotNl,
    /// `.` with `s`: any character.
    Any,
    /// `^` with `m`.
    BeginLine,
    /// `$` with `m`.
    EndLine,
    /// `^` without `m`, `\A`.
    BeginText,
    /// `$` without `m`, `\z`.
    EndText,
    /// `\b` (ASCII word characters).
    WordBoundary,
    /// `\B` (ASCII word characters).
    NoWordBoundary,
    /// `( … )` or a named group.
    Capture(Box<Node>),
    /// `x*`.
    Star(Box<Node>),
    /// `x+`.
    Plus(Box<Node>),
    /// `x?`.
    Quest(Box<Node>),
    /// `x{min}`, `x{min,}` (`max` None), `x{min,max}`.
    Repeat(Box<Node>, u32, Option<u32>),
    /// A sequence.
    Concat(Vec<Node>),
    /// An alternation.
    Alternate(Vec<Node>),
}

/// A node with Go's accounting: tree height and program size.
#[derive(Clone, Debug)]
pub struct Node {
    /// The operator and its operands.
    pub kind: Kind,
    height: u32,
    size: u64,
}

impl Node {
    fn leaf(kind: Kind) -> Node {
        let size = match &kind {
            Kind::Literal(cs, _) => (cs.len() as u64).max(1),
            _ => 1,
        };
        Node {
            kind,
            height: 1,
            size,
        }
    }

    fn is_char_like(&self) -> bool {
        match &self.kind {
            Kind::Literal(cs, _) => cs.len() == 1,
            Kind::Class(_) | Kind::AnyNotNl | Kind::Any => true,
            _ => false,
        }
    }

    fn with_subs(kind: Kind) -> Node {
        let subs: Vec<&Node> = match &kind {
            Kind::Capture(s) | Kind::Star(s) | Kind::Plus(s) | Kind::Quest(s) => vec![s.as_ref()],
            Kind::Repeat(s, _, _) => vec![s.as_ref()],
            Kind::Concat(v) | Kind::Alternate(v) => v.iter().collect(),
            _ => Vec::new(),
        };
        let max_sub = subs.iter().map(|s| s.height).max().unwrap_or(0);
        // Go merges an alternation of single characters into one class.
        let height = match &kind {
            Kind::Alternate(v) if v.iter().all(Node::is_char_like) => 1,
            _ => 1 + max_sub,
        };
        let sub0 = subs.first().map_or(1, |s| s.size);
        let size = match &kind {
            Kind::Capture(_) | Kind::Star(_) => 2 + sub0,
            Kind::Plus(_) | Kind::Quest(_) => 1 + sub0,
            Kind::Concat(v) => v.iter().map(|s| s.size).sum(),
            Kind::Alternate(v) => {
                v.iter().map(|s| s.size).sum::<u64>() + (v.len() as u64).saturating_sub(1)
            }
            Kind::Repeat(_, min, None) => {
                if *min == 0 {
                    2 + sub0
                } else {
                    1 + u64::from(*min) * sub0
                }
            }
            Kind::Repeat(_, min, Some(max)) => u64::from(*max) * sub0 + u64::from(max - min),
            _ => 1,
        };
        Node {
            kind,
            height,
            size: size.max(1),
        }
    }
}

// ---------------------------------------------------------------------------
// Unicode 15.0.0 sets

fn range(lo: u32, hi: u32) -> ClassUnicode {
    // Surrogates never occur in a UTF-8 string: drop them from the range.
    let lo = if (0xD800..=0xDFFF).contains(&lo) {
        0xE000
    } else {
        lo
    };
    let hi = if (0xD800..=0xDFFF).contains(&hi) {
        0xD7FF
    } else {
        hi.min(0x10FFFF)
    };
    match (char::from_u32(lo), char::from_u32(hi)) {
        (Some(a), Some(b)) if a <= b => ClassUnicode::new([ClassUnicodeRange::new(a, b)]),
        _ => ClassUnicode::empty(),
    }
}

fn set_of(pairs: &[(u32, u32)]) -> ClassUnicode {
    let mut c = ClassUnicode::empty();
    for &(lo, hi) in pairs {
        c.union(&range(lo, hi));
    }
    c
}

fn folded(mut c: ClassUnicode) -> ClassUnicode {
    // The tables are compiled in (feature unicode-case); an error would
    // leave the set unfolded, which only a build without the feature hits.
    let _ = c.try_case_fold_simple();
    c
}

/// True when `a` and `b` are in one simple case-folding orbit of Unicode
/// 15.0.0 (`regex-syntax` 0.7.5's tables): case variants of each other in
/// the reference's Unicode version.
pub(crate) fn same_fold_orbit(a: char, b: char) -> bool {
    let orbit = folded(ClassUnicode::new([ClassUnicodeRange::new(a, a)]));
    orbit.iter().any(|r| r.start() <= b && b <= r.end())
}

fn negated(mut c: ClassUnicode) -> ClassUnicode {
    c.negate();
    c
}

/// A Unicode 15.0.0 property set from `regex-syntax` 0.7.5, e.g.
/// `gc=Lu` or `sc=Greek`. Memoised. Also the forbidden-field vocabulary's
/// character classes ([`crate::vocabulary`], issue 22 item 1).
pub(crate) fn property(spec: &str) -> ClassUnicode {
    static MEMO: LazyLock<Mutex<HashMap<String, ClassUnicode>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    if let Some(hit) = MEMO
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(spec)
    {
        return hit.clone();
    }
    let hir = regex_syntax_u15::ParserBuilder::new()
        .build()
        .parse(&format!("\\p{{{spec}}}"));
    let set = match hir.as_ref().map(regex_syntax_u15::hir::Hir::kind) {
        Ok(HirKind::Class(Class::Unicode(c))) => c.clone(),
        Ok(HirKind::Literal(lit)) => {
            let mut c = ClassUnicode::empty();
            for ch in String::from_utf8_lossy(&lit.0).chars() {
                c.push(ClassUnicodeRange::new(ch, ch));
            }
            c
        }
        _ => ClassUnicode::empty(),
    };
    MEMO.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(spec.to_owned(), set.clone());
    set
}

/// Go 1.25's general-category keys (already canonical).
const CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn",
    "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm",
    "So", "Z", "Zl", "Zp", "Zs",
];

/// Unicode 15.0.0 script names that Go 1.25 can still find after it
/// canonicalises the requested name (first letter upper case, the rest
/// lower case, `_ - space` removed): the names already in that form.
/// `Old_Italic`, `SignWriting`, … are unreachable in the reference.
const SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Carian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dogra",
    "Duployan",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Inherited",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kharoshthi",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Medefaidrin",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nandinagari",
    "Newa",
    "Nko",
    "Nushu",
    "Ogham",
    "Oriya",
    "Osage",
    "Osmanya",
    "Palmyrene",
    "Phoenician",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "Sinhala",
    "Sogdian",
    "Soyombo",
    "Sundanese",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Toto",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Yezidi",
    "Yi",
];

/// General-category aliases (Unicode `PropertyValueAliases.txt`, `gc`
/// lines), canonicalised as Go 1.25 does, with the category they name.
const CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Casedletter", "LC"),
    ("Closepunctuation", "Pe"),
    ("Cntrl", "Cc"),
    ("Combiningmark", "M"),
    ("Connectorpunctuation", "Pc"),
    ("Control", "Cc"),
    ("Currencysymbol", "Sc"),
    ("Dashpunctuation", "Pd"),
    ("Decimalnumber", "Nd"),
    ("Digit", "Nd"),
    ("Enclosingmark", "Me"),
    ("Finalpunctuation", "Pf"),
    ("Format", "Cf"),
    ("Initialpunctuation", "Pi"),
    ("Letter", "L"),
    ("Letternumber", "Nl"),
    ("Lineseparator", "Zl"),
    ("Lowercaseletter", "Ll"),
    ("Mark", "M"),
    ("Mathsymbol", "Sm"),
    ("Modifierletter", "Lm"),
    ("Modifiersymbol", "Sk"),
    ("Nonspacingmark", "Mn"),
    ("Number", "N"),
    ("Openpunctuation", "Ps"),
    ("Other", "C"),
    ("Otherletter", "Lo"),
    ("Othernumber", "No"),
    ("Otherpunctuation", "Po"),
    ("Othersymbol", "So"),
    ("Paragraphseparator", "Zp"),
    ("Privateuse", "Co"),
    ("Punct", "P"),
    ("Punctuation", "P"),
    ("Separator", "Z"),
    ("Spacesepar", "Zs"),
    ("Spaceseparator", "Zs"),
    ("Spacingmark", "Mc"),
    ("Surrogate", "Cs"),
    ("Symbol", "S"),
    ("Titlecaseletter", "Lt"),
    ("Unassigned", "Cn"),
    ("Uppercaseletter", "Lu"),
];

/// Go 1.25's lookup key for a `\p{…}` name: `_`, `-` and spaces removed,
/// the first remaining character upper-cased and the rest lower-cased
/// (ASCII only).
fn canonical_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().filter(|c| !matches!(c, '_' | '-' | ' ')) {
        if out.is_empty() {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// A general category as Go 1.25 defines it (Unicode 15.0.0).
fn category(short: &str) -> ClassUnicode {
    match short {
        // Surrogates never occur in a UTF-8 string.
        "Cs" => ClassUnicode::empty(),
        other => property(&format!("gc={other}")),
    }
}

/// The set named by `\p{name}` in Go 1.25, or None when Go refuses the
/// name.
fn unicode_table(name: &str) -> Option<ClassUnicode> {
    let n = canonical_name(name);
    match n.as_str() {
        "Any" => return Some(negated(ClassUnicode::empty())),
        "Assigned" => return Some(negated(category("Cn"))),
        "Ascii" => return Some(range(0, 0x7F)),
        "Lc" => return Some(category("LC")),
        _ => {}
    }
    if CATEGORIES.contains(&n.as_str()) {
        return Some(category(&n));
    }
    if SCRIPTS.contains(&n.as_str()) {
        return Some(property(&format!("sc={n}")));
    }
    CATEGORY_ALIASES
        .iter()
        .find(|(alias, _)| *alias == n)
        .map(|(_, short)| category(short))
}

/// Go's Perl classes (`\d \s \w`), ASCII only: (letter, ranges).
const PERL_GROUPS: &[(char, &[(u32, u32)])] = &[
    ('d', &[(0x30, 0x39)]),
    ('s', &[(0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)]),
    (
        'w',
        &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
    ),
];

/// Go's POSIX classes inside brackets (`[:alpha:]`), ASCII only.
const POSIX_GROUPS: &[(&str, &[(u32, u32)])] = &[
    ("alnum", &[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)]),
    ("alpha", &[(0x41, 0x5A), (0x61, 0x7A)]),
    ("ascii", &[(0x00, 0x7F)]),
    ("blank", &[(0x09, 0x09), (0x20, 0x20)]),
    ("cntrl", &[(0x00, 0x1F), (0x7F, 0x7F)]),
    ("digit", &[(0x30, 0x39)]),
    ("graph", &[(0x21, 0x7E)]),
    ("lower", &[(0x61, 0x7A)]),
    ("print", &[(0x20, 0x7E)]),
    (
        "punct",
        &[(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
    ),
    ("space", &[(0x09, 0x0D), (0x20, 0x20)]),
    ("upper", &[(0x41, 0x5A)]),
    (
        "word",
        &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
    ),
    ("xdigit", &[(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)]),
];

/// A Perl or POSIX group as Go adds it: folded first under `(?i)`, then
/// negated when the group is negative.
fn group(pairs: &[(u32, u32)], negative: bool, fold: bool) -> ClassUnicode {
    let mut c = set_of(pairs);
    if fold {
        c = folded(c);
    }
    if negative {
        c = negated(c);
    }
    c
}

// ---------------------------------------------------------------------------
// The parser

#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    fold: bool,
    multiline: bool,
    dot_nl: bool,
}

/// One open group: the finished branches, the items of the current branch,
/// whether it captures, and the flags to restore at its `)`.
struct Frame {
    branches: Vec<Node>,
    items: Vec<Node>,
    capture: bool,
    saved: Flags,
}

impl Frame {
    fn new(capture: bool, saved: Flags) -> Frame {
        Frame {
            branches: Vec::new(),
            items: Vec::new(),
            capture,
            saved,
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    flags: Flags,
    /// The innermost open group (the whole pattern at depth 0).
    cur: Frame,
    /// The enclosing open groups, outermost first.
    outer: Vec<Frame>,
    /// Go's count of nodes built and product of repeat counts: its size
    /// check starts only once nodes × product could exceed the limit.
    nodes: u64,
    repeats: u64,
    runes: u64,
}

fn err(what: &str, at: &str) -> String {
    format!("{what}: `{at}`")
}

/// Parses `pattern` exactly as Go's `regexp/syntax.Parse(pattern, Perl)`
/// accepts it.
///
/// # Errors
/// Go's error kind and the offending text, e.g. ``missing argument to
/// repetition operator: `*` ``.
pub fn parse(pattern: &str) -> Result<Node, String> {
    let mut p = Parser {
        src: pattern,
        pos: 0,
        flags: Flags::default(),
        cur: Frame::new(false, Flags::default()),
        outer: Vec::new(),
        nodes: 0,
        repeats: 1,
        runes: 0,
    };
    p.run()
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek2(&self) -> Option<char> {
        self.rest().chars().nth(1)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn frame(&mut self) -> &mut Frame {
        &mut self.cur
    }

    fn open(&mut self, capture: bool) {
        let inner = Frame::new(capture, self.flags);
        self.outer.push(std::mem::replace(&mut self.cur, inner));
    }

    /// Go's per-node limits, checked whenever a node is built.
    fn check(&mut self, node: &Node) -> Result<(), String> {
        self.nodes += 1;
        self.runes += match &node.kind {
            Kind::Literal(cs, _) => cs.len() as u64,
            Kind::Class(c) => 2 * c.ranges().len() as u64,
            _ => 0,
        };
        if self.runes > MAX_RUNES {
            return Err(err("expression too large", self.src));
        }
        if let Kind::Repeat(_, min, max) = &node.kind {
            let n = u64::from(max.unwrap_or(*min).max(1));
            self.repeats = self.repeats.saturating_mul(n).min(MAX_SIZE);
        }
        if self.nodes >= MAX_SIZE / self.repeats.max(1) && node.size > MAX_SIZE {
            return Err(err("expression too large", self.src));
        }
        if node.height > MAX_HEIGHT {
            return Err(err("expression nests too deeply", self.src));
        }
        Ok(())
    }

    fn push(&mut self, node: Node) -> Result<(), String> {
        self.check(&node)?;
        self.frame().items.push(node);
        Ok(())
    }

    fn literal(&mut self, c: u32) -> Result<(), String> {
        let fold = self.flags.fold;
        self.push(Node::leaf(Kind::Literal(vec![c], fold)))
    }

    /// The items of the current branch as one node (Go's concat).
    fn concat(items: Vec<Node>) -> Node {
        let mut flat: Vec<Node> = Vec::with_capacity(items.len());
        for item in items {
            let subs = match item.kind {
                Kind::Concat(subs) => subs,
                kind => vec![Node {
                    kind,
                    height: item.height,
                    size: item.size,
                }],
            };
            for sub in subs {
                // Go keeps a run of literals with the same flags as one
                // literal string.
                if let (
                    Some(Node {
                        kind: Kind::Literal(prev, pf),
                        size,
                        ..
                    }),
                    Kind::Literal(next, nf),
                ) = (flat.last_mut(), &sub.kind)
                {
                    if pf == nf {
                        prev.extend_from_slice(next);
                        *size = prev.len() as u64;
                        continue;
                    }
                }
                flat.push(sub);
            }
        }
        match flat.len() {
            0 => Node::leaf(Kind::Empty),
            1 => flat.pop().unwrap_or_else(|| Node::leaf(Kind::Empty)),
            _ => Node::with_subs(Kind::Concat(flat)),
        }
    }

    /// The branches of a group as one node (Go's alternate).
    fn alternate(branches: Vec<Node>) -> Node {
        let mut flat: Vec<Node> = Vec::with_capacity(branches.len());
        for b in branches {
            match b.kind {
                Kind::Alternate(subs) => flat.extend(subs),
                kind => flat.push(Node {
                    kind,
                    height: b.height,
                    size: b.size,
                }),
            }
        }
        match flat.len() {
            0 => Node::leaf(Kind::Empty),
            1 => flat.pop().unwrap_or_else(|| Node::leaf(Kind::Empty)),
            _ => Node::with_subs(Kind::Alternate(flat)),
        }
    }

    fn close_branch(&mut self) -> Result<(), String> {
        let items = std::mem::take(&mut self.frame().items);
        let node = Self::concat(items);
        self.check(&node)?;
        self.frame().branches.push(node);
        Ok(())
    }

    fn close_group(&mut self) -> Result<Node, String> {
        self.close_branch()?;
        let branches = std::mem::take(&mut self.frame().branches);
        let node = Self::alternate(branches);
        self.check(&node)?;
        Ok(node)
    }

    fn run(&mut self) -> Result<Node, String> {
        let mut last_repeat = false;
        while let Some(c) = self.peek() {
            let mut repeat = false;
            match c {
                '(' => {
                    if self.peek2() == Some('?') {
                        self.perl_flags()?;
                    } else {
                        self.pos += 1;
                        self.open(true);
                    }
                }
                '|' => {
                    self.pos += 1;
                    self.close_branch()?;
                }
                ')' => {
                    self.pos += 1;
                    let Some(parent) = self.outer.pop() else {
                        return Err(err("unexpected )", self.src));
                    };
                    let node = self.close_group()?;
                    let frame = std::mem::replace(&mut self.cur, parent);
                    self.flags = frame.saved;
                    if frame.capture {
                        self.push(Node::with_subs(Kind::Capture(Box::new(node))))?;
                    } else {
                        self.frame().items.push(node);
                    }
                }
                '^' | '$' | '.' => {
                    self.pos += 1;
                    // `^` and `$` by the `m` flag, `.` by the `s` flag.
                    let (m, s) = (self.flags.multiline, self.flags.dot_nl);
                    let k = match c {
                        '^' if m => Kind::BeginLine,
                        '^' => Kind::BeginText,
                        '$' if m => Kind::EndLine,
                        '$' => Kind::EndText,
                        _ if s => Kind::Any,
                        _ => Kind::AnyNotNl,
                    };
                    self.push(Node::leaf(k))?;
                }
                '[' => self.class()?,
                '*' | '+' | '?' => {
                    let start = self.pos;
                    self.pos += 1;
                    let (min, max) = match c {
                        '*' => (0, None),
                        '+' => (1, None),
                        _ => (0, Some(1)),
                    };
                    self.repeat(c, min, max, start, last_repeat)?;
                    repeat = true;
                }
                '{' => {
                    let start = self.pos;
                    match self.counted() {
                        None => {
                            self.pos += 1;
                            self.literal(u32::from('{'))?;
                        }
                        Some((min, max)) => {
                            let text = self.src.get(start..self.pos).unwrap_or("");
                            let limit = i64::from(MAX_REPEAT);
                            if min < 0 || min > limit || max > limit || (max >= 0 && min > max) {
                                return Err(err("invalid repeat count", text));
                            }
                            let lo = u32::try_from(min).unwrap_or(MAX_REPEAT);
                            let hi = u32::try_from(max).ok();
                            self.repeat('{', lo, hi, start, last_repeat)?;
                            repeat = true;
                        }
                    }
                }
                '\\' => self.escape_outside()?,
                _ => {
                    self.pos += c.len_utf8();
                    self.literal(u32::from(c))?;
                }
            }
            last_repeat = repeat;
        }
        if !self.outer.is_empty() {
            return Err(err("missing closing )", self.src));
        }
        self.close_group()
    }

    /// `{n}`, `{n,}`, `{n,m}` at the cursor, as Go reads it: None when it
    /// is not a repeat (the `{` is then a literal), else (min, max) with
    /// max -1 for no maximum and -1 for a count too large to read (a too
    /// large maximum makes the minimum -1 too). On success the cursor is
    /// moved past the `}`.
    fn counted(&mut self) -> Option<(i64, i64)> {
        let b = self.rest().as_bytes();
        let mut i = 1;
        let (mut min, used) = go_int(b.get(i..)?)?;
        i += used;
        let max = match b.get(i)? {
            b',' => {
                i += 1;
                if *b.get(i)? == b'}' {
                    -1
                } else {
                    let (m, used) = go_int(b.get(i..)?)?;
                    i += used;
                    if m < 0 {
                        min = -1;
                    }
                    m
                }
            }
            _ => min,
        };
        if *b.get(i)? != b'}' {
            return None;
        }
        self.pos += i + 1;
        Some((min, max))
    }

    fn repeat(
        &mut self,
        op: char,
        min: u32,
        max: Option<u32>,
        start: usize,
        last_repeat: bool,
    ) -> Result<(), String> {
        if self.peek() == Some('?') {
            self.pos += 1; // non-greedy: no effect on whether it matches
        }
        let text = self.src.get(start..self.pos).unwrap_or("");
        if last_repeat {
            return Err(err("invalid nested repetition operator", text));
        }
        let Some(sub) = self.frame().items.pop() else {
            return Err(err("missing argument to repetition operator", text));
        };
        let sub = Box::new(sub);
        let node = Node::with_subs(match op {
            '*' => Kind::Star(sub),
            '+' => Kind::Plus(sub),
            '?' => Kind::Quest(sub),
            _ => Kind::Repeat(sub, min, max),
        });
        self.check(&node)?;
        if op == '{' && (min >= 2 || max.is_some_and(|m| m >= 2)) && !repeat_ok(&node, MAX_REPEAT) {
            return Err(err("invalid repeat count", text));
        }
        self.frame().items.push(node);
        Ok(())
    }

    /// `(?` at the cursor: a named group, a flag group or a non-capturing
    /// group with flags.
    fn perl_flags(&mut self) -> Result<(), String> {
        let s = self.rest();
        let b = s.as_bytes();
        let named_p = b.len() > 4 && b.get(2) == Some(&b'P') && b.get(3) == Some(&b'<');
        let named = named_p || (b.len() > 3 && b.get(2) == Some(&b'<'));
        if named {
            let begin = if named_p { 4 } else { 3 };
            let Some(end) = s.find('>') else {
                return Err(err("invalid named capture", s));
            };
            let name = s.get(begin..end).unwrap_or("");
            let whole = s.get(..=end).unwrap_or(s);
            if name.is_empty() || !name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
                return Err(err("invalid named capture", whole));
            }
            self.pos += end + 1;
            self.open(true);
            return Ok(());
        }
        let mut flags = self.flags;
        let mut negative = false;
        let mut saw_flag = false;
        let mut i = 2;
        for c in s.get(2..).unwrap_or("").chars() {
            i += c.len_utf8();
            let on = !negative;
            match c {
                'i' => {
                    flags.fold = on;
                    saw_flag = true;
                }
                'm' => {
                    flags.multiline = on;
                    saw_flag = true;
                }
                's' => {
                    flags.dot_nl = on;
                    saw_flag = true;
                }
                'U' => saw_flag = true,
                '-' => {
                    if negative {
                        break;
                    }
                    negative = true;
                    saw_flag = false;
                }
                ':' | ')' => {
                    if negative && !saw_flag {
                        break;
                    }
                    if c == ':' {
                        self.open(false);
                    }
                    self.flags = flags;
                    self.pos += i;
                    return Ok(());
                }
                _ => break,
            }
        }
        Err(err(
            "invalid or unsupported Perl syntax",
            s.get(..i).unwrap_or(s),
        ))
    }

    /// A backslash outside a class.
    fn escape_outside(&mut self) -> Result<(), String> {
        let kind = match self.peek2() {
            Some('A') => Some(Kind::BeginText),
            Some('z') => Some(Kind::EndText),
            Some('b') => Some(Kind::WordBoundary),
            Some('B') => Some(Kind::NoWordBoundary),
            Some('C') => return Err(err("invalid escape sequence", "\\C")),
            Some('Q') => {
                self.pos += 2;
                let rest = self.rest();
                let (lit, used) = match rest.find("\\E") {
                    Some(end) => (rest.get(..end).unwrap_or(""), end + 2),
                    None => (rest, rest.len()),
                };
                let chars: Vec<u32> = lit.chars().map(u32::from).collect();
                self.pos += used;
                for c in chars {
                    self.literal(c)?;
                }
                return Ok(());
            }
            _ => None,
        };
        if let Some(k) = kind {
            self.pos += 2;
            return self.push(Node::leaf(k));
        }
        if let Some(set) = self.unicode_class()? {
            return self.push(Node::leaf(Kind::Class(set)));
        }
        if let Some(set) = self.perl_class() {
            return self.push(Node::leaf(Kind::Class(set)));
        }
        let c = self.escape()?;
        self.literal(c)
    }

    /// `\p…`/`\P…` at the cursor: None when not there, else the set or
    /// Go's refusal.
    fn unicode_class(&mut self) -> Result<Option<ClassUnicode>, String> {
        let s = self.rest();
        let mut negative = match s.get(..2) {
            Some("\\p") => false,
            Some("\\P") => true,
            _ => return Ok(None),
        };
        let after = s.get(2..).unwrap_or("");
        let (name, used) = match after.chars().next() {
            Some('{') => {
                let Some(end) = s.find('}') else {
                    return Err(err("invalid character class range", s));
                };
                (s.get(3..end).unwrap_or(""), end + 1)
            }
            Some(c) => (after.get(..c.len_utf8()).unwrap_or(""), 2 + c.len_utf8()),
            None => ("", 2),
        };
        let seq = s.get(..used).unwrap_or(s);
        let name = match name.strip_prefix('^') {
            Some(n) => {
                negative = !negative;
                n
            }
            None => name,
        };
        let Some(mut set) = unicode_table(name) else {
            return Err(err("invalid character class range", seq));
        };
        if self.flags.fold {
            set = folded(set);
        }
        if negative {
            set = negated(set);
        }
        self.pos += used;
        Ok(Some(set))
    }

    /// `\d \D \s \S \w \W` at the cursor.
    fn perl_class(&mut self) -> Option<ClassUnicode> {
        let s = self.rest();
        let mut it = s.chars();
        if it.next() != Some('\\') {
            return None;
        }
        let c = it.next()?;
        let (_, pairs) = PERL_GROUPS
            .iter()
            .find(|(name, _)| *name == c.to_ascii_lowercase())?;
        if !c.is_ascii_alphabetic() {
            return None;
        }
        self.pos += 2;
        Some(group(pairs, c.is_ascii_uppercase(), self.flags.fold))
    }

    /// A single-character escape at the cursor (a backslash): its code
    /// point, or Go's refusal.
    fn escape(&mut self) -> Result<u32, String> {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.bump() else {
            return Err("trailing backslash at end of expression".to_owned());
        };
        let bad = |p: &Self| {
            err(
                "invalid escape sequence",
                p.src.get(start..p.pos).unwrap_or(""),
            )
        };
        match c {
            '1'..='7' if !matches!(self.peek(), Some('0'..='7')) => Err(bad(self)),
            '0'..='7' => {
                let mut r = u32::from(c) - u32::from('0');
                for _ in 0..2 {
                    match self.peek() {
                        Some(d @ '0'..='7') => {
                            r = r * 8 + (u32::from(d) - u32::from('0'));
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                Ok(r)
            }
            'x' => {
                let Some(c1) = self.bump() else {
                    return Err(bad(self));
                };
                if c1 == '{' {
                    let mut r: u32 = 0;
                    let mut digits = 0;
                    loop {
                        let Some(d) = self.bump() else {
                            return Err(bad(self));
                        };
                        if d == '}' {
                            break;
                        }
                        let Some(v) = d.to_digit(16) else {
                            return Err(bad(self));
                        };
                        r = r * 16 + v;
                        if r > 0x10FFFF {
                            return Err(bad(self));
                        }
                        digits += 1;
                    }
                    if digits == 0 {
                        return Err(bad(self));
                    }
                    return Ok(r);
                }
                let x = c1.to_digit(16);
                let y = self.bump().and_then(|c2| c2.to_digit(16));
                match (x, y) {
                    (Some(x), Some(y)) => Ok(x * 16 + y),
                    _ => Err(bad(self)),
                }
            }
            'a' => Ok(0x07),
            'f' => Ok(0x0C),
            'n' => Ok(0x0A),
            'r' => Ok(0x0D),
            't' => Ok(0x09),
            'v' => Ok(0x0B),
            c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok(u32::from(c)),
            _ => Err(bad(self)),
        }
    }

    /// A bracketed class at the cursor (`[`).
    fn class(&mut self) -> Result<(), String> {
        let whole_start = self.pos;
        self.pos += 1;
        let mut negative = false;
        if self.peek() == Some('^') {
            negative = true;
            self.pos += 1;
        }
        let mut set = ClassUnicode::empty();
        let mut first = true;
        loop {
            match self.peek() {
                None => {
                    return Err(err(
                        "missing closing ]",
                        self.src.get(whole_start..).unwrap_or(""),
                    ))
                }
                Some(']') if !first => break,
                _ => {}
            }
            first = false;
            let rest = self.rest();
            if rest.len() > 2 && rest.starts_with("[:") {
                if let Some(i) = rest.get(2..).and_then(|t| t.find(":]")) {
                    let name = rest.get(..i + 4).unwrap_or("");
                    let inner = name.get(2..name.len() - 2).unwrap_or("");
                    let (neg, key) = match inner.strip_prefix('^') {
                        Some(k) => (true, k),
                        None => (false, inner),
                    };
                    let Some((_, pairs)) = POSIX_GROUPS.iter().find(|(n, _)| *n == key) else {
                        return Err(err("invalid character class range", name));
                    };
                    set.union(&group(pairs, neg, self.flags.fold));
                    self.pos += name.len();
                    continue;
                }
            }
            if let Some(u) = self.unicode_class()? {
                set.union(&u);
                continue;
            }
            if let Some(g) = self.perl_class() {
                set.union(&g);
                continue;
            }
            let range_start = self.pos;
            let lo = self.class_char(whole_start)?;
            let mut hi = lo;
            let r = self.rest().as_bytes();
            if r.len() >= 2 && r.first() == Some(&b'-') && r.get(1) != Some(&b']') {
                self.pos += 1;
                hi = self.class_char(whole_start)?;
                if hi < lo {
                    return Err(err(
                        "invalid character class range",
                        self.src.get(range_start..self.pos).unwrap_or(""),
                    ));
                }
            }
            let mut piece = range(lo, hi);
            if self.flags.fold {
                piece = folded(piece);
            }
            set.union(&piece);
        }
        self.pos += 1; // the closing ]
        if negative {
            set = negated(set);
        }
        self.push(Node::leaf(Kind::Class(set)))
    }

    fn class_char(&mut self, whole_start: usize) -> Result<u32, String> {
        match self.peek() {
            None => Err(err(
                "missing closing ]",
                self.src.get(whole_start..).unwrap_or(""),
            )),
            Some('\\') => self.escape(),
            Some(c) => {
                self.pos += c.len_utf8();
                Ok(u32::from(c))
            }
        }
    }
}

/// Go's decimal count: at least one digit, no leading zero unless the
/// number is `0`; a value reaching 10^8 before its last digit reads as -1.
/// Returns (value, bytes used), or None when there is no count.
fn go_int(b: &[u8]) -> Option<(i64, usize)> {
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || (digits >= 2 && b.first() == Some(&b'0')) {
        return None;
    }
    let mut n: i64 = 0;
    for &d in b.get(..digits)? {
        if n >= 100_000_000 {
            return Some((-1, digits));
        }
        n = n * 10 + i64::from(d - b'0');
    }
    Some((n, digits))
}

/// Go's check that nested counted repeats multiply to at most `n` along
/// every path (a `{0}` repeat ends the walk).
fn repeat_ok(node: &Node, mut n: u32) -> bool {
    if let Kind::Repeat(_, min, max) = &node.kind {
        let m = match max {
            Some(0) => return true,
            Some(m) => *m,
            None => *min,
        };
        if m > n {
            return false;
        }
        if let Some(q) = n.checked_div(m) {
            n = q;
        }
    }
    match &node.kind {
        Kind::Capture(s) | Kind::Star(s) | Kind::Plus(s) | Kind::Quest(s) => repeat_ok(s, n),
        Kind::Repeat(s, _, _) => repeat_ok(s, n),
        Kind::Concat(v) | Kind::Alternate(v) => v.iter().all(|s| repeat_ok(s, n)),
        _ => true,
    }
}

// ---------------------------------------------------------------------------
// Translation to the `regex` crate's syntax

fn emit_set(set: &ClassUnicode, out: &mut String) {
    if set.ranges().is_empty() {
        // Matches nothing.
        out.push_str("[^\\x{0}-\\x{10FFFF}]");
        return;
    }
    out.push('[');
    for r in set.ranges() {
        let (a, b) = (u32::from(r.start()), u32::from(r.end()));
        if a == b {
            let _ = write!(out, "\\x{{{a:X}}}");
        } else {
            let _ = write!(out, "\\x{{{a:X}}}-\\x{{{b:X}}}");
        }
    }
    out.push(']');
}

fn emit_group(node: &Node, out: &mut String) {
    out.push_str("(?:");
    emit(node, out);
    out.push(')');
}

fn emit(node: &Node, out: &mut String) {
    match &node.kind {
        Kind::Empty => out.push_str("(?:)"),
        Kind::Literal(cs, fold) => {
            for &c in cs {
                match (char::from_u32(c), fold) {
                    (Some(ch), false) => {
                        let _ = write!(out, "\\x{{{:X}}}", u32::from(ch));
                    }
                    (Some(ch), true) => {
                        emit_set(
                            &folded(ClassUnicode::new([ClassUnicodeRange::new(ch, ch)])),
                            out,
                        );
                    }
                    (None, _) => emit_set(&ClassUnicode::empty(), out),
                }
            }
        }
        Kind::Class(set) => emit_set(set, out),
        Kind::AnyNotNl => out.push_str("[^\\n]"),
        Kind::Any => out.push_str("(?s:.)"),
        Kind::BeginLine => out.push_str("(?m:^)"),
        Kind::EndLine => out.push_str("(?m:$)"),
        Kind::BeginText => out.push_str("\\A"),
        Kind::EndText => out.push_str("\\z"),
        Kind::WordBoundary => out.push_str("(?-u:\\b)"),
        Kind::NoWordBoundary => out.push_str("(?-u:\\B)"),
        Kind::Capture(s) => emit_group(s, out),
        Kind::Star(s) => {
            emit_group(s, out);
            out.push('*');
        }
        Kind::Plus(s) => {
            emit_group(s, out);
            out.push('+');
        }
        Kind::Quest(s) => {
            emit_group(s, out);
            out.push('?');
        }
        Kind::Repeat(s, min, max) => {
            emit_group(s, out);
            let _ = match max {
                Some(m) if m == min => write!(out, "{{{min}}}"),
                Some(m) => write!(out, "{{{min},{m}}}"),
                None => write!(out, "{{{min},}}"),
            };
        }
        Kind::Concat(v) => {
            for s in v {
                emit(s, out);
            }
        }
        Kind::Alternate(v) => {
            out.push_str("(?:");
            for (i, s) in v.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                emit(s, out);
            }
            out.push(')');
        }
    }
}

#[cfg(test)]
mod tests;
