//! Where a position lies inside a table: Syzygy's index encoding.
//!
//! A table stores one value per arrangement of its pieces, so probing starts
//! by turning the squares of the pieces into that arrangement's number. The
//! numbering uses the board's symmetries to store each arrangement once:
//! without pawns, mirroring files, ranks and the a1-h8 diagonal brings the
//! leading pieces into the a1-d1-d4 triangle; with pawns only the file
//! mirror is free, so the leading pawn goes to files a-d. The leading group
//! is numbered with the format's own orderings (`TRIANGLE`, `KK_INDEX`,
//! `FLAP` and `PTWIST` below); every later group of like pieces is a
//! combination, numbered by its colexicographic rank among the squares the
//! earlier groups leave free.
//!
//! Every table here is computed by `const fn` from the format's definition
//! (the triangle's ten squares in the format's order), none is typed in and
//! none is built at run time.

/// The most pieces a Syzygy table holds.
pub const MAX_PIECES: usize = 7;

const fn file(square: usize) -> usize {
    square & 7
}

const fn rank(square: usize) -> usize {
    square >> 3
}

/// Rank minus file: 0 on the a1-h8 diagonal, negative below it (b1),
/// positive above it (a2).
pub(super) const fn off_diagonal(square: usize) -> i32 {
    rank(square) as i32 - file(square) as i32
}

/// The square mirrored in the a1-h8 diagonal.
pub(super) const fn flip_diagonal(square: usize) -> usize {
    ((square >> 3) | (square << 3)) & 63
}

/// The ten squares of the a1-d1-d4 triangle, in the order the format
/// numbers them: the six off the diagonal first, then the four on it.
const TRIANGLE_SQUARES: [usize; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// For each square, the number (0..10) of the triangle square that the
/// board's eight symmetries map it onto.
pub(super) const TRIANGLE: [usize; 64] = {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (mut f, mut r) = (file(square), rank(square));
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            let t = f;
            f = r;
            r = t;
        }
        let folded = r * 8 + f;
        let mut i = 0;
        while TRIANGLE_SQUARES[i] != folded {
            i += 1;
        }
        table[square] = i;
        square += 1;
    }
    table
};

/// Squares strictly below the diagonal numbered 0..28 row by row, the
/// diagonal 28..36; a square above the diagonal takes its mirror's number.
pub(super) const LOWER: [usize; 64] = {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (f, r) = (file(square), rank(square));
        table[square] = if f == r {
            28 + r
        } else {
            let (f, r) = if f > r { (f, r) } else { (r, f) };
            // Rows 0..r hold 7, 6, ... squares below the diagonal.
            let before = r * (15 - r) / 2;
            before + (f - r - 1)
        };
        square += 1;
    }
    table
};

/// The a1-h8 diagonal numbered 0..8, the h1-a8 diagonal 8..16, others 0.
pub(super) const DIAGONAL: [usize; 64] = {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (f, r) = (file(square), rank(square));
        if f == r {
            table[square] = r;
        } else if f + r == 7 {
            table[square] = 8 + r;
        }
        square += 1;
    }
    table
};

/// The leading pawn's number: files a-d (e-h mirrored) in groups of six,
/// ranks 2..7 inside a group.
pub(super) const FLAP: [usize; 64] = {
    let mut table = [0; 64];
    let mut square = 8;
    while square < 56 {
        let f = file(square);
        let near = if f < 4 { f } else { 7 - f };
        table[square] = near * 6 + rank(square) - 1;
        square += 1;
    }
    table
};

/// The order in which the other leading pawns are numbered: centre files
/// and high ranks first, the queen side one ahead of its mirror.
pub(super) const PTWIST: [usize; 64] = {
    let mut table = [0; 64];
    let mut square = 8;
    while square < 56 {
        let f = file(square);
        let (from_centre, queen_side) = if f < 4 { (3 - f, 1) } else { (f - 4, 0) };
        table[square] = from_centre * 12 + (6 - rank(square)) * 2 + queen_side;
        square += 1;
    }
    table
};

/// `FLAP`'s inverse on files a-d.
const INVFLAP: [usize; 24] = {
    let mut table = [0; 24];
    let mut i = 0;
    while i < 24 {
        table[i] = (i % 6 + 1) * 8 + i / 6;
        i += 1;
    }
    table
};

