//! A compiled-schema cache shared by the packages of one run (issue 23
//! decision 2).
//!
//! **Content-addressed.** An entry is keyed by the schema's content key
//! with numbers read as binary64 ([`crate::memo::content_key`],
//! [`crate::memo::Numbers::Binary64`]), never by a path, a file name or a
//! FormRef: two packages whose inline schemas are the same document (up to
//! whitespace, escapes and number spelling, which compiling cannot see:
//! [`super::compile`] passes every number through binary64 first, §12 E4)
//! share one compiled validator. The member order is part of the key
//! because the engine reports violations in the schema's member order: a
//! schema with the same members in another order is another entry, so the
//! findings and their order never depend on which package compiled a
//! schema first.
//!
//! **Bounded.** Every entry is charged an estimate of the memory it holds
//! ([`charge`]): [`COMPILED_BYTES_PER_KEY_BYTE`] bytes of compiled
//! validator (and key) per byte of the schema's content (the length of its
//! content key's encoding, close to its JSON text's), plus
//! [`ENTRY_OVERHEAD`]. The sum
//! of the charges never exceeds the budget ([`DEFAULT_BUDGET`], 32 MiB, or
//! `FORM_PACKAGE_SCHEMA_CACHE` bytes; `0` turns the cache off): before an
//! insertion the oldest entries are evicted (first in, first out) until the
//! new one fits, and an entry larger than the whole budget is not stored.
//! `benches/schema_cache.sh` measures the process's peak RSS against the
//! charged bytes on a tree whose schemas are all distinct.
//!
//! Failed compilations are cached too (their errors are a function of the
//! schema alone; the caller places them under the schema's pointer).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use super::{CompileError, CompiledSchema};

/// The default memory budget of the process's cache: 32 MiB of charged
/// bytes (see the module documentation).
pub const DEFAULT_BUDGET: usize = 32 << 20;

/// Compiled-validator bytes charged per content byte of the schema (an
/// upper estimate of the `jsonschema` validator's heap per byte of its
/// source: its nodes, keyword locations and compiled patterns).
pub const COMPILED_BYTES_PER_KEY_BYTE: usize = 24;

/// Bytes charged per entry besides its validator (the key, the map and
/// queue slots, the `Arc`s, the validator's fixed parts).
pub const ENTRY_OVERHEAD: usize = 4096;

/// The environment variable that sets the process cache's budget in bytes
/// (`0`: no cache). Read once, when the cache is first used.
pub const BUDGET_VAR: &str = "FORM_PACKAGE_SCHEMA_CACHE";

/// What one compilation gives: the compiled schema or its errors.
pub type Compiled = Result<CompiledSchema, Vec<CompileError>>;

/// The key: the schema's content key, numbers as binary64
/// ([`crate::memo::content_key`]).
type Key = [u8; 32];

struct Entry {
    /// Filled once, by the first thread to miss; a thread that finds the
    /// entry while it is being compiled waits for it ([`OnceLock`]).
    compiled: Arc<OnceLock<Compiled>>,
    charge: usize,
}

#[derive(Default)]
struct Inner {
    map: HashMap<Key, Entry, ahash::RandomState>,
    /// Insertion order, for eviction (first in, first out).
    queue: VecDeque<Key>,
    stats: CacheStats,
}

/// The cache's own accounting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// The budget in bytes (charged bytes never exceed it).
    pub budget: usize,
    /// Bytes charged for the entries held now.
    pub charged: usize,
    /// The most bytes ever charged at once.
    pub peak_charged: usize,
    /// Entries held now.
    pub entries: usize,
    /// Lookups answered from the cache.
    pub hits: u64,
    /// Lookups that compiled.
    pub misses: u64,
    /// Entries evicted to make room.
    pub evictions: u64,
    /// Compiled schemas not stored because their charge exceeds the budget.
    pub too_large: u64,
}

/// A bounded, content-addressed cache of compiled inline schemas, safe to
/// share between threads. Compilation runs outside the lock: two threads
/// that miss on the same schema at once both compile it, and the first to
/// finish stores it.
pub struct SchemaCache {
    budget: usize,
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for SchemaCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaCache")
            .field("stats", &self.stats())
            .finish()
    }
}

