//! A perft hash table shared by all threads: (position, remaining depth) ->
//! leaf count (or, with `--stats`, the whole statistics row), so a position
//! reached by transposition is counted once.
//!
//! ## Why two keys
//!
//! A hit that belongs to another position silently corrupts the total, and
//! a deep perft probes billions of times, so "rare" is not enough. Each
//! entry is checked against two independent 64-bit hashes:
//!
//! * the position's incremental Zobrist key ([`Position::key`]), whose high
//!   bits also pick the bucket, and
//! * [`verification_key`], a second hash computed from the bitboards with an
//!   unrelated mixing function (no shared random tables, no XOR structure).
//!
//! With `2^b` buckets the bucket index already agrees, so a false hit needs
//! the other `64 - b` Zobrist bits *and* all 64 verification bits to agree:
//! probability about `2^-(128 - b)` per probe of an occupied slot. For the
//! offered sizes (two entries per 64-byte bucket):
//!
//! | `--hash` | buckets | per probe | over 10^13 probes |
//! | ---: | ---: | ---: | ---: |
//! | 16 MB | 2^18 | 2^-110 ≈ 8e-34 | 8e-21 |
//! | 256 MB | 2^22 | 2^-106 ≈ 1e-32 | 1e-19 |
//! | 4096 MB | 2^26 | 2^-102 ≈ 2e-31 | 2e-18 |
//! | 65536 MB | 2^30 | 2^-98 ≈ 3e-30 | 3e-17 |
//!
//! (10^13 probes is far beyond perft(10); perft(9) probes at most a few
//! 10^9 times: once per node with 2 or more plies left.)
//!
//! ## Why no locks
//!
//! Entries are plain relaxed atomics written without a lock. A reader racing
//! a writer may see words from two different stores (a "torn" entry). The
//! two check words are stored XORed with a hash of the payload words
//! (Hyatt's lockless-hashing trick, widened to several words), so a torn
//! entry fails verification exactly like a foreign one and is treated as a
//! miss: correctness needs no ordering, and probes cost no lock traffic.

use super::stats::{Stats, perft_stats};
use super::strategy::{MakeStyle, Strategy};
use crate::position::Position;
use crate::types::{Color, Piece};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Counts are stored only from this remaining depth up: below it the
/// subtree is cheaper to recount (a bulk count is one generation) than a
/// probe, which is usually a cache miss.
pub const MIN_COUNT_DEPTH: u32 = 2;
/// Statistics rows are stored from remaining depth 1: classifying leaf
/// moves (make, check test, mate test) is expensive enough to be worth it.
pub const MIN_STATS_DEPTH: u32 = 1;

/// The two independent keys an entry is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    /// The position's Zobrist key ([`Position::key`]); picks the bucket.
    pub zobrist: u64,
    /// The independent second hash ([`verification_key`]).
    pub verify: u64,
}

impl Keys {
    /// Both keys of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Keys {
        Keys {
            zobrist: pos.key(),
            verify: verification_key(pos),
        }
    }
}

/// A bijective 64-bit mixer (the MurmurHash3 / SplitMix64 finaliser).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// A second hash of the position, independent of the Zobrist key: the
/// six piece bitboards, White's pieces and a word of state (side to move,
/// castling rook files, e.p. square) chained through `mix`. Halfmove and
/// fullmove counters are left out, as they do not change perft counts.
pub fn verification_key(pos: &Position) -> u64 {
    let mut state = u64::from(pos.side_to_move() == Color::Black);
    for (color, file) in pos.castling().iter() {
        state |= 1 << (8 + color.index() * 8 + file.index());
    }
    if let Some(ep) = pos.en_passant() {
        state |= (ep.index() as u64 + 1) << 32;
    }
    let mut h = 0x243f_6a88_85a3_08d3;
    for piece in Piece::ALL {
        h = mix(h ^ pos.pieces(piece).0);
    }
    h = mix(h ^ pos.color(Color::White).0);
    mix(h ^ state)
}

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

