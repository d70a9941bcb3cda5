//! The `.qdp` file: the same games as a `.qdg` file, rearranged so that a
//! general-purpose compressor (`xz`) stores them in about 40 % fewer bytes,
//! and turned back into the identical `.qdg` bytes.
//!
//! Why: the self-play data is committed, and the repository has a size
//! budget. In a `.qdg` file a move takes two bytes whose values (origin,
//! destination) are spread over thousands of codes, and a score takes two
//! bytes of absolute centipawns; interleaved, they compress to about 2.9
//! bytes per scored position. Here a move is its ordinal among the legal
//! moves of its position (one byte, almost always below 40), a score is the
//! change from the game's previous score (a short variable-length number),
//! and each kind of value has a column of its own, so the compressor sees
//! long runs of alike values. Measured on `data/s29.qdg` (2,365,566 scored
//! positions) with `xz -9`: 6,904,244 bytes as `.qdg.xz`, 4,028,360 as
//! `.qdp.xz` (2.92 -> 1.70 bytes per scored position). Of that, the moves
//! column alone compresses from 1.38 to about 0.69 bytes per position as
//! ordinals (on a sample of the file), the scores from 1.13 to 0.97 as
//! changes.
//!
//! Layout (little endian):
//!
//! ```text
//! file    := "QDP1" games:u32 header*games move* score*
//! header  := index:u32 result:u8 opening_len:u8 scored_len:u16
//! move    := ordinal:u8     one per ply, opening plies then scored plies,
//!                           game after game
//! score   := zigzag LEB128  one per scored ply: the score minus the
//!                           previous scored ply's (0 before the first)
//! ```
//!
//! A move's ordinal counts the legal moves of its position in the order of
//! their bits ([`Move::bits`]), which does not depend on how the move
//! generator lists them: a file packed today unpacks the same way after any
//! change to the generator that keeps it correct. Packing needs every move
//! to be legal; a game that is not (a corrupt file) is refused by its
//! number, never packed into something that unpacks differently.

use super::format::{GameRecord, HEADER_BYTES, Header, MAGIC as QDG_MAGIC};
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::types::Move;

/// The four bytes every `.qdp` file starts with.
pub const MAGIC: &[u8; 4] = b"QDP1";

/// The legal moves of `pos`, in the order of their bits: the order that
/// gives each move its ordinal.
fn ordered_moves(pos: &Position) -> Vec<Move> {
    let mut moves = legal_moves(pos).as_slice().to_vec();
    moves.sort_unstable();
    moves
}

/// `games` as `.qdp` bytes. An error names the first game with a move
/// that is not legal, or a game too long for its header.
pub fn pack(games: &[GameRecord]) -> Result<Vec<u8>, String> {
    let count = u32::try_from(games.len()).map_err(|_| "more than 2^32 games".to_string())?;
    let mut headers = Vec::with_capacity(HEADER_BYTES * games.len());
    let mut ordinals = Vec::new();
    let mut scores = Vec::new();
    for game in games {
        let header = game
            .header()
            .map_err(|e| format!("game {}: {e}", game.index))?;
        headers.extend_from_slice(&header);
        let mut pos = Position::startpos();
        let plies = game
            .opening
            .iter()
            .copied()
            .chain(game.scored.iter().map(|&(mv, _)| mv));
        for (ply, mv) in plies.enumerate() {
            let ordinal = ordered_moves(&pos)
                .binary_search(&mv)
                .map_err(|_| format!("game {}: move {mv:?} at ply {ply} is illegal", game.index))?;
            // At most 218 legal moves exist in any chess position.
            ordinals.push(u8::try_from(ordinal).expect("fewer than 256 legal moves"));
            pos = pos.play_unchecked(mv);
        }
        let mut previous = 0i32;
        for &(_, score) in &game.scored {
            write_varint(&mut scores, zigzag(i32::from(score) - previous));
            previous = i32::from(score);
        }
    }
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&headers);
    out.extend_from_slice(&ordinals);
    out.extend_from_slice(&scores);
    Ok(out)
}

