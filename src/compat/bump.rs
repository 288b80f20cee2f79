//! The bump a pair shows against the bump its changes require
//! (versioning-rules V2, V3): SemVer precedence and the bump itself come
//! from the `semver` crate.

use semver::Version;

use super::change::{Change, Class};
use crate::codes::ChangeBump;

/// A version step, ordered: `none < patch < minor < major`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bump {
    /// The same MAJOR.MINOR.PATCH.
    None,
    /// PATCH grew.
    Patch,
    /// MINOR grew.
    Minor,
    /// MAJOR grew.
    Major,
}

impl Bump {
    /// `none`, `patch`, `minor` or `major`.
    pub fn name(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

/// Parses a `definitionVersion` as SemVer 2.0.0 (`None` when it is not one).
pub fn parse(version: &str) -> Option<Version> {
    Version::parse(version).ok()
}

/// The bump from `old` to `new` by their MAJOR.MINOR.PATCH (pre-release
/// and build metadata aside): the highest field that grew. `None` when the
/// three are equal or `new` is lower (the caller checks precedence).
pub fn actual(old: &Version, new: &Version) -> Bump {
    let (a, b) = (
        (old.major, old.minor, old.patch),
        (new.major, new.minor, new.patch),
    );
    if b <= a {
        Bump::None
    } else if b.0 > a.0 {
        Bump::Major
    } else if b.1 > a.1 {
        Bump::Minor
    } else {
        Bump::Patch
    }
}

/// The bump the `changes` of a pair require from `old`: the largest bump
/// their codes' TOML records for their classes (`bump`, from a `1.x`
/// version: V3, breaking → major, addition or relaxation → minor,
/// documentation → patch), a major asked as a minor from a `0.x` version
/// (V2). No change at all requires none.
pub fn required(old: &Version, changes: &[Change]) -> Bump {
    let zero = old.major == 0;
    changes
        .iter()
        .map(|c| match recorded(c) {
            ChangeBump::Patch => Bump::Patch,
            ChangeBump::Minor => Bump::Minor,
            ChangeBump::Major if zero => Bump::Minor,
            ChangeBump::Major => Bump::Major,
        })
        .max()
        .unwrap_or(Bump::None)
}

/// The bump `change`'s code records for its class (a class its code does
/// not list cannot be built, `change::rec_as`: counted as a major).
fn recorded(change: &Change) -> ChangeBump {
    change
        .code
        .info()
        .change
        .iter()
        .find(|(class, _)| *class == change.class)
        .map_or(ChangeBump::Major, |(_, bump)| *bump)
}

/// Why the `changes` of a pair require the bump they do, in one line
/// (issue 35 item 5): the rule of OLD's major line and the class that
/// decides, e.g. `0.x: a breaking change needs a minor`, `1.x: an addition
/// needs a minor`, `documentation only: a patch`, `no change`.
pub fn reason(old: &Version, changes: &[Change]) -> String {
    let line = format!("{}.x", old.major);
    match changes.iter().map(|c| c.class).max() {
        None => "no change: any later version fits".to_owned(),
        Some(Class::Documentation) => "documentation only: a patch".to_owned(),
        Some(Class::Relaxation) => format!("{line}: a relaxation needs a minor"),
        Some(Class::Addition) => format!("{line}: an addition needs a minor"),
        Some(Class::Breaking) if old.major == 0 => {
            "0.x: a breaking change needs a minor".to_owned()
        }
        Some(Class::Breaking) => format!("{line}: a breaking change needs a major"),
    }
}

/// True when `new` follows `old` in SemVer precedence (build metadata
/// ignored, §10–11).
pub fn increases(old: &Version, new: &Version) -> bool {
    new.cmp_precedence(old) == std::cmp::Ordering::Greater
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::compat::side::Doc;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap_or_else(|_| Version::new(0, 0, 0))
    }

    /// A change of `class` whose code records it as its usual class.
    fn change(class: Class) -> Change {
        let code = crate::codes::TABLE
            .iter()
            .find(|i| i.change.first().is_some_and(|(c, _)| *c == class))
            .map_or(Code::DocumentationChanged, |i| i.code);
        Change {
            code,
            class,
            doc: Doc::Definition,
            old: None,
            new: None,
            message: String::new(),
            inference: false,
            witness: None,
            valid_under_both: false,
        }
    }

    #[test]
    fn actual_bump_is_the_highest_field_that_grew() {
        assert_eq!(actual(&v("1.0.0"), &v("2.0.0")), Bump::Major);
        assert_eq!(actual(&v("1.0.0"), &v("1.1.0")), Bump::Minor);
        assert_eq!(actual(&v("1.0.0"), &v("1.0.1")), Bump::Patch);
        assert_eq!(actual(&v("1.0.0"), &v("1.0.0")), Bump::None);
        assert_eq!(actual(&v("0.0.0-legacy.1"), &v("1.0.0")), Bump::Major);
        assert_eq!(actual(&v("2.0.0"), &v("1.9.9")), Bump::None);
    }

    #[test]
    fn required_bump_follows_the_0x_and_1x_rules() {
        let breaking = [change(Class::Documentation), change(Class::Breaking)];
        assert_eq!(required(&v("1.2.3"), &breaking), Bump::Major);
        assert_eq!(required(&v("0.2.3"), &breaking), Bump::Minor);
        let addition = [change(Class::Addition)];
        assert_eq!(required(&v("1.0.0"), &addition), Bump::Minor);
        assert_eq!(required(&v("0.1.0"), &addition), Bump::Minor);
        assert_eq!(
            required(&v("1.0.0"), &[change(Class::Relaxation)]),
            Bump::Minor
        );
        assert_eq!(
            required(&v("1.0.0"), &[change(Class::Documentation)]),
            Bump::Patch
        );
        assert_eq!(required(&v("1.0.0"), &[]), Bump::None);
    }

    /// Issue 35 item 5: one line says why, by OLD's major line and the
    /// class that decides. Near miss: the same breaking change in 2.x
    /// needs a major.
    #[test]
    fn the_reason_names_the_major_line_and_the_deciding_class() {
        let breaking = [change(Class::Documentation), change(Class::Breaking)];
        assert_eq!(
            reason(&v("0.3.1"), &breaking),
            "0.x: a breaking change needs a minor"
        );
        assert_eq!(
            reason(&v("2.0.0"), &breaking),
            "2.x: a breaking change needs a major"
        );
        assert_eq!(
            reason(&v("1.0.0"), &[change(Class::Addition)]),
            "1.x: an addition needs a minor"
        );
        assert_eq!(
            reason(&v("1.0.0"), &[change(Class::Documentation)]),
            "documentation only: a patch"
        );
    }

    #[test]
    fn precedence_ignores_build_metadata_and_ranks_pre_releases_first() {
        assert!(increases(&v("1.0.0-rc.1"), &v("1.0.0")));
        assert!(!increases(&v("1.0.0+a"), &v("1.0.0+b")));
        assert!(increases(&v("0.0.0-legacy.1"), &v("1.0.0")));
        assert!(!increases(&v("2.0.0"), &v("1.0.0")));
    }
}
