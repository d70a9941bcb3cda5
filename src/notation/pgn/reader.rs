//! The streaming reader: tokens to games, one game at a time.

use super::lexer::{Lexer, Token};
use super::{MAX_PLIES, MAX_TAGS, PgnError, PgnErrorKind};
use crate::game::{Game, GameResult};
use crate::position::Position;
use crate::types::Color;
use std::io::BufRead;

/// Reads PGN games one after another from a [`BufRead`].
///
/// An iterator of `Result<Game, PgnError>`: each game replayed from its
/// start (the `FEN` tag's position, or the standard one), with its tags and
/// its result token as the declared result ([`Game::set_result`]). A game
/// that does not replay is an `Err`, and reading goes on with the next
/// game; a read error from `R` is the last item.
///
/// Memory does not grow with the input: only the current game is held
/// (at most [`MAX_PLIES`](super::MAX_PLIES) plies and
/// [`MAX_TAGS`](super::MAX_TAGS) tags).
///
/// ```
/// use quince::notation::pgn::PgnReader;
/// use std::io::BufReader;
///
/// let file = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n";
/// let mut reader = PgnReader::new(BufReader::new(file.as_bytes()));
/// let game = reader.next().unwrap().unwrap();
/// assert_eq!(game.position().fen(), "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
/// assert!(reader.next().is_none());
/// ```
pub struct PgnReader<R> {
    lexer: Lexer<R>,
    /// Games started so far (the index of the last one).
    games: u64,
    /// A token read ahead: the first tag of the next game.
    pushed: Option<(Token, u64)>,
    /// Set after a read error: the iterator is over.
    failed: bool,
    /// Comments read before any token of a game: the next game's first
    /// comment, if a game follows (a file of comments alone holds none).
    pending_comment: Option<String>,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of the PGN text that `input` yields.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            lexer: Lexer::new(input),
            games: 0,
            pushed: None,
            failed: false,
            pending_comment: None,
        }
    }

    /// The number of games started so far (read, or refused).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The input line the reader has reached, from 1.
    pub fn line(&self) -> u64 {
        self.lexer.line()
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Result<Game, PgnError>> {
        if self.failed {
            return None;
        }
        let mut game: Option<Builder> = None;
        loop {
            let next = match self.pushed.take() {
                Some(token) => Ok(token),
                None => self.lexer.next_token(),
            };
            let (token, line) = match next {
                Ok(read) => read,
                Err(e) => {
                    self.failed = true;
                    let kind = PgnErrorKind::Io(e.to_string());
                    return Some(Err(PgnError::new(self.games.max(1), self.line(), kind)));
                }
            };
            let builder = match (&mut game, &token) {
                (Some(builder), _) => builder,
                (None, Token::Eof) => return None,
                // A stray `)` or NAG between games starts none.
                (None, Token::Close | Token::Nag(_)) => continue,
                (None, Token::Comment(text)) if text.is_empty() => continue,
                (None, Token::Comment(text)) => {
                    match &mut self.pending_comment {
                        Some(pending) => {
                            pending.push(' ');
                            pending.push_str(text);
                        }
                        None => self.pending_comment = Some(text.clone()),
                    }
                    continue;
                }
                (None, _) => {
                    self.games += 1;
                    let mut builder = Builder::new(self.games);
                    builder.opening_comment = self.pending_comment.take();
                    game.insert(builder)
                }
            };
            match token {
                Token::Eof => return Some(builder.finish(line)),
                Token::Tag { .. } | Token::BadTag(_) if builder.in_movetext => {
                    // The next game's tags: this one ended without a result.
                    self.pushed = Some((token, line));
                    return Some(builder.finish(line));
                }
                Token::Tag { name, value } => builder.tag(name, value, line),
                Token::BadTag(reason) => builder.fail(line, PgnErrorKind::Tag(reason)),
                Token::Open => {
                    builder.begin_movetext();
                    builder.depth += 1;
                }
                Token::Close => builder.depth = builder.depth.saturating_sub(1),
                Token::Move(text) => {
                    builder.begin_movetext();
                    if builder.depth == 0 {
                        builder.play(&text, line);
                    }
                }
                Token::Result(result) => {
                    builder.begin_movetext();
                    if builder.depth == 0 {
                        builder.result = Some(result);
                        return Some(builder.finish(line));
                    }
                }
                Token::Comment(text) => {
                    builder.begin_movetext();
                    if builder.depth == 0 {
                        builder.comment(&text);
                    }
                }
                Token::Nag(nag) => {
                    builder.begin_movetext();
                    if builder.depth == 0 {
                        builder.nag(nag);
                    }
                }
                Token::UnterminatedComment => {
                    builder.fail(line, PgnErrorKind::UnterminatedComment);
                    return Some(builder.finish(line));
                }
            }
        }
    }
}