/// The games of `.qdp` bytes. An error says what is wrong (a cut file, an
/// ordinal past a position's legal moves, trailing bytes), never a panic.
pub fn unpack(bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    if bytes.get(..4) != Some(MAGIC) {
        return Err("not a .qdp file (it must start with QDP1)".into());
    }
    let count = bytes
        .get(4..8)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
        .ok_or("the file ends inside its game count")?;
    let headers_end = count
        .checked_mul(HEADER_BYTES)
        .and_then(|n| n.checked_add(8))
        .filter(|&end| end <= bytes.len())
        .ok_or("the file ends inside its game headers")?;
    let headers = &bytes[8..headers_end];
    let total_plies: usize = headers
        .chunks_exact(HEADER_BYTES)
        .map(|h| h[5] as usize + u16::from_le_bytes([h[6], h[7]]) as usize)
        .sum();
    let ordinals = bytes
        .get(headers_end..headers_end + total_plies)
        .ok_or("the file ends inside its moves")?;
    let mut scores = Scores {
        bytes: &bytes[headers_end + total_plies..],
    };
    let mut next_ordinal = ordinals.iter().copied();
    let mut games = Vec::with_capacity(count);
    for (number, header) in headers.chunks_exact(HEADER_BYTES).enumerate() {
        let Header {
            index,
            result,
            opening_len,
            scored_len,
        } = Header::parse(header.try_into().expect("a header's bytes"))
            .map_err(|e| format!("game header {number}: {e}"))?;
        let mut pos = Position::startpos();
        let mut moves = Vec::with_capacity(opening_len + scored_len);
        for ply in 0..opening_len + scored_len {
            let ordinal = next_ordinal.next().expect("counted above") as usize;
            let mv = *ordered_moves(&pos).get(ordinal).ok_or_else(|| {
                format!("game {index}: ply {ply} names legal move {ordinal}, which does not exist")
            })?;
            moves.push(mv);
            pos = pos.play_unchecked(mv);
        }
        let mut previous = 0i16;
        let mut scored = Vec::with_capacity(scored_len);
        for &mv in &moves[opening_len..] {
            let change = scores
                .next()
                .ok_or_else(|| format!("game {index}: the file ends inside its scores"))?;
            // In i64: a damaged change near 2^31 must not overflow.
            let score = i64::from(previous) + i64::from(unzigzag(change));
            let score = i16::try_from(score)
                .map_err(|_| format!("game {index}: score {score} out of range"))?;
            scored.push((mv, score));
            previous = score;
        }
        moves.truncate(opening_len);
        games.push(GameRecord {
            index,
            result,
            opening: moves,
            scored,
        });
    }
    if !scores.bytes.is_empty() {
        return Err(format!(
            "{} bytes after the last game's scores",
            scores.bytes.len()
        ));
    }
    Ok(games)
}

/// `games` as `.qdg` bytes (the magic, then each record): what
/// [`unpack`] gives back is written out as the file that was packed.
pub fn to_qdg(games: &[GameRecord]) -> Vec<u8> {
    let mut out = QDG_MAGIC.to_vec();
    for game in games {
        game.write(&mut out).expect("writing to memory cannot fail");
    }
    out
}

/// Zigzag: small magnitudes of either sign become small unsigned numbers
/// (0, -1, 1, -2 ... -> 0, 1, 2, 3 ...), so a varint stores them in one byte.
fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

fn unzigzag(u: u32) -> i32 {
    (u >> 1) as i32 ^ -((u & 1) as i32)
}

/// LEB128: seven bits per byte, the high bit set on every byte but the last.
fn write_varint(out: &mut Vec<u8>, mut u: u32) {
    while u >= 0x80 {
        out.push((u as u8 & 0x7f) | 0x80);
        u >>= 7;
    }
    out.push(u as u8);
}

/// Reads the score column's varints one by one.
struct Scores<'a> {
    bytes: &'a [u8],
}

