//! Syzygy tablebases: Quince's prober against python-chess's answers (the
//! committed fixture), its errors for bad files and positions, and the
//! engine converting tablebase wins.
//!
//! The tables are python-chess 1.11.2's 3- and 4-piece set, fetched by
//! `bash tools/syzygy-test-tables.sh` into `tests/data/syzygy/regular/`
//! (or `QUINCE_SYZYGY_TABLES`). Without them the tests that need them say
//! so and pass, unless `QUINCE_REQUIRE_SYZYGY=1` (CI's stage 63) makes
//! them compulsory; the error tests need no tables.

use quince::game::Outcome;
use quince::search::Limits;
use quince::search::tablebase::TablebaseUse;
use quince::syzygy::{Dtz, ProbeError, TableKind, Tablebase, TablebaseError, Wdl};
use quince::{Game, Position};
use std::path::PathBuf;
use std::sync::Arc;

fn tables_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("QUINCE_SYZYGY_TABLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy/regular")
        });
    if dir.join("KQvK.rtbw").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var("QUINCE_REQUIRE_SYZYGY").as_deref() != Ok("1"),
        "QUINCE_REQUIRE_SYZYGY=1 but no tables in {} (run tools/syzygy-test-tables.sh)",
        dir.display()
    );
    eprintln!(
        "skipped: no Syzygy tables in {} (bash tools/syzygy-test-tables.sh fetches them)",
        dir.display()
    );
    None
}

fn open() -> Option<Tablebase> {
    let dir = tables_dir()?;
    Some(Tablebase::open(dir.to_str().expect("a UTF-8 path")).expect("the test tables open"))
}

#[test]
fn every_fixture_position_equals_python_chess() {
    let Some(tables) = open() else { return };
    assert_eq!(tables.files(), 70);
    assert_eq!(tables.max_pieces(), 4);
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/syzygy/probes.jsonl"
    ))
    .unwrap();
    let mut checked = 0;
    for line in fixture.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let fen = record["fen"].as_str().unwrap();
        let position = Position::from_fen(fen).unwrap();
        let wdl = tables
            .probe_wdl(&position)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        let dtz = tables
            .probe_dtz(&position)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(
            wdl.value() as i64,
            record["wdl"].as_i64().unwrap(),
            "WDL of {fen}"
        );
        assert_eq!(
            dtz.0 as i64,
            record["dtz"].as_i64().unwrap(),
            "DTZ of {fen}"
        );
        checked += 1;
    }
    assert_eq!(checked, 1400);
}

