//! The `format` assertions of the reference's JSON Schema engine, one
//! function per format (`verifier-rules.md` §12 E3; issue 10, kind 2).
//!
//! The reference asserts formats with `santhosh-tekuri/jsonschema` v6.0.2
//! (`format.go`), which leans on Go's `strconv.Atoi`, `time.Parse`,
//! `net/netip.ParseAddr` and `net/url.Parse` (Go 1.25.5, the oracle's
//! toolchain). Each function here decides exactly what that code decides,
//! written from the rules (the public source was read, not translated) and
//! checked against the oracle (`docs/src/fidelity.md` § Formats). Hand-rolled on
//! purpose: no crate reproduces Go's acceptance quirks (a signed `Atoi`
//! field, a URL parser that never looks at an opaque part or a query, a
//! quoted local part recognised by its first character only).
//!
//! Every function takes the instance string and returns whether the format
//! holds; non-string instances never reach them (the engine ignores them).
//! Lengths are in bytes, as in Go, wherever the reference measures them.

/// A format check: the instance string in, whether the format holds out.
pub type Check = fn(&str) -> bool;

/// The formats registered with the engine: every asserted name except
/// `regex` (which shares the `pattern` grammar and is registered by
/// [`crate::engine::compile`]). Names match `crate::engine::ASSERTED_FORMATS`.
pub const CHECKS: &[(&str, Check)] = &[
    ("json-pointer", is_json_pointer),
    ("relative-json-pointer", is_relative_json_pointer),
    ("uuid", is_uuid),
    ("duration", is_duration),
    ("period", is_period),
    ("ipv4", is_ipv4),
    ("ipv6", is_ipv6),
    ("hostname", is_hostname),
    ("email", is_email),
    ("date", is_date),
    ("time", is_time),
    ("date-time", is_date_time),
    ("uri", is_uri),
    ("iri", is_iri),
    ("uri-reference", is_uri_reference),
    ("iri-reference", is_iri_reference),
    ("uri-template", is_uri_template),
    ("semver", is_semver),
];

// ---------------------------------------------------------------------------
// Go's integer parse

/// Go `strconv.Atoi` on `s`: an optional `+`/`-`, then one or more ASCII
/// digits, nothing else; `None` on a syntax error or when the value does not
/// fit an `i64` (Go's range error).
fn go_atoi(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        let d = i64::from(d - b'0');
        value = value.checked_mul(10)?;
        value = if neg {
            value.checked_sub(d)?
        } else {
            value.checked_add(d)?
        };
    }
    Some(value)
}

/// Go `strings.SplitN(s, sep, n)` for a one-byte separator and `n > 0`.
fn split_n(s: &[u8], sep: u8, n: usize) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(n);
    let mut rest = s;
    while out.len() + 1 < n {
        match rest.iter().position(|&b| b == sep) {
            Some(i) => {
                out.push(rest.get(..i).unwrap_or_default());
                rest = rest.get(i + 1..).unwrap_or_default();
            }
            None => break,
        }
    }
    out.push(rest);
    out
}

// ---------------------------------------------------------------------------
// json-pointer, relative-json-pointer, uuid

/// `json-pointer` (RFC 6901 as `validateJSONPointer` reads it).
///
/// | string | verdict | rule |
/// | --- | --- | --- |
/// | `""`, `/`, `/a~0~1`, `//`, `/a b`, `/é` | accepted | empty, or `/` then tokens |
/// | `a`, `#/a` | refused | must start with `/` |
/// | `/a~`, `/a~2` | refused | `~` must be followed by `0` or `1` |
pub fn is_json_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    let Some(rest) = s.strip_prefix('/') else {
        return false;
    };
    // Every character but `~` (checked as an escape) is allowed in a token
    // (`/` separates tokens).
    rest.split('/').all(|token| {
        let mut bytes = token.bytes();
        while let Some(b) = bytes.next() {
            if b == b'~' && !matches!(bytes.next(), Some(b'0' | b'1')) {
                return false;
            }
        }
        true
    })
}

/// `relative-json-pointer` (draft-handrews-relative-json-pointer-01 as
/// `validateRelativeJSONPointer` reads it).
///
/// | string | verdict | rule |
/// | --- | --- | --- |
/// | `0`, `0#`, `1/a`, `10` | accepted | a non-negative integer, then `#` or a JSON Pointer |
/// | `01`, `00` | refused | a multi-digit integer starts with `0` |
/// | `-1`, `+1`, `#`, `""` | refused | must start with a digit |
/// | `0##`, `1 /a` | refused | the rest is neither `#` nor a JSON Pointer |
pub fn is_relative_json_pointer(s: &str) -> bool {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits > 1 && s.starts_with('0')) {
        return false;
    }
    let rest = s.get(digits..).unwrap_or_default();
    rest == "#" || is_json_pointer(rest)
}

