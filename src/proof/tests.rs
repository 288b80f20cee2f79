//! Tests of the proof.