/// The game being read.
struct Builder {
    index: u64,
    tags: Vec<(String, String)>,
    /// The lines of the `FEN` and `Variant` tags, for their errors.
    fen_line: u64,
    variant_line: u64,
    /// Set when the movetext begins (from the tags).
    game: Option<Game>,
    error: Option<PgnError>,
    in_movetext: bool,
    /// Variation nesting depth: moves below depth 0 are skipped.
    depth: u32,
    /// The result token that ended the movetext.
    result: Option<GameResult>,
    /// Comments read before the game's first token.
    opening_comment: Option<String>,
}

impl Builder {
    fn new(index: u64) -> Builder {
        Builder {
            index,
            tags: Vec::new(),
            fen_line: 0,
            variant_line: 0,
            game: None,
            error: None,
            in_movetext: false,
            depth: 0,
            result: None,
            opening_comment: None,
        }
    }

    /// Records the game's first error (later ones follow from it).
    fn fail(&mut self, line: u64, kind: PgnErrorKind) {
        if self.error.is_none() {
            self.error = Some(PgnError::new(self.index, line, kind));
        }
    }

    fn tag(&mut self, name: String, value: String, line: u64) {
        if self.tags.len() >= MAX_TAGS {
            let message = format!("more than {MAX_TAGS} tags");
            return self.fail(line, PgnErrorKind::Tag(message));
        }
        match name.as_str() {
            "FEN" if self.fen_line == 0 => self.fen_line = line,
            "Variant" if self.variant_line == 0 => self.variant_line = line,
            _ => {}
        }
        self.tags.push((name, value));
    }

    fn tag_value(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position the tags describe.
    fn start(&self) -> Result<Position, PgnErrorKind> {
        let chess960 = match self.tag_value("Variant") {
            None => false,
            Some(variant) => {
                let name: String = variant
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric())
                    .collect::<String>()
                    .to_ascii_lowercase();
                match name.as_str() {
                    "" | "standard" | "chess" | "normal" => false,
                    "chess960" | "960" | "fischerandom" | "fischerrandom" => true,
                    _ => return Err(PgnErrorKind::Variant(variant.to_string())),
                }
            }
        };
        match self.tag_value("FEN") {
            Some(fen) => {
                Position::from_fen_with(fen, chess960).map_err(|error| PgnErrorKind::Fen {
                    fen: fen.to_string(),
                    error,
                })
            }
            None => {
                let mut start = Position::startpos();
                start.set_chess960(chess960);
                Ok(start)
            }
        }
    }

    /// Sets up the game from the tags when the first movetext token comes.
    fn begin_movetext(&mut self) {
        if self.in_movetext {
            return;
        }
        self.in_movetext = true;
        if self.error.is_some() {
            return;
        }
        match self.start() {
            Ok(start) => {
                let mut game = Game::new(start);
                if let Some(text) = self.opening_comment.take() {
                    game.append_comment(&text);
                }
                self.game = Some(game);
            }
            Err(kind) => {
                let at = match kind {
                    PgnErrorKind::Fen { .. } => self.fen_line,
                    _ => self.variant_line,
                };
                self.fail(at, kind);
            }
        }
    }

    /// Plays a mainline move, unless the game has already failed.
    fn play(&mut self, text: &str, line: u64) {
        let Some(game) = &mut self.game else { return };
        if self.error.is_some() {
            return;
        }
        if game.moves().len() >= MAX_PLIES {
            return self.fail(line, PgnErrorKind::TooLong);
        }
        let pos = game.position();
        let (fullmove, side) = (pos.fullmove_number(), pos.side_to_move());
        // A null move, as python-chess and engines' analysis write it.
        let played = if matches!(text, "--" | "Z0") {
            game.play_null()
                .map_err(|_| "a null move while in check".to_string())
        } else {
            game.play_san(text).map(drop).map_err(|e| e.to_string())
        };
        if let Err(reason) = played {
            let dots = if side == Color::White { "." } else { "..." };
            let kind = PgnErrorKind::Move {
                number: format!("{fullmove}{dots}"),
                text: text.to_string(),
                reason,
            };
            self.fail(line, kind);
        }
    }

    /// A mainline comment: on the last move, or before the first.
    fn comment(&mut self, text: &str) {
        if let (Some(game), None) = (&mut self.game, &self.error)
            && !text.is_empty()
        {
            game.append_comment(text);
        }
    }

    /// A mainline NAG, on the last move.
    fn nag(&mut self, nag: u8) {
        if let (Some(game), None) = (&mut self.game, &self.error) {
            game.append_nag(nag);
        }
    }

    /// The game read, or its first error.
    fn finish(&mut self, line: u64) -> Result<Game, PgnError> {
        self.begin_movetext();
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let Some(mut game) = self.game.take() else {
            return Err(PgnError::new(self.index, line, PgnErrorKind::NoGame));
        };
        // The result token, or else the Result tag.
        let result = self
            .result
            .or_else(|| self.tag_value("Result").and_then(|r| r.parse().ok()));
        if let Some(result) = result {
            game.set_result(result);
        }
        game.set_tags(std::mem::take(&mut self.tags));
        Ok(game)
    }
}
