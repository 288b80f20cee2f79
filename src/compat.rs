//! Compatibility between two versions of a Form Definition (issue 20,
//! `../shared/spec/versioning-rules.md`): whether a new `definitionVersion`
//! says truthfully what changed.
//!
//! - [`desired`]: the verdict on two desired schemas as sets of documents
//!   (`identical`, `equivalent`, `widened`, `breaking`, `unknown`), each
//!   backed by a proof or by a concrete document re-checked by
//!   [`crate::engine`].
//!
//! Work in progress: the command (`form-package compat`) and the change
//! records of the rest of the definition are being built on this module.

pub mod desired;
