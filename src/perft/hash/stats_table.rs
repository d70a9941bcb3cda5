//! The table of whole statistics rows (`perft --stats --hash`): (position,
//! depth) -> the nine counters, shared by all threads without locks.
//!
//! Each entry holds two check words and the nine values; both check words
//! are stored XORed with a hash of the payload (Hyatt's lockless hashing,
//! widened to several words), so a torn entry fails verification like a
//! foreign one. Two entries share a bucket: slot 0 keeps the deepest,
//! slot 1 always takes the newest. Rows are large (88 bytes) and
//! statistics runs are rare, so this table stays simple; leaf counts have
//! the compact [`super::CountTable`].

use super::keys::{Keys, mix};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One entry: two check words and `W` payload words. The first payload
/// word holds the remaining depth in its low 8 bits and the first value
/// shifted left by 8.
struct Slot<const W: usize> {
    check: [AtomicU64; 2],
    data: [AtomicU64; W],
}

/// Two slots sharing a cache line (for counts): slot 0 keeps the deepest
/// entry, slot 1 always takes the newest, so deep subtrees survive a flood
/// of shallow ones.
#[repr(align(64))]
struct Bucket<const W: usize> {
    slots: [Slot<W>; 2],
}

impl<const W: usize> Bucket<W> {
    fn new() -> Self {
        Bucket {
            slots: std::array::from_fn(|_| Slot {
                check: std::array::from_fn(|_| AtomicU64::new(0)),
                data: std::array::from_fn(|_| AtomicU64::new(0)),
            }),
        }
    }
}

/// A lock-free table of (keys, depth) -> `[u64; W]`; see the module docs.
pub struct Table<const W: usize> {
    buckets: Vec<Bucket<W>>,
}

/// Whole statistics rows (nine counters).
pub type StatsTable = Table<9>;

/// Values at or above this cannot share a word with the depth; they are
/// not stored (no perft below perft(12) from the start position reaches it).
const MAX_FIRST_VALUE: u64 = 1 << 56;

/// A hash of the payload words, XORed into both check words.
#[inline]
fn payload_hash<const W: usize>(data: &[u64; W]) -> u64 {
    data.iter()
        .fold(0x1319_8a2e_0370_7344, |h, &word| mix(h ^ word))
}

impl<const W: usize> Table<W> {
    /// A table of about `megabytes` MiB (at least one bucket). Fails
    /// rather than aborts when the machine does not have the memory.
    pub fn new(megabytes: usize) -> Result<Self, String> {
        let bytes = megabytes
            .checked_mul(1 << 20)
            .ok_or_else(|| format!("hash size {megabytes} MB is too large"))?;
        super::memory::check_fits(bytes)?;
        let count = (bytes / std::mem::size_of::<Bucket<W>>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a {megabytes} MB hash table"))?;
        buckets.resize_with(count, Bucket::new);
        Ok(Table { buckets })
    }

    /// The number of entries (two per bucket).
    pub fn entries(&self) -> usize {
        self.buckets.len() * 2
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket<W>>()
    }

    /// The bucket for a key: the high bits of the Zobrist key scaled to the
    /// table length (any size works, not only powers of two).
    #[inline]
    fn bucket(&self, keys: Keys) -> &Bucket<W> {
        let index = ((u128::from(keys.zobrist) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// The stored values for (`keys`, `depth`), if any.
    #[inline]
    pub fn probe(&self, keys: Keys, depth: u32) -> Option<[u64; W]> {
        for slot in &self.bucket(keys).slots {
            let data: [u64; W] = std::array::from_fn(|i| slot.data[i].load(Relaxed));
            let h = payload_hash(&data);
            if slot.check[0].load(Relaxed) ^ h == keys.zobrist
                && slot.check[1].load(Relaxed) ^ h == keys.verify
                && data[0] & 0xff == u64::from(depth)
            {
                let mut values = data;
                values[0] >>= 8;
                return Some(values);
            }
        }
        None
    }

    /// Stores `values` for (`keys`, `depth`) unless the first value is too
    /// large to pack (then the entry is simply not cached).
    #[inline]
    pub fn store(&self, keys: Keys, depth: u32, values: [u64; W]) {
        if values[0] >= MAX_FIRST_VALUE || depth > 0xff {
            return;
        }
        let mut data = values;
        data[0] = values[0] << 8 | u64::from(depth);
        let bucket = self.bucket(keys);
        // Depth-preferred slot 0: a racy read is fine, it only steers placement.
        let deepest = bucket.slots[0].data[0].load(Relaxed) & 0xff;
        let slot = &bucket.slots[usize::from(u64::from(depth) < deepest)];
        let h = payload_hash(&data);
        for (word, value) in slot.data.iter().zip(data) {
            word.store(value, Relaxed);
        }
        slot.check[0].store(keys.zobrist ^ h, Relaxed);
        slot.check[1].store(keys.verify ^ h, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_both_keys_and_depth() {
        let table = StatsTable::new(1).unwrap();
        let keys = Keys {
            zobrist: 0x1234_5678_9abc_def0,
            verify: 42,
        };
        let row = [1_000_000, 1, 2, 3, 4, 5, 6, 7, 8];
        table.store(keys, 5, row);
        assert_eq!(table.probe(keys, 5), Some(row));
        assert_eq!(table.probe(keys, 4), None);
        let other = Keys { verify: 43, ..keys };
        assert_eq!(table.probe(other, 5), None);
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let table = StatsTable::new(1).unwrap();
        let keys = Keys {
            zobrist: 99,
            verify: 7,
        };
        table.store(keys, 3, [500; 9]);
        // Simulate a concurrent writer that has replaced the payload only.
        for slot in &table.bucket(keys).slots {
            slot.data[0].store(777 << 8 | 3, Relaxed);
        }
        assert_eq!(table.probe(keys, 3), None);
    }
}
