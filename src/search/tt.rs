//! The transposition table: search results keyed by the core's Zobrist key
//! ([`Position::key`](crate::Position::key)).
//!
//! Entries live in buckets of four (one 64-byte cache line). A store goes to
//! the entry holding the same key if there is one, otherwise to the entry
//! least worth keeping: entries from older searches (the table's `age`
//! advances with every `go`) and shallow entries go first, so deep results
//! of the current search survive (depth-preferred replacement with aging).
//!
//! Mate scores are stored relative to the node ("mate in 3 from here") and
//! converted back to the root's distance on probing, since the same
//! position can be reached at different plies.
//!
//! The table is shared by every search thread (Lazy SMP) without a lock:
//! an entry is two atomic words, the data and the key XOR the data
//! (Hyatt's lockless hashing). Two threads writing one entry at once may
//! leave one's data beside the other's check word; then the XOR no longer
//! gives the key and the probe misses, instead of returning a mix. Relaxed
//! loads and stores suffice: a torn entry is detected, and nothing else is
//! ordered by the table.

use super::score::{MATE_BOUND, Score};
use crate::types::{Move, Piece, Square};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The search failed high: true value >= score.
    Lower,
    /// The search failed low: true value <= score.
    Upper,
    /// An exact value (PV node).
    Exact,
}

/// One stored result, 16 bytes: the key XOR the data, and the data. All-zero
/// bytes are the empty slot (see [`TranspositionTable::new`], which relies
/// on it).
#[derive(Debug, Default)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The fields of a slot's data word, packed into 64 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Data {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in the low two bits (0 = empty), age above.
    meta: u8,
}

impl Data {
    const fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.meta as u64) << 56
    }

    const fn unpack(word: u64) -> Data {
        Data {
            mv: word as u16,
            score: (word >> 16) as u16 as i16,
            eval: (word >> 32) as u16 as i16,
            depth: (word >> 48) as u8,
            meta: (word >> 56) as u8,
        }
    }
}

impl Slot {
    /// The slot's data if it holds an entry for `key` (checked through the
    /// XOR word; an empty slot has no bound bits).
    #[inline]
    fn read(&self, key: u64) -> Option<Data> {
        let data = self.data.load(Relaxed);
        let check = self.check.load(Relaxed);
        (check ^ data == key)
            .then(|| Data::unpack(data))
            .filter(|d| d.meta & 3 != 0)
    }

    /// The slot's data whatever its key (for replacement and `hashfull`).
    #[inline]
    fn data(&self) -> Data {
        Data::unpack(self.data.load(Relaxed))
    }

    #[inline]
    fn write(&self, key: u64, data: Data) {
        let word = data.pack();
        self.data.store(word, Relaxed);
        self.check.store(key ^ word, Relaxed);
    }
}

/// A probe result, with the score already adjusted to the probing ply.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The best move found, or [`Move::NULL`] if none.
    pub mv: Move,
    /// The search score, mates counted from the probing ply.
    pub score: Score,
    /// The static evaluation, so a node reached again need not evaluate.
    pub eval: Score,
    /// The depth the score was searched to (0 for quiescence).
    pub depth: i32,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
}

const BUCKET: usize = 4;
const AGE_STEP: u8 = 4;

