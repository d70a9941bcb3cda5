//! PGN tokens from a byte stream, one byte at a time through the
//! `BufRead`'s own buffer: no line is ever held whole, so a file without
//! newlines takes no more memory than one with them. Move numbers and `%`
//! lines are skipped here; the reader sees tags, moves, comments, NAGs
//! (annotation glyphs such as `!?` as their NAG numbers), parentheses and
//! results.

use super::MAX_TAG_VALUE;
use crate::game::GameResult;
use std::io::{self, BufRead};

/// The longest move text kept; longer symbols are cut (and refused).
const MAX_SYMBOL: usize = 64;

/// The longest tag name kept.
const MAX_TAG_NAME: usize = 255;

/// The most bytes of one comment kept; the rest is skipped.
pub(super) const MAX_COMMENT: usize = 65_536;

/// What the reader gets from the lexer.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// `[Name "value"]`.
    Tag { name: String, value: String },
    /// A `[` that does not open a well-formed tag pair: why.
    BadTag(String),
    /// A move (SAN, not checked here); cut to `MAX_SYMBOL` bytes.
    Move(String),
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(GameResult),
    /// `(`: a variation begins.
    Open,
    /// `)`: a variation ends.
    Close,
    /// A `{...}` or `; ...` comment's text, trimmed.
    Comment(String),
    /// A NAG: `$n`, or a glyph (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5,
    /// `?!` 6).
    Nag(u8),
    /// The input ended inside a `{` comment.
    UnterminatedComment,
    /// The end of the input.
    Eof,
}

/// Whether `byte` may be part of a tag name (what the writer writes too).
pub(super) fn is_tag_name_byte(byte: u8) -> bool {
    byte.is_ascii_graphic() && !matches!(byte, b'"' | b'[' | b']' | b'{' | b'}')
}

/// Whether `byte` ends a move symbol.
fn ends_symbol(byte: u8) -> bool {
    byte.is_ascii_whitespace()
        || matches!(
            byte,
            b'{' | b'}' | b';' | b'[' | b']' | b'(' | b')' | b'$' | b'!' | b'?' | b'*' | b'.'
        )
}

pub(super) struct Lexer<R> {
    inner: R,
    /// The line of the next byte, from 1.
    line: u64,
    /// Whether the next byte is the first of its line (for `%` escapes).
    line_start: bool,
    /// Whether a leading byte-order mark has been looked for.
    bom_checked: bool,
}

impl<R: BufRead> Lexer<R> {
    pub(super) fn new(inner: R) -> Lexer<R> {
        Lexer {
            inner,
            line: 1,
            line_start: true,
            bom_checked: false,
        }
    }

