//! The table of leaf counts: (position, depth) -> count, shared by all
//! threads without locks, in entries of 16 bytes, four to a cache line.
//!
//! ## An entry
//!
//! ```text
//! lock = zobrist ^ data
//! data = count << 16 | check << 6 | depth       (48 + 10 + 6 bits)
//! ```
//!
//! The bucket is chosen by the verification key (its high bits, scaled to
//! the table length); an entry answers only if the XOR of its two words is
//! the position's full 64-bit Zobrist key, its 10 check bits are the
//! verification key's low bits and its depth is the one asked. So a false
//! hit needs 74 key bits that the bucket choice did not already fix to
//! agree by chance: about `4 * 2^-74` per probe, `1e-11` over 10^11 probes
//! (more than perft(10) makes). A torn entry (a reader racing a writer on
//! another thread) fails the same XOR test and reads as a miss: correctness
//! needs no lock and no memory ordering (Hyatt's lockless hashing).
//!
//! ## Replacement
//!
//! A new entry replaces the bucket's entry with the smallest count (an
//! empty one first): the count is the work a hit saves, so the table keeps
//! the subtrees that are dearest to recount, and every store lands (a table
//! that refuses new entries stops learning the positions near the leaves,
//! which are the ones that transpose most).

use super::HashOptions;
use super::keys::Keys;
use super::memory::{Block, Pages, Zeroable};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries per bucket: 4 x 16 bytes fill one 64-byte cache line, so a
/// probe costs one miss at most.
const WAYS: usize = 4;
/// Low bits of the data word: the remaining depth.
const DEPTH_BITS: u32 = 6;
/// Then the verification key's check bits.
const CHECK_BITS: u32 = 10;
/// The count's shift in the data word.
const COUNT_SHIFT: u32 = DEPTH_BITS + CHECK_BITS;
/// Counts at or above this are not stored (they do not fit; perft(11)'s
/// subtrees below the root stay under it).
const MAX_COUNT: u64 = 1 << (64 - COUNT_SHIFT);

#[derive(Default)]
struct Entry {
    lock: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; WAYS],
}

// SAFETY: a bucket is only atomic integers; all-zero is a valid (empty)
// bucket.
unsafe impl Zeroable for Bucket {}

/// A lock-free table of leaf counts; see the module docs.
pub struct CountTable {
    buckets: Block<Bucket>,
    options: HashOptions,
}

/// What an entry's data word must hold, apart from the count.
#[inline(always)]
fn tag(keys: Keys, depth: u32) -> u64 {
    (keys.verify & ((1 << CHECK_BITS) - 1)) << DEPTH_BITS | u64::from(depth)
}

impl CountTable {
    /// A table of about `megabytes` MiB (at least one bucket) on huge pages
    /// where the OS offers them. Fails with a message, before allocating,
    /// when the machine does not have the memory.
    pub fn new(megabytes: usize) -> Result<CountTable, String> {
        CountTable::with_pages(megabytes, Pages::Huge)
    }

    /// [`CountTable::new`] with the page size chosen (the lab compares them).
    pub fn with_pages(megabytes: usize, pages: Pages) -> Result<CountTable, String> {
        let bytes = megabytes
            .checked_mul(1 << 20)
            .ok_or_else(|| format!("hash size {megabytes} MB is too large"))?;
        let buckets = Block::new(bytes / size_of::<Bucket>(), pages)?;
        Ok(CountTable {
            buckets,
            options: HashOptions::default(),
        })
    }

    /// The table with these options for the perft that uses it.
    pub fn with_options(mut self, options: HashOptions) -> CountTable {
        self.options = options;
        self
    }

    /// How perft uses this table.
    pub fn options(&self) -> HashOptions {
        self.options
    }

    /// The number of entries.
    pub fn entries(&self) -> usize {
        self.buckets.as_slice().len() * WAYS
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        size_of_val(self.buckets.as_slice())
    }

