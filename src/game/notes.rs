//! What a game's moves carry besides the moves, as PGN keeps them: a
//! comment before the first move, and after each move its NAGs (numeric
//! annotation glyphs: `$1` a good move, `$2` a mistake, ...; the reader
//! turns `!`, `?`, `!!`, `??`, `!?` and `?!` into `$1` to `$6`) and a
//! comment. The PGN reader fills them and the writer writes them back;
//! variations are not kept in a [`Game`] (a game is one line of moves).

use super::Game;

/// One move's annotations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Notes {
    pub(super) nags: Vec<u8>,
    pub(super) comment: Option<String>,
}

/// Adds `text` to a comment, a space between (as two PGN comments in a
/// row read back as one).
fn append(comment: &mut Option<String>, text: &str) {
    match comment {
        Some(existing) => {
            existing.push(' ');
            existing.push_str(text);
        }
        None => *comment = Some(text.to_string()),
    }
}

impl Game {
    /// The comment before the first move, if any.
    pub fn comment(&self) -> Option<&str> {
        self.comment.as_deref()
    }

    /// Sets (or with `None` removes) the comment before the first move.
    pub fn set_comment(&mut self, text: Option<String>) {
        self.comment = text;
    }

    /// The comment after the move of `ply` (from 0), if any.
    ///
    /// ```
    /// use quince::Game;
    /// let game = Game::from_pgn("{Start} 1. e4 $1 {the best} e5 $2 $18 *").unwrap();
    /// assert_eq!(game.comment(), Some("Start"));
    /// assert_eq!(game.move_comment(0), Some("the best"));
    /// assert_eq!(game.nags(0), &[1]);
    /// assert_eq!(game.nags(1), &[2, 18]);
    /// assert_eq!(game.move_comment(1), None);
    /// ```
    pub fn move_comment(&self, ply: usize) -> Option<&str> {
        self.notes.get(ply)?.comment.as_deref()
    }

    /// Sets (or with `None` removes) the comment after the move of `ply`;
    /// false when the game has no such move.
    pub fn set_move_comment(&mut self, ply: usize, text: Option<String>) -> bool {
        match self.notes.get_mut(ply) {
            Some(notes) => {
                notes.comment = text;
                true
            }
            None => false,
        }
    }

    /// The NAGs of the move of `ply`, in order (empty when it has none or
    /// there is no such move).
    pub fn nags(&self, ply: usize) -> &[u8] {
        self.notes.get(ply).map_or(&[], |n| &n.nags)
    }

    /// Adds a NAG to the move of `ply`; false when the game has no such
    /// move.
    pub fn add_nag(&mut self, ply: usize, nag: u8) -> bool {
        match self.notes.get_mut(ply) {
            Some(notes) => {
                notes.nags.push(nag);
                true
            }
            None => false,
        }
    }

    /// The reader's comment: after the last move, or before the first when
    /// no move has been played.
    pub(crate) fn append_comment(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.notes.last_mut() {
            Some(notes) => append(&mut notes.comment, text),
            None => append(&mut self.comment, text),
        }
    }

    /// The reader's NAG, on the last move (dropped before the first).
    pub(crate) fn append_nag(&mut self, nag: u8) {
        if let Some(notes) = self.notes.last_mut() {
            notes.nags.push(nag);
        }
    }
}
