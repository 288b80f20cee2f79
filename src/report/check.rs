//! What `check FILE...` returns (`ops::check::check_files`): its report,
//! one document entry per FILE, and what each document is;
//! `render::check` prints it.

use crate::report::Report;

/// What `check FILE...` found (`ops::check::check_files`); `render::check::output`
/// prints it.
#[derive(Debug)]
pub struct CheckRun {
    /// The run's report, built complete: one [`crate::report::EntryKind::Document`] entry
    /// per FILE in the order given, named by the path as given
    /// ([`crate::report::Entry::named`]; a FILE that could not be read has its finding,
    /// `unreadable`), [`Report::could_not_read`] set when some FILE could
    /// not be read, and `--deny-warnings` in its [`crate::report::ExitRule`].
    pub report: Report,
    /// What each document is, one per entry of `report` in its order.
    pub documents: Vec<DocumentFacts>,
}

/// What a checked document is, beside its entry in [`CheckRun::report`]:
/// what its human verdict line says.
#[derive(Debug, Default)]
pub struct DocumentFacts {
    /// What the document is, when recognised, as output names it
    /// ([`crate::doc_kind::DocKind::label`]: `Form Definition`,
    /// `revocation checkpoint`, …).
    pub kind: Option<&'static str>,
    /// The `apiVersion` it names, if any.
    pub api_version: Option<String>,
    /// `sha256:` of its RFC 8785 form, when it canonicalized.
    pub digest: Option<String>,
}

impl CheckRun {
    /// The run's exit status, its report's ([`Report::exit_code`]): 2 when
    /// a FILE could not be read, else 1 when a document fails (an error; a
    /// warning too under `--deny-warnings`), else 0. `cli/check.rs` passes
    /// it through.
    pub fn exit_code(&self) -> u8 {
        self.report.exit_code()
    }
}