/// The table. Its size is a power-of-two number of buckets.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    age: u8,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MiB (at least one bucket). Returns
    /// `None` if the memory cannot be had, instead of aborting.
    ///
    /// The memory comes zeroed from the allocator, which on the usual
    /// operating systems means fresh pages mapped lazily: creating even a
    /// many-GiB table takes microseconds, and a page costs only when the
    /// search first writes to it. (Filling a `Vec` with empty slots instead
    /// wrote every page up front, a pause that grows with the table's
    /// size, during which `isready` went unanswered.)
    pub fn new(megabytes: usize) -> Option<TranspositionTable> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * size_of::<Slot>())).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Some(TranspositionTable {
            slots: zeroed_slots(buckets * BUCKET)?,
            age: 0,
        })
    }

    /// The table's size in MiB (a power of two at most the size asked for).
    pub fn megabytes(&self) -> usize {
        (self.slots.len() * size_of::<Slot>()) >> 20
    }

    /// Forgets everything (`ucinewgame`, `Clear Hash`): a fresh zeroed
    /// allocation, as quick as [`new`](Self::new); if that fails, the old
    /// memory is wiped in place.
    pub fn clear(&mut self) {
        match zeroed_slots(self.slots.len()) {
            Some(fresh) => self.slots = fresh,
            None => {
                for slot in &self.slots {
                    slot.data.store(0, Relaxed);
                    slot.check.store(0, Relaxed);
                }
            }
        }
        self.age = 0;
    }

    /// Marks the start of a new search, so older entries become replaceable.
    /// Called before the search threads start, hence `&mut`.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(AGE_STEP);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        let buckets = self.slots.len() / BUCKET;
        (key as usize & (buckets - 1)) * BUCKET
    }

    /// The entry for `key`, if stored. `ply` is the distance from the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let start = self.bucket(key);
        let slot = self.slots[start..start + BUCKET]
            .iter()
            .find_map(|s| s.read(key))?;
        let bound = match slot.meta & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Entry {
            mv: move_from_bits(slot.mv),
            score: from_tt(slot.score as Score, ply),
            eval: slot.eval as Score,
            depth: slot.depth as i32,
            bound,
        })
    }

    /// Stores a result for `key` found `ply` plies from the root.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
    ) {
        let start = self.bucket(key);
        let age = self.age;
        let bucket = &self.slots[start..start + BUCKET];
        let (slot, old) = match bucket.iter().find_map(|s| Some((s, s.read(key)?))) {
            Some((slot, old)) => (slot, Some(old)),
            None => {
                let slot = bucket
                    .iter()
                    .min_by_key(|s| worth(s.data(), age))
                    .unwrap_or(&bucket[0]);
                (slot, None)
            }
        };
        // Keep an older best move rather than erase it with "none".
        let mv = match old {
            Some(old) if mv == Move::NULL => old.mv,
            _ => mv.bits(),
        };
        let bound_bits = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        let data = Data {
            mv,
            score: to_tt(score, ply) as i16,
            eval: eval.clamp(-30000, 30000) as i16,
            depth: depth.clamp(0, 255) as u8,
            meta: bound_bits | (age & !3),
        };
        slot.write(key, data);
    }

    /// Permille of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .map(Slot::data)
            .filter(|d| d.meta & 3 != 0 && d.meta & !3 == self.age & !3)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// `count` empty slots in memory that the allocator hands out zeroed, or
/// `None` if it refuses.
fn zeroed_slots(count: usize) -> Option<Vec<Slot>> {
    let layout = std::alloc::Layout::array::<Slot>(count).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size (checked above). `Slot` is
    // `repr(C)` and made of atomic integers only, so all-zero bytes are a
    // valid `Slot` (the empty one, `Slot::default()`). The pointer comes
    // from the global allocator with exactly the layout of `count` slots,
    // which is what `Vec::from_raw_parts` requires for length and capacity
    // `count`.
    unsafe {
        let memory = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        if memory.is_null() {
            return None;
        }
        Some(Vec::from_raw_parts(memory, count, count))
    }
}

/// How much an entry deserves to stay: its depth, minus a lot per search
/// it has aged. Empty entries are worth least.
#[inline]
fn worth(slot: Data, age: u8) -> i32 {
    if slot.meta & 3 == 0 {
        return i32::MIN;
    }
    let generations = (age.wrapping_sub(slot.meta & !3) / AGE_STEP) as i32;
    slot.depth as i32 - 8 * generations
}

/// The inverse of [`Move::bits`].
#[inline]
fn move_from_bits(bits: u16) -> Move {
    let promotion = match bits >> 12 {
        0 => None,
        index => Piece::from_index(index as usize),
    };
    Move::new(
        Square::new((bits & 63) as u8),
        Square::new((bits >> 6 & 63) as u8),
        promotion,
    )
}

