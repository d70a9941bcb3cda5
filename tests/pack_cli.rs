//! `quince pack` and `quince unpack` through the binary: a datagen file
//! goes to `.qdp` and back byte for byte, and damaged or clashing files
//! are refused with exit code 2 and nothing written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn quince(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quince"))
        .args(args)
        .output()
        .expect("run quince")
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

/// A scratch directory holding a small datagen file, `games.qdg`.
fn scratch(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("quince-pack-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let qdg = dir.join("games.qdg");
    let made = quince(&[
        "datagen",
        "--out",
        text(&qdg),
        "--games",
        "3",
        "--nodes",
        "100",
        "--threads",
        "1",
        "--hash",
        "1",
        "--seed",
        "5",
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    (dir, qdg)
}

#[test]
fn a_games_file_is_packed_and_unpacked_byte_for_byte() {
    let (dir, qdg) = scratch("round-trip");
    let original = std::fs::read(&qdg).unwrap();
    let packed = quince(&["pack", text(&qdg)]);
    assert!(
        packed.status.success(),
        "{}",
        String::from_utf8_lossy(&packed.stderr)
    );
    let qdp = dir.join("games.qdp");
    assert!(std::fs::read(&qdp).unwrap().starts_with(b"QDP1"));
    let back = dir.join("back.qdg");
    let unpacked = quince(&["unpack", text(&qdp), "--out", text(&back)]);
    assert!(
        unpacked.status.success(),
        "{}",
        String::from_utf8_lossy(&unpacked.stderr)
    );
    assert_eq!(std::fs::read(&back).unwrap(), original);
    assert!(String::from_utf8_lossy(&unpacked.stdout).contains("3 games"));
    // The same output again is fine; other content in the way is not.
    assert!(
        quince(&["unpack", text(&qdp), "--out", text(&back)])
            .status
            .success()
    );
    std::fs::write(&back, b"someone else's file").unwrap();
    let clash = quince(&["unpack", text(&qdp), "--out", text(&back)]);
    assert_eq!(clash.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&clash.stderr).contains("--force"));
    assert_eq!(std::fs::read(&back).unwrap(), b"someone else's file");
    assert!(
        quince(&["unpack", text(&qdp), "--out", text(&back), "--force"])
            .status
            .success()
    );
    assert_eq!(std::fs::read(&back).unwrap(), original);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cut_and_foreign_files_are_refused() {
    let (dir, qdg) = scratch("damaged");
    let original = std::fs::read(&qdg).unwrap();
    // An interrupted datagen: pack asks for it to be resumed first.
    std::fs::write(&qdg, &original[..original.len() - 3]).unwrap();
    let cut = quince(&["pack", text(&qdg)]);
    assert_eq!(cut.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&cut.stderr).contains("resume"));
    assert!(!dir.join("games.qdp").exists());
    // A cut .qdp, and a .qdg given to unpack.
    std::fs::write(&qdg, &original).unwrap();
    assert!(quince(&["pack", text(&qdg)]).status.success());
    let qdp = dir.join("games.qdp");
    let bytes = std::fs::read(&qdp).unwrap();
    std::fs::write(&qdp, &bytes[..bytes.len() - 1]).unwrap();
    let out = dir.join("out.qdg");
    let cut = quince(&["unpack", text(&qdp), "--out", text(&out)]);
    assert_eq!(cut.status.code(), Some(2));
    assert!(!out.exists());
    let foreign = quince(&["unpack", text(&qdg), "--out", text(&out)]);
    assert_eq!(foreign.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&foreign.stderr).contains("QDP1"));
    let _ = std::fs::remove_dir_all(&dir);
}
