//! The one shape of the run's content-addressed memos (issue 38): the
//! fixture memo ([`crate::fixtures::memo`]) and the proof memo
//! ([`crate::proof::memo`]) each key a [`Bounded`] by what decides their
//! answer and say why that key is exact.
//!
//! **Bounded.** Each value is charged the bytes its owner's `charge` says;
//! the sum never passes the budget: when storing a value would pass it, the
//! memo is emptied first, and a value charged more than the whole budget
//! is not kept. A value is made outside the lock: two threads that miss on
//! one key at once both make it, and the first to store it keeps its (the
//! same) value.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

struct Inner<K, V> {
    map: HashMap<K, Arc<V>, ahash::RandomState>,
    charged: usize,
}

/// A memo of `V`s by `K`, shared between threads, within `budget` charged
/// bytes (see the module documentation).
pub struct Bounded<K, V> {
    budget: usize,
    inner: Mutex<Inner<K, V>>,
}

impl<K, V> std::fmt::Debug for Bounded<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bounded")
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

impl<K: Hash + Eq, V> Bounded<K, V> {
    /// An empty memo of at most `budget` charged bytes.
    pub fn new(budget: usize) -> Self {
        Bounded {
            budget,
            inner: Mutex::new(Inner {
                map: HashMap::default(),
                charged: 0,
            }),
        }
    }

    /// How many values it holds now.
    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .len()
    }

    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes charged for the values it holds now (never above its budget).
    pub fn charged(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .charged
    }

    /// The value of `key`: from the memo, or made by `make` and stored,
    /// charged `charge` of it.
    pub fn get_or_make(
        &self,
        key: K,
        make: impl FnOnce() -> V,
        charge: impl FnOnce(&V) -> usize,
    ) -> Arc<V> {
        if let Some(hit) = self
            .inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .get(&key)
        {
            return Arc::clone(hit);
        }
        let made = Arc::new(make());
        let cost = charge(&made);
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if cost <= self.budget && !inner.map.contains_key(&key) {
            if inner.charged.saturating_add(cost) > self.budget {
                inner.map.clear();
                inner.charged = 0;
            }
            inner.charged += cost;
            inner.map.insert(key, Arc::clone(&made));
        }
        made
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hit gives the stored value; the budget is never passed (the memo
    /// is emptied first); a value over the whole budget is made but not
    /// kept (near miss: one at the budget is kept).
    #[test]
    fn values_are_kept_within_the_budget() {
        let memo: Bounded<u32, String> = Bounded::new(10);
        let a = memo.get_or_make(1, || "aaaa".into(), String::len);
        let again = memo.get_or_make(1, || panic!("made twice"), String::len);
        assert!(Arc::ptr_eq(&a, &again));
        memo.get_or_make(2, || "bbbb".into(), String::len);
        assert_eq!((memo.len(), memo.charged()), (2, 8));
        memo.get_or_make(3, || "cccc".into(), String::len);
        assert_eq!((memo.len(), memo.charged()), (1, 4));
        let big = memo.get_or_make(4, || "x".repeat(11), String::len);
        assert_eq!(big.len(), 11);
        assert_eq!((memo.len(), memo.charged()), (1, 4));
        memo.get_or_make(5, || "y".repeat(10), String::len);
        assert_eq!((memo.len(), memo.charged()), (1, 10));
    }
}