/// `uuid` (RFC 4122 as `validateUUID` reads it: five `-`-separated groups
/// of 8-4-4-4-12 hex digits, either case).
///
/// | string | verdict |
/// | --- | --- |
/// | `123e4567-e89b-12d3-a456-426614174000`, upper case too | accepted |
/// | no dashes, braces, `urn:uuid:` prefix, a `g`, a wrong group length | refused |
pub fn is_uuid(s: &str) -> bool {
    const GROUPS: [usize; 5] = [8, 4, 4, 4, 12];
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == GROUPS.len()
        && groups
            .iter()
            .zip(GROUPS)
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

// ---------------------------------------------------------------------------
// duration, period

/// `duration` (`validateDuration`): `P`, then either digits and `W`, or
/// date units then `T` and time units, each a number and a unit. Only the
/// unit order is checked (`Y M D`, then `H M S`); a unit may be skipped,
/// numbers are ASCII digits of any length, no fractions.
///
/// | string | verdict | rule |
/// | --- | --- | --- |
/// | `P1Y1D`, `PT1H1S`, `P1Y2M3DT4H5M6S`, `P1W`, `P00001D` | accepted | units in order |
/// | `P`, `PT`, `P1DT`, `PTT1H` | refused | nothing after `P` / after `T` |
/// | `P1Y1Y`, `P1D1Y`, `PT1S1M`, `P1H`, `PT1D` | refused | unit out of order or unknown |
/// | `P1Y1W`, `PT1.5S`, `-P1D`, `p1d`, `P1` | refused | week alone; digits only; a unit after each number |
pub fn is_duration(s: &str) -> bool {
    let Some(s) = s.strip_prefix('P') else {
        return false;
    };
    if s.is_empty() {
        return false;
    }
    if let Some(weeks) = s.strip_suffix('W') {
        return !weeks.is_empty() && weeks.bytes().all(|b| b.is_ascii_digit());
    }
    const UNITS: [&[u8]; 2] = [b"YMD", b"HMS"];
    for (i, part) in s.split('T').enumerate() {
        let Some(&all) = UNITS.get(i) else {
            return false; // more than one T
        };
        if i != 0 && part.is_empty() {
            return false;
        }
        let mut units = all;
        let mut rest = part.as_bytes();
        while !rest.is_empty() {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return false;
            }
            let Some((&unit, after)) = rest.get(digits..).and_then(<[u8]>::split_first) else {
                return false; // a number without its unit
            };
            let Some(j) = units.iter().position(|&u| u == unit) else {
                return false;
            };
            units = units.get(j + 1..).unwrap_or_default();
            rest = after;
        }
    }
    true
}

/// `period` (`validatePeriod`): `start/end` split at the first `/`; a start
/// beginning with `P` is a duration and the end a date-time; otherwise the
/// start is a date-time and the end a duration (when it begins with `P`)
/// or a date-time.
///
/// | string | verdict |
/// | --- | --- |
/// | `2024-01-01T00:00:00Z/P1D`, `P1D/2024-01-01T00:00:00Z`, two date-times | accepted |
/// | `2024-01-01T00:00:00Z/PT1H1S` (unit skipped), `2024-01-01T+1:00:00Z/P1D` (signed field) | accepted |
/// | `P1D/P1D`, `/P1D`, `2024-01-01T00:00:00Z/`, `2024-01-01/P1D`, no `/` | refused |
pub fn is_period(s: &str) -> bool {
    let Some((start, end)) = s.split_once('/') else {
        return false;
    };
    if start.starts_with('P') {
        is_duration(start) && is_date_time(end)
    } else if end.starts_with('P') {
        is_date_time(start) && is_duration(end)
    } else {
        is_date_time(start) && is_date_time(end)
    }
}

// ---------------------------------------------------------------------------
// date, time, date-time

fn two_digits(b: &[u8]) -> Option<u32> {
    match b {
        [h @ b'0'..=b'9', l @ b'0'..=b'9'] => Some(u32::from(h - b'0') * 10 + u32::from(l - b'0')),
        _ => None,
    }
}

