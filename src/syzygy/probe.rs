//! From table values to a position's WDL and DTZ.
//!
//! A table stores values assuming the side to move has no capture worth
//! making (the generator left those out to compress better), so a probe
//! first plays the captures, one small alpha-beta over capture sequences
//! ending in table lookups, and only then trusts the table. En passant is
//! never in a table: it is resolved the same way, after. DTZ tables store
//! one side to move; for the other side, or for a position whose best
//! move is a pawn move, the DTZ comes from the moves' values, one ply on.
//! The decisions follow the format's author's reference prober, so the
//! answers (rounding of DTZ included) are the ones every Syzygy prober
//! gives.

use super::{Dtz, ProbeError, Tablebase, Wdl};
use crate::{Move, Piece, Position, legal_moves, movegen::has_legal_move};

/// DTZ of a zeroing move that reaches `wdl` (-2..=2): ±1, or ±101 when
/// the fifty-move rule spoils the result.
fn dtz_before_zeroing(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

/// How the best value of a capture search came about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The table's own value.
    Table,
    /// A capture, winning (so DTZ is that of a zeroing move).
    WinningCapture,
}

fn captures(position: &Position) -> impl Iterator<Item = Move> + '_ {
    let them = position.color(position.side_to_move().flip());
    legal_moves(position)
        .into_iter()
        .filter(move |mv| them.contains(mv.to()))
}

fn en_passant_captures(position: &Position) -> Vec<Move> {
    if position.en_passant().is_none() {
        return Vec::new();
    }
    legal_moves(position)
        .into_iter()
        .filter(|&mv| position.is_en_passant(mv))
        .collect()
}

fn only_en_passant_moves(position: &Position) -> bool {
    legal_moves(position)
        .into_iter()
        .all(|mv| position.is_en_passant(mv))
}

fn is_checkmate(position: &Position) -> bool {
    position.in_check() && !has_legal_move(position)
}

