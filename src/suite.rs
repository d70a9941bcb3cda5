//! EPD perft suites: one position per line, `<FEN> ;D1 <count> ;D2 <count> ...`.

use std::fmt;

/// One line of a suite: a FEN and its expected perft counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// 1-based line number in the file (for messages).
    pub line: usize,
    /// The position, as written before the first `;` (not yet parsed).
    pub fen: String,
    /// `(depth, expected nodes)`, in file order.
    pub expected: Vec<(u32, u64)>,
}

/// A malformed suite line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// 1-based line number of the bad line.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SuiteError {}

/// Parses a suite; blank lines and lines starting with `#` are skipped.
///
/// ```
/// let suite = quince::suite::parse("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9\n").unwrap();
/// assert_eq!(suite[0].expected, [(1, 3), (2, 9)]);
/// ```
pub fn parse(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut parts = trimmed.split(';').map(str::trim);
        let fen = parts.next().unwrap_or_default().to_string();
        let mut expected = Vec::new();
        for part in parts.filter(|p| !p.is_empty()) {
            let bad = |why: &str| SuiteError {
                line,
                message: format!("bad depth entry '{part}': {why}"),
            };
            let rest = part
                .strip_prefix('D')
                .ok_or_else(|| bad("expected 'D<depth> <count>'"))?;
            let (depth, count) = rest
                .split_once(char::is_whitespace)
                .ok_or_else(|| bad("missing count"))?;
            let depth: u32 = depth.parse().map_err(|_| bad("depth is not a number"))?;
            let count: u64 = count
                .trim()
                .parse()
                .map_err(|_| bad("count is not a number"))?;
            expected.push((depth, count));
        }
        if expected.is_empty() {
            return Err(SuiteError {
                line,
                message: "no ';D<depth> <count>' entries".to_string(),
            });
        }
        entries.push(SuiteEntry {
            line,
            fen,
            expected,
        });
    }
    Ok(entries)
}