/// `n` choose `k`, 0 when `k > n`.
pub(super) const fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut result: u64 = 1;
    let mut i = 0;
    while i < k {
        // Exact at every step: the product of i + 1 consecutive integers
        // is divisible by (i + 1)!.
        result = result * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    result
}

/// For `k + 1` leading pawns, the first number used by each FLAP square of
/// the leading pawn (`PAWN_INDEX[k][flap]`), counted within its file.
pub(super) const PAWN_INDEX: [[u64; 24]; MAX_PIECES - 1] = pawn_tables().0;

/// For `k + 1` leading pawns, how many arrangements the leading pawns of
/// each file (a..d) have.
pub(super) const PAWN_FACTOR: [[u64; 4]; MAX_PIECES - 1] = pawn_tables().1;

const fn pawn_tables() -> ([[u64; 24]; MAX_PIECES - 1], [[u64; 4]; MAX_PIECES - 1]) {
    let mut index = [[0; 24]; MAX_PIECES - 1];
    let mut factor = [[0; 4]; MAX_PIECES - 1];
    let mut k = 0;
    while k < MAX_PIECES - 1 {
        let mut flap = 0;
        while flap < 24 {
            if flap % 6 == 0 {
                factor[k][flap / 6] = 0;
            }
            let start = factor[k][flap / 6];
            index[k][flap] = start;
            let count = if k == 0 {
                1
            } else {
                binomial(PTWIST[INVFLAP[flap]], k)
            };
            factor[k][flap / 6] = start + count;
            flap += 1;
        }
        k += 1;
    }
    (index, factor)
}

/// The number of each placement of two kings, the first on a triangle
/// square (`KK_INDEX[TRIANGLE number][second king's square]`), -1 where the
/// kings touch or the placement is another's mirror image. First kings off
/// the diagonal take any free square; first kings on it take squares below
/// the diagonal, and then, numbered after all of those, squares on it.
pub(super) const KK_INDEX: [[i16; 64]; 10] = {
    let mut table = [[-1; 64]; 10];
    let mut next = 0;
    let mut t = 0;
    while t < 10 {
        let king = TRIANGLE_SQUARES[t];
        let mut square = 0;
        while square < 64 {
            if !kings_touch(king, square) && (t < 6 || off_diagonal(square) < 0) {
                table[t][square] = next;
                next += 1;
            }
            square += 1;
        }
        t += 1;
    }
    t = 6;
    while t < 10 {
        let king = TRIANGLE_SQUARES[t];
        let mut square = 0;
        while square < 64 {
            if !kings_touch(king, square) && off_diagonal(square) == 0 {
                table[t][square] = next;
                next += 1;
            }
            square += 1;
        }
        t += 1;
    }
    table
};

/// Whether two kings on these squares would share or touch a square.
const fn kings_touch(a: usize, b: usize) -> bool {
    file(a).abs_diff(file(b)) <= 1 && rank(a).abs_diff(rank(b)) <= 1
}

/// How many placements the leading group has, by encoding.
pub(super) const TRIPLE_PLACEMENTS: u64 = 31332;
/// Two kings (`KK_INDEX`'s 462 placements).
pub(super) const KINGS_PLACEMENTS: u64 = 462;

/// How a pawnless table numbers its leading group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Leading {
    /// Three unique pieces (the two kings and one more) lead.
    Triple,
    /// The two kings lead (every other piece has a twin: KRRvK).
    Kings,
}

/// One side's numbering of a table: the pieces in the order the table
/// lists them, the size of each group of like pieces (`norm`), and the
/// weight of each group's number in the index (`factor`).
#[derive(Clone, Debug, Default)]
pub(super) struct Layout {
    /// Syzygy piece codes: 1..=6 pawn..king, +8 for the second colour.
    pub pieces: [u8; MAX_PIECES],
    pub norm: [u8; MAX_PIECES],
    pub factor: [u64; MAX_PIECES],
}

/// `k` like pieces on `n` free squares: `n` choose `k`.
fn group_placements(k: usize, n: usize) -> u64 {
    binomial(n, k)
}

