//! The `.qdg` game file: self-play games as moves and scores, about three
//! bytes per position once compressed, replayed into positions by readers.
//!
//! Why games rather than positions: a position record (a packed board, a
//! score, a result) takes 32 bytes or so, while a move and a score take 4,
//! and the positions follow from replaying the moves. The trainer replays
//! them with Quince's own move generator, which the perft suites verify.
//!
//! Layout (little endian):
//!
//! ```text
//! file    := "QDG1" game*
//! game    := index:u32 result:u8 opening_len:u8 scored_len:u16
//!            opening_move:u16 * opening_len
//!            (move:u16 score:i16) * scored_len
//! ```
//!
//! * `index` is the game's number in its run: with the run's seed it fixes
//!   the random opening, and it lets an interrupted run resume exactly.
//! * `result`: 0 black won, 1 draw, 2 white won.
//! * the opening moves are the random plies played from the start position
//!   (not searched, no scores); each scored move is the searched best move
//!   with its score in centipawns **from White's point of view** (mates as
//!   the search encodes them, see [`crate::search::score`]).

use crate::types::Move;
use std::io::{self, Read, Write};

/// The four bytes every `.qdg` file starts with.
pub const MAGIC: &[u8; 4] = b"QDG1";

/// How a game ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Black won (stored as 0).
    BlackWins = 0,
    /// A draw (stored as 1).
    Draw = 1,
    /// White won (stored as 2).
    WhiteWins = 2,
}

impl GameResult {
    /// The result as White's score: 0, 0.5 or 1.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWins),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWins),
            _ => None,
        }
    }
}

/// Bytes of a record's header: `index:u32 result:u8 opening_len:u8
/// scored_len:u16`, the same in a `.qdg` record and a `.qdp` file's header
/// column ([`super::packed`]).
pub(crate) const HEADER_BYTES: usize = 8;

/// A record's header, read.
pub(crate) struct Header {
    pub index: u32,
    pub result: GameResult,
    pub opening_len: usize,
    pub scored_len: usize,
}

impl Header {
    /// Reads a header; an error for a result byte that is not 0, 1 or 2.
    pub(crate) fn parse(bytes: &[u8; HEADER_BYTES]) -> io::Result<Header> {
        let result = GameResult::from_byte(bytes[4]).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("bad result byte {}", bytes[4]),
            )
        })?;
        Ok(Header {
            index: u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")),
            result,
            opening_len: bytes[5] as usize,
            scored_len: u16::from_le_bytes([bytes[6], bytes[7]]) as usize,
        })
    }
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number in its run (with the seed, it fixes the opening).
    pub index: u32,
    /// How the game ended.
    pub result: GameResult,
    /// Random plies from the start position, not searched.
    pub opening: Vec<Move>,
    /// Searched moves with their scores (centipawns, White's view).
    pub scored: Vec<(Move, i16)>,
}

impl GameRecord {
    /// The record's header bytes; an error for an opening or a game too
    /// long for them.
    pub(crate) fn header(&self) -> io::Result<[u8; HEADER_BYTES]> {
        let opening_len = u8::try_from(self.opening.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "opening over 255 plies"))?;
        let scored_len = u16::try_from(self.scored.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "game over 65535 plies"))?;
        let mut bytes = [0u8; HEADER_BYTES];
        bytes[0..4].copy_from_slice(&self.index.to_le_bytes());
        bytes[4] = self.result as u8;
        bytes[5] = opening_len;
        bytes[6..8].copy_from_slice(&scored_len.to_le_bytes());
        Ok(bytes)
    }

    /// Appends the record to `out`.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut bytes =
            Vec::with_capacity(HEADER_BYTES + 2 * self.opening.len() + 4 * self.scored.len());
        bytes.extend_from_slice(&self.header()?);
        for mv in &self.opening {
            bytes.extend_from_slice(&mv.bits().to_le_bytes());
        }
        for (mv, score) in &self.scored {
            bytes.extend_from_slice(&mv.bits().to_le_bytes());
            bytes.extend_from_slice(&score.to_le_bytes());
        }
        out.write_all(&bytes)
    }

    /// Reads the next record. `Ok(None)` at a clean end of the input; an
    /// error for a record cut short or a bad result byte (an interrupted
    /// write: [`read_games`] reports how many bytes were whole).
    pub fn read(input: &mut impl Read) -> io::Result<Option<GameRecord>> {
        let mut header = [0u8; HEADER_BYTES];
        match read_or_eof(input, &mut header)? {
            0 => return Ok(None),
            HEADER_BYTES => {}
            _ => return Err(truncated()),
        }
        let Header {
            index,
            result,
            opening_len,
            scored_len,
        } = Header::parse(&header)?;
        let mut body = vec![0u8; 2 * opening_len + 4 * scored_len];
        if read_or_eof(input, &mut body)? != body.len() {
            return Err(truncated());
        }
        let word = |at: usize| u16::from_le_bytes([body[at], body[at + 1]]);
        let opening = (0..opening_len)
            .map(|i| Move::from_bits(word(2 * i)))
            .collect();
        let base = 2 * opening_len;
        let scored = (0..scored_len)
            .map(|i| {
                let at = base + 4 * i;
                (Move::from_bits(word(at)), word(at + 2) as i16)
            })
            .collect();
        Ok(Some(GameRecord {
            index,
            result,
            opening,
            scored,
        }))
    }
}

/// Every whole game in a `.qdg` byte stream, and the number of bytes they
/// take (less than the input when the last write was interrupted).
pub fn read_games(bytes: &[u8]) -> io::Result<(Vec<GameRecord>, usize)> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a .qdg file (it must start with QDG1)",
        ));
    }
    let mut cursor = &bytes[MAGIC.len()..];
    let mut games = Vec::new();
    let mut whole = MAGIC.len();
    loop {
        let before = cursor.len();
        match GameRecord::read(&mut cursor) {
            Ok(Some(game)) => {
                whole += before - cursor.len();
                games.push(game);
            }
            Ok(None) => break,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
    }
    Ok((games, whole))
}

fn truncated() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "game record cut short")
}

/// Fills `buf` as far as the input allows; returns the bytes read.
fn read_or_eof(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Piece, Square};

    fn sample(index: u32) -> GameRecord {
        let e2e4 = Move::new(
            Square::parse("e2").unwrap(),
            Square::parse("e4").unwrap(),
            None,
        );
        let promo = Move::new(
            Square::parse("a7").unwrap(),
            Square::parse("a8").unwrap(),
            Some(Piece::Queen),
        );
        GameRecord {
            index,
            result: GameResult::Draw,
            opening: vec![e2e4],
            scored: vec![(promo, -31_990), (e2e4, 17)],
        }
    }

    #[test]
    fn records_round_trip_and_a_cut_tail_is_dropped() {
        let mut bytes = MAGIC.to_vec();
        sample(3).write(&mut bytes).unwrap();
        let whole = bytes.len();
        sample(9).write(&mut bytes).unwrap();
        let (games, len) = read_games(&bytes).unwrap();
        assert_eq!(games, vec![sample(3), sample(9)]);
        assert_eq!(len, bytes.len());
        // An interrupted write leaves part of a record: the whole ones survive.
        let (games, len) = read_games(&bytes[..bytes.len() - 3]).unwrap();
        assert_eq!((games, len), (vec![sample(3)], whole));
    }

    #[test]
    fn a_file_without_the_magic_is_refused() {
        assert!(read_games(b"PK\x03\x04").is_err());
    }
}