fn date_bytes(b: &[u8]) -> bool {
    let [y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = b else {
        return false;
    };
    let year = [y0, y1, y2, y3].iter().try_fold(0u32, |acc, &&d| {
        d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
    });
    let (Some(year), Some(month), Some(day)) =
        (year, two_digits(&[*m0, *m1]), two_digits(&[*d0, *d1]))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `date` (Go `time.Parse("2006-01-02", s)`): four digits, two, two, with
/// `-`; the month 1–12 and the day within that month of the proleptic
/// Gregorian calendar (year 0000 is a leap year).
///
/// | string | verdict |
/// | --- | --- |
/// | `2024-02-29`, `0000-02-29`, `9999-12-31` | accepted |
/// | `2023-02-29`, `2024-04-31`, `2024-13-01`, `2024-1-01`, `+2024-01-01`, `2024-01-01T` | refused |
pub fn is_date(s: &str) -> bool {
    date_bytes(s.as_bytes())
}

fn time_bytes(b: &[u8]) -> bool {
    if b.len() < 9 || b.get(2) != Some(&b':') || b.get(5) != Some(&b':') {
        return false;
    }
    // hh:mm:ss: each field a Go Atoi (a sign is accepted), never negative.
    let mut hms = [0i64; 3];
    let fields = split_n(b.get(..8).unwrap_or_default(), b':', 3);
    if fields.len() != 3 {
        return false;
    }
    for (slot, field) in hms.iter_mut().zip(fields) {
        match go_atoi(field) {
            Some(v) if v >= 0 => *slot = v,
            _ => return false,
        }
    }
    let [mut h, mut m, sec] = hms;
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    let mut rest = b.get(8..).unwrap_or_default();
    if let Some(frac) = rest.strip_prefix(b".") {
        let digits = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        rest = frac.get(digits..).unwrap_or_default();
    }
    if rest != b"z" && rest != b"Z" {
        if rest.len() != 6 {
            return false;
        }
        let sign = match rest.first() {
            Some(b'+') => -1,
            Some(b'-') => 1,
            _ => return false,
        };
        let offset = rest.get(1..).unwrap_or_default();
        if offset.get(2) != Some(&b':') {
            return false;
        }
        let mut zhm = [0i64; 2];
        for (slot, field) in zhm.iter_mut().zip(split_n(offset, b':', 2)) {
            match go_atoi(field) {
                Some(v) if v >= 0 => *slot = v,
                _ => return false,
            }
        }
        let [zh, zm] = zhm;
        if zh > 23 || zm > 59 {
            return false;
        }
        let mut hm = h * 60 + m + sign * (zh * 60 + zm);
        if hm < 0 {
            hm += 24 * 60;
        }
        h = hm / 60;
        m = hm % 60;
    }
    // A leap second only at 23:59 UTC.
    !(sec >= 60 && (h != 23 || m != 59))
}

/// `time` (`validateTime`): `hh:mm:ss`, an optional `.` fraction, then `Z`,
/// `z` or a `±hh:mm` offset. Each two-byte field is read with Go's
/// `strconv.Atoi`, so `+1` and `-0` are fields; the second may be 60 only
/// at 23:59 UTC.
///
/// | string | verdict | rule |
/// | --- | --- | --- |
/// | `00:00:00Z`, `23:59:60Z`, `15:59:60-08:00`, `00:59:60+01:00`, `12:00:00.5+01:00` | accepted | |
/// | `+1:00:00Z`, `00:00:+1Z`, `12:00:00++1:00`, `+0:+0:+0Z` | accepted | Atoi accepts a sign |
/// | `00:-1:00Z`, `12:00:00+-1:00` | refused | negative field |
/// | `24:00:00Z`, `12:00:61Z`, `12:00:00+24:00`, `23:59:60+00:01` | refused | range, leap second |
/// | `12:00:00`, `12:00:00.Z`, `12:00:00+0100`, `1:00:00Z` | refused | shape |
pub fn is_time(s: &str) -> bool {
    time_bytes(s.as_bytes())
}

/// `date-time` (`validateDateTime`): at least 20 bytes, a `T`/`t` at byte
/// 10, a [`is_date`] before it and a [`is_time`] after it.
///
/// | string | verdict |
/// | --- | --- |
/// | `2024-01-01T00:00:00Z`, `2024-01-01t00:00:00z`, `2024-01-01T00:00:+1Z` | accepted |
/// | `2024-01-01 00:00:00Z`, `2024-01-01T00:00:00`, `2023-02-29T00:00:00Z` | refused |
pub fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 20
        && matches!(b.get(10), Some(b't' | b'T'))
        && date_bytes(b.get(..10).unwrap_or_default())
        && time_bytes(b.get(11..).unwrap_or_default())
}

// ---------------------------------------------------------------------------
// ipv4, ipv6 (Go net/netip)

/// `ipv4` (`validateIPV4`): four `.`-separated fields, none with a leading
/// `0` (when longer than one byte), each a Go `strconv.Atoi` between 0 and
/// 255. Atoi accepts a sign, so `+1` and `-0` are fields.
///
/// | string | verdict | rule |
/// | --- | --- | --- |
/// | `1.2.3.4`, `0.0.0.0`, `255.255.255.255` | accepted | |
/// | `+1.2.3.4`, `-0.0.0.0`, `+01.2.3.4`, `-00.0.0.0` | accepted | signed Atoi; the zero check looks at byte 0 only |
/// | `01.2.3.4`, `00.0.0.0`, `1.2.3.04` | refused | leading zero |
/// | `256.1.1.1`, `-1.2.3.4`, `1.2.3`, `1.2.3.+`, `0x1.2.3.4`, `١.٢.٣.٤` | refused | range, shape, digits |
pub fn is_ipv4(s: &str) -> bool {
    let groups: Vec<&[u8]> = s.as_bytes().split(|&b| b == b'.').collect();
    groups.len() == 4
        && groups
            .iter()
            .all(|g| !(g.len() > 1 && g.first() == Some(&b'0')) && atoi_in_range(g, 0, 255))
}

/// Go `strconv.Atoi(s)` succeeds with a value in `lo..=hi`. Decided on the
/// digits themselves so that long inputs (`+000…0001`) need no overflow
/// rules beyond Go's: a value outside `i64` is an error there too.
fn atoi_in_range(s: &[u8], lo: i64, hi: i64) -> bool {
    go_atoi(s).is_some_and(|v| (lo..=hi).contains(&v))
}

/// What Go's `netip.ParseAddr` makes of a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Addr {
    V4,
    V6 { zone: bool },
}