impl Layout {
    /// A pawnless table's layout; `order` is where the leading group's
    /// number goes among the groups' (the table's header says). Returns the
    /// layout and the number of positions it indexes.
    pub fn pieces(
        pieces: [u8; MAX_PIECES],
        count: usize,
        leading: Leading,
        order: usize,
    ) -> (Layout, u64) {
        let mut layout = Layout {
            pieces,
            ..Layout::default()
        };
        let lead = match leading {
            Leading::Triple => 3,
            Leading::Kings => 2,
        };
        layout.norm[0] = lead;
        layout.group_rest(lead as usize, count);
        let mut free = 64 - lead as usize;
        let mut size = 1;
        let mut i = lead as usize;
        let mut k = 0;
        while i < count || k == order {
            if k == order {
                layout.factor[0] = size;
                size *= match leading {
                    Leading::Triple => TRIPLE_PLACEMENTS,
                    Leading::Kings => KINGS_PLACEMENTS,
                };
            } else {
                layout.factor[i] = size;
                let group = layout.norm[i] as usize;
                size *= group_placements(group, free);
                free -= group;
                i += group;
            }
            k += 1;
        }
        (layout, size)
    }

    /// A table with pawns: `leading` pawns of one colour lead (on `file`,
    /// 0..4), then `other` pawns of the other colour (weighted at `order2`,
    /// 15 when there are none), then the pieces. Returns the layout and the
    /// number of positions it indexes.
    pub fn pawns(
        pieces: [u8; MAX_PIECES],
        count: usize,
        (leading, other): (usize, usize),
        (order, order2): (usize, usize),
        file: usize,
    ) -> (Layout, u64) {
        let mut layout = Layout {
            pieces,
            ..Layout::default()
        };
        layout.norm[0] = leading as u8;
        if other > 0 {
            layout.norm[leading] = other as u8;
        }
        layout.group_rest(leading + other, count);
        let mut i = leading;
        if order2 < 0x0f {
            i += layout.norm[i] as usize;
        }
        let mut free = 64 - i;
        let mut size = 1;
        let mut k = 0;
        while i < count || k == order || k == order2 {
            if k == order {
                layout.factor[0] = size;
                size *= PAWN_FACTOR[leading - 1][file];
            } else if k == order2 {
                layout.factor[leading] = size;
                size *= group_placements(layout.norm[leading] as usize, 48 - leading);
            } else {
                layout.factor[i] = size;
                let group = layout.norm[i] as usize;
                size *= group_placements(group, free);
                free -= group;
                i += group;
            }
            k += 1;
        }
        (layout, size)
    }

    /// Sizes of the groups of like pieces from `start` on.
    fn group_rest(&mut self, start: usize, count: usize) {
        let mut i = start;
        while i < count {
            let mut j = i;
            while j < count && self.pieces[j] == self.pieces[i] {
                self.norm[i] += 1;
                j += 1;
            }
            i += self.norm[i] as usize;
        }
    }

    /// The index of a pawnless arrangement; `squares` are in the layout's
    /// piece order and get normalised in place.
    pub fn encode_pieces(&self, squares: &mut [usize], leading: Leading) -> u64 {
        let n = squares.len();
        if squares[0] & 0x04 != 0 {
            squares.iter_mut().for_each(|s| *s ^= 0x07);
        }
        if squares[0] & 0x20 != 0 {
            squares.iter_mut().for_each(|s| *s ^= 0x38);
        }
        let lead = match leading {
            Leading::Triple => 3,
            Leading::Kings => 2,
        };
        // The first leading piece off the diagonal decides the diagonal
        // mirror: it must end below the diagonal.
        if let Some(i) = squares.iter().position(|&s| off_diagonal(s) != 0)
            && i < lead
            && off_diagonal(squares[i]) > 0
        {
            squares.iter_mut().for_each(|s| *s = flip_diagonal(*s));
        }
        let index = match leading {
            Leading::Triple => {
                let (a, b, c) = (squares[0], squares[1], squares[2]);
                let bi = usize::from(b > a);
                let ci = usize::from(c > a) + usize::from(c > b);
                if off_diagonal(a) != 0 {
                    TRIANGLE[a] * 63 * 62 + (b - bi) * 62 + (c - ci)
                } else if off_diagonal(b) != 0 {
                    6 * 63 * 62 + DIAGONAL[a] * 28 * 62 + LOWER[b] * 62 + c - ci
                } else if off_diagonal(c) != 0 {
                    6 * 63 * 62
                        + 4 * 28 * 62
                        + DIAGONAL[a] * 7 * 28
                        + (DIAGONAL[b] - bi) * 28
                        + LOWER[c]
                } else {
                    6 * 63 * 62
                        + 4 * 28 * 62
                        + 4 * 7 * 28
                        + DIAGONAL[a] * 7 * 6
                        + (DIAGONAL[b] - bi) * 6
                        + (DIAGONAL[c] - ci)
                }
            }
            // The kings never touch in a legal position, so the entry is
            // never -1 there; an illegal one reads as 0 (a wrong answer for
            // a position that has none, never a panic).
            Leading::Kings => KK_INDEX[TRIANGLE[squares[0]]][squares[1]].max(0) as usize,
        };
        index as u64 * self.factor[0] + self.encode_groups(squares, lead, n, 0)
    }

