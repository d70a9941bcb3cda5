//! Make/unmake and copy-make over random games: exact restoration and an
//! incremental Zobrist key equal to one computed from scratch.

mod common;
use common::{Rng, load_suite};
use quince::Position;
use quince::movegen::legal_moves;

fn starting_positions() -> Vec<Position> {
    ["standard.epd", "suite.epd", "chess960.epd"]
        .iter()
        .flat_map(|name| load_suite(name))
        .map(|entry| Position::from_fen(&entry.fen).unwrap())
        .collect()
}

#[test]
fn random_games_restore_exactly_and_keep_keys_exact() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions_checked = 0;
    for start in starting_positions() {
        for _game in 0..4 {
            let mut pos = start.clone();
            let mut history = Vec::new();
            for _ply in 0..60 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let before = pos.clone();
                let copied = pos.play_unchecked(mv);
                let undo = pos.make(mv);
                assert_eq!(
                    pos,
                    copied,
                    "copy-make and make differ after {mv:?} from {}",
                    before.fen()
                );
                assert_eq!(
                    pos.key(),
                    pos.compute_key(),
                    "key after {mv:?} from {}",
                    before.fen()
                );
                assert!(pos.is_consistent());
                // FEN of the new position reads back to the same position.
                let reread = Position::from_fen_with(&pos.fen(), pos.is_chess960()).unwrap();
                assert_eq!(
                    reread,
                    pos,
                    "FEN round trip after {mv:?} from {}",
                    before.fen()
                );
                history.push((mv, undo, before));
                positions_checked += 1;
            }
            while let Some((mv, undo, before)) = history.pop() {
                pos.unmake(mv, undo);
                assert_eq!(pos, before, "unmake {mv:?}");
            }
            assert_eq!(pos, start);
        }
    }
    assert!(
        positions_checked > 10_000,
        "only {positions_checked} positions"
    );
}

#[test]
fn transpositions_have_equal_keys() {
    let play = |moves: &[&str]| {
        let mut pos = Position::startpos();
        for text in moves {
            let mv = pos.parse_uci(text).unwrap();
            pos.make(mv);
        }
        pos
    };
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), Position::startpos().key());
    // A double push with no capturer leaves no e.p. square, so these transpose too.
    let c = play(&["e2e4", "e7e6", "e4e5", "d7d5"]);
    let d = play(&["e2e4", "d7d5", "e4e5", "e7e6"]);
    assert_ne!(c.key(), d.key(), "e.p. on d6 is capturable in c only");
    assert_eq!(
        c.en_passant().map(|s| s.to_string()),
        Some("d6".to_string())
    );
}
