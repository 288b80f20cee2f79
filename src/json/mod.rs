//! JSON reading: the strict I-JSON reader with its span map, and JSON Pointers.

pub mod pointer;
pub mod strict;
