//! Everything a PGN file holds, handed to a [`Visitor`] token by token at
//! the lexer's speed: tags, moves as written, NAGs, comments, variations
//! however nested, and each game's end. [`super::PgnReader`] keeps what a
//! [`crate::Game`] holds (the mainline, its comments and NAGs); a visitor
//! sees the rest too, and builds whatever it wants from it (a tree of
//! variations, an index, a filter).
//!
//! Moves are handed over as written, not replayed: a visitor that wants
//! positions replays them (a variation starts from the position before the
//! move it replaces). `--` and `Z0` are null moves.

use super::lexer::{Lexer, Token};
use super::{PgnError, PgnErrorKind};
use crate::game::GameResult;
use std::io::BufRead;

/// What [`visit`] hands over; every method does nothing unless
/// overridden.
///
/// ```
/// use quince::notation::pgn::{Visitor, visit};
///
/// /// Counts the moves of variations.
/// #[derive(Default)]
/// struct SideLines { depth: u32, moves: u32 }
/// impl Visitor for SideLines {
///     fn begin_variation(&mut self) { self.depth += 1 }
///     fn end_variation(&mut self) { self.depth -= 1 }
///     fn san(&mut self, _: &str) { if self.depth > 0 { self.moves += 1 } }
/// }
/// let mut counter = SideLines::default();
/// let games = visit("1. e4 (1. d4 d5 (1... Nf6)) e5 *".as_bytes(), &mut counter).unwrap();
/// assert_eq!((games, counter.moves), (1, 3));
/// ```
pub trait Visitor {
    /// A game begins (at its first tag or movetext token).
    fn begin_game(&mut self) {}
    /// A tag pair `[name "value"]`.
    fn tag(&mut self, _name: &str, _value: &str) {}
    /// A tag that is not `[Name "value"]`: why.
    fn bad_tag(&mut self, _reason: &str) {}
    /// A move as written (SAN, or `--` for a null move).
    fn san(&mut self, _text: &str) {}
    /// A NAG after a move (glyphs such as `!?` arrive as their numbers).
    fn nag(&mut self, _nag: u8) {}
    /// A comment's text, trimmed.
    fn comment(&mut self, _text: &str) {}
    /// `(`: a variation of the last move begins.
    fn begin_variation(&mut self) {}
    /// `)`: the variation ends.
    fn end_variation(&mut self) {}
    /// The game ends: its result token, or `None` when the next game's tags
    /// or the end of the input end it first.
    fn end_game(&mut self, _result: Option<GameResult>) {}
}

/// Reads all of `input`, handing every game's tokens to `visitor`; the
/// number of games. A read error, or a `{` comment the input ends inside,
/// is an error naming the game and line (the games before it have been
/// visited).
pub fn visit<R: BufRead, V: Visitor + ?Sized>(input: R, visitor: &mut V) -> Result<u64, PgnError> {
    let mut lexer = Lexer::new(input);
    let (mut games, mut in_game, mut in_movetext, mut depth) = (0u64, false, false, 0u32);
    // Comments before a game's first token: its first comment, if a game
    // follows (as the reader keeps them).
    let mut pending: Vec<String> = Vec::new();
    loop {
        let (token, line) = lexer.next_token().map_err(|e| {
            PgnError::new(games.max(1), lexer.line(), PgnErrorKind::Io(e.to_string()))
        })?;
        if matches!(token, Token::Eof) {
            if in_game {
                visitor.end_game(None);
            }
            return Ok(games);
        }
        let tag = matches!(token, Token::Tag { .. } | Token::BadTag(_));
        if in_game && in_movetext && tag {
            // The next game's tags: this one ended without a result.
            visitor.end_game(None);
            in_game = false;
        }
        if !in_game {
            match token {
                Token::Close | Token::Nag(_) => continue,
                Token::Comment(text) => {
                    pending.push(text);
                    continue;
                }
                _ => {}
            }
            games += 1;
            (in_game, in_movetext, depth) = (true, false, 0);
            visitor.begin_game();
            for text in pending.drain(..) {
                visitor.comment(&text);
            }
        }
        in_movetext |= !tag;
        match token {
            Token::Tag { name, value } => visitor.tag(&name, &value),
            Token::BadTag(reason) => visitor.bad_tag(&reason),
            Token::Move(text) => visitor.san(&text),
            Token::Nag(nag) => visitor.nag(nag),
            Token::Comment(text) => visitor.comment(&text),
            Token::Open => {
                depth += 1;
                visitor.begin_variation();
            }
            Token::Close if depth > 0 => {
                depth -= 1;
                visitor.end_variation();
            }
            Token::Close => {}
            Token::Result(result) if depth == 0 => {
                visitor.end_game(Some(result));
                in_game = false;
            }
            Token::Result(_) => {}
            Token::UnterminatedComment => {
                return Err(PgnError::new(
                    games,
                    line,
                    PgnErrorKind::UnterminatedComment,
                ));
            }
            Token::Eof => unreachable!("handled above"),
        }
    }
}

