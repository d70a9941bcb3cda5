//! Arbitrary bytes to the FEN reader, in standard and Chess960 mode.
//!
//! For every accepted FEN: the position is consistent; the FEN it writes is
//! read back to the same position and is a fixed point; move generation,
//! `count_legal`, `has_legal_move` and UCI notation agree; perft(2) with bulk
//! and full counting agree and leave the position unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quince::Position;
use quince::movegen::{count_legal, has_legal_move, legal_moves};
use quince::perft::{perft, perft_full};

fuzz_target!(|data: &[u8]| {
    // Invalid UTF-8 becomes U+FFFD, which exercises the non-ASCII refusal.
    let text = String::from_utf8_lossy(data);
    for chess960 in [false, true] {
        let Ok(pos) = Position::from_fen_with(&text, chess960) else {
            continue;
        };
        assert!(pos.is_consistent(), "inconsistent after reading {text:?}");
        assert_eq!(pos.key(), pos.compute_key());

        let fen = pos.fen();
        let again = Position::from_fen_with(&fen, pos.is_chess960())
            .unwrap_or_else(|e| panic!("own FEN {fen:?} (from {text:?}) refused: {e}"));
        assert_eq!(
            again, pos,
            "{fen:?} reads back as another position (from {text:?})"
        );
        assert_eq!(again.fen(), fen, "FEN is not a fixed point");

        let moves = legal_moves(&pos);
        assert_eq!(count_legal(&pos), moves.len() as u64);
        assert_eq!(has_legal_move(&pos), !moves.is_empty());
        for &mv in moves.iter() {
            let uci = pos.uci(mv);
            assert_eq!(
                pos.parse_uci(&uci),
                Ok(mv),
                "UCI {uci} does not read back in {fen}"
            );
            let after = pos.play_unchecked(mv);
            assert!(after.is_consistent(), "inconsistent after {uci} in {fen}");
            assert!(
                !after.is_attacked(
                    after.king(pos.side_to_move()),
                    after.side_to_move(),
                    after.occupied()
                ),
                "{uci} leaves the king in check in {fen}"
            );
        }

        let mut scratch = pos.clone();
        let bulk = perft(&mut scratch, 2);
        assert_eq!(scratch, pos, "perft changed the position {fen}");
        let full = perft_full(&mut scratch, 2);
        assert_eq!(bulk, full, "bulk and full perft(2) differ in {fen}");
        assert_eq!(scratch, pos);
    }
});