/// Go `netip.ParseAddr`: the first of `.`, `:` and `%` decides between a
/// strict dotted quad and an IPv6 address (with an optional non-empty
/// `%zone`); `None` when Go refuses it.
fn parse_addr(s: &[u8]) -> Option<Addr> {
    match s.iter().find(|b| matches!(b, b'.' | b':' | b'%')) {
        Some(b'.') => ipv4_fields(s).then_some(Addr::V4),
        Some(b':') => parse_ipv6(s).map(|zone| Addr::V6 { zone }),
        _ => None,
    }
}

/// Go `netip` dotted quad: four decimal fields 0–255, no leading zero, no
/// empty field, digits and dots only.
fn ipv4_fields(s: &[u8]) -> bool {
    let mut value = 0u32;
    let mut digits = 0;
    let mut dots = 0;
    for (i, &c) in s.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && value == 0 {
                    return false; // leading zero
                }
                value = value * 10 + u32::from(c - b'0');
                digits += 1;
                if value > 255 {
                    return false;
                }
            }
            b'.' => {
                if i == 0 || i + 1 == s.len() || s.get(i - 1) == Some(&b'.') || dots == 3 {
                    return false;
                }
                dots += 1;
                value = 0;
                digits = 0;
            }
            _ => return false,
        }
    }
    dots == 3
}