    /// The bucket of a position: the verification key's high bits scaled
    /// to the table length (any length works, not only powers of two).
    #[inline(always)]
    fn bucket(&self, keys: Keys) -> &Bucket {
        let buckets = self.buckets.as_slice();
        let index = ((u128::from(keys.verify) * buckets.len() as u128) >> 64) as usize;
        &buckets[index]
    }

    /// Starts loading the bucket of `keys` into the cache, so that a probe
    /// a little later does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, keys: Keys) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(keys);
            // SAFETY: a prefetch is a hint that never faults; the address
            // is a live bucket anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = keys;
    }

    /// The count stored for (`keys`, `depth`), if any.
    #[inline]
    pub fn probe(&self, keys: Keys, depth: u32) -> Option<u64> {
        let want = tag(keys, depth);
        let mask = (1 << COUNT_SHIFT) - 1;
        for entry in &self.bucket(keys).entries {
            let data = entry.data.load(Relaxed);
            if data & mask == want && entry.lock.load(Relaxed) ^ data == keys.zobrist {
                return Some(data >> COUNT_SHIFT);
            }
        }
        None
    }

    /// Stores `count` for (`keys`, `depth`) in place of the bucket's
    /// smallest count (unless it is too large to pack or `depth` needs more
    /// than 6 bits; then it is simply not cached).
    #[inline]
    pub fn store(&self, keys: Keys, depth: u32, count: u64) {
        if count >= MAX_COUNT || depth >= 1 << DEPTH_BITS {
            return;
        }
        let data = count << COUNT_SHIFT | tag(keys, depth);
        let entries = &self.bucket(keys).entries;
        // Racy reads only steer placement; a torn choice costs an entry,
        // never a wrong count.
        let victim = entries
            .iter()
            .min_by_key(|entry| entry.data.load(Relaxed) >> COUNT_SHIFT)
            .unwrap_or(&entries[0]);
        victim.data.store(data, Relaxed);
        victim.lock.store(keys.zobrist ^ data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(zobrist: u64, verify: u64) -> Keys {
        Keys { zobrist, verify }
    }

    #[test]
    fn stores_and_finds_by_both_keys_and_depth() {
        let table = CountTable::new(1).unwrap();
        let k = keys(0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        table.store(k, 5, 1_000_000);
        assert_eq!(table.probe(k, 5), Some(1_000_000));
        assert_eq!(table.probe(k, 4), None);
        assert_eq!(table.probe(keys(k.zobrist, k.verify ^ 1), 5), None);
        assert_eq!(table.probe(keys(k.zobrist ^ 1, k.verify), 5), None);
        table.store(k, 6, MAX_COUNT);
        assert_eq!(table.probe(k, 6), None, "too large to pack: not stored");
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let table = CountTable::new(1).unwrap();
        let k = keys(99, 7 << 40);
        table.store(k, 3, 500);
        // A concurrent writer that has replaced the data word only.
        for entry in &table.bucket(k).entries {
            if entry.data.load(Relaxed) != 0 {
                entry.data.store(777 << COUNT_SHIFT | tag(k, 3), Relaxed);
            }
        }
        assert_eq!(table.probe(k, 3), None);
    }

    #[test]
    fn the_smallest_count_makes_way() {
        let table = CountTable::new(1).unwrap();
        // Five positions in one bucket (same verification high bits).
        let same_bucket = |i: u64| keys(1000 + i, 5 << 50 | i);
        for (i, count) in [(0, 50), (1, 10), (2, 40), (3, 30)] {
            table.store(same_bucket(i), 4, count);
        }
        table.store(same_bucket(4), 4, 20);
        assert_eq!(table.probe(same_bucket(1), 4), None, "the smallest went");
        for (i, count) in [(0, 50), (2, 40), (3, 30), (4, 20)] {
            assert_eq!(table.probe(same_bucket(i), 4), Some(count));
        }
    }
}
