//! `form-package locator DIR...` and `locator --parse TAG
//! [--package-api-version V]` (issue 39 item 3): the publication locator of
//! each verified package ([`crate::host::locator::for_index`], computed by
//! verify itself: [`crate::verify::PackageOutcome::locator`]), or a tag read
//! back with the Core's grammar ([`crate::host::locator::parse_tag`]). A
//! refused package is reported with its findings and has no locator; a
//! refused tag is one finding (`FD783`–`FD786`).

use std::path::PathBuf;

use crate::diag::Diagnostic;
use crate::host::locator;
use crate::report::walk::{discover, Found};
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::verify::PackageOutcome;

/// The locators of the packages under `dirs`, each verified first.
pub fn of_dirs(dirs: &[PathBuf]) -> Report {
    let walked = discover(dirs, &crate::discover::WalkRules::default(), &|_| false);
    let entries = walked
        .found
        .into_iter()
        .map(|found| match found {
            Found::Path(entry) => *entry,
            Found::Root(root) => {
                Entry::new(EntryKind::Package, crate::verify::verify_package(&root))
            }
        })
        .collect();
    Report::new(entries, ExitRule::default())
}

/// `TAG` read as a publication tag, under `api` when given: one document
/// entry named by the tag, with the locator or the finding.
pub fn parse(tag: &str, api: Option<&str>) -> Report {
    let result = match api {
        Some(api) => locator::parse_tag_for(tag, api),
        None => locator::parse_tag(tag),
    };
    let mut outcome = PackageOutcome {
        path: PathBuf::from(tag),
        ..PackageOutcome::default()
    };
    match result {
        Ok(l) => outcome.locator = Some(l.to_value()),
        Err(r) => outcome.diagnostics.push(Diagnostic::new(r.code, r.message)),
    }
    Report::new(
        vec![Entry::new(EntryKind::Document, outcome)],
        ExitRule::default(),
    )
}