impl Tablebase {
    /// The position's WDL from the side to move, under the fifty-move
    /// rule, assuming the last move zeroed the fifty-move counter (the
    /// convention of every Syzygy prober: the counter is the caller's to
    /// weigh).
    ///
    /// ```no_run
    /// use quince::Position;
    /// use quince::syzygy::{Tablebase, Wdl};
    /// let tables = Tablebase::open("/path/to/syzygy")?;
    /// let position = Position::from_fen("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")?;
    /// assert_eq!(tables.probe_wdl(&position)?, Wdl::Loss);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn probe_wdl(&self, position: &Position) -> Result<Wdl, ProbeError> {
        self.check(position)?;
        self.wdl_with_en_passant(position).map(Wdl::from_value)
    }

    /// The position's DTZ from the side to move: plies to a zeroing move
    /// (capture or pawn move) with best play, positive when winning,
    /// negative when losing, 0 for a draw; beyond ±100 when the fifty-move
    /// rule spoils the result. A value may be one ply more than the
    /// truth (the tables round where it cannot change the result).
    pub fn probe_dtz(&self, position: &Position) -> Result<Dtz, ProbeError> {
        self.check(position)?;
        self.dtz_with_en_passant(position).map(Dtz)
    }

    /// Refuses positions no table holds: castling rights, too many pieces.
    pub(super) fn check(&self, position: &Position) -> Result<(), ProbeError> {
        if !position.castling().is_empty() {
            return Err(ProbeError::CastlingRights);
        }
        let pieces = position.occupied().len();
        if pieces as usize > self.max_pieces() {
            return Err(ProbeError::TooManyPieces {
                pieces,
                max: self.max_pieces() as u32,
            });
        }
        Ok(())
    }

    /// The table's WDL for the position itself (no captures considered).
    fn table_wdl(&self, position: &Position) -> Result<i32, ProbeError> {
        if position.occupied() == position.pieces(Piece::King) {
            return Ok(0);
        }
        let (table, path) = self.table(position, true)?;
        table
            .wdl(position)
            .map_err(|c| ProbeError::corrupt(path, c))
    }

    /// Alpha-beta over captures (e.p. aside) ending in table values.
    fn capture_search(
        &self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
    ) -> Result<(i32, Source), ProbeError> {
        for mv in captures(position) {
            let next = position.play_unchecked(mv);
            let value = -self.capture_search(&next, -beta, -alpha)?.0;
            if value > alpha {
                if value >= beta {
                    return Ok((value, Source::WinningCapture));
                }
                alpha = value;
            }
        }
        let value = self.table_wdl(position)?;
        if alpha >= value {
            Ok((
                alpha,
                if alpha > 0 {
                    Source::WinningCapture
                } else {
                    Source::Table
                },
            ))
        } else {
            Ok((value, Source::Table))
        }
    }

    fn wdl_with_en_passant(&self, position: &Position) -> Result<i32, ProbeError> {
        let (mut value, _) = self.capture_search(position, -2, 2)?;
        let best_en_passant = self.best_en_passant(position)?;
        if let Some(en_passant) = best_en_passant {
            if en_passant >= value {
                value = en_passant;
            } else if value == 0 && only_en_passant_moves(position) {
                // Stalemate but for the e.p. capture: it must be played.
                value = en_passant;
            }
        }
        Ok(value)
    }

    /// The best WDL an e.p. capture reaches, if one is legal.
    fn best_en_passant(&self, position: &Position) -> Result<Option<i32>, ProbeError> {
        let mut best = None;
        for mv in en_passant_captures(position) {
            let next = position.play_unchecked(mv);
            let value = -self.capture_search(&next, -2, 2)?.0;
            best = Some(best.map_or(value, |b: i32| b.max(value)));
        }
        Ok(best)
    }

    fn dtz_with_en_passant(&self, position: &Position) -> Result<i32, ProbeError> {
        let mut value = self.dtz_without_en_passant(position)?;
        let Some(en_passant) = self.best_en_passant(position)? else {
            return Ok(value);
        };
        let capture = dtz_before_zeroing(en_passant);
        let take = if value < -100 {
            capture >= 0
        } else if value < 0 {
            !(-100..0).contains(&capture)
        } else if value > 100 {
            capture > 0
        } else if value > 0 {
            capture == 1
        } else if capture >= 0 {
            true
        } else {
            only_en_passant_moves(position)
        };
        if take {
            value = capture;
        }
        Ok(value)
    }

    fn dtz_without_en_passant(&self, position: &Position) -> Result<i32, ProbeError> {
        let (wdl, source) = self.capture_search(position, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if source == Source::WinningCapture {
            return Ok(dtz_before_zeroing(wdl));
        }
        let empty = !position.occupied().0;
        if wdl > 0 {
            // A winning pawn push zeroes at once.
            for mv in legal_moves(position) {
                if position.moved_piece(mv) == Some(Piece::Pawn)
                    && empty & (1 << mv.to().index()) != 0
                    && !position.is_en_passant(mv)
                {
                    let next = position.play_unchecked(mv);
                    if -self.wdl_with_en_passant(&next)? == wdl {
                        return Ok(if wdl == 2 { 1 } else { 101 });
                    }
                }
            }
        }

        let (table, path) = self.table(position, false)?;
        if let Some(stored) = table
            .dtz(position, wdl)
            .map_err(|c| ProbeError::corrupt(path, c))?
        {
            let dtz = if wdl > 0 { stored } else { -stored };
            return Ok(dtz_before_zeroing(wdl) + dtz);
        }

        // The table stores the other side to move: one ply on.
        if wdl > 0 {
            let mut best = i32::MAX;
            for mv in legal_moves(position) {
                if position.moved_piece(mv) == Some(Piece::Pawn)
                    || empty & (1 << mv.to().index()) == 0
                {
                    continue;
                }
                let next = position.play_unchecked(mv);
                let value = -self.dtz_with_en_passant(&next)?;
                if value == 1 && is_checkmate(&next) {
                    best = 1;
                } else if value > 0 && value + 1 < best {
                    best = value + 1;
                }
            }
            // The reference prober's "no move found" value.
            Ok(if best == i32::MAX { 0xffff } else { best })
        } else {
            let mut best = -1;
            for mv in legal_moves(position) {
                let next = position.play_unchecked(mv);
                let value = if next.halfmove_clock() == 0 {
                    if wdl == -2 {
                        -1
                    } else {
                        let (reply, _) = self.capture_search(&next, 1, 2)?;
                        if reply == 2 { 0 } else { -101 }
                    }
                } else {
                    -self.dtz_with_en_passant(&next)? - 1
                };
                best = best.min(value);
            }
            Ok(best)
        }
    }

    /// Every legal move with its DTZ from the mover's side: positive if it
    /// wins, from the position before the move (one ply more than the
    /// reply's), 0 if it draws, negative if it loses. A mate counts 1. What
    /// an engine needs at the root to convert a won ending: keep the
    /// moves with the best result and, among wins, the smallest DTZ that
    /// the fifty-move counter allows.
    ///
    /// Repetitions are not known here: a move into a repeated position is
    /// valued as if the game had no history.
    pub fn root_moves(&self, position: &Position) -> Result<Vec<(Move, Dtz)>, ProbeError> {
        self.check(position)?;
        let mut moves = Vec::new();
        for mv in legal_moves(position) {
            let next = position.play_unchecked(mv);
            let mut dtz = if next.halfmove_clock() == 0 {
                dtz_before_zeroing(-self.wdl_with_en_passant(&next)?)
            } else {
                let reply = -self.dtz_with_en_passant(&next)?;
                reply + reply.signum()
            };
            if dtz == 2 && is_checkmate(&next) {
                dtz = 1;
            }
            moves.push((mv, Dtz(dtz)));
        }
        Ok(moves)
    }

    /// The position's WDL for a search: `None` where no table answers
    /// (castling rights, too many pieces, a missing table), so the search
    /// goes on without it.
    pub fn search_wdl(&self, position: &Position) -> Option<Wdl> {
        self.probe_wdl(position).ok()
    }
}
