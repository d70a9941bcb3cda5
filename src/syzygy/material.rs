//! Which table a position needs: its material, and the tables' file names.

use crate::{Color, Piece, Position};

/// The format's piece letters, strongest first (the order of table names).
const LETTERS: [(char, Piece); 6] = [
    ('K', Piece::King),
    ('Q', Piece::Queen),
    ('R', Piece::Rook),
    ('B', Piece::Bishop),
    ('N', Piece::Knight),
    ('P', Piece::Pawn),
];

/// How many of each piece each side has: `counts[side][piece index]`,
/// side 0 the one the table name lists first (white in a position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Material {
    counts: [[u8; 6]; 2],
}

impl Material {
    /// A position's material, white first.
    pub fn of(position: &Position) -> Material {
        let mut counts = [[0; 6]; 2];
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                counts[color.index()][piece.index()] = position.colored(color, piece).len() as u8;
            }
        }
        Material { counts }
    }

    /// The material of a table name such as `KQvKR`, if it is one: letters
    /// KQRBNP, one `v`, a king on each side.
    pub fn from_name(name: &str) -> Option<Material> {
        let (first, second) = name.split_once('v')?;
        let mut counts = [[0u8; 6]; 2];
        for (side, text) in [first, second].into_iter().enumerate() {
            for c in text.chars() {
                let (_, piece) = LETTERS.iter().find(|(letter, _)| *letter == c)?;
                counts[side][piece.index()] += 1;
            }
            if counts[side][Piece::King.index()] != 1 {
                return None;
            }
        }
        Some(Material { counts })
    }

    /// Built from a table header's piece codes (1..=6 pawn..king, +8 for the
    /// second side), as the header orders them.
    pub fn from_codes(codes: &[u8]) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for &code in codes {
            if let Some(piece) = piece_of(code) {
                counts[usize::from(code & 8 != 0)][piece.index()] += 1;
            }
        }
        Material { counts }
    }

    /// The same material with the sides swapped.
    pub fn mirrored(self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// The table name, side 0 first: `KQvKR`.
    pub fn name(&self) -> String {
        let side = |counts: &[u8; 6]| -> String {
            LETTERS
                .iter()
                .flat_map(|&(letter, piece)| {
                    std::iter::repeat_n(letter, counts[piece.index()] as usize)
                })
                .collect()
        };
        format!("{}v{}", side(&self.counts[0]), side(&self.counts[1]))
    }

    /// How many pieces, kings included.
    pub fn pieces(&self) -> usize {
        self.counts.iter().flatten().map(|&c| c as usize).sum()
    }

    /// Pawns of side 0 and side 1.
    pub fn pawns(&self) -> (usize, usize) {
        let pawn = Piece::Pawn.index();
        (self.counts[0][pawn] as usize, self.counts[1][pawn] as usize)
    }

    /// How many piece kinds (of either side) appear exactly once.
    pub fn unique_kinds(&self) -> usize {
        self.counts.iter().flatten().filter(|&&c| c == 1).count()
    }

    /// The name the format files this material under: the side with more
    /// pieces first, ties broken towards the stronger pieces (the file name
    /// the generator writes; a file under any other name is not a table).
    pub fn is_canonical(&self) -> bool {
        let letters = |side: usize| -> Vec<usize> {
            LETTERS
                .iter()
                .enumerate()
                .flat_map(|(rank, &(_, piece))| {
                    std::iter::repeat_n(rank, self.counts[side][piece.index()] as usize)
                })
                .collect()
        };
        let len = |side: usize| self.counts[side].iter().map(|&c| c as usize).sum::<usize>();
        // Swapped when (len(first), letters(second)) < (len(second), letters(first)).
        (len(0), letters(1)) >= (len(1), letters(0))
    }
}

/// The piece a header code stands for (1..=6 pawn..king, either side).
pub(super) fn piece_of(code: u8) -> Option<Piece> {
    match code & 7 {
        0 | 7 => None,
        kind => Piece::from_index(kind as usize - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_only_canonical_names_are_tables() {
        for name in ["KQvKR", "KPvKP", "KBNvK", "KRPvKR", "KvK"] {
            let material = Material::from_name(name).unwrap();
            assert_eq!(material.name(), name);
            assert!(material.is_canonical(), "{name}");
        }
        for name in ["KvKQ", "KRvKQ", "KPvKN"] {
            assert!(!Material::from_name(name).unwrap().is_canonical(), "{name}");
        }
        for bad in ["KQK", "QvK", "KQvKQv", "KXvK", "KKvK"] {
            assert!(Material::from_name(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_position_names_its_table() {
        let position = Position::from_fen("8/8/8/8/3k4/8/8/KQ5r w - - 0 1").unwrap();
        assert_eq!(Material::of(&position).name(), "KQvKR");
        assert_eq!(Material::of(&position).mirrored().name(), "KRvKQ");
    }
}
