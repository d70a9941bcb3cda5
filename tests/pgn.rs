//! PGN reading and writing: real-looking games (comments, NAGs, nested
//! variations, `%` lines, SetUp/FEN, Chess960 castling), a broken game
//! among good ones, write/read round trips, and bad input of every kind.
//! Final FENs were checked with python-chess 1.11.2.

use quince::Game;
use quince::game::GameResult;
use quince::notation::pgn::{MAX_PLIES, PgnError, PgnErrorKind, PgnReader};
use std::io::{self, BufReader, Read};

const SAMPLE: &str = include_str!("data/pgn/sample.pgn");

fn read_all(text: &str) -> Vec<Result<Game, PgnError>> {
    PgnReader::new(text.as_bytes()).collect()
}

fn final_fen(item: &Result<Game, PgnError>) -> String {
    match item {
        Ok(game) => game.position().fen(),
        Err(e) => panic!("unexpected error: {e}"),
    }
}

/// The sample's good games: (index, plies, result, final FEN).
const SAMPLE_GAMES: [(usize, usize, GameResult, &str); 4] = [
    (
        1,
        33,
        GameResult::WhiteWins,
        "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17",
    ),
    (
        2,
        22,
        GameResult::WhiteWins,
        "8/8/8/5K2/7k/8/7Q/8 b - - 20 61",
    ),
    (
        4,
        18,
        GameResult::Draw,
        "2kr2rn/bppbpppp/p1n2q2/8/3PP3/2N5/PPPB2PP/RB2QRKN w - - 1 10",
    ),
    (
        5,
        26,
        GameResult::Ongoing,
        "r4rk1/pbpn1pp1/1p2p2p/3n4/3P3B/P3PP2/1P4PP/R3KBNR w KQ - 2 14",
    ),
];

#[test]
fn sample_games_replay_to_the_expected_positions() {
    let games = read_all(SAMPLE);
    assert_eq!(games.len(), 5);
    for (index, plies, result, fen) in SAMPLE_GAMES {
        let game = games[index - 1].as_ref().unwrap();
        assert_eq!(game.moves().len(), plies, "game {index}");
        assert_eq!(game.result(), result, "game {index}");
        assert_eq!(final_fen(&games[index - 1]), fen, "game {index}");
    }
    let morphy = games[0].as_ref().unwrap();
    assert_eq!(morphy.tag("White"), Some("Morphy, Paul"));
    assert_eq!(morphy.tag("ECO"), Some("C41"));
    assert_eq!(morphy.tags().len(), 8);
    assert!(games[3].as_ref().unwrap().position().is_chess960());
}