/// A [`Visitor`] that writes what it visits back as PGN: tags, then the
/// movetext on one line (moves without numbers, which readers accept;
/// comments, NAGs and variations where they were), then the result. What
/// a reader of the output sees is what the input held; `quince pgn
/// --echo` is this.
pub struct Echo<W> {
    out: W,
    /// The current game's movetext, written at its end.
    movetext: Vec<String>,
    tags_written: bool,
    /// The first write error, kept until the end.
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> Echo<W> {
    /// An echo to `out`.
    pub fn new(out: W) -> Echo<W> {
        Echo {
            out,
            movetext: Vec::new(),
            tags_written: false,
            error: None,
        }
    }

    /// The writer back, or the first write error.
    pub fn finish(self) -> std::io::Result<W> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }

    fn write(&mut self, text: &str) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(text.as_bytes())
        {
            self.error = Some(e);
        }
    }
}

impl<W: std::io::Write> Visitor for Echo<W> {
    fn begin_game(&mut self) {
        self.movetext.clear();
        self.tags_written = false;
    }

    fn tag(&mut self, name: &str, value: &str) {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        self.write(&format!("[{name} \"{value}\"]\n"));
        self.tags_written = true;
    }

    fn san(&mut self, text: &str) {
        self.movetext.push(text.to_string());
    }

    fn nag(&mut self, nag: u8) {
        self.movetext.push(format!("${nag}"));
    }

    fn comment(&mut self, text: &str) {
        self.movetext
            .push(format!("{{{}}}", text.replace('}', ")")));
    }

    fn begin_variation(&mut self) {
        self.movetext.push("(".into());
    }

    fn end_variation(&mut self) {
        self.movetext.push(")".into());
    }

    fn end_game(&mut self, result: Option<GameResult>) {
        self.movetext
            .push(result.unwrap_or(GameResult::Ongoing).as_str().to_string());
        let text = self.movetext.join(" ");
        let blank = if self.tags_written { "\n" } else { "" };
        self.write(&format!("{blank}{text}\n\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_variations_comments_and_nags_come_back() {
        let text = "[Event \"x\"]\n\n{start} 1. e4 $1 {good} (1. d4 {or} d5 (1... Nf6 2. c4)) 1... e5?! 2. Nf3 -- 1-0\n\n\
                    1. d4 d5 *\n";
        let mut echo = Echo::new(Vec::new());
        assert_eq!(visit(text.as_bytes(), &mut echo).unwrap(), 2);
        let out = String::from_utf8(echo.finish().unwrap()).unwrap();
        assert_eq!(
            out,
            "[Event \"x\"]\n\n{start} e4 $1 {good} ( d4 {or} d5 ( Nf6 c4 ) ) e5 $6 Nf3 -- 1-0\n\nd4 d5 *\n\n"
        );
        // The echo reads back to itself.
        let mut again = Echo::new(Vec::new());
        visit(out.as_bytes(), &mut again).unwrap();
        assert_eq!(String::from_utf8(again.finish().unwrap()).unwrap(), out);
    }

    #[test]
    fn an_unterminated_comment_is_an_error() {
        let mut echo = Echo::new(Vec::new());
        let error = visit("1. e4 {never".as_bytes(), &mut echo).unwrap_err();
        assert_eq!(*error.kind(), PgnErrorKind::UnterminatedComment);
    }
}
