//! The network's input layout: which block of 768 feature weights a
//! perspective's pieces use, by where its own king stands (king buckets),
//! and whether it sees the board mirrored left to right when its king is
//! on files e-h.
//!
//! The engine's `quince::eval::nnue::feature` and `king_view` compute the
//! same indices from the layout the `.qnn` file carries; they are restated
//! here so that the trainer checks the engine rather than sharing its
//! mistakes (a test compares the two on the engine's layout).

use quince::eval::nnue::MAX_KING_BUCKETS;
use quince::{Color, Piece};

/// Input features per king bucket: 2 colours x 6 pieces x 64 squares. A
/// feature's index is its bucket's block, `bucket * PER_BUCKET`, plus its
/// place in the block, the same in every bucket (the factoriser relies on
/// it: `network.rs`).
pub const PER_BUCKET: usize = 768;

/// Where a perspective's king is, by king bucket, and whether it mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputLayout {
    /// The bucket of each square of the perspective's own king, seen from
    /// its side (index 0 is a1 for White, a8 for Black).
    pub king_buckets: [u8; 64],
    /// Flip the files for a perspective whose king is on files e-h.
    pub mirrored: bool,
}

/// The named layouts `--king-buckets` takes, each mirrored but `none`:
/// (name, buckets by relative rank 1..8 for files a-d, what it is).
const PRESETS: &[(&str, [[u8; 4]; 8], bool, &str)] = &[
    (
        "none",
        [[0; 4]; 8],
        false,
        "768 inputs, no king buckets (v1-v10)",
    ),
    ("mirror", [[0; 4]; 8], true, "one bucket, mirrored"),
    (
        "m2",
        [
            [0, 0, 0, 0],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
        ],
        true,
        "mirrored; the king on its back rank, or off it",
    ),
    (
        "m4",
        [
            [0, 0, 1, 1],
            [2, 2, 2, 2],
            [3, 3, 3, 3],
            [3, 3, 3, 3],
            [3, 3, 3, 3],
            [3, 3, 3, 3],
            [3, 3, 3, 3],
            [3, 3, 3, 3],
        ],
        true,
        "mirrored; back rank in the corner (a-b) or the centre (c-d), second rank, beyond",
    ),
    (
        "m8",
        [
            [0, 1, 2, 3],
            [4, 4, 5, 5],
            [6, 6, 6, 6],
            [6, 6, 6, 6],
            [7, 7, 7, 7],
            [7, 7, 7, 7],
            [7, 7, 7, 7],
            [7, 7, 7, 7],
        ],
        true,
        "mirrored; each back-rank file, second rank corner or centre, ranks 3-4, beyond",
    ),
];

impl InputLayout {
    /// The plain 768 inputs (every network before king buckets).
    pub const NONE: InputLayout = InputLayout {
        king_buckets: [0; 64],
        mirrored: false,
    };

    /// The layout called `name` (see [`InputLayout::names`]).
    pub fn named(name: &str) -> Result<InputLayout, String> {
        let (_, ranks, mirrored, _) =
            PRESETS
                .iter()
                .find(|preset| preset.0 == name)
                .ok_or_else(|| {
                    format!(
                        "unknown king-bucket layout '{name}': expected one of {}",
                        Self::names()
                    )
                })?;
        let mut king_buckets = [0; 64];
        for (square, bucket) in king_buckets.iter_mut().enumerate() {
            let file = square & 7;
            // Files e-h take their mirror image's bucket (h is a's).
            *bucket = ranks[square >> 3][file.min(7 - file)];
        }
        Ok(InputLayout {
            king_buckets,
            mirrored: *mirrored,
        })
    }

