//! The `serde` feature: every type is written as its text and read back to
//! the same value; bad text is an error naming what is wrong.

use quince::{Color, Move, Piece, Position, Square, legal_moves};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn positions_are_fen_strings() {
    let pos: Position = KIWIPETE.parse().unwrap();
    let json = serde_json::to_string(&pos).unwrap();
    assert_eq!(json, format!("\"{KIWIPETE}\""));
    let back: Position = serde_json::from_str(&json).unwrap();
    assert_eq!(back, pos);
    let error = serde_json::from_str::<Position>("\"8/8/8 w - - 0 1\"").unwrap_err();
    assert!(error.to_string().contains("rank"), "{error}");
}

#[test]
fn moves_round_trip_castling_included() {
    let pos: Position = KIWIPETE.parse().unwrap();
    let moves: Vec<Move> = legal_moves(&pos).into_iter().collect();
    let json = serde_json::to_string(&moves).unwrap();
    assert!(
        json.contains("\"e1h1\"") && json.contains("\"e2a6\""),
        "{json}"
    );
    let back: Vec<Move> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, moves);
    assert!(serde_json::from_str::<Move>("\"e2e9\"").is_err());
}

#[test]
fn small_types_are_their_names() {
    let value = (Square::E4, Color::Black, Piece::Knight);
    let json = serde_json::to_string(&value).unwrap();
    assert_eq!(json, r#"["e4","black","knight"]"#);
    assert_eq!(
        serde_json::from_str::<(Square, Color, Piece)>(&json).unwrap(),
        value
    );
    let error = serde_json::from_str::<Square>("\"z9\"").unwrap_err();
    assert!(error.to_string().contains("square"), "{error}");
}

/// Chess960 with the castling rooks on the a- and h-files reads back as
/// Chess960 (it was read back as standard chess, and castling e1h1 became
/// e1g1).
#[test]
fn chess960_survives_with_the_rooks_on_the_corner_files() {
    let pos = Position::from_fen_with("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", true).unwrap();
    assert!(pos.is_chess960());
    let json = serde_json::to_string(&pos).unwrap();
    assert_eq!(json, "\"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1\"");
    let back: Position = serde_json::from_str(&json).unwrap();
    assert!(back.is_chess960(), "{json}");
    let castle = legal_moves(&back)
        .into_iter()
        .find(|&m| back.is_castle(m) && m.to() == Square::H1)
        .expect("short castling");
    assert_eq!(back.uci(castle), "e1h1");
}
