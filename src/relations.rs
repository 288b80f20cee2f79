//! Relation derivation (placeholder).
