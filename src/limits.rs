//! Every numeric limit of the verifier, defined once: the proof and work
//! limits of `verifier-rules.md` §4.4–§4.7, the file-system and size limits
//! of §1.4, the strict reader's nesting limit, the fixture maxima of §7
//! and the relation-walk depths. Modules re-export the ones they enforce
//! under their historical names.

/// Deepest schema path the closed-object proof accepts, in edges (every
/// child edge and `$ref` hop is one; §4.4).
pub const PROOF_DEPTH: usize = 64;

/// Largest number of proof operations accepted (§4.4).
pub const PROOF_OPERATIONS: usize = 4096;

/// The validation-work limit: the structural estimate of an inline schema
/// (§4.6) and the instance-aware estimate of a fixture (§4.7, §7.3 step 2).
pub const WORK: u32 = 16384;

/// Largest `package-index.json`, in bytes (4 MiB; §1.4).
pub const INDEX_BYTES: u64 = 4 * 1024 * 1024;

/// Largest Form Definition payload, in bytes (4 MiB; §1.4).
pub const DEFINITION_BYTES: u64 = 4 * 1024 * 1024;

/// Largest other JSON payload, in bytes (16 MiB; §1.4).
pub const JSON_BYTES: u64 = 16 * 1024 * 1024;

/// Largest payload of any type, in bytes (64 MiB; §1.4, R1.17).
pub const PAYLOAD_BYTES: u64 = 64 * 1024 * 1024;

/// Largest sum of listed payload sizes, in bytes (256 MiB; §1.4).
pub const TOTAL_BYTES: u64 = 256 * 1024 * 1024;

/// Most `files` entries in one index (§1.4).
pub const FILES: usize = 1024;

/// Deepest container nesting of every parsed JSON document (§1.4, §2.1
/// J6): 256 nested containers are accepted, the 257th is refused.
pub const JSON_NESTING: usize = 256;

/// Longest package-relative path, in bytes (R1.13).
pub const PATH_BYTES: usize = 240;

/// Most entries in each fixture list (R3.9).
pub const FIXTURES: usize = 32;

/// Depth beyond which the constraint pointer-set walk stops silently
/// (`current-profile.md` §9).
pub const CONSTRAINT_RELATION_DEPTH: usize = 64;

/// Deepest relation walk of a desired schema (`verifier-rules.md` §8.3
/// step 1).
pub const RELATION_DEPTH: usize = 32;

/// Largest configuration file read (`form-package.toml`, a `.gitignore`
/// in a walked repository), in bytes (1 MiB; our own bound, not a spec
/// limit: a configuration is a few lines).
pub const CONFIG_BYTES: u64 = 1024 * 1024;
