//! Constraint semantics (placeholder).
