//! The search's transposition table: one thread's own, or one that the threads of a timed search
//! share (lock-free: a torn write reads as a miss).

use alloc::vec::Vec;

/// A transposition-table entry: the position's hash, the best move's key, the depth searched,
/// the score and whether it is exact or a bound.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) hash: u64,
    pub(super) best: u32,
    pub(super) score: i32,
    pub(super) depth: u8,
    pub(super) bound: Bound,
}

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// Where a search keeps what it learnt: one slot a hash, the last write wins.
pub(super) trait Table {
    /// The entry of `hash`, if its slot holds it.
    fn probe(&self, hash: u64) -> Option<Entry>;
    fn save(&mut self, entry: Entry);
}

/// One thread's table: its length is a power of two.
impl Table for Vec<Entry> {
    fn probe(&self, hash: u64) -> Option<Entry> {
        let e = self[(hash as usize) & (self.len() - 1)];
        (e.hash == hash).then_some(e)
    }

    fn save(&mut self, entry: Entry) {
        let len = self.len();
        self[(entry.hash as usize) & (len - 1)] = entry;
    }
}

#[cfg(feature = "std")]
pub(super) use shared::Shared;

#[cfg(feature = "std")]
mod shared {
    use super::{Bound, Entry, Table};
    use alloc::vec::Vec;
    use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use std::sync::Mutex;

    /// A table the threads of one search share. A slot is two words, the hash stored xor the
    /// packed entry: a slot that another thread half wrote fails the check and reads as a miss,
    /// so no lock is needed. The hash is also stored xor the search's `salt`, so that a table
    /// taken again by another search ([`Shared::take`]) reads the last one's entries as misses:
    /// a search's hashes count from its root, so the same hash means another position then.
    pub(in crate::trax) struct Shared {
        slots: Vec<[AtomicU64; 2]>,
        salt: u64,
    }

    /// The table of the last search that ended, kept for the next one: allocating and zeroing
    /// 16 MiB cost 3 ms of processor a move (17 ms of the clock on a loaded machine), within a
    /// budget of 200 ms a move. One table is kept; searches at the same time make their own.
    static SPARE: Mutex<Option<Shared>> = Mutex::new(None);

    /// Scores stay within `±(WIN + 1)`, about ±2^20: stored shifted by this, in 22 bits.
    const SCORE_OFFSET: i64 = 1 << 21;

    impl Shared {
        /// A table of `len` slots (a power of two) for a search with `salt`: the spare one if it
        /// has that length, else a new one.
        pub(in crate::trax) fn take(len: usize, salt: u64) -> Shared {
            debug_assert!(len.is_power_of_two());
            let spare = SPARE.lock().ok().and_then(|mut s| s.take());
            match spare {
                Some(mut t) if t.slots.len() == len => {
                    t.salt = salt;
                    t
                }
                _ => Shared {
                    slots: (0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect(),
                    salt,
                },
            }
        }

        /// Keeps the table for the next [`Shared::take`].
        pub(in crate::trax) fn give_back(self) {
            if let Ok(mut spare) = SPARE.lock() {
                *spare = Some(self);
            }
        }

        fn slot(&self, hash: u64) -> &[AtomicU64; 2] {
            &self.slots[(hash as usize) & (self.slots.len() - 1)]
        }
    }

    fn pack(e: &Entry) -> u64 {
        let bound = match e.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(e.best)
            | ((i64::from(e.score) + SCORE_OFFSET) as u64) << 32
            | u64::from(e.depth & 0x3F) << 54
            | bound << 60
    }

    fn unpack(hash: u64, data: u64) -> Entry {
        Entry {
            hash,
            best: data as u32,
            score: ((data >> 32 & 0x3F_FFFF) as i64 - SCORE_OFFSET) as i32,
            depth: (data >> 54 & 0x3F) as u8,
            bound: match data >> 60 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }

    impl Table for &Shared {
        fn probe(&self, hash: u64) -> Option<Entry> {
            let [k, d] = self.slot(hash);
            let (key, data) = (k.load(Relaxed), d.load(Relaxed));
            // An empty slot (both words zero) could pass for the hash equal to the salt: its data,
            // all zero, says a best move of key 0 at depth 0, which no probe uses as a score
            // (depth 0 is never enough) and a search only tries first.
            (key ^ data ^ self.salt == hash).then(|| unpack(hash, data))
        }

        fn save(&mut self, entry: Entry) {
            let data = pack(&entry);
            let [k, d] = self.slot(entry.hash);
            k.store(entry.hash ^ self.salt ^ data, Relaxed);
            d.store(data, Relaxed);
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn an_entry_reads_back_as_written_and_a_torn_slot_as_a_miss() {
            let t = Shared::take(16, 7);
            let mut w = &t;
            for (score, bound) in [(-1_000_001, Bound::Upper), (0, Bound::Exact), (999_990, Bound::Lower)] {
                let e = Entry {
                    hash: 0xDEAD_BEEF_0000_0005,
                    best: u32::MAX - 3,
                    score,
                    depth: 30,
                    bound,
                };
                w.save(e);
                assert_eq!((&t).probe(e.hash), Some(e));
                assert_eq!((&t).probe(e.hash ^ 1 << 40), None);
            }
            // Another thread's write half done: the key of one entry, the data of another.
            let slot = t.slot(5);
            slot[1].store(slot[1].load(Relaxed) ^ 1 << 33, Relaxed);
            assert_eq!((&t).probe(0xDEAD_BEEF_0000_0005), None);
        }

        #[test]
        fn a_table_taken_again_reads_the_last_search_entries_as_misses() {
            let e = Entry {
                hash: 12,
                best: 3,
                score: 5,
                depth: 4,
                bound: Bound::Exact,
            };
            let t = Shared::take(8, 1);
            let mut w = &t;
            w.save(e);
            assert_eq!((&t).probe(12), Some(e));
            let slots = t.slots.as_ptr();
            t.give_back();
            // Other tests may take the spare meanwhile: then this one is new, and empty as well.
            let t = Shared::take(8, 2);
            assert!(t.slots.as_ptr() == slots || t.slots.iter().all(|[k, _]| k.load(Relaxed) == 0));
            assert_eq!((&t).probe(12), None);
        }
    }
}