/// Go `netip` IPv6 text: up to eight groups of one to four hex digits, at
/// most one `::` that stands for at least one group, an optional trailing
/// dotted quad in the last two groups, an optional non-empty `%zone`.
/// Returns whether a zone is present.
fn parse_ipv6(input: &[u8]) -> Option<bool> {
    let (mut s, zone) = match input.iter().position(|&b| b == b'%') {
        Some(i) if i + 1 == input.len() => return None, // empty zone
        Some(i) => (input.get(..i)?, true),
        None => (input, false),
    };
    let mut ellipsis = false;
    if let Some(rest) = s.strip_prefix(b"::") {
        ellipsis = true;
        s = rest;
        if s.is_empty() {
            return Some(zone);
        }
    }
    let mut filled = 0; // bytes of the 16
    while filled < 16 {
        let digits = s.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        if digits == 0 || digits > 4 {
            return None;
        }
        if s.get(digits) == Some(&b'.') {
            // An embedded IPv4 address replaces the last two groups.
            if (!ellipsis && filled != 12) || filled + 4 > 16 || !ipv4_fields(s) {
                return None;
            }
            s = &[];
            filled += 4;
            break;
        }
        filled += 2;
        s = s.get(digits..)?;
        let Some((&sep, rest)) = s.split_first() else {
            break;
        };
        if sep != b':' || rest.is_empty() {
            return None;
        }
        s = rest;
        if let Some(rest) = s.strip_prefix(b":") {
            if ellipsis {
                return None; // a second ::
            }
            ellipsis = true;
            s = rest;
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    // Too short without `::`, or a `::` standing for no group at all.
    if (filled < 16) != ellipsis {
        return None;
    }
    Some(zone)
}

/// `ipv6` (`validateIPV6`): contains `:`, Go `netip.ParseAddr` accepts it
/// and it has no zone.
///
/// | string | verdict |
/// | --- | --- |
/// | `::1`, `::`, `1:2:3:4:5:6:7:8`, `::ffff:1.2.3.4`, `1:2:3:4:5:6:1.2.3.4` | accepted |
/// | `fe80::1%eth0`, `1::2::3`, `12345::`, `::ffff:01.2.3.4`, `1:2:3:4:5:6:7:8:9`, `[::1]`, `1.2.3.4` | refused |
pub fn is_ipv6(s: &str) -> bool {
    s.contains(':') && parse_addr(s.as_bytes()) == Some(Addr::V6 { zone: false })
}

// ---------------------------------------------------------------------------
// hostname, email

/// `hostname` (`validateHostname`): one trailing `.` dropped, at most 253
/// bytes, labels of 1–63 ASCII letters, digits and `-`, not starting or
/// ending with `-`. No IDNA rules: `xn--h` and `ab--cd` are hostnames.
///
/// | string | verdict |
/// | --- | --- |
/// | `example.com`, `example.com.`, `b.`, `xn--h`, `a--b`, `123`, 63-byte labels | accepted |
/// | `""`, `.`, `a..b`, `a.b..`, `-a`, `a-`, `a_b`, `é.com`, a 64-byte label, 254 bytes | refused |
pub fn is_hostname(s: &str) -> bool {
    let s = s.strip_suffix('.').unwrap_or(s);
    s.len() <= 253
        && s.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// `email` (`validateEmail` of v6.0.2): at most 254 bytes; split at the
/// last `@`; a local part of at most 64 bytes. A local part longer than one
/// byte that starts with `"` is "quoted": the bytes between its first and
/// last byte must hold no `\` and no `"` (the end is not checked to be a
/// quote: `"a@e` passes). Otherwise it is dot-atom text (ASCII letters,
/// digits and ``.!#$%&'*+-/=?^_`{|}~``, no leading, trailing or doubled
/// dot; empty allowed). The domain is `[IPv6:…]` (tag case-sensitive, an
/// [`is_ipv6`] address), `[…]` (an [`is_ipv4`] address) or an
/// [`is_hostname`].
///
/// | string | verdict | rule |
/// | --- | --- | --- |
/// | `a@example.com`, `@x`, `"é"@x`, `"a b"@e`, `"a@e` | accepted | empty local; quoted by first byte |
/// | `a@[1.2.3.4]`, `a@[+1.2.3.-0]`, `a@[IPv6:::1]` | accepted | IP literals |
/// | `"\b"@e`, `"a"b@e`, `"@e`, `a..b@e`, `é@e` | refused | quoted or atom rules |
/// | `a@[ipv6:::]`, `a@[IPv6:::1%eth0]`, `a@[]`, `a@`, `a@-b` | refused | domain |
/// | 255 bytes in all, 65-byte local part | refused | length |
pub fn is_email(s: &str) -> bool {
    if s.len() > 254 {
        return false;
    }
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    if local.len() > 64 {
        return false;
    }
    let lb = local.as_bytes();
    if lb.len() > 1 && lb.first() == Some(&b'"') {
        let inner = lb.get(1..lb.len() - 1).unwrap_or_default();
        if inner.iter().any(|&b| b == b'\\' || b == b'"') {
            return false;
        }
    } else {
        if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
            return false;
        }
        let atom = |b: u8| b.is_ascii_alphanumeric() || b".!#$%&'*+-/=?^_`{|}~".contains(&b);
        if !lb.iter().all(|&b| atom(b)) {
            return false;
        }
    }
    if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return match literal.strip_prefix("IPv6:") {
            Some(v6) => is_ipv6(v6),
            None => is_ipv4(literal),
        };
    }
    is_hostname(domain)
}

// ---------------------------------------------------------------------------
// uri, iri, uri-reference, iri-reference, uri-template (Go net/url)

/// Go `net/url` escaping modes this module needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The host (`encodeHost`).
    Host,
    /// The path (`encodePath`).
    Path,
    /// Userinfo, fragment: only the `%XX` shape is checked when unescaping.
    Other,
}

