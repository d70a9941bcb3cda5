//! A game of chess: the start position, the moves played from it, the
//! position they lead to, the PGN tags and the result.
//!
//! A [`Position`] knows only the present; a [`Game`] also remembers how it
//! got there, which the rules about repetitions need, and which the search
//! wants for its own repetition detection ([`Game::history_keys`]).
//!
//! ```
//! use quince::Game;
//! use quince::game::{GameResult, Outcome};
//! use quince::Color;
//!
//! let mut game = Game::default();
//! for san in ["f3", "e5", "g4", "Qh4#"] {
//!     game.play_san(san).expect("legal");
//! }
//! assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
//! assert_eq!(game.result(), GameResult::BlackWins);
//! assert_eq!(game.moves().len(), 4);
//! ```

use crate::notation::pgn::{self, PgnError};
use crate::notation::{MoveError, SanError};
use crate::position::{IllegalMove, Position, Undo};
use crate::search::{Limits, SearchResult, best_move_with_history};
use crate::types::{Color, Move, Square};
use std::fmt;
use std::str::FromStr;

mod notes;

use notes::Notes;

/// What [`Game::undo`] needs to take a move back: a move's [`Undo`], or a
/// null move's e.p. square.
#[derive(Clone, Debug)]
enum Step {
    Move(Undo),
    Null((Option<Square>, u32)),
}

/// How a game ended, or stands, as PGN's result token says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: still going, abandoned or unknown.
    Ongoing,
}

impl GameResult {
    /// The PGN token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Ongoing => "*",
        }
    }

    /// The win of `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of `"...".parse::<GameResult>()`: not one of the four tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultError(pub String);

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown result '{}': expected 1-0, 0-1, 1/2-1/2 or *",
            self.0
        )
    }
}

impl std::error::Error for ResultError {}

/// Reads one of the four PGN result tokens.
///
/// ```
/// use quince::game::GameResult;
/// assert_eq!("1/2-1/2".parse(), Ok(GameResult::Draw));
/// assert!("2-0".parse::<GameResult>().is_err());
/// ```
impl FromStr for GameResult {
    type Err = ResultError;

    fn from_str(text: &str) -> Result<GameResult, ResultError> {
        match text {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Ongoing),
            _ => Err(ResultError(text.to_string())),
        }
    }
}

/// Why a game is over, or may be claimed over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is mated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has the material to mate
    /// ([`Position::is_insufficient_material`]).
    InsufficientMaterial,
    /// The position has occurred five times: drawn without a claim.
    FivefoldRepetition,
    /// 150 plies without a capture or pawn move: drawn without a claim.
    SeventyFiveMoves,
    /// The position has occurred three times: either player may claim a draw.
    ThreefoldRepetition,
    /// 100 plies without a capture or pawn move: either player may claim a draw.
    FiftyMoves,
    /// A result from outside the board: resignation, agreement, time, or a
    /// PGN result token ([`Game::set_result`]).
    Declared(GameResult),
}

impl Outcome {
    /// The result this outcome gives (claimable draws give a draw, as if
    /// claimed).
    pub fn result(self) -> GameResult {
        match self {
            Outcome::Checkmate { winner } => GameResult::win_for(winner),
            Outcome::Declared(result) => result,
            _ => GameResult::Draw,
        }
    }

    /// Whether the game ends only if a player claims it (threefold
    /// repetition, fifty moves).
    pub fn is_claim(self) -> bool {
        matches!(self, Outcome::ThreefoldRepetition | Outcome::FiftyMoves)
    }
}

/// A game: start position, moves, current position, tags and result.
///
/// Moves are checked against the legal moves of the current position, so a
/// `Game` always holds a legal game.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// `undos[i]` restores the position before `moves[i]`.
    undos: Vec<Step>,
    /// `notes[i]`: the NAGs and comment of `moves[i]` (PGN's `$n` and
    /// `{...}` after it).
    notes: Vec<Notes>,
    /// The comment before the first move.
    comment: Option<String>,
    /// `keys[i]`: the key of the position before `moves[i]` (the search's
    /// repetition history).
    keys: Vec<u64>,
    /// `repetition_keys[i]`: the same position's
    /// [`Position::repetition_key`] (e.p. counted only when legal), for
    /// the rules' repetition counts.
    repetition_keys: Vec<u64>,
    tags: Vec<(String, String)>,
    declared: Option<GameResult>,
}

/// Two games are equal when they have the same start, moves, tags and
/// declared result (the rest follows from those).
impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.start == other.start
            && self.moves == other.moves
            && self.tags == other.tags
            && self.declared == other.declared
    }
}

impl Eq for Game {}

impl Default for Game {
    /// A game from the standard start position.
    fn default() -> Game {
        Game::new(Position::startpos())
    }
}

