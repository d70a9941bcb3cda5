//! The everyday tasks of a chess program on Quince's public API alone,
//! with default features off: every line here is one a new user guessed
//! and expected to compile (issue 44's list), plus SAN, PGN, a game, a
//! one-call search and an opening book. Exits non-zero on any failure.

use quince::book::PolyglotBook;
use quince::notation::pgn::PgnReader;
use quince::search::{Limits, Value, best_move};
use quince::{Color, Game, MoveError, Piece, Position, SanError, Square, legal_moves};
use std::collections::HashSet;
use std::error::Error;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn main() -> Result<(), Box<dyn Error>> {
    // The names and traits people reach for.
    let kiwi: Position = KIWIPETE.parse()?;
    let mut captures = 0;
    for mv in &legal_moves(&kiwi) {
        captures += usize::from(kiwi.is_capture(*mv));
    }
    assert_eq!(captures, 8);
    let sq: Square = "e4".parse()?;
    assert_eq!(sq, Square::E4);
    assert_eq!(format!("{} {}", sq, Color::White), "e4 white");
    assert_eq!("n".parse::<Piece>()?, Piece::Knight);
    let set = HashSet::from([kiwi.clone()]);
    assert!(set.contains(&kiwi));
    assert_eq!(kiwi.san(kiwi.parse_san("O-O")?), "O-O");
    let mut sorted: Vec<_> = legal_moves(&kiwi).into_iter().collect();
    sorted.sort();
    assert_eq!(sorted.len(), 48);
    assert_eq!(quince::perft::perft(&kiwi, 2), 2039);

    // Castling spelled as people write it, and checked play.
    let castle = "e1g1".parse()?;
    let after = kiwi.play(castle)?;
    assert_eq!(after.piece_on(Square::G1), Some(Piece::King));
    assert!(kiwi.is_castle(kiwi.legal_move(castle).ok_or("castling is legal")?));
    assert!(after.play("e1g1".parse()?).is_err());
    let _: &dyn Error = &MoveError::Illegal("e1g1".into());
    let _: &dyn Error = &SanError::Ambiguous("Nd2".into());

    // A game from PGN, its claims, and the search with its history.
    let pgn = "[Event \"?\"]\n\n1. e4 {best by test} e5 (1... c5) 2. Nf3 $1 Nc6 3. Bb5 a6 *\n";
    let mut games = PgnReader::new(pgn.as_bytes());
    let game: Game = games.next().ok_or("one game")??;
    assert_eq!(game.moves().len(), 6);
    assert!(!game.is_threefold_repetition());
    let reply = game.best_move(Limits::depth(4)).ok_or("White has moves")?;
    assert!(game.position().is_legal(reply.best));
    assert_eq!(reply.pv.first(), Some(&reply.best));

    // The one-call search on its own, with a typed score.
    let mate_in_one: Position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".parse()?;
    let found = best_move(&mate_in_one, Limits::depth(3)).ok_or("moves")?;
    assert_eq!(
        (mate_in_one.san(found.best), found.value),
        ("Rd8#".to_string(), Value::Mate(1))
    );

    // An opening book (one entry, built in memory): 1. e4.
    let mut entry = Vec::new();
    entry.extend_from_slice(&Position::startpos().polyglot_key().to_be_bytes());
    entry.extend_from_slice(&0x031cu16.to_be_bytes()); // e2e4 in Polyglot's move code
    entry.extend_from_slice(&1u16.to_be_bytes());
    entry.extend_from_slice(&0u32.to_be_bytes());
    let book = PolyglotBook::from_bytes(entry)?;
    let start = Position::startpos();
    let book_move = book.choose(&start, 7).ok_or("the start is in the book")?;
    assert_eq!(start.san(book_move), "e4");

    println!("library user: every everyday task passed");
    Ok(())
}
