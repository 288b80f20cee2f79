//! Compatibility between two versions of a Form Definition (issue 20,
//! `../shared/spec/versioning-rules.md`): whether a new `definitionVersion`
//! says truthfully what changed.
//!
//! - [`desired`]: the verdict on two desired schemas as sets of documents
//!   (`identical`, `equivalent`, `widened`, `breaking`, `unknown`), each
//!   backed by a proof or by a concrete document re-checked by
//!   [`crate::engine`].
//!
//! - [`baserev`]: BASE read from a git revision (`--baseline-rev`);
//! - [`side`]: one side (a package or a bare definition), verified first;
//! - [`change`]: one change record and its class;
//! - [`changes`]: the change records of the rest of the definition;
//! - [`meaning`]: the changes of meaning the accepted documents do not
//!   show (a `default`, a relation);
//! - [`bump`]: the bump the versions show and the one the changes require;
//! - [`pairs`]: one pair compared;
//! - [`report`]: the operations of `form-package compat` (a pair,
//!   `--history`, `--baseline`) and their report (the command itself is
//!   `ops::compat`, which hands `render::compat` the report model's
//!   `report::compat::Compat`).

pub mod baserev;
pub mod bump;
pub mod change;
pub mod changes;
pub mod desired;
pub mod meaning;
pub mod pairs;
pub mod report;
pub mod side;
