//! JSON reading: the strict I-JSON reader with its span map, JSON Pointers,
//! and positions (byte offsets to `line:column`, the one unit every output
//! and every model that locates a finding uses).

pub mod pointer;
pub mod position;
pub mod strict;
