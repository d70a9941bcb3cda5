use std::fmt;

/// A file (column), `a` = 0 to `h` = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row), `1` = 0 to `8` = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    /// The file with index `index & 7`.
    #[inline]
    pub const fn new(index: u8) -> File {
        File(index & 7)
    }
    /// 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// `a`..`h`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    /// Reads `a`..`h`.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }
}

impl Rank {
    /// The rank with index `index & 7`.
    #[inline]
    pub const fn new(index: u8) -> Rank {
        Rank(index & 7)
    }
    /// 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// `1`..`8`.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }
    /// Reads `1`..`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }
}

/// A square, numbered `a1 = 0, b1 = 1, ..., h8 = 63` (little-endian
/// rank-file mapping, as in the generated tables).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Declares the 64 square constants, `A1 = 0` to `H8 = 63`, one rank per
/// line: a macro rather than 64 hand-numbered lines, so no index can be
/// mistyped.
macro_rules! square_constants {
    ($($rank:literal: $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident;)*) => {
        impl Square {
            $(square_constants!(@rank $rank, 0, $a $b $c $d $e $f $g $h);)*
        }
    };
    (@rank $rank:literal, $file:expr, $name:ident $($rest:ident)*) => {
        #[doc = concat!("The square ", stringify!($name), ".")]
        pub const $name: Square = Square($rank * 8 + $file);
        square_constants!(@rank $rank, $file + 1, $($rest)*);
    };
    (@rank $rank:literal, $file:expr,) => {};
}

square_constants! {
    0: A1 B1 C1 D1 E1 F1 G1 H1;
    1: A2 B2 C2 D2 E2 F2 G2 H2;
    2: A3 B3 C3 D3 E3 F3 G3 H3;
    3: A4 B4 C4 D4 E4 F4 G4 H4;
    4: A5 B5 C5 D5 E5 F5 G5 H5;
    5: A6 B6 C6 D6 E6 F6 G6 H6;
    6: A7 B7 C7 D7 E7 F7 G7 H7;
    7: A8 B8 C8 D8 E8 F8 G8 H8;
}

impl Square {
    /// The square with index `index & 63`.
    #[inline]
    pub const fn new(index: u8) -> Square {
        Square(index & 63)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// 0..64, the index into per-square arrays.
    ///
    /// The mask is a no-op for valid squares (every constructor masks), but
    /// it tells the compiler the index is below 64, so lookups in `[_; 64]`
    /// tables need no bounds check: one AND instead of a compare and branch.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The square's file (column).
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The square's rank (row).
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The same file on rank 1 or 8 swapped, 2 with 7 and so on.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away; `None` if that leaves the 0..64 range.
    /// (Callers check file wrap-around themselves.)
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let index = self.0 as i16 + delta as i16;
        if index >= 0 && index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Reads a square name such as `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        chars
            .next()
            .is_none()
            .then(|| Square::from_coords(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for square in Square::all() {
            assert_eq!(Square::parse(&square.to_string()), Some(square));
        }
        assert_eq!(Square::parse("e4").map(Square::index), Some(28));
        assert_eq!(Square::parse("e4"), Some(Square::E4));
        assert_eq!((Square::A1.index(), Square::H1.index()), (0, 7));
        assert_eq!((Square::A8.index(), Square::H8.index()), (56, 63));
        assert_eq!(Square::C6.to_string(), "c6");
        for bad in ["", "e", "e9", "i1", "e44", "E4"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }
}