fn unhex(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

/// RFC 3986 `unreserved`: ASCII letters, digits and `-._~` (never
/// escaped by Go's `shouldEscape`, always valid in `validUserinfo`).
fn unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b'~')
}

/// RFC 3986 `sub-delims`: `!$&'()*+,;=` (allowed unescaped in a host by
/// Go's `shouldEscape` and in `validUserinfo`).
fn sub_delim(c: u8) -> bool {
    matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Go `shouldEscape(c, mode)` for the host and path modes.
fn should_escape(c: u8, mode: Mode) -> bool {
    if unreserved(c) {
        return false;
    }
    match mode {
        Mode::Host => !(sub_delim(c) || matches!(c, b':' | b'[' | b']' | b'<' | b'>' | b'"')),
        Mode::Path => !matches!(
            c,
            b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'@'
        ),
        Mode::Other => true,
    }
}

/// Go `unescape(s, mode)`: every `%` starts two hex digits; in a host an
/// escape may only give a byte ≥ 0x80 (or be `%25`) and a raw ASCII byte
/// must be one a host may hold. Returns the decoded bytes.
fn unescape(s: &[u8], mode: Mode) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        if c == b'%' {
            let (&h, &l) = (s.get(i + 1)?, s.get(i + 2)?);
            if !h.is_ascii_hexdigit() || !l.is_ascii_hexdigit() {
                return None;
            }
            if mode == Mode::Host && unhex(h) < 8 && (h, l) != (b'2', b'5') {
                return None;
            }
            out.push(unhex(h) << 4 | unhex(l));
            i += 3;
        } else {
            if mode == Mode::Host && c < 0x80 && should_escape(c, Mode::Host) {
                return None;
            }
            out.push(c);
            i += 1;
        }
    }
    Some(out)
}

/// Go `escape(s, encodePath)` compared with `raw`: true when Go would keep
/// no `RawPath` (the default encoding of the decoded path is `raw` itself).
fn path_is_default_encoding(decoded: &[u8], raw: &[u8]) -> bool {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut expected = Vec::with_capacity(raw.len());
    for &c in decoded {
        if should_escape(c, Mode::Path) {
            expected.push(b'%');
            expected.push(HEX.get(usize::from(c >> 4)).copied().unwrap_or(b'0'));
            expected.push(HEX.get(usize::from(c & 15)).copied().unwrap_or(b'0'));
        } else {
            expected.push(c);
        }
    }
    expected == raw
}