    /// The index of an arrangement with pawns; `squares` are in the
    /// layout's order (leading pawns first, the one nearest the a-file
    /// edge by `FLAP` already in front) and get normalised in place.
    pub fn encode_pawns(&self, squares: &mut [usize], (leading, other): (usize, usize)) -> u64 {
        let n = squares.len();
        if squares[0] & 0x04 != 0 {
            squares.iter_mut().for_each(|s| *s ^= 0x07);
        }
        // The other leading pawns in PTWIST order, highest first.
        squares[1..leading].sort_unstable_by(|a, b| PTWIST[*b].cmp(&PTWIST[*a]));
        let t = leading - 1;
        let mut index = PAWN_INDEX[t][FLAP[squares[0]]];
        for (i, &square) in squares.iter().enumerate().take(leading).skip(1) {
            index += binomial(PTWIST[square], t - i + 1);
        }
        index *= self.factor[0];
        let mut i = leading;
        if other > 0 {
            // The other side's pawns: ranks 2..7 only, so 8 fewer squares.
            index += self.encode_group(squares, i, other, 8) * self.factor[i];
            i += other;
        }
        index + self.encode_groups(squares, i, n, 0)
    }

    /// The weighted numbers of every group from `start` to `n`.
    fn encode_groups(&self, squares: &mut [usize], start: usize, n: usize, below: usize) -> u64 {
        let mut index = 0;
        let mut i = start;
        while i < n {
            let group = self.norm[i] as usize;
            index += self.encode_group(squares, i, group, below) * self.factor[i];
            i += group;
        }
        index
    }

    /// One group's number: its squares sorted, each counted among the
    /// squares the earlier pieces leave free (less `below` unusable ones),
    /// ranked as a combination.
    fn encode_group(&self, squares: &mut [usize], start: usize, group: usize, below: usize) -> u64 {
        squares[start..start + group].sort_unstable();
        let mut number = 0;
        for m in start..start + group {
            let square = squares[m];
            let taken = squares[..start].iter().filter(|&&s| square > s).count();
            number += binomial(square - taken - below, m - start + 1);
        }
        number
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_triangle_covers_each_symmetry_class_once() {
        for (t, &square) in TRIANGLE_SQUARES.iter().enumerate() {
            assert_eq!(TRIANGLE[square], t);
        }
        // b1's class: b1, g1, a2, h2, a7, h7, b8, g8.
        for square in [1, 6, 8, 15, 48, 55, 57, 62] {
            assert_eq!(TRIANGLE[square], 0);
        }
    }

    #[test]
    fn two_kings_have_the_formats_462_placements() {
        let numbered = KK_INDEX.iter().flatten().filter(|&&v| v >= 0).count();
        assert_eq!(numbered as u64, KINGS_PLACEMENTS);
        assert_eq!(
            KK_INDEX.iter().flatten().max(),
            Some(&(KINGS_PLACEMENTS as i16 - 1))
        );
        // b1's king: c1 and d1 touch or not as the board says.
        assert_eq!(KK_INDEX[0][2], -1);
        assert_eq!(KK_INDEX[0][3], 0);
    }

    #[test]
    fn orderings_are_permutations_of_their_ranges() {
        let mut lower: Vec<usize> = (0..64)
            .filter(|&s| off_diagonal(s) <= 0)
            .map(|s| LOWER[s])
            .collect();
        lower.sort_unstable();
        assert_eq!(lower, (0..36).collect::<Vec<_>>());
        let mut twist: Vec<usize> = (8..56).map(|s| PTWIST[s]).collect();
        twist.sort_unstable();
        assert_eq!(twist, (0..48).collect::<Vec<_>>());
        for (i, &square) in INVFLAP.iter().enumerate() {
            assert_eq!(FLAP[square], i);
        }
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(2, 5), 0);
        assert_eq!(binomial(63, 3), 39711);
        assert_eq!(binomial(0, 0), 1);
    }
}
