//! Operations: one folder of the library per command's work, each called by
//! one file of `src/cli/` and printed by `src/render/`.

pub mod desired;
