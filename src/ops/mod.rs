//! Operations: one module per command, each the one operation its
//! `src/cli/<command>.rs` face calls, returning a report that `render/`
//! alone prints.

pub mod locator;
pub mod snapshot;