/// The charge of an entry whose schema has `content_len` content bytes
/// (the length [`crate::memo::content_key`] gives; see the module
/// documentation).
pub fn charge(content_len: usize) -> usize {
    content_len
        .saturating_mul(COMPILED_BYTES_PER_KEY_BYTE)
        .saturating_add(ENTRY_OVERHEAD)
}

impl SchemaCache {
    /// An empty cache holding at most `budget` charged bytes (`0`: nothing
    /// is ever stored, every lookup compiles).
    pub fn new(budget: usize) -> Self {
        SchemaCache {
            budget,
            inner: Mutex::new(Inner {
                stats: CacheStats {
                    budget,
                    ..CacheStats::default()
                },
                ..Inner::default()
            }),
        }
    }

    /// The process's cache, shared by every package verified in this
    /// process: budget `FORM_PACKAGE_SCHEMA_CACHE` (bytes) when set and
    /// valid, else [`DEFAULT_BUDGET`].
    pub fn global() -> &'static SchemaCache {
        static GLOBAL: OnceLock<SchemaCache> = OnceLock::new();
        GLOBAL.get_or_init(|| {
            let budget = std::env::var(BUDGET_VAR)
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(DEFAULT_BUDGET);
            SchemaCache::new(budget)
        })
    }

    /// The accounting now.
    pub fn stats(&self) -> CacheStats {
        match self.inner.lock() {
            Ok(inner) => inner.stats,
            Err(poisoned) => poisoned.into_inner().stats,
        }
    }

    /// The compiled form of `schema`: from the cache when a schema with the
    /// same content key (see the module documentation) was compiled before, else
    /// compiled by `compile` and stored (evicting the oldest entries while
    /// the budget would be exceeded).
    pub fn get_or_compile(
        &self,
        schema: &Value,
        compile: impl FnOnce(&Value) -> Compiled,
    ) -> Compiled {
        if self.budget == 0 {
            if let Ok(mut inner) = self.inner.lock() {
                inner.stats.misses += 1;
            }
            return compile(schema);
        }
        let (key, content_len) = crate::memo::content_key(schema, crate::memo::Numbers::Binary64);
        let cost = charge(content_len);
        // One compilation per schema, also when two threads miss on it at
        // once (two packages of one family verified side by side): the
        // second waits for the first's, and so shares its identity
        // ([`CompiledSchema::id`]) and the fixture memo's entries.
        let cell = match self.inner.lock() {
            Ok(mut inner) => match inner.map.get(&key).map(|e| Arc::clone(&e.compiled)) {
                Some(found) => {
                    inner.stats.hits += 1;
                    Some(found)
                }
                None => {
                    inner.stats.misses += 1;
                    inner.insert(key, cost, self.budget)
                }
            },
            Err(_) => None,
        };
        match cell {
            Some(cell) => cell.get_or_init(|| compile(schema)).clone(),
            None => compile(schema),
        }
    }
}

impl Inner {
    /// Stores an empty entry for `key`, charged `cost`, evicting the
    /// oldest entries while the budget would be exceeded; its cell, or
    /// `None` when the entry is larger than the whole budget (not stored).
    fn insert(&mut self, key: Key, cost: usize, budget: usize) -> Option<Arc<OnceLock<Compiled>>> {
        if cost > budget {
            self.stats.too_large += 1;
            return None;
        }
        while self.stats.charged.saturating_add(cost) > budget {
            let Some(oldest) = self.queue.pop_front() else {
                break;
            };
            if let Some(gone) = self.map.remove(&oldest) {
                self.stats.charged = self.stats.charged.saturating_sub(gone.charge);
                self.stats.evictions += 1;
            }
        }
        let cell = Arc::new(OnceLock::new());
        self.queue.push_back(key);
        self.map.insert(
            key,
            Entry {
                compiled: Arc::clone(&cell),
                charge: cost,
            },
        );
        self.stats.charged = self.stats.charged.saturating_add(cost);
        self.stats.peak_charged = self.stats.peak_charged.max(self.stats.charged);
        self.stats.entries = self.map.len();
        Some(cell)
    }
}