    /// A layout read from a file: `table` must use every bucket from 0 to
    /// its largest, at most `MAX_KING_BUCKETS` (a feature index must fit
    /// `u16`), and, mirrored, give each square its mirror image's bucket.
    pub fn from_table(king_buckets: [u8; 64], mirrored: bool) -> Result<InputLayout, String> {
        let layout = InputLayout {
            king_buckets,
            mirrored,
        };
        let count = layout.king_bucket_count();
        if count > MAX_KING_BUCKETS {
            return Err(format!("{count} king buckets: at most {MAX_KING_BUCKETS}"));
        }
        if let Some(unused) = (0..count as u8).find(|b| !king_buckets.contains(b)) {
            return Err(format!("king bucket {unused} is not used by any square"));
        }
        if mirrored && (0..64).any(|sq| king_buckets[sq] != king_buckets[sq ^ 7]) {
            return Err(
                "a mirrored king-bucket table must give a square its mirror's bucket".into(),
            );
        }
        Ok(layout)
    }

    /// The layouts' names and descriptions, for `--help` and errors.
    pub fn names() -> String {
        PRESETS
            .iter()
            .map(|(name, _, _, what)| format!("{name} ({what})"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The layout's name, if it is a preset.
    pub fn name(&self) -> Option<&'static str> {
        PRESETS
            .iter()
            .map(|preset| preset.0)
            .find(|&name| Self::named(name).as_ref() == Ok(self))
    }

    /// King buckets: the largest entry + 1.
    pub fn king_bucket_count(&self) -> usize {
        usize::from(*self.king_buckets.iter().max().expect("64 entries")) + 1
    }

    /// Input features: 768 per king bucket.
    pub fn inputs(&self) -> usize {
        PER_BUCKET * self.king_bucket_count()
    }

    /// Whether the king's square matters at all (otherwise the network is
    /// the plain 768 inputs and keeps its old file formats).
    pub fn king_dependent(&self) -> bool {
        self.mirrored || self.king_bucket_count() > 1
    }

    /// `perspective`'s king bucket and whether it mirrors, its king on
    /// `king` (0..64, a1 = 0).
    fn view(&self, perspective: Color, king: usize) -> (usize, bool) {
        let relative = if perspective == Color::White {
            king
        } else {
            king ^ 56
        };
        (
            usize::from(self.king_buckets[relative]),
            self.mirrored && relative & 7 >= 4,
        )
    }

    /// The input feature of `piece` of `color` on `square` seen by
    /// `perspective`, whose own king is on `king`.
    pub fn feature(
        &self,
        perspective: Color,
        king: usize,
        color: Color,
        piece: Piece,
        square: usize,
    ) -> usize {
        let relative = if color == perspective { 0 } else { 384 };
        let mut square = if perspective == Color::White {
            square
        } else {
            square ^ 56
        };
        let (bucket, mirror) = self.view(perspective, king);
        if mirror {
            square ^= 7;
        }
        bucket * PER_BUCKET + relative + piece.index() * 64 + square
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid_tables() {
        for (name, ..) in PRESETS {
            let layout = InputLayout::named(name).unwrap();
            assert_eq!(layout.name(), Some(*name));
            let count = layout.king_bucket_count();
            assert!((0..count as u8).all(|b| layout.king_buckets.contains(&b)));
            if layout.mirrored {
                assert!((0..64).all(|sq| layout.king_buckets[sq] == layout.king_buckets[sq ^ 7]));
            }
        }
        assert_eq!(InputLayout::named("none").unwrap(), InputLayout::NONE);
        assert_eq!(InputLayout::named("m4").unwrap().inputs(), 4 * 768);
        assert!(InputLayout::named("m5").unwrap_err().contains("m4"));
    }

    #[test]
    fn mirrored_views_see_the_mirror_image() {
        let layout = InputLayout::named("m4").unwrap();
        // White king on g1 (6) sees a knight on f3 (21) as a king on b1
        // sees one on c3 (18).
        let g1 = layout.feature(Color::White, 6, Color::White, Piece::Knight, 21);
        let b1 = layout.feature(Color::White, 1, Color::White, Piece::Knight, 18);
        assert_eq!(g1, b1);
        assert!(g1 < 768, "b1 is in bucket 0");
        // Black's king on g8 is White's on g1, seen from the other side.
        let g8 = layout.feature(Color::Black, 62, Color::Black, Piece::Knight, 45);
        assert_eq!(g8, g1);
        // Off the back rank, another block.
        let e4 = layout.feature(Color::White, 28, Color::White, Piece::Knight, 21);
        assert!(e4 >= 3 * 768);
    }
}