/// Leaf counts.
pub type CountTable = Table<1>;
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
    /// rather than aborts when the memory cannot be allocated.
    pub fn new(megabytes: usize) -> Result<Self, String> {
        let bytes = megabytes
            .checked_mul(1 << 20)
            .ok_or_else(|| format!("hash size {megabytes} MB is too large"))?;
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

/// Perft through the table: positions with at least [`MIN_COUNT_DEPTH`]
/// plies left are looked up before and stored after being counted; the
/// rest is the strategy's own perft (bulk or full).
pub fn perft_hashed<S: Strategy, M: MakeStyle>(
    pos: &mut Position,
    depth: u32,
    bulk: bool,
    table: &CountTable,
) -> u64 {
    if depth < MIN_COUNT_DEPTH {
        return if bulk {
            S::perft::<M>(pos, depth)
        } else {
            S::perft_full::<M>(pos, depth)
        };
    }
    let keys = Keys::of(pos);
    if let Some([nodes]) = table.probe(keys, depth) {
        return nodes;
    }
    let moves = S::legal_moves::<M>(pos);
    let mut nodes = 0;
    for &mv in moves.iter() {
        nodes += M::with_child(pos, mv, |child| {
            perft_hashed::<S, M>(child, depth - 1, bulk, table)
        });
    }
    table.store(keys, depth, [nodes]);
    nodes
}

/// The statistics of perft(`depth`) through a table of whole rows.
pub fn perft_stats_hashed<S: Strategy, M: MakeStyle>(
    pos: &mut Position,
    depth: u32,
    table: &StatsTable,
) -> Stats {
    if depth < MIN_STATS_DEPTH {
        return perft_stats::<S, M>(pos, depth);
    }
    let keys = Keys::of(pos);
    if let Some(values) = table.probe(keys, depth) {
        return stats_from(values);
    }
    let stats = if depth == 1 {
        perft_stats::<S, M>(pos, 1)
    } else {
        let moves = S::legal_moves::<M>(pos);
        let mut total = Stats::default();
        for &mv in moves.iter() {
            total += M::with_child(pos, mv, |child| {
                perft_stats_hashed::<S, M>(child, depth - 1, table)
            });
        }
        total
    };
    table.store(keys, depth, stats.values());
    stats
}

/// A statistics row from its values in column order.
pub fn stats_from(v: [u64; 9]) -> Stats {
    Stats {
        nodes: v[0],
        captures: v[1],
        en_passant: v[2],
        castles: v[3],
        promotions: v[4],
        checks: v[5],
        discovery_checks: v[6],
        double_checks: v[7],
        checkmates: v[8],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_both_keys_and_depth() {
        let table = CountTable::new(1).unwrap();
        let keys = Keys {
            zobrist: 0x1234_5678_9abc_def0,
            verify: 42,
        };
        table.store(keys, 5, [1_000_000]);
        assert_eq!(table.probe(keys, 5), Some([1_000_000]));
        assert_eq!(table.probe(keys, 4), None);
        let other = Keys { verify: 43, ..keys };
        assert_eq!(table.probe(other, 5), None);
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let table = CountTable::new(1).unwrap();
        let keys = Keys {
            zobrist: 99,
            verify: 7,
        };
        table.store(keys, 3, [500]);
        // Simulate a concurrent writer that has replaced the payload only.
        for slot in &table.bucket(keys).slots {
            slot.data[0].store(777 << 8 | 3, Relaxed);
        }
        assert_eq!(table.probe(keys, 3), None);
    }

    #[test]
    fn verification_key_ignores_clocks_and_sees_side_and_castling() {
        let a = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let b = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30").unwrap();
        let c = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
        let d = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1").unwrap();
        assert_eq!(verification_key(&a), verification_key(&b));
        assert_ne!(verification_key(&a), verification_key(&c));
        assert_ne!(verification_key(&a), verification_key(&d));
    }
}
