use super::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, one bit per square (bit 0 = a1, bit 63 = h8).
///
/// ```
/// use quince::{Bitboard, Square};
/// let set = Bitboard::from_square(Square::E1) | Bitboard::from_square(Square::H1);
/// assert_eq!(set.len(), 2);
/// assert_eq!(set.into_iter().collect::<Vec<_>>(), [Square::E1, Square::H1]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The set with no squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// The set of all 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The squares a1 to h1.
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// The squares a8 to h8.
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    /// The squares a1 to a8.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The squares h1 to h8.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

    /// The set holding only `square`.
    #[inline]
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1 << square.index())
    }

    /// The whole rank with index 0..8.
    #[inline]
    pub const fn rank(index: usize) -> Bitboard {
        Bitboard(0xFF << (8 * (index & 7)))
    }

    /// The whole file with index 0..8.
    #[inline]
    pub const fn file(index: usize) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << (index & 7))
    }

    /// Whether the set has no squares.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares (cheaper than `len() > 1`).
    #[inline]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 >> square.index() & 1 != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The set shifted one rank towards rank 8 (White's forward).
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// The set shifted one rank towards rank 1 (Black's forward).
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// The set rotated `squares` places towards h8 (wrapping from h8 to
    /// a1): a shift by a distance known only at run time, for sets that
    /// never hold a square the rotation would wrap.
    #[inline]
    pub const fn rotate(self, squares: u32) -> Bitboard {
        Bitboard(self.0.rotate_left(squares))
    }

    /// The set mirrored top to bottom (rank 1 <-> rank 8): a byte swap.
    #[inline]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Pops the lowest square.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let square = self.first()?;
        self.0 &= self.0 - 1;
        Some(square)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

/// Prints an 8x8 grid, rank 8 at the top: `X` for members, `.` otherwise.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(0x{:016x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let bit = self.0 >> (rank * 8 + file) & 1;
                write!(f, "{}", if bit == 1 { 'X' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