/// Go `validOptionalPort`: empty, or `:` then ASCII digits (maybe none).
fn valid_optional_port(port: &[u8]) -> bool {
    match port.split_first() {
        None => true,
        Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

/// Go 1.25.5 `parseHost` followed by the engine's IPv6 check
/// (`parseURL`: a hostname holding `:` must be a bracketed IPv6 address
/// without a zone).
///
/// The IP-literal branch starts at the *last* `[` (what comes before it is
/// never looked at), ends at the last `]`, allows `:digits` after it and
/// needs a real IPv6 address inside (not a dotted quad). Any other host is
/// `reg-name[:port]`: the part after the last `:` a port, no other `:`,
/// host characters only, escapes only of bytes ≥ 0x80 (or `%25`).
fn host_ok(host: &[u8]) -> bool {
    if let Some(open) = host.iter().rposition(|&b| b == b'[') {
        let Some(close) = host.iter().rposition(|&b| b == b']') else {
            return false;
        };
        if close < open || !valid_optional_port(host.get(close + 1..).unwrap_or_default()) {
            return false;
        }
        let inner = host.get(open + 1..close).unwrap_or_default();
        // Any `%` makes a zone (refused by the engine) or a bad escape.
        return !inner.contains(&b'%') && parse_addr(inner) == Some(Addr::V6 { zone: false });
    }
    if let Some(colon) = host.iter().rposition(|&b| b == b':') {
        let (name, port) = host.split_at(colon);
        if !valid_optional_port(port) || name.contains(&b':') {
            return false;
        }
    }
    unescape(host, Mode::Host).is_some()
}

/// Go `validUserinfo` plus the `%XX` shape of its unescape.
fn userinfo_ok(userinfo: &[u8]) -> bool {
    userinfo
        .iter()
        .all(|&b| unreserved(b) || sub_delim(b) || matches!(b, b':' | b'%' | b'@'))
        && unescape(userinfo, Mode::Other).is_some()
}

/// What the engine keeps from a successful Go `url.Parse`.
struct GoUrl<'a> {
    /// A scheme was found (`u.IsAbs()`).
    absolute: bool,
    /// `u.RawPath`: the raw path when it is not the default encoding of
    /// the decoded path, else empty.
    raw_path: &'a [u8],
}

/// Go 1.25.5 `url.Parse` plus the engine's IPv6-host check; `None` when
/// either refuses `s`.
///
/// Checked: no control byte before the first `#`; a scheme, when a `:`
/// ends a run of letters, digits, `+`, `-`, `.` that starts with a letter
/// (a leading `:` is an error); without a scheme, no `:` in the first path
/// segment; the authority after `//` (its userinfo up to the last `@`, its
/// host, see `host_ok`); `%XX` escapes in the path and the fragment. Never
/// checked: the query, and everything after `scheme:` when no `/` follows
/// (the opaque part).
fn go_url_parse(s: &str) -> Option<GoUrl<'_>> {
    let (before, fragment) = match s.split_once('#') {
        Some((u, f)) => (u.as_bytes(), f.as_bytes()),
        None => (s.as_bytes(), &b""[..]),
    };
    if before.iter().any(|&b| b < 0x20 || b == 0x7f) {
        return None;
    }
    if !fragment.is_empty() {
        unescape(fragment, Mode::Other)?;
    }
    if before == b"*" {
        return Some(GoUrl {
            absolute: false,
            raw_path: &[],
        });
    }
    // getScheme
    let mut absolute = false;
    let mut rest = before;
    for (i, &c) in before.iter().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return None, // missing protocol scheme
            b':' => {
                absolute = true;
                rest = before.get(i + 1..).unwrap_or_default();
                break;
            }
            _ => break,
        }
    }
    // The query is cut off and never checked.
    let questions = rest.iter().filter(|&&b| b == b'?').count();
    if questions == 1 && rest.last() == Some(&b'?') {
        rest = rest.get(..rest.len() - 1).unwrap_or_default();
    } else if let Some(q) = rest.iter().position(|&b| b == b'?') {
        rest = rest.get(..q).unwrap_or_default();
    }
    if !rest.starts_with(b"/") {
        if absolute {
            // Opaque: never checked.
            return Some(GoUrl {
                absolute,
                raw_path: &[],
            });
        }
        let segment = rest.split(|&b| b == b'/').next().unwrap_or_default();
        if segment.contains(&b':') {
            return None;
        }
    }
    if (absolute || !rest.starts_with(b"///")) && rest.starts_with(b"//") {
        let after = rest.get(2..).unwrap_or_default();
        let end = after.iter().position(|&b| b == b'/').unwrap_or(after.len());
        let (authority, path) = after.split_at(end);
        let host_ok = match authority.iter().rposition(|&b| b == b'@') {
            Some(at) => {
                userinfo_ok(authority.get(..at).unwrap_or_default())
                    && host_ok(authority.get(at + 1..).unwrap_or_default())
            }
            None => host_ok(authority),
        };
        if !host_ok {
            return None;
        }
        rest = path;
    }
    let decoded = unescape(rest, Mode::Path)?;
    let raw_path = if path_is_default_encoding(&decoded, rest) {
        &[][..]
    } else {
        rest
    };
    Some(GoUrl { absolute, raw_path })
}

/// `uri`: Go's `url.Parse` (see `go_url_parse` for what it checks and
/// never checks) with a scheme. In v6.0.2 the engine makes no ASCII check:
/// `uri` and `iri` decide alike, so raw non-ASCII, spaces and `<>"{}|\^`
/// pass wherever Go's parser does not look at them.
///
/// | string | verdict | rule |
/// | --- | --- | --- |
/// | `http://example.com`, `a:%`, `a:<>`, `t:]`, `urn:%zz`, `http://x/?%zz` | accepted | opaque part and query unchecked |
/// | `http://x/a b`, `http://x/{a}`, `http://é.com/`, `http://x/\` | accepted | no ASCII check |
/// | `http://a@b@c/`, `http://[::ffff:1.2.3.4]/`, `http://x:/`, `http://a]b/`, `s://x[::1]` | accepted | last `@`; IP literal from the last `[` |
/// | `//example.com`, `/path`, `""`, `1http://x`, `:a`, `é:x` | refused | no scheme |
/// | `p://[v1.e]`, `http://[1.2.3.4]/`, `http://[fe80::1%25en0]/`, `http://::1/` | refused | IP literals |
/// | `http://%41/`, `http://x y/`, `http://x:80a/`, `http://x/%zz`, `http://x/#%zz`, `http://u%zz@x/` | refused | host, port, escapes |
pub fn is_uri(s: &str) -> bool {
    go_url_parse(s).is_some_and(|u| u.absolute)
}

