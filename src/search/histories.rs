//! What the search learns that stays valid from one move of a game to the
//! next: the quiet-move history and the evaluation's correction history.
//!
//! A fresh search used to start both empty, so every move of a game began
//! its ordering and its eval corrections from nothing. The engine now keeps
//! one [`Histories`] per game (cleared on `ucinewgame`) and lends it to each
//! search; only the killers, which are tied to plies of one search tree, are
//! reset (at every iteration, as before).

use super::correction::CorrectionHistory;
use super::ordering::Ordering;

/// Search statistics that outlive a single search (see the module docs).
#[derive(Default)]
pub struct Histories {
    pub(super) ordering: Ordering,
    pub(super) correction: CorrectionHistory,
}

impl Histories {
    /// Empty tables, as at the start of a game.
    pub fn new() -> Histories {
        Histories::default()
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        *self = Histories::default();
    }
}
