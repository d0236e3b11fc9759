//! The transposition table: the set of canonical keys already searched (or on
//! the current path), bounded in memory.
//!
//! Open addressing with linear probing over 16-byte keys; the table starts
//! small (a hint on an easy position should not touch a gigabyte) and doubles
//! while the doubled table and the old one fit in the budget together. When it
//! cannot grow and is nearly full, [`Table::insert`] says so and the search
//! answers *unknown (memory)*: the process never allocates past the budget.

use crate::key::Key;

/// Smallest table: 4096 slots (64 KiB).
const MIN_SLOTS: usize = 1 << 12;

/// What inserting a key found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// The key is new and now stored.
    New,
    /// The key was already there.
    Seen,
    /// No room left under the memory budget.
    Full,
}

pub struct Table {
    slots: Vec<Key>,
    len: usize,
    peak: usize,
    budget_bytes: usize,
}

/// 0 marks an empty slot; the one key that is really 0 is stored as 1 (a
/// collision of probability 2^-128).
#[inline]
fn stored(k: Key) -> Key {
    if k == 0 {
        1
    } else {
        k
    }
}

/// Asks the processor to bring the cache line of `x` in, so that a later
/// read of it does not wait on memory. Only a hint: it never faults and
/// changes no memory.
#[inline]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no memory; the pointer
    // comes from a reference in any case.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (x as *const T).cast::<i8>(),
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Tables from this size up ask the kernel for huge pages.
const HUGE_FROM_BYTES: usize = 4 << 20;

/// `n` empty slots. A large table is asked to live on huge pages: every probe
/// is a random access, and over 4 KiB pages nearly every probe of a table of
/// hundreds of megabytes also misses the TLB (and every page is a fault when
/// first touched); over 2 MiB pages the whole table's translations fit in the
/// TLB. Only advice: where the kernel does not follow it, nothing changes.
pub(crate) fn zeroed_slots(n: usize) -> Vec<Key> {
    let v: Vec<Key> = vec![0; n];
    let bytes = n * std::mem::size_of::<Key>();
    #[cfg(target_os = "linux")]
    if bytes >= HUGE_FROM_BYTES {
        // madvise wants a page-aligned start: advise the 2 MiB-aligned part.
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let aligned = start.next_multiple_of(HUGE);
        let end = (start + bytes) / HUGE * HUGE;
        if end > aligned {
            // SAFETY: the range lies inside `v`'s allocation, which lives as
            // long as the table; MADV_HUGEPAGE changes no contents.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    end - aligned,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    let _ = bytes;
    v
}

impl Table {
    pub fn new(budget_bytes: usize) -> Table {
        let slot = std::mem::size_of::<Key>();
        let mut slots = MIN_SLOTS;
        while slots * slot > budget_bytes && slots > 16 {
            slots /= 2;
        }
        Table {
            slots: zeroed_slots(slots),
            len: 0,
            peak: 0,
            budget_bytes,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Most keys held at once.
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// Bytes the table holds now.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Key>()
    }

    #[inline]
    fn index(&self, k: Key) -> usize {
        (k as u64 as usize ^ (k >> 64) as u64 as usize) & (self.slots.len() - 1)
    }

    /// Adds `k` unless it is there; grows first when the table is 3/4 full.
    pub fn insert(&mut self, k: Key) -> Insert {
        let k = stored(k);
        if (self.len + 1) * 4 > self.slots.len() * 3 && !self.grow() {
            // Cannot grow: keep going up to 15/16 full, then stop.
            if (self.len + 1) * 16 > self.slots.len() * 15 {
                return if self.contains(k) {
                    Insert::Seen
                } else {
                    Insert::Full
                };
            }
        }
        let mask = self.slots.len() - 1;
        let mut i = self.index(k);
        loop {
            let s = self.slots[i];
            if s == k {
                return Insert::Seen;
            }
            if s == 0 {
                self.slots[i] = k;
                self.len += 1;
                self.peak = self.peak.max(self.len);
                return Insert::New;
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the processor to bring `k`'s slot into the cache, so that a later
    /// [`Table::insert`] of `k` does not wait on memory: the table is far
    /// larger than the cache, and a probe is a random access. Only a hint.
    #[inline]
    pub fn prefetch(&self, k: Key) {
        prefetch(&self.slots[self.index(stored(k))]);
    }

    pub fn contains(&self, k: Key) -> bool {
        let k = stored(k);
        let mask = self.slots.len() - 1;
        let mut i = self.index(k);
        loop {
            let s = self.slots[i];
            if s == k {
                return true;
            }
            if s == 0 {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table if old and new fit in the budget together.
    fn grow(&mut self) -> bool {
        let slot = std::mem::size_of::<Key>();
        let new_slots = self.slots.len() * 2;
        if (new_slots + self.slots.len()) * slot > self.budget_bytes {
            return false;
        }
        let old = std::mem::replace(&mut self.slots, zeroed_slots(new_slots));
        let mask = new_slots - 1;
        for k in old.into_iter().filter(|&k| k != 0) {
            let mut i = self.index(k);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = k;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_remembered_across_growth() {
        let mut t = Table::new(1 << 20);
        for k in 0..10_000u128 {
            assert_eq!(
                t.insert(k.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)),
                Insert::New
            );
        }
        for k in 0..10_000u128 {
            assert_eq!(
                t.insert(k.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)),
                Insert::Seen
            );
        }
        assert_eq!(t.len(), 10_000);
        assert!(t.bytes() <= 1 << 20);
    }

    #[test]
    fn a_full_table_says_so_and_stays_within_budget() {
        let budget = 64 * 1024;
        let mut t = Table::new(budget);
        let mut full = false;
        for k in 1..100_000u128 {
            match t.insert(k.wrapping_mul(0xD6E8_FEB8_6659_FD93_A076_1D64_78BD_642F)) {
                Insert::Full => {
                    full = true;
                    break;
                }
                Insert::Seen => panic!("distinct keys"),
                Insert::New => {}
            }
        }
        assert!(full);
        assert!(t.bytes() <= budget);
    }
}