impl Game {
    /// A game from `start`, no moves played, no tags.
    pub fn new(start: Position) -> Game {
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            undos: Vec::new(),
            notes: Vec::new(),
            comment: None,
            keys: Vec::new(),
            repetition_keys: Vec::new(),
            tags: Vec::new(),
            declared: None,
        }
    }

    /// Reads the first game of a PGN text (see [`pgn::PgnReader`]).
    ///
    /// ```
    /// use quince::Game;
    /// let game = Game::from_pgn("[White \"Me\"]\n\n1. e4 {best by test} e5 2. Nf3 *").unwrap();
    /// assert_eq!(game.tag("White"), Some("Me"));
    /// assert_eq!(game.moves().len(), 3);
    /// assert!(Game::from_pgn("1. e4 e5 2. Ke3 *").is_err());
    /// ```
    pub fn from_pgn(text: &str) -> Result<Game, PgnError> {
        pgn::PgnReader::new(text.as_bytes())
            .next()
            .unwrap_or_else(|| Err(PgnError::no_game()))
    }

    /// The game as PGN text (see [`pgn::write_pgn`]).
    pub fn to_pgn(&self) -> String {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail, and the writer writes `str`s only.
        let _ = pgn::write_pgn(self, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position after the moves played.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The Zobrist keys of the positions before the current one, oldest
    /// first: what [`crate::search::search`] wants as `history`.
    ///
    /// ```
    /// use quince::Game;
    /// let mut game = Game::default();
    /// game.play_uci("e2e4").unwrap();
    /// assert_eq!(game.history_keys(), &[game.start().key()]);
    /// ```
    pub fn history_keys(&self) -> &[u64] {
        &self.keys
    }

    /// Searches the current position within `limits`, with the game's
    /// history, so that the search sees repetitions (see
    /// [`crate::search::best_move`]); `None` when the game has no legal move.
    ///
    /// ```
    /// use quince::Game;
    /// use quince::search::Limits;
    /// let mut game = Game::default();
    /// game.play_san("e4").unwrap();
    /// let reply = game.best_move(Limits::depth(3)).expect("Black has moves");
    /// assert!(game.position().is_legal(reply.best));
    /// ```
    pub fn best_move(&self, limits: Limits) -> Option<SearchResult> {
        best_move_with_history(&self.position, &self.keys, limits)
    }

    /// Plays `mv` if it is legal in the current position (castling also as
    /// the king's destination, `e1g1`: see [`Position::legal_move`]; the
    /// move recorded is the legal one). Any declared result
    /// ([`Game::set_result`]) is cleared: the game goes on.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let Some(legal) = self.position.legal_move(mv) else {
            // Not legal: `play` says so, and changes nothing.
            return self.position.play(mv).map(drop);
        };
        self.keys.push(self.position.key());
        self.repetition_keys.push(self.position.repetition_key());
        self.undos.push(Step::Move(self.position.make(legal)));
        self.moves.push(legal);
        self.notes.push(Notes::default());
        self.declared = None;
        Ok(())
    }

    /// Passes the turn: a null move ([`Move::NULL`], PGN's `--`), which
    /// analysis uses to show a threat; not a move of chess, so a game that
    /// holds one is an analysis, not a game played. Refused while the side
    /// to move is in check (the opponent could then take the king). The
    /// move counters go on as after a move, as python-chess counts them.
    ///
    /// ```
    /// use quince::Game;
    /// let mut game = Game::default();
    /// game.play_san("e4").unwrap();
    /// game.play_null().unwrap();
    /// game.play_san("d4").unwrap();
    /// assert!(game.to_pgn().contains("1. e4 -- 2. d4"));
    /// let again = Game::from_pgn(&game.to_pgn()).unwrap();
    /// assert_eq!((again.moves(), again.position()), (game.moves(), game.position()));
    /// game.undo();
    /// game.undo();
    /// assert_eq!(game.position().fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// ```
    pub fn play_null(&mut self) -> Result<(), IllegalMove> {
        if self.position.in_check() {
            return Err(self.position.illegal(Move::NULL));
        }
        self.keys.push(self.position.key());
        self.repetition_keys.push(self.position.repetition_key());
        self.undos
            .push(Step::Null(self.position.make_null_counted()));
        self.moves.push(Move::NULL);
        self.notes.push(Notes::default());
        self.declared = None;
        Ok(())
    }

    /// Reads a move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`) and plays it.
    pub fn play_san(&mut self, text: &str) -> Result<Move, SanError> {
        let mv = self.position.parse_san(text)?;
        self.play(mv)
            .map_err(|_| SanError::Illegal(text.to_string()))?;
        Ok(mv)
    }

    /// Reads a move in UCI notation (`e2e4`, `e7e8q`) and plays it.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.position.parse_uci(text)?;
        self.play(mv)
            .map_err(|_| MoveError::Illegal(text.to_string()))?;
        Ok(mv)
    }

    /// Takes back the last move and returns it (`None` at the start).
    /// Any declared result is cleared.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        let step = self.undos.pop()?;
        self.keys.pop();
        self.repetition_keys.pop();
        self.notes.pop();
        match step {
            Step::Move(undo) => self.position.unmake(mv, undo),
            Step::Null(saved) => self.position.unmake_null_counted(saved),
        }
        self.declared = None;
        Some(mv)
    }

    /// The tags in order, as `(name, value)` pairs.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag: replaces the value of the first tag called `name`, or
    /// appends the tag.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Replaces all the tags (the PGN reader's, duplicates kept).
    pub(crate) fn set_tags(&mut self, tags: Vec<(String, String)>) {
        self.tags = tags;
    }

    /// Declares a result from outside the board (resignation, agreement,
    /// time, a PGN result token); [`GameResult::Ongoing`] clears it. A
    /// result the board decides (mate, stalemate, ...) takes precedence.
    pub fn set_result(&mut self, result: GameResult) {
        self.declared = (result != GameResult::Ongoing).then_some(result);
    }

    /// How often the current position has occurred in the game, counting
    /// itself: same pieces, side to move, castling rights and e.p. rights,
    /// an e.p. right counted only when the capture is legal (FIDE's
    /// article 9.2; [`Position::repetition_key`]), searched back to the
    /// last capture or pawn move.
    ///
    /// ```
    /// use quince::Game;
    /// // After ...c5 White's b5 pawn could take e.p., but it is pinned to
    /// // its king by the rook on h5: the position repeats anyway.
    /// let start = "8/2p5/8/KP5r/8/8/8/7k b - - 0 1".parse().unwrap();
    /// let mut game = Game::new(start);
    /// for san in ["c5", "Ka6", "Kh2", "Ka5", "Kh1", "Ka6", "Kh2", "Ka5", "Kh1"] {
    ///     game.play_san(san).unwrap();
    /// }
    /// assert_eq!(game.repetitions(), 3);
    /// assert!(game.is_threefold_repetition());
    /// ```
    pub fn repetitions(&self) -> usize {
        let key = self.position.repetition_key();
        let keys = &self.repetition_keys;
        let window = (self.position.halfmove_clock() as usize).min(keys.len());
        let earlier = keys[keys.len() - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == key)
            .count();
        earlier + 1
    }

    /// Whether a draw by threefold repetition may be claimed: the current
    /// position has occurred at least three times.
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetitions() >= 3
    }

    /// Whether the current position has occurred five times (drawn).
    pub fn is_fivefold_repetition(&self) -> bool {
        self.repetitions() >= 5
    }

    /// Whether a draw under the fifty-move rule may be claimed: 100 plies
    /// or more without a capture or pawn move.
    pub fn can_claim_fifty_moves(&self) -> bool {
        self.position.halfmove_clock() >= 100
    }

    /// Whether the game is over, and how: first what the board decides
    /// (mate, stalemate, insufficient material, fivefold repetition, the
    /// seventy-five-move rule), then a declared result
    /// ([`Game::set_result`]). Claimable draws are
    /// [`Game::claimable_draw`]'s.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        if !crate::movegen::has_legal_move(pos) {
            return Some(if pos.in_check() {
                Outcome::Checkmate {
                    winner: pos.side_to_move().flip(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if pos.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if self.is_fivefold_repetition() {
            Some(Outcome::FivefoldRepetition)
        } else if pos.halfmove_clock() >= 150 {
            Some(Outcome::SeventyFiveMoves)
        } else {
            self.declared.map(Outcome::Declared)
        }
    }

    /// A draw either player may claim now: threefold repetition, then the
    /// fifty-move rule.
    ///
    /// ```
    /// use quince::Game;
    /// use quince::game::Outcome;
    /// let mut game = Game::default();
    /// for _ in 0..2 {
    ///     for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///         game.play_uci(uci).unwrap();
    ///     }
    /// }
    /// assert_eq!(game.claimable_draw(), Some(Outcome::ThreefoldRepetition));
    /// assert_eq!(game.outcome(), None);
    /// ```
    pub fn claimable_draw(&self) -> Option<Outcome> {
        if self.is_threefold_repetition() {
            Some(Outcome::ThreefoldRepetition)
        } else if self.can_claim_fifty_moves() {
            Some(Outcome::FiftyMoves)
        } else {
            None
        }
    }

    /// The result: that of [`Game::outcome`], or `*` while the game goes on
    /// (claimable draws count only once claimed with [`Game::set_result`]).
    pub fn result(&self) -> GameResult {
        self.outcome().map_or(GameResult::Ongoing, Outcome::result)
    }
}
