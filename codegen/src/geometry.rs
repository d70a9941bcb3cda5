//! Slow, obviously-correct board geometry: every table Quince looks up at run
//! time is computed here, once, at build time, by walking the board square by
//! square. Squares are numbered `a1 = 0, b1 = 1, ..., h8 = 63`; sets of squares
//! are plain `u64` bitmasks, since this crate knows no engine types.

/// The (file, rank) of a square index.
pub fn coords(square: usize) -> (i32, i32) {
    ((square % 8) as i32, (square / 8) as i32)
}

/// The square at (file, rank), if it lies on the board.
pub fn square_at(file: i32, rank: i32) -> Option<usize> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

/// Squares reached by one step of each `(file, rank)` offset.
pub fn leaper(square: usize, steps: &[(i32, i32)]) -> u64 {
    let (file, rank) = coords(square);
    steps
        .iter()
        .filter_map(|&(df, dr)| square_at(file + df, rank + dr))
        .fold(0, |set, sq| set | 1 << sq)
}

pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const KING_STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
pub const ROOK_DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
pub const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// Squares a pawn of the given colour (0 = white, 1 = black) attacks.
pub fn pawn_attacks(color: usize, square: usize) -> u64 {
    let forward = if color == 0 { 1 } else { -1 };
    leaper(square, &[(-1, forward), (1, forward)])
}