    /// The line of the next byte.
    pub(super) fn line(&self) -> u64 {
        self.line
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.inner.fill_buf() {
                Ok(buf) => return Ok(buf.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Consumes `byte`, the one `peek` returned.
    fn bump(&mut self, byte: u8) {
        self.inner.consume(1);
        if byte == b'\n' {
            self.line += 1;
            self.line_start = true;
        } else {
            self.line_start = false;
        }
    }

    /// Skips to the end of the line, leaving the newline unread.
    fn skip_line(&mut self) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            if b == b'\n' {
                break;
            }
            self.bump(b);
        }
        Ok(())
    }

    /// Skips a UTF-8 byte-order mark at the very start of the input.
    fn skip_bom(&mut self) -> io::Result<()> {
        self.bom_checked = true;
        loop {
            match self.inner.fill_buf() {
                Ok(buf) => {
                    if buf.starts_with(&[0xEF, 0xBB, 0xBF]) {
                        self.inner.consume(3);
                    }
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The next token and the line it starts on.
    pub(super) fn next_token(&mut self) -> io::Result<(Token, u64)> {
        if !self.bom_checked {
            self.skip_bom()?;
        }
        loop {
            let line = self.line;
            let Some(byte) = self.peek()? else {
                return Ok((Token::Eof, line));
            };
            if byte == b'%' && self.line_start {
                self.skip_line()?;
                continue;
            }
            match byte {
                b'[' => return Ok((self.tag()?, line)),
                b'(' | b')' | b'*' => {
                    self.bump(byte);
                    let token = match byte {
                        b'(' => Token::Open,
                        b')' => Token::Close,
                        _ => Token::Result(GameResult::Ongoing),
                    };
                    return Ok((token, line));
                }
                b'{' => {
                    self.bump(byte);
                    return Ok(match self.comment(b'}')? {
                        Some(text) => (Token::Comment(text), line),
                        None => (Token::UnterminatedComment, line),
                    });
                }
                b';' => {
                    self.bump(byte);
                    let text = self.comment(b'\n')?.unwrap_or_default();
                    return Ok((Token::Comment(text), line));
                }
                b'$' => {
                    self.bump(byte);
                    let mut value: u32 = 0;
                    let mut digits = 0;
                    while let Some(digit @ b'0'..=b'9') = self.peek()? {
                        self.bump(digit);
                        value = (value * 10 + u32::from(digit - b'0')).min(1000);
                        digits += 1;
                    }
                    // `$` alone or a number past 255 is no NAG: skipped.
                    if digits > 0 && value <= 255 {
                        return Ok((Token::Nag(value as u8), line));
                    }
                }
                b'!' | b'?' => {
                    self.bump(byte);
                    let second = match self.peek()? {
                        Some(next @ (b'!' | b'?')) => {
                            self.bump(next);
                            Some(next)
                        }
                        _ => None,
                    };
                    let nag = match (byte, second) {
                        (b'!', None) => 1,
                        (b'?', None) => 2,
                        (b'!', Some(b'!')) => 3,
                        (b'?', Some(b'?')) => 4,
                        (b'!', Some(_)) => 5,
                        _ => 6,
                    };
                    return Ok((Token::Nag(nag), line));
                }
                _ if ends_symbol(byte) || byte == b']' || byte == b'}' => self.bump(byte),
                _ => {
                    if let Some(token) = self.symbol()? {
                        return Ok((token, line));
                    }
                }
            }
        }
    }

    /// A comment's text up to `end` (consumed, except a newline, which
    /// the line count wants to see), trimmed, at most [`MAX_COMMENT`]
    /// bytes kept; `None` if the input ends first and `end` is `}`.
    fn comment(&mut self, end: u8) -> io::Result<Option<String>> {
        let mut text = Vec::new();
        loop {
            match self.peek()? {
                None if end == b'}' => return Ok(None),
                None => break,
                Some(b'\n') if end == b'\n' => break,
                Some(byte) => {
                    self.bump(byte);
                    if byte == end {
                        break;
                    }
                    if text.len() < MAX_COMMENT {
                        text.push(byte);
                    }
                }
            }
        }
        let text = String::from_utf8_lossy(&text);
        Ok(Some(text.trim().to_string()))
    }

    /// A symbol: a move, a result, or a move number (skipped: `None`).
    fn symbol(&mut self) -> io::Result<Option<Token>> {
        let mut text = Vec::new();
        while let Some(byte) = self.peek()? {
            if ends_symbol(byte) {
                break;
            }
            self.bump(byte);
            if text.len() < MAX_SYMBOL {
                text.push(byte);
            }
        }
        if text.iter().all(u8::is_ascii_digit) {
            // A move number, with its dots if any: `12.`, `12...`.
            while let Some(b'.') = self.peek()? {
                self.bump(b'.');
            }
            return Ok(None);
        }
        let token = match text.as_slice() {
            b"1-0" => Token::Result(GameResult::WhiteWins),
            b"0-1" => Token::Result(GameResult::BlackWins),
            b"1/2-1/2" => Token::Result(GameResult::Draw),
            _ => Token::Move(String::from_utf8_lossy(&text).into_owned()),
        };
        Ok(Some(token))
    }

    /// A tag pair `[Name "value"]` (the `[` not yet consumed). A malformed
    /// one is skipped to the end of its line and reported.
    fn tag(&mut self) -> io::Result<Token> {
        self.bump(b'[');
        let token = match self.tag_pair()? {
            // Invalid UTF-8 decodes to three bytes a byte: the limit holds
            // for the text kept, which is what the writer writes back.
            Ok((_, value)) if value.len() > MAX_TAG_VALUE => {
                Token::BadTag("tag value too long".to_string())
            }
            Ok((name, value)) => Token::Tag { name, value },
            Err(reason) => {
                self.skip_line()?;
                Token::BadTag(reason.to_string())
            }
        };
        Ok(token)
    }

    fn skip_blanks(&mut self) -> io::Result<()> {
        while let Some(b' ' | b'\t' | b'\r') = self.peek()? {
            self.bump(b' ');
        }
        Ok(())
    }

    fn tag_pair(&mut self) -> io::Result<Result<(String, String), &'static str>> {
        self.skip_blanks()?;
        let mut name = Vec::new();
        while let Some(byte) = self.peek()? {
            if !is_tag_name_byte(byte) {
                break;
            }
            self.bump(byte);
            name.push(byte);
            if name.len() > MAX_TAG_NAME {
                return Ok(Err("tag name too long"));
            }
        }
        if name.is_empty() {
            return Ok(Err("expected a tag name after '['"));
        }
        self.skip_blanks()?;
        if self.peek()? != Some(b'"') {
            return Ok(Err("expected a quoted value after the tag name"));
        }
        self.bump(b'"');
        let mut value = Vec::new();
        loop {
            match self.peek()? {
                None | Some(b'\n') => return Ok(Err("the value's closing quote is missing")),
                Some(b'"') => {
                    self.bump(b'"');
                    break;
                }
                Some(b'\\') => {
                    self.bump(b'\\');
                    match self.peek()? {
                        Some(escaped @ (b'"' | b'\\')) => {
                            self.bump(escaped);
                            value.push(escaped);
                        }
                        _ => value.push(b'\\'),
                    }
                }
                Some(byte) => {
                    self.bump(byte);
                    value.push(byte);
                }
            }
            if value.len() > MAX_TAG_VALUE {
                return Ok(Err("tag value too long"));
            }
        }
        self.skip_blanks()?;
        if self.peek()? != Some(b']') {
            return Ok(Err("expected ']' after the tag value"));
        }
        self.bump(b']');
        // Both are ASCII or lossily decoded UTF-8.
        Ok(Ok((
            String::from_utf8_lossy(&name).into_owned(),
            String::from_utf8_lossy(&value).into_owned(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(Token, u64)> {
        let mut lexer = Lexer::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            let (token, line) = lexer.next_token().unwrap();
            if token == Token::Eof {
                return out;
            }
            out.push((token, line));
        }
    }

    fn mv(text: &str, line: u64) -> (Token, u64) {
        (Token::Move(text.to_string()), line)
    }

    #[test]
    fn reads_comments_nags_and_variations() {
        let text = "\u{feff}% escape [Not \"a tag\"]\n\
            [Event \"A \\\"quoted\\\" \\\\ name\"]\n\
            1.e4 $1 e5!? {a\nlong; comment} 2. Nf3 ; rest (of line\n\
            2... Nc6 (2... d6 3.d4) 1/2-1/2";
        assert_eq!(
            tokens(text),
            vec![
                (
                    Token::Tag {
                        name: "Event".into(),
                        value: "A \"quoted\" \\ name".into()
                    },
                    2
                ),
                mv("e4", 3),
                (Token::Nag(1), 3),
                mv("e5", 3),
                (Token::Nag(5), 3),
                (Token::Comment("a\nlong; comment".into()), 3),
                mv("Nf3", 4),
                (Token::Comment("rest (of line".into()), 4),
                mv("Nc6", 5),
                (Token::Open, 5),
                mv("d6", 5),
                mv("d4", 5),
                (Token::Close, 5),
                (Token::Result(GameResult::Draw), 5),
            ]
        );
    }

    #[test]
    fn malformed_tags_and_comments_are_reported() {
        assert_eq!(
            tokens("[Event \"open\n1-0 {never closed"),
            vec![
                (
                    Token::BadTag("the value's closing quote is missing".into()),
                    1
                ),
                (Token::Result(GameResult::WhiteWins), 2),
                (Token::UnterminatedComment, 2),
            ]
        );
        let long = "x".repeat(1000);
        assert_eq!(tokens(&long), vec![mv(&long[..MAX_SYMBOL], 1)]);
    }
}