#[test]
fn a_broken_game_names_game_line_and_move() {
    let games = read_all(SAMPLE);
    let error = games[2].as_ref().unwrap_err();
    assert_eq!((error.game(), error.line()), (3, 43));
    match error.kind() {
        PgnErrorKind::Move { number, text, .. } => {
            assert_eq!((number.as_str(), text.as_str()), ("6.", "Ke3"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        error.to_string(),
        "game 3, line 43: move 6. Ke3: illegal move 'Ke3' in this position"
    );
}

#[test]
fn games_round_trip_through_the_writer() {
    for item in read_all(SAMPLE).iter().filter_map(|g| g.as_ref().ok()) {
        let text = item.to_pgn();
        assert!(text.lines().all(|line| line.len() <= 80), "{text}");
        assert!(text.starts_with("[Event "), "{text}");
        let again = Game::from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(again.moves(), item.moves());
        assert_eq!(again.position(), item.position());
        assert_eq!(again.start(), item.start());
        assert_eq!(again.result(), item.result());
        // FEN is written Shredder-style in Chess960; SetUp and Variant follow the start.
        for (name, value) in item.tags().iter().filter(|(n, _)| n != "FEN") {
            assert_eq!(again.tag(name), Some(value.as_str()), "{name}");
        }
        // Writing is a fixed point.
        assert_eq!(again.to_pgn(), text);
    }
}

#[test]
fn the_writer_writes_export_style() {
    let games = read_all(SAMPLE);
    let study = games[1].as_ref().unwrap().to_pgn();
    let expected_head = "[Event \"Endgame study\"]\n[Site \"?\"]\n[Date \"2024.01.02\"]\n\
        [Round \"2\"]\n[White \"White\"]\n[Black \"Black\"]\n[Result \"1-0\"]\n\
        [SetUp \"1\"]\n[FEN \"8/P7/8/8/8/8/5k2/K7 b - - 0 50\"]\n\n50... Ke3 {the king is too slow} 51. a8=Q Kd2";
    assert!(study.starts_with(expected_head), "{study}");
    assert!(study.ends_with("61. Qh2# 1-0\n\n"), "{study}");

    let chess960 = games[3].as_ref().unwrap().to_pgn();
    assert!(chess960.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n"));
    // After a comment, Black's move gets its number again.
    assert!(
        chess960.contains("1. O-O {king f1 to g1, rook g1 to f1} 1... d5"),
        "{chess960}"
    );
    assert!(chess960.contains("7. Qe1 O-O-O"), "{chess960}");

    let mut game = Game::default();
    game.set_tag("Annotator", "a \"quoted\" \\ name\nwith a newline");
    game.set_tag("Bad Name", "left out");
    let text = game.to_pgn();
    assert!(text.contains("[Annotator \"a \\\"quoted\\\" \\\\ name with a newline\"]\n"));
    assert!(!text.contains("left out"));
    assert!(text.ends_with("]\n\n*\n\n"), "{text}");
}

#[test]
fn long_games_wrap_at_80_columns() {
    let mut game = Game::default();
    for _ in 0..20 {
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            game.play_uci(uci).unwrap();
        }
    }
    let text = game.to_pgn();
    let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
    assert!(movetext.len() > 3);
    let (last, full) = movetext.split_last().unwrap();
    assert!(full.iter().all(|l| l.len() <= 80 && l.len() > 70), "{text}");
    // Twenty times round: the fifth repetition drew the game.
    assert!(last.ends_with(" 1/2-1/2"), "{text}");
    let again = Game::from_pgn(&text).unwrap();
    assert_eq!(again.moves(), game.moves());
    assert_eq!(again.position(), game.position());
}

#[test]
fn skips_comments_variations_nags_and_escapes() {
    let text = "%!escape line with 1. h4 in it\n\
        [Event \"x\"]\n\n\
        1. e4 {a comment} ; and to the end of line 1. h4\n\
        e5 $1 (1... c5 $14 (1... e6 2. d4 {deep}) 2. Nf3) 2. Nf3!! Nc6?! \n\
        %3. Bb5\n\
        3... {a move number with black's dots} 3. Bb5 3... a6 *";
    let games = read_all(text);
    assert_eq!(games.len(), 1);
    assert_eq!(
        final_fen(&games[0]),
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
    );
}

#[test]
fn games_without_result_or_tags_still_count() {
    // No result before the next tags, no tags at all, CRLF line ends.
    let text = "[Event \"a\"]\r\n\r\n1. e4 e5\r\n[Event \"b\"]\r\n1. d4 *\r\n1. c4 1-0\r\n2. Nf3";
    let games = read_all(text);
    let plies: Vec<usize> = games
        .iter()
        .map(|g| g.as_ref().unwrap().moves().len())
        .collect();
    assert_eq!(plies, [2, 1, 1, 1]);
    assert_eq!(games[2].as_ref().unwrap().result(), GameResult::WhiteWins);
    assert!(read_all("").is_empty());
    assert!(read_all("  \n\n{just a comment}\n% and an escape\n").is_empty());
    let tags_only = read_all("[Event \"only tags\"]\n[Result \"1/2-1/2\"]\n");
    let game = tags_only[0].as_ref().unwrap();
    assert_eq!((game.moves().len(), game.result()), (0, GameResult::Draw));
}

#[test]
fn per_game_errors_do_not_stop_the_reader() {
    let text = "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\
        [Variant \"Crazyhouse\"]\n\n1. e4 *\n\
        [Event \"no closing quote]\n\n1. e4 *\n\
        1. e4 e5 2. Nf9 *\n\
        1. e4 hello *\n\
        1. e4 (1. d4 Nf6 *\n\
        [Event \"after the unclosed variation\"]\n1. d4 *\n\
        1. e4 {unterminated";
    let games = read_all(text);
    let kinds: Vec<String> = games
        .iter()
        .map(|g| match g {
            Ok(game) => format!("ok {}", game.moves().len()),
            Err(e) => format!("{} {}", e.game(), e.line()),
        })
        .collect();
    assert_eq!(
        kinds,
        ["1 1", "2 4", "3 7", "4 10", "5 11", "ok 1", "ok 1", "8 15"]
    );
    let messages: Vec<String> = games
        .iter()
        .filter_map(|g| g.as_ref().err().map(|e| e.to_string()))
        .collect();
    assert!(messages[0].contains("bad FEN tag '8/8/8/8/8/8/8/8 w - - 0 1'"));
    assert!(messages[1].contains("unsupported variant 'Crazyhouse'"));
    assert!(messages[2].contains("bad tag: the value's closing quote is missing"));
    assert!(messages[3].contains("move 2. Nf9: cannot parse move 'Nf9'"));
    assert!(messages[4].contains("move 1... hello"));
    assert!(messages[5].contains("never closed"));
    assert!(matches!(
        Game::from_pgn("  ").unwrap_err().kind(),
        PgnErrorKind::NoGame
    ));
}

#[test]
fn binary_garbage_is_an_error_not_a_panic() {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    for game in PgnReader::new(&bytes[..]).flatten() {
        let again = Game::from_pgn(&game.to_pgn()).unwrap();
        assert_eq!(again.position(), game.position());
    }
}

#[test]
fn overlong_games_are_refused() {
    let mut text = String::new();
    for _ in 0..MAX_PLIES / 4 + 1 {
        text.push_str("Nf3 Nf6 Ng1 Ng8 ");
    }
    text.push_str("* 1. e4 *");
    let games = read_all(&text);
    assert!(matches!(
        games[0].as_ref().unwrap_err().kind(),
        PgnErrorKind::TooLong
    ));
    assert_eq!(games[1].as_ref().unwrap().moves().len(), 1);
}

/// A `Read` that produces `count` copies of a game without holding them.
struct Repeat {
    game: &'static [u8],
    left: usize,
    at: usize,
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Ok(0);
        }
        let n = buf.len().min(self.game.len() - self.at);
        buf[..n].copy_from_slice(&self.game[self.at..self.at + n]);
        self.at += n;
        if self.at == self.game.len() {
            (self.at, self.left) = (0, self.left - 1);
        }
        Ok(n)
    }
}

#[test]
fn streams_many_games() {
    let input = Repeat {
        game:
            b"[Event \"x\"]\n[Round \"1\"]\n\n1. e4 e5 2. Nf3 {c} Nc6 (2... d6) 3. Bb5 a6 1-0\n\n",
        left: 20_000,
        at: 0,
    };
    let mut reader = PgnReader::new(BufReader::with_capacity(64, input));
    let mut count = 0;
    for game in reader.by_ref() {
        assert_eq!(game.unwrap().moves().len(), 6);
        count += 1;
    }
    assert_eq!((count, reader.games()), (20_000, 20_000));
    assert_eq!(reader.line(), 20_000 * 5 + 1);
}

#[test]
fn read_errors_end_the_iteration() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let mut reader = PgnReader::new(BufReader::new(Failing));
    let error = reader.next().unwrap().unwrap_err();
    assert!(matches!(error.kind(), PgnErrorKind::Io(_)));
    assert!(error.to_string().contains("disk on fire"));
    assert!(reader.next().is_none());
}

#[test]
fn tag_values_are_limited_after_decoding() {
    let mut input = b"[Annotator \"".to_vec();
    input.extend(std::iter::repeat_n(0xFF, 4000)); // 12,000 bytes decoded
    input.extend(b"\"]\n1. e4 *\n[Annotator \"\xFF\"]\n1. d4 *\n");
    let games: Vec<_> = PgnReader::new(&input[..]).collect();
    let error = games[0].as_ref().unwrap_err();
    assert!(error.to_string().ends_with("bad tag: tag value too long"));
    let game = games[1].as_ref().unwrap();
    assert_eq!(game.tag("Annotator"), Some("\u{FFFD}"));
    let again = Game::from_pgn(&game.to_pgn()).unwrap();
    assert_eq!(again.tag("Annotator"), Some("\u{FFFD}"));
}
