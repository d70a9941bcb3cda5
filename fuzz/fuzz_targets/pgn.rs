//! Arbitrary bytes through the PGN reader.
//!
//! The reader never panics or hangs, and every game it yields is sound: its
//! moves replay from its start to its position (one `Game::play` each, or
//! `Game::play_null` for a null move), the
//! history keys are the positions before it, and the PGN the writer makes
//! of it reads back to the same start, moves and final position, and writes
//! the same text again (a fixed point).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quince::{Game, Move};
use quince::notation::pgn::PgnReader;

fuzz_target!(|data: &[u8]| {
    let mut reader = PgnReader::new(data);
    let mut items = 0u64;
    while let Some(item) = reader.next() {
        items += 1;
        assert_eq!(reader.games(), items, "one item per game");
        let Ok(game) = item else { continue };

        let mut replay = Game::new(game.start().clone());
        for &mv in game.moves() {
            if mv == Move::NULL {
                replay.play_null().expect("a read null move is allowed");
            } else {
                replay.play(mv).expect("a read game holds legal moves only");
            }
        }
        assert_eq!(replay.position(), game.position());
        assert_eq!(replay.history_keys(), game.history_keys());

        let text = game.to_pgn();
        let again = Game::from_pgn(&text)
            .unwrap_or_else(|e| panic!("written PGN does not read back: {e}\n{text}"));
        assert_eq!(again.start(), game.start(), "{text}");
        assert_eq!(again.moves(), game.moves(), "{text}");
        assert_eq!(again.position(), game.position(), "{text}");
        assert_eq!(again.result(), game.result(), "{text}");
        assert_eq!(again.to_pgn(), text, "writing is not a fixed point");
    }
});