/// `iri`: decided exactly as [`is_uri`] (v6.0.2 `validateIRI`).
///
/// | string | verdict |
/// | --- | --- |
/// | `A:%\u{feff}`, `http://é.com/`, `p://@@`, `http://x/a b` | accepted |
/// | `é:x`, `//x`, `http://x y/`, `http://é@x/` | refused |
pub fn is_iri(s: &str) -> bool {
    is_uri(s)
}

/// `uri-reference`: Go's `url.Parse` (relative allowed), and no `\`
/// anywhere (v6.0.2 `validateURIReference`).
///
/// | string | verdict |
/// | --- | --- |
/// | `##`, `""`, `\u{e000}`, `//[[::]`, `?%`, `*`, `./a:b`, `///a`, `a b` | accepted |
/// | `//%2F`, `1a:b`, `#%`, `//a:b`, `//[::1`, `a\b`, `?\`, `#\` | refused |
pub fn is_uri_reference(s: &str) -> bool {
    !s.contains('\\') && go_url_parse(s).is_some()
}

/// `iri-reference`: decided exactly as [`is_uri_reference`].
///
/// | string | verdict |
/// | --- | --- |
/// | `//]`, `?%`, `パス`, `//é`, `//x y[::1]` | accepted |
/// | `é:x`, `//a b`, `//a{b`, `//é@c`, `/a\b` | refused |
pub fn is_iri_reference(s: &str) -> bool {
    is_uri_reference(s)
}

/// `uri-template` (`validateURITemplate`): Go's `url.Parse` (no ASCII
/// checks, relative allowed), then, only when Go keeps a `RawPath` (the
/// path is not in its default encoding), each `/` segment of it,
/// percent-decoded, must hold braces that open and close in turn.
///
/// | string | verdict | rule |
/// | --- | --- | --- |
/// | `{}`, `/{a}{b}`, `/%7B` (no RawPath), `/a%2f{b}`, `a:{`, `?{` | accepted | |
/// | `{?a}` (the path is `{`), `/{a`, `/{{a}}`, `/%7b`, `/!%7B`, `/{a/b}` | refused | braces per segment |
/// | `//x{/a`, `/%zz{` | refused | Go's parser |
pub fn is_uri_template(s: &str) -> bool {
    let Some(u) = go_url_parse(s) else {
        return false;
    };
    if u.raw_path.is_empty() {
        return true;
    }
    u.raw_path.split(|&b| b == b'/').all(|segment| {
        let Some(decoded) = unescape(segment, Mode::Other) else {
            return false;
        };
        let mut open = false;
        for b in decoded {
            match b {
                b'{' if !open => open = true,
                b'}' if open => open = false,
                b'{' | b'}' => return false,
                _ => {}
            }
        }
        !open
    })
}

// ---------------------------------------------------------------------------
// semver

/// `semver` (`validateSemver`, semver.org 2.0.0): the build after the
/// first `+` (non-empty dot-separated `[0-9A-Za-z-]+` identifiers), the
/// pre-release after the first `-` (the same, a numeric one without a
/// leading zero), then exactly three numbers without leading zeros.
///
/// | string | verdict |
/// | --- | --- |
/// | `1.0.0`, `1.0.0-alpha`, `1.0.0-0.3.7`, `1.0.0-a-b`, `1.0.0--`, `1.0.0+01`, `1.0.0-0a` | accepted |
/// | `1.0`, `01.0.0`, `1.0.0-`, `1.0.0+`, `1.0.0-01`, `1.0.0-a..b`, `v1.0.0`, `1.0.0-é`, `1.2.3.4` | refused |
pub fn is_semver(s: &str) -> bool {
    let ident_ok =
        |id: &str| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let mut s = s;
    if let Some((core, build)) = s.split_once('+') {
        if !build.split('.').all(ident_ok) {
            return false;
        }
        s = core;
    }
    if let Some((core, pre)) = s.split_once('-') {
        let pre_ok = pre.split('.').all(|id| {
            ident_ok(id)
                && !(id.len() > 1 && id.starts_with('0') && id.bytes().all(|b| b.is_ascii_digit()))
        });
        if !pre_ok {
            return false;
        }
        s = core;
    }
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && (p.len() == 1 || !p.starts_with('0'))
                && p.bytes().all(|b| b.is_ascii_digit())
        })
}