/// A score to store: mate distances counted from this node instead of the root.
#[inline]
fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// A stored score seen from `ply` plies below the root.
#[inline]
fn from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn store_probe_and_mate_adjustment() {
        let tt = TranspositionTable::new(1).unwrap();
        let mv = Move::new(Square::E1, Square::G1, None);
        // Mate in 5 plies from the root, found at ply 2: mate in 3 from the node.
        tt.store(42, 2, mv, MATE - 5, 7, 6, Bound::Exact);
        let at_ply_4 = tt.probe(42, 4).unwrap();
        assert_eq!(at_ply_4.score, MATE - 7);
        assert_eq!(at_ply_4.mv, mv);
        assert_eq!(
            (at_ply_4.depth, at_ply_4.bound, at_ply_4.eval),
            (6, Bound::Exact, 7)
        );
        assert!(tt.probe(43, 0).is_none());
    }

    #[test]
    fn deep_entries_of_this_search_survive_shallow_ones() {
        let mut tt = TranspositionTable::new(1).unwrap();
        let buckets = (tt.slots.len() / BUCKET) as u64;
        // Five keys in the same bucket: the shallowest is replaced.
        for (i, depth) in [(0u64, 9), (1, 3), (2, 8), (3, 7)] {
            tt.store(i * buckets, 0, Move::NULL, 0, 0, depth, Bound::Lower);
        }
        tt.store(4 * buckets, 0, Move::NULL, 0, 0, 1, Bound::Lower);
        assert!(tt.probe(buckets, 0).is_none());
        assert!(tt.probe(0, 0).is_some());
        // After a few searches the old deep entry gives way.
        for _ in 0..3 {
            tt.new_search();
        }
        tt.store(5 * buckets, 0, Move::NULL, 0, 0, 1, Bound::Lower);
        assert!(tt.probe(4 * buckets, 0).is_none());
        assert!(tt.probe(5 * buckets, 0).is_some());
        assert_eq!(tt.hashfull(), 1);
    }

    #[test]
    fn tables_start_empty_and_clear_empties_them() {
        let mut tt = TranspositionTable::new(2).unwrap();
        assert_eq!(tt.megabytes(), 2);
        assert!(tt.slots.iter().all(|s| s.data() == Data::default()));
        tt.store(7, 0, Move::NULL, 5, 5, 3, Bound::Exact);
        assert!(tt.probe(7, 0).is_some());
        tt.clear();
        assert!(tt.probe(7, 0).is_none());
        assert_eq!(tt.megabytes(), 2);
        // An impossible size is refused, not an abort.
        assert!(zeroed_slots(usize::MAX / 4).is_none());
    }

    #[test]
    fn data_words_round_trip_and_a_torn_entry_misses() {
        let data = Data {
            mv: 0xbeef,
            score: -31000,
            eval: 1234,
            depth: 200,
            meta: 0x7e,
        };
        assert_eq!(Data::unpack(data.pack()), data);
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(99, 0, Move::NULL, -50, 12, 4, Bound::Upper);
        assert!(tt.probe(99, 0).is_some());
        // Another thread's data beside this key's check word: a miss, not a mix.
        let slot = tt.slots[tt.bucket(99)..]
            .iter()
            .find(|s| s.read(99).is_some())
            .unwrap();
        slot.data.store(Data { depth: 9, ..data }.pack(), Relaxed);
        assert!(tt.probe(99, 0).is_none());
    }

    #[test]
    fn threads_storing_at_once_never_read_a_mixed_entry() {
        // Every key's data carries the key's low bits as its eval: a probe
        // that returned another key's data would show it.
        let tt = TranspositionTable::new(1).unwrap();
        let buckets = (tt.slots.len() / BUCKET) as u64;
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for round in 0..20_000u64 {
                        // Few buckets, many keys: constant collisions.
                        let key = ((round * 7 + thread) % 64) * buckets + round % 3;
                        tt.store(
                            key,
                            0,
                            Move::NULL,
                            0,
                            (key % 1000) as Score,
                            3,
                            Bound::Exact,
                        );
                        if let Some(entry) = tt.probe(key ^ buckets, 0) {
                            assert_eq!(entry.eval, ((key ^ buckets) % 1000) as Score);
                        }
                    }
                });
            }
        });
    }
}