#[test]
fn the_format_authors_examples() {
    let Some(tables) = open() else { return };
    // python-chess's documented example: KBNvK, black to move, lost in 53 plies to zeroing.
    let lost = Position::from_fen("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&lost), Ok(Wdl::Loss));
    assert_eq!(tables.probe_dtz(&lost), Ok(Dtz(-53)));
    // A bare-kings position needs no table.
    let kings = Position::from_fen("8/8/8/4k3/8/8/8/K7 w - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&kings), Ok(Wdl::Draw));
    // En passant decides: without bxa6 e.p. black would hold; with it white wins.
    let en_passant = Position::from_fen("8/8/8/pP6/8/8/8/k1K5 w - a6 0 1").unwrap();
    let without = Position::from_fen("8/8/8/pP6/8/8/8/k1K5 w - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&en_passant), Ok(Wdl::Win));
    assert!(tables.probe_wdl(&without).unwrap() <= tables.probe_wdl(&en_passant).unwrap());
}

#[test]
fn positions_no_table_holds_are_typed_errors() {
    let Some(tables) = open() else { return };
    let castling = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&castling), Err(ProbeError::CastlingRights));
    let five = Position::from_fen("4k3/8/8/8/8/8/8/RRRQK3 w - - 0 1").unwrap();
    assert_eq!(
        tables.probe_dtz(&five),
        Err(ProbeError::TooManyPieces { pieces: 6, max: 4 })
    );
    let start = Position::startpos();
    assert!(matches!(
        tables.probe_wdl(&start),
        Err(ProbeError::CastlingRights)
    ));
    // A set without KQvKR's DTZ file: WDL answers, DTZ names the missing file.
    let dir = tempdir("missing-dtz");
    let source = tables_dir().unwrap();
    for name in ["KQvKR.rtbw", "KQvK.rtbw", "KRvK.rtbw", "KQvK.rtbz"] {
        std::fs::copy(source.join(name), dir.join(name)).unwrap();
    }
    let partial = Tablebase::open(dir.to_str().unwrap()).unwrap();
    let queen_rook = Position::from_fen("8/8/3k4/8/8/5r2/8/KQ6 w - - 0 1").unwrap();
    assert_eq!(partial.probe_wdl(&queen_rook), Ok(Wdl::Win));
    assert_eq!(
        partial.probe_dtz(&queen_rook),
        Err(ProbeError::MissingTable {
            name: "KQvKR".into(),
            kind: TableKind::Dtz
        })
    );
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quince-syzygy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bad_directories_and_files_are_typed_errors() {
    let missing = Tablebase::open("/no/such/directory/anywhere");
    assert!(
        matches!(missing, Err(TablebaseError::Directory { .. })),
        "{:?}",
        missing.err()
    );

    // Named like a table, sized wrong.
    let dir = tempdir("bad-size");
    std::fs::write(dir.join("KQvK.rtbw"), b"not a table").unwrap();
    let error = Tablebase::open(dir.to_str().unwrap())
        .err()
        .expect("refused");
    assert!(matches!(error, TablebaseError::Corrupt { .. }), "{error}");
    assert!(error.to_string().contains("KQvK.rtbw"), "{error}");

    // The generator's size, a wrong magic number (a WDL file named DTZ).
    let dir = tempdir("bad-magic");
    let mut bytes = vec![0u8; 64 * 4 + 16];
    bytes[..4].copy_from_slice(&[0x71, 0xe8, 0x23, 0x5d]);
    std::fs::write(dir.join("KQvK.rtbz"), &bytes).unwrap();
    let error = Tablebase::open(dir.to_str().unwrap())
        .err()
        .expect("refused");
    assert!(error.to_string().contains("magic"), "{error}");

    // Files that are not named like tables are not tables.
    let dir = tempdir("other-files");
    std::fs::write(dir.join("README.txt"), b"hello").unwrap();
    std::fs::write(dir.join("KvKQ.rtbw"), b"not canonical").unwrap();
    assert_eq!(Tablebase::open(dir.to_str().unwrap()).unwrap().files(), 0);
}

/// Truncated and scribbled-over copies of real tables: every probe gives a
/// value or an error, never a panic or a hang.
#[test]
fn corrupt_tables_give_errors_never_panics() {
    let Some(source) = tables_dir() else { return };
    let positions: Vec<Position> = [
        "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
        "8/8/8/4k3/8/8/8/KQ6 b - - 0 1",
        "8/8/3k4/8/8/1r6/8/KQ6 w - - 0 1",
        "8/8/3k4/8/8/1r6/8/KQ6 b - - 0 1",
        "8/4k3/8/8/8/8/3PK3/8 w - - 0 1",
        "8/4k3/8/8/8/8/3PK3/8 b - - 0 1",
    ]
    .iter()
    .map(|fen| Position::from_fen(fen).unwrap())
    .collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut errors = 0;
    for round in 0..60 {
        let dir = tempdir(&format!("corrupt-{round}"));
        for name in ["KQvK", "KQvKR", "KPvK", "KRvK", "KQvKQ", "KRvKR"] {
            for extension in ["rtbw", "rtbz"] {
                let mut bytes = std::fs::read(source.join(format!("{name}.{extension}"))).unwrap();
                if round % 3 == 0 {
                    // Keep the generator's size rule, lose the tail.
                    let keep = (next() as usize % (bytes.len() / 64)) * 64 + 16;
                    bytes.truncate(keep.max(80));
                } else {
                    // Scribble over bytes past the magic number.
                    for _ in 0..1 + next() % 16 {
                        let at = 4 + next() as usize % (bytes.len() - 4);
                        bytes[at] = next() as u8;
                    }
                }
                std::fs::write(dir.join(format!("{name}.{extension}")), &bytes).unwrap();
            }
        }
        let tables = Tablebase::open(dir.to_str().unwrap()).unwrap();
        for position in &positions {
            errors += usize::from(tables.probe_wdl(position).is_err());
            errors += usize::from(tables.probe_dtz(position).is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // The truncations at least must be noticed somewhere.
    assert!(errors > 0);
}

#[test]
fn one_tablebase_serves_many_threads() {
    let Some(tables) = open() else { return };
    let tables = Arc::new(tables);
    let fens = [
        "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1",
        "8/8/3k4/8/8/1r6/8/KQ6 w - - 0 1",
    ];
    let expected: Vec<_> = fens
        .iter()
        .map(|fen| tables.probe_dtz(&Position::from_fen(fen).unwrap()).unwrap())
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            let tables = Arc::clone(&tables);
            let expected = expected.clone();
            scope.spawn(move || {
                for _ in 0..200 {
                    for (fen, dtz) in fens.iter().zip(&expected) {
                        assert_eq!(
                            tables.probe_dtz(&Position::from_fen(fen).unwrap()).as_ref(),
                            Ok(dtz)
                        );
                    }
                }
            });
        }
    });
}

/// The engine with tables converts won endings by checkmate, the hardest
/// of them (KBN v K) included, against a defender that uses the tables
/// too, at a fixed node count per move (deterministic).
#[test]
fn the_engine_converts_tablebase_wins() {
    let Some(tables) = open() else { return };
    let tables = Arc::new(tables);
    for fen in [
        "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
        "8/8/8/8/2k5/8/8/KBN5 b - - 0 1",
        "8/8/3k4/8/8/1r6/8/KQ6 w - - 0 1",
        "8/4k3/8/8/8/8/3PK3/8 w - - 0 1",
    ] {
        let start = Position::from_fen(fen).unwrap();
        let winner = match tables.probe_wdl(&start).unwrap() {
            Wdl::Win => start.side_to_move(),
            Wdl::Loss => start.side_to_move().flip(),
            other => panic!("{fen} is not decisive: {other:?}"),
        };
        let mut game = Game::new(start);
        while game.outcome().is_none() && game.moves().len() < 200 {
            let limits = Limits {
                tablebase: Some(TablebaseUse::new(Arc::clone(&tables))),
                ..Limits::nodes(20_000)
            };
            let best = game.best_move(limits).expect("a legal move").best;
            game.play(best).unwrap();
        }
        let outcome = game.outcome();
        assert!(
            outcome == Some(Outcome::Checkmate { winner }),
            "{fen}: {outcome:?} after {} plies",
            game.moves().len()
        );
    }
}
