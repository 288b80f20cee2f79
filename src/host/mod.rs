//! What a host does with the Form Packages it serves (issue 39): the
//! current Core's rules restated in `../shared/spec/host-rules.md`.
//! [`materialize`]: one desired document validated and materialized as the
//! Core's `Validate`/`Materialize` do.

pub mod materialize;