impl Scores<'_> {
    /// The next varint, or `None` if the column ends inside one (or one
    /// runs past 32 bits, which no packed file contains).
    fn next(&mut self) -> Option<u32> {
        let mut value = 0u32;
        for (i, &byte) in self.bytes.iter().enumerate().take(5) {
            value |= u32::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                self.bytes = &self.bytes[i + 1..];
                return Some(value);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::read_games;
    use crate::datagen::selfplay::{SelfPlaySettings, play_game};
    use crate::search::tt::TranspositionTable;

    fn games() -> Vec<GameRecord> {
        let settings = SelfPlaySettings {
            nodes: 300,
            max_plies: 40,
            ..SelfPlaySettings::default()
        };
        let mut tt = TranspositionTable::new(1).unwrap();
        (0..4)
            .map(|i| play_game(21, i, &settings, &mut tt))
            .collect()
    }

    #[test]
    fn packing_and_unpacking_gives_back_the_same_qdg_bytes() {
        let games = games();
        assert!(games.iter().all(|g| !g.scored.is_empty()));
        let qdg = to_qdg(&games);
        let (read, _) = read_games(&qdg).unwrap();
        assert_eq!(read, games);
        let packed = pack(&games).unwrap();
        assert!(
            packed.len() < qdg.len(),
            "{} >= {}",
            packed.len(),
            qdg.len()
        );
        let unpacked = unpack(&packed).unwrap();
        assert_eq!(unpacked, games);
        assert_eq!(to_qdg(&unpacked), qdg);
    }

    #[test]
    fn scores_of_any_size_and_sign_survive() {
        let mut game = games().remove(0);
        let extremes = [i16::MIN, i16::MAX, 0, -1, 1, 31_990, -31_990, 63, -64, 64];
        for (slot, score) in game.scored.iter_mut().zip(extremes.iter().cycle()) {
            slot.1 = *score;
        }
        let packed = pack(std::slice::from_ref(&game)).unwrap();
        assert_eq!(unpack(&packed).unwrap(), vec![game]);
    }

    #[test]
    fn an_illegal_move_is_refused_by_game() {
        let mut game = games().remove(0);
        let e2e5 = Move::new(
            crate::types::Square::parse("e2").unwrap(),
            crate::types::Square::parse("e5").unwrap(),
            None,
        );
        game.opening.insert(0, e2e5);
        let err = pack(&[game]).unwrap_err();
        assert!(err.contains("illegal"), "{err}");
    }

    #[test]
    fn damaged_files_are_errors_not_panics() {
        let packed = pack(&games()).unwrap();
        // Every cut short of the whole file is an error.
        for len in 0..packed.len() {
            assert!(unpack(&packed[..len]).is_err(), "cut at {len} accepted");
        }
        let mut extra = packed.clone();
        extra.push(0);
        assert!(unpack(&extra).unwrap_err().contains("after the last game"));
        // An ordinal past the legal moves (255 never exists at the start).
        let mut bad = packed.clone();
        let first_ordinal = 8 + HEADER_BYTES * 4;
        bad[first_ordinal] = 255;
        assert!(unpack(&bad).unwrap_err().contains("does not exist"));
        assert!(unpack(b"QDG1").is_err());
    }

    #[test]
    fn a_damaged_score_change_near_the_integer_limit_is_an_error() {
        let mut game = games().remove(0);
        assert!(game.scored.len() >= 2);
        // Scores 1 and 1: the changes 1 and 0, one byte each.
        game.scored[0].1 = 1;
        game.scored[1].1 = 1;
        let packed = pack(std::slice::from_ref(&game)).unwrap();
        let plies = game.opening.len() + game.scored.len();
        let second = 8 + HEADER_BYTES + plies + 1;
        // The second change replaced by 2^31 - 1 (zigzag 0xFFFF_FFFE in
        // five bytes): added to 1 it passes i32's limit.
        let mut bad = packed[..second].to_vec();
        bad.extend_from_slice(&[0xFE, 0xFF, 0xFF, 0xFF, 0x0F]);
        bad.extend_from_slice(&packed[second + 1..]);
        assert!(unpack(&bad).unwrap_err().contains("out of range"));
    }
}
