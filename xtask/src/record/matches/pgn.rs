//! A match's games as its PGN keeps them: where the file is, and the first
//! engine's wins, draws and losses recounted from its `Result` tags, so
//! that `report --check` can hold the games log (which the pages render
//! from) to the games themselves.

use std::path::{Path, PathBuf};

use crate::util::Result;

/// Where a record's PGN is.
#[derive(Debug, PartialEq)]
pub enum Kept {
    /// In the repository, at this path.
    Yes(PathBuf),
    /// Not in the repository: why, for a reader.
    No(String),
}

/// Where the PGN named `pgn` (relative to the repository root `root`)
/// is: kept when it is a file inside the repository and not under
/// `target/` (which is never committed).
pub fn locate(root: &Path, pgn: Option<&str>) -> Kept {
    let Some(name) = pgn else {
        return Kept::No("no PGN named".into());
    };
    let path = Path::new(name);
    if path.is_absolute() || name.starts_with("target/") || name.starts_with("../") {
        return Kept::No(format!(
            "PGN written to {name}, outside the repository, not kept"
        ));
    }
    let full = root.join(path);
    if full.is_file() {
        Kept::Yes(full)
    } else {
        Kept::No(format!("PGN {name} missing"))
    }
}

/// The value of a PGN tag line `[Name "value"]`, if `line` is one for
/// `name`.
fn tag<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let rest = line.trim().strip_prefix('[')?.strip_prefix(name)?;
    let rest = rest.strip_prefix(' ')?.trim_end().strip_suffix(']')?;
    rest.strip_prefix('"')?.strip_suffix('"')
}

/// The wins, draws and losses of the first engine over the games of
/// `text` (a PGN): each game's `White`, `Black` and `Result` tags, the
/// engine known by any of `a_names` (its label; the name its program gave,
/// which an older runner wrote for resumed games). A game without a
/// result, or in which neither player has one of those names, is an
/// error naming it.
pub fn recount(text: &str, a_names: &[&str]) -> Result<[u32; 3]> {
    let mut wdl = [0u32; 3];
    let mut games = 0usize;
    let mut game = GameTags::default();
    for line in text.lines() {
        if tag(line, "Event").is_some() {
            game.count(&mut games, a_names, &mut wdl)?;
        }
        if let Some(v) = tag(line, "White") {
            game.white = Some(v.to_string());
        } else if let Some(v) = tag(line, "Black") {
            game.black = Some(v.to_string());
        } else if let Some(v) = tag(line, "Result") {
            game.result = Some(v.to_string());
        }
    }
    game.count(&mut games, a_names, &mut wdl)?;
    Ok(wdl)
}

/// The tags [`recount`] reads of the game being read.
#[derive(Default)]
struct GameTags {
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
}

impl GameTags {
    /// Adds the game read so far (if any tag of it was) to `wdl`, the
    /// first engine's wins, draws and losses, as game `games + 1`, and
    /// starts the next.
    fn count(&mut self, games: &mut usize, a_names: &[&str], wdl: &mut [u32; 3]) -> Result<()> {
        let GameTags {
            white,
            black,
            result,
        } = std::mem::take(self);
        if white.is_none() && black.is_none() && result.is_none() {
            return Ok(());
        }
        *games += 1;
        let n = *games;
        let is_a = |name: &Option<String>| name.as_deref().is_some_and(|n| a_names.contains(&n));
        let a_white = if is_a(&white) && !is_a(&black) {
            true
        } else if is_a(&black) && !is_a(&white) {
            false
        } else {
            return Err(format!(
                "game {n}: not one player named {}",
                a_names.join(" or ")
            ));
        };
        let points_white = match result.as_deref() {
            Some("1-0") => 2,
            Some("1/2-1/2") => 1,
            Some("0-1") => 0,
            other => return Err(format!("game {n}: result {other:?}")),
        };
        let points_a = if a_white {
            points_white
        } else {
            2 - points_white
        };
        wdl[2 - points_a] += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Event \"m\"]\n[White \"A x\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
                       [Event \"m\"]\n[White \"B\"]\n[Black \"A x\"]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n";

    #[test]
    fn games_are_recounted_for_the_first_engine() {
        assert_eq!(recount(TWO, &["A x"]).unwrap(), [1, 1, 0]);
        assert_eq!(recount(TWO, &["B"]).unwrap(), [0, 1, 1]);
        // A flipped result is a different count.
        let flipped = TWO.replacen("[Result \"1-0\"]", "[Result \"0-1\"]", 1);
        assert_eq!(recount(&flipped, &["A x"]).unwrap(), [0, 1, 1]);
        assert!(recount(TWO, &["C"]).is_err());
        assert!(recount(TWO, &["A x", "B"]).is_err());
        assert!(recount(&TWO.replace("1/2-1/2\"]", "*\"]"), &["A x"]).is_err());
        // An engine renamed in a resumed game is still itself.
        let renamed = TWO.replacen("[Black \"A x\"]", "[Black \"A 0.1\"]", 1);
        assert_eq!(recount(&renamed, &["A x", "A 0.1"]).unwrap(), [1, 1, 0]);
    }

    #[test]
    fn only_files_in_the_repository_are_kept() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            locate(root, Some("Cargo.toml")),
            Kept::Yes(root.join("Cargo.toml"))
        );
        assert!(matches!(
            locate(root, Some("target/sprt/x.pgn")),
            Kept::No(_)
        ));
        assert!(matches!(locate(root, Some("/tmp/x.pgn")), Kept::No(_)));
        assert!(matches!(locate(root, Some("no-such.pgn")), Kept::No(_)));
        assert!(matches!(locate(root, None), Kept::No(_)));
    }
}