/// Walks each direction until the edge or the first occupied square (which is
/// included: it may be captured). The reference for every sliding backend.
pub fn slider_attacks(square: usize, occupied: u64, directions: &[(i32, i32)]) -> u64 {
    let (file, rank) = coords(square);
    let mut attacks = 0;
    for &(df, dr) in directions {
        let (mut f, mut r) = (file + df, rank + dr);
        while let Some(sq) = square_at(f, r) {
            attacks |= 1 << sq;
            if occupied & (1 << sq) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// All squares along one direction and its opposite, excluding `square` itself.
pub fn line_through(square: usize, direction: (i32, i32)) -> u64 {
    let (df, dr) = direction;
    slider_attacks(square, 0, &[(df, dr), (-df, -dr)])
}

/// The rank through `square`, without `square`.
pub fn rank_mask(square: usize) -> u64 {
    line_through(square, (1, 0))
}
/// The file through `square`, without `square`.
pub fn file_mask(square: usize) -> u64 {
    line_through(square, (0, 1))
}
/// The a1-h8 direction diagonal through `square`, without `square`.
pub fn diagonal_mask(square: usize) -> u64 {
    line_through(square, (1, 1))
}
/// The a8-h1 direction anti-diagonal through `square`, without `square`.
pub fn anti_diagonal_mask(square: usize) -> u64 {
    line_through(square, (1, -1))
}

/// The direction from `a` to `b` if they share a rank, file or diagonal.
fn direction(a: usize, b: usize) -> Option<(i32, i32)> {
    let (fa, ra) = coords(a);
    let (fb, rb) = coords(b);
    let (df, dr) = (fb - fa, rb - ra);
    if a == b || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    Some((df.signum(), dr.signum()))
}

/// Squares strictly between `a` and `b` on a shared line; empty otherwise.
pub fn between(a: usize, b: usize) -> u64 {
    let Some(dir) = direction(a, b) else { return 0 };
    slider_attacks(a, 1 << b, &[dir]) & !(1 << b)
}

/// The squares on rank 1 that must be empty for a king on file `king` to
/// castle with the rook on file `rook` (any Chess960 set-up): everything
/// either piece crosses or lands on, except the two pieces' own squares.
/// The king goes to g1 and the rook to f1 when the rook is on the h-side,
/// c1 and d1 otherwise. Zero when the files are equal.
pub fn castling_empty(king: usize, rook: usize) -> u64 {
    if king == rook {
        return 0;
    }
    let (king_to, rook_to) = castling_destinations(king, rook);
    (castling_path(king, king_to) | castling_path(rook, rook_to)) & !(1 << king | 1 << rook)
}

/// The squares on rank 1 that must not be attacked for a king on file
/// `king` to castle with the rook on file `rook`: those it crosses and lands
/// on (its destination alone if it does not move). Zero when the files are
/// equal.
pub fn castling_king_path(king: usize, rook: usize) -> u64 {
    if king == rook {
        return 0;
    }
    castling_path(king, castling_destinations(king, rook).0)
}

/// King and rook destination files: g and f on the h-side, c and d otherwise.
fn castling_destinations(king: usize, rook: usize) -> (usize, usize) {
    if rook > king { (6, 5) } else { (2, 3) }
}

/// What a castling piece crosses and lands on: its start excluded unless
/// it does not move.
fn castling_path(from: usize, to: usize) -> u64 {
    between(from, to) | 1 << to
}

/// The whole line through `a` and `b` (edge to edge, both included); empty if
/// they share no line.
pub fn line(a: usize, b: usize) -> u64 {
    let Some(dir) = direction(a, b) else { return 0 };
    line_through(a, dir) | 1 << a
}

/// Attacks along a single rank of 8 squares: `file` is the slider's file and
/// `occupancy` the 8-bit occupancy of the rank. Used by the rank lookup of
/// hyperbola quintessence, which cannot byte-swap a rank.
pub fn rank_attacks_8(file: usize, occupancy: u8) -> u8 {
    let rook = slider_attacks(file, occupancy as u64, &[(1, 0), (-1, 0)]);
    rook as u8
}

/// The relevant occupancy mask of a slider for magic and PEXT indexing: its
/// empty-board attacks minus the last square of each ray (a piece there
/// changes nothing).
pub fn relevant_mask(square: usize, directions: &[(i32, i32)]) -> u64 {
    let (file, rank) = coords(square);
    let mut mask = 0;
    for &(df, dr) in directions {
        let (mut f, mut r) = (file + df, rank + dr);
        while square_at(f + df, r + dr).is_some() {
            mask |= 1 << square_at(f, r).unwrap();
            f += df;
            r += dr;
        }
    }
    mask
}

/// The `index`-th subset of `mask` (bit i of `index` picks the i-th lowest set
/// bit of `mask`): the software equivalent of PDEP.
pub fn subset(mask: u64, index: usize) -> u64 {
    let mut result = 0;
    let mut bits = mask;
    let mut i = 0;
    while bits != 0 {
        let low = bits & bits.wrapping_neg();
        if index >> i & 1 != 0 {
            result |= low;
        }
        bits &= bits - 1;
        i += 1;
    }
    result
}

/// A small deterministic generator (SplitMix64) so that Zobrist keys and magic
/// searches are reproducible from a fixed seed.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_in_corner_has_two_moves() {
        assert_eq!(leaper(0, &KNIGHT_STEPS), 1 << 10 | 1 << 17);
    }

    #[test]
    fn castling_empty_standard_and_chess960() {
        // e1/h1: f1 g1; e1/a1: b1 c1 d1.
        assert_eq!(castling_empty(4, 7), 0x60);
        assert_eq!(castling_empty(4, 0), 0x0e);
        // King b1, rook a1 (long): king to c1, rook to d1 -> c1 d1.
        assert_eq!(castling_empty(1, 0), 0x0c);
        // King f1, rook g1 (short): they swap squares, nothing else.
        assert_eq!(castling_empty(5, 6), 0);
        assert_eq!(castling_empty(3, 3), 0);
        // e1 castling short crosses f1 and lands on g1; a king on c1
        // castling long does not move: c1 only.
        assert_eq!(castling_king_path(4, 7), 0x60);
        assert_eq!(castling_king_path(2, 0), 0x04);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(0, 3), 0b0110);
        assert_eq!(between(0, 9), 0);
        assert_eq!(between(0, 10), 0);
        assert_eq!(line(0, 9).count_ones(), 8);
    }

    #[test]
    fn subset_enumerates_every_subset() {
        let mask = 0b1010_0100;
        let all: Vec<u64> = (0..8).map(|i| subset(mask, i)).collect();
        assert_eq!(
            all,
            [
                0,
                0b100,
                0b10_0000,
                0b10_0100,
                0b1000_0000,
                0b1000_0100,
                0b1010_0000,
                0b1010_0100
            ]
        );
    }

    #[test]
    fn relevant_mask_of_a1_rook() {
        assert_eq!(relevant_mask(0, &ROOK_DIRECTIONS).count_ones(), 12);
        assert_eq!(relevant_mask(27, &BISHOP_DIRECTIONS).count_ones(), 9);
    }
}
