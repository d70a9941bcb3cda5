//! Rendered blocks inside hand-written pages, and the check that a page
//! carries no figure outside them.
//!
//! A block is
//!
//! ```text
//! <!-- render: NAME ARG... -->
//! generated text
//! <!-- /render -->
//! ```
//!
//! or the same on one line (an inline figure in a sentence). Rendering
//! replaces what stands between the markers and keeps everything else, so
//! hand-written analysis survives and never holds a typed figure.

use crate::util::Result;

pub const OPEN: &str = "<!-- render:";
pub const CLOSE: &str = "<!-- /render -->";

/// One block: its name and arguments, and where its content lies.
#[derive(Debug, PartialEq)]
pub struct Block<'a> {
    pub name: &'a str,
    pub args: Vec<&'a str>,
    /// Byte range of the generated content (between the markers).
    pub content: std::ops::Range<usize>,
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// The byte ranges of fenced code blocks (```` ``` ```` lines).
fn fenced_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut open = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            match open.take() {
                Some(start) => out.push(start..at + line.len()),
                None => open = Some(at),
            }
        }
        at += line.len();
    }
    if let Some(start) = open {
        out.push(start..text.len());
    }
    out
}

/// Every block in `text`, in order; an unclosed or nested block is an error
/// naming its line.
pub fn parse(text: &str) -> Result<Vec<Block<'_>>> {
    let mut out = Vec::new();
    let mut at = 0;
    let fences = fenced_ranges(text);
    while let Some(start) = text[at..].find(OPEN).map(|i| i + at) {
        // A marker shown as code (in a fence or after a backtick) is an
        // example, not a block.
        if fences.iter().any(|r| r.contains(&start)) || text[..start].ends_with('`') {
            at = start + OPEN.len();
            continue;
        }
        let head_end = text[start..]
            .find("-->")
            .map(|i| start + i)
            .ok_or_else(|| format!("line {}: unterminated render marker", line_of(text, start)))?;
        let spec = text[start + OPEN.len()..head_end].trim();
        let mut words = spec.split_whitespace();
        let name = words.next().ok_or_else(|| {
            format!(
                "line {}: render marker without a name",
                line_of(text, start)
            )
        })?;
        let content_start = head_end + 3;
        let close = text[content_start..]
            .find(CLOSE)
            .map(|i| content_start + i)
            .ok_or_else(|| {
                format!(
                    "line {}: block '{name}' is not closed by {CLOSE}",
                    line_of(text, start)
                )
            })?;
        if let Some(nested) = text[content_start..close].find(OPEN) {
            return Err(format!(
                "line {}: a block inside block '{name}'",
                line_of(text, content_start + nested)
            ));
        }
        out.push(Block {
            name,
            args: words.collect(),
            content: content_start..close,
        });
        at = close + CLOSE.len();
    }
    Ok(out)
}

/// `text` with every block's content replaced by `fill(name, args, old)`
/// (`old`: the content there now). A
/// multi-line block (its marker ends its line) gets its content on lines
/// of its own.
pub fn fill(
    text: &str,
    mut fill: impl FnMut(&str, &[&str], &str) -> Result<String>,
) -> Result<String> {
    let blocks = parse(text)?;
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for b in &blocks {
        let generated = fill(b.name, &b.args, text[b.content.clone()].trim()).map_err(|e| {
            format!(
                "line {}: block '{}': {e}",
                line_of(text, b.content.start),
                b.name
            )
        })?;
        out.push_str(&text[last..b.content.start]);
        if text[b.content.start..].starts_with('\n') {
            out.push('\n');
            let body = generated.trim_end_matches('\n');
            if !body.is_empty() {
                out.push_str(body);
                out.push('\n');
            }
        } else {
            out.push_str(generated.trim());
        }
        last = b.content.end;
    }
    out.push_str(&text[last..]);
    Ok(out)
}

/// The first line where `a` and `b` differ, with both versions, or `None`.
pub fn first_difference(a: &str, b: &str) -> Option<(usize, String, String)> {
    let (mut la, mut lb) = (a.lines(), b.lines());
    let mut n = 0;
    loop {
        n += 1;
        match (la.next(), lb.next()) {
            (None, None) => return None,
            (x, y) if x == y => continue,
            (x, y) => {
                return Some((
                    n,
                    x.unwrap_or("(end of file)").into(),
                    y.unwrap_or("(end of file)").into(),
                ));
            }
        }
    }
}

/// Text that reads as a typed figure: a ratio (`1.5x`), a percentage,
/// a `±` margin, a speed, any decimal number, or an integer with a unit
/// of time, size or count (`5 minutes`, `17,163 games`, `256 MB`). Dates,
/// versions (`15.1`, `1.95`: a bare decimal after a name, never a ratio or
/// percentage after it), time controls (`10+0.1`), code spans and links
/// are not read: a setting is written as the option that sets it
/// (`--hash 256`), a figure comes from a record.
pub fn typed_figures(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_block = false;
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let mut rest = String::new();
        // Drop rendered blocks (possibly inline), code spans and links.
        let mut s = line;
        loop {
            if in_block {
                match s.find(CLOSE) {
                    Some(j) => {
                        in_block = false;
                        s = &s[j + CLOSE.len()..];
                    }
                    None => break,
                }
            } else {
                match s.find(OPEN) {
                    Some(j) => {
                        rest.push_str(&s[..j]);
                        in_block = true;
                        s = &s[j..];
                        s = s.find("-->").map_or("", |k| &s[k + 3..]);
                    }
                    None => {
                        rest.push_str(s);
                        break;
                    }
                }
            }
        }
        if in_fence {
            continue;
        }
        let cleaned = strip_code_and_links(&rest);
        if let Some(figure) = figure_in(&cleaned) {
            found.push((i + 1, figure));
        }
    }
    found
}

fn strip_code_and_links(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        // A link target: ](...) is a path, not prose.
        if c == ']' && chars.peek() == Some(&'(') {
            for d in chars.by_ref() {
                if d == ')' {
                    break;
                }
            }
            out.push(']');
            continue;
        }
        out.push(c);
    }
    out
}

/// Units that make an integer a figure (a duration, a size, a count of
/// what a run measured).
const UNITS: [&str; 21] = [
    "games",
    "game",
    "minutes",
    "minute",
    "seconds",
    "second",
    "hours",
    "hour",
    "s",
    "ms",
    "positions",
    "nodes",
    "MB",
    "GB",
    "KB",
    "MiB",
    "KiB",
    "GiB",
    "plies",
    "pairs",
    "instructions",
];

/// The first typed figure in a line of prose, if any.
fn figure_in(line: &str) -> Option<String> {
    let b = line.as_bytes();
    let n = b.len();
    let mut i = 0;
    while i < n {
        if line.is_char_boundary(i) && line[i..].starts_with('±') {
            return Some("±".into());
        }
        // A digit continuing a word, a number or a joined pair ("x86-64",
        // "10+0.1") starts no figure.
        let joined =
            i > 1 && (b[i - 1] == b'+' || b[i - 1] == b'-') && b[i - 2].is_ascii_alphanumeric();
        if !b[i].is_ascii_digit()
            || joined
            || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.'))
        {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b',') {
            i += 1;
        }
        let number = line[start..i].trim_end_matches(['.', ',']);
        let after = line[start + number.len()..].trim_start_matches(' ');
        let dots = number.matches('.').count();
        let is_decimal = dots == 1 && !after.starts_with(|c: char| c.is_ascii_digit());
        // Versions and the like: "15.1", "1.95", "0.8.2" next to a name.
        let before = line[..start].trim_end();
        let versionish = dots > 1
            || [
                "rustc",
                "Stockfish",
                "version",
                "v",
                "cozy-chess",
                "shakmaty",
                "chess",
                "criterion",
                "valgrind",
                "MPerft",
                "gungraun",
                "python-chess",
                "Fairy-Max",
                "fairymax",
                "article",
            ]
            .iter()
            .any(|w| before.ends_with(w));
        let ratio =
            after.starts_with('x') && !after[1..].starts_with(|c: char| c.is_ascii_alphanumeric());
        // "95 %" is the confidence level every test here states, not a
        // measured figure.
        let percent = after.starts_with('%') && number != "95";
        let speed =
            after.starts_with("Mnodes") || after.starts_with("nodes/s") || after.starts_with("Elo");
        let unit = UNITS.iter().any(|u| {
            after.starts_with(u)
                && !after[u.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
        });
        // A version is a bare decimal after a name: "Stockfish 15.1", not
        // "Stockfish 50.5 %" or "chess 1.9x".
        let versionish = versionish && !(ratio || percent || speed || unit);
        if !versionish && (ratio || percent || speed || unit || is_decimal) {
            let end = (start + number.len() + 1).min(line.len());
            return Some(line.get(start..end).unwrap_or(number).to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_filled_and_the_rest_kept() {
        let page = "intro\n<!-- render: table a b -->\nold\n<!-- /render -->\nsee <!-- render: value x -->1.0x<!-- /render --> here\n";
        let out = fill(page, |name, args, _| {
            Ok(format!("{name}:{}", args.join(",")))
        })
        .unwrap();
        assert_eq!(
            out,
            "intro\n<!-- render: table a b -->\ntable:a,b\n<!-- /render -->\nsee <!-- render: value x -->value:x<!-- /render --> here\n"
        );
        // Filling is idempotent.
        assert_eq!(
            fill(&out, |name, args, _| Ok(format!(
                "{name}:{}",
                args.join(",")
            )))
            .unwrap(),
            out
        );
    }

    #[test]
    fn broken_markers_name_their_line() {
        assert!(
            parse("a\n<!-- render: x -->\nb\n")
                .unwrap_err()
                .starts_with("line 2")
        );
        assert!(parse("<!-- render: x --><!-- render: y --><!-- /render -->").is_err());
        // Markers shown as code are examples.
        assert!(
            parse("```text\n<!-- render: x -->\n```\nand `<!-- render: y -->`\n")
                .unwrap()
                .is_empty()
        );
        // An empty block stays as it was.
        assert_eq!(
            fill("a\n<!-- render: e -->\n<!-- /render -->\n", |_, _, _| Ok(
                String::new()
            ))
            .unwrap(),
            "a\n<!-- render: e -->\n<!-- /render -->\n"
        );
        let err = fill("x\n<!-- render: bad -->\n<!-- /render -->\n", |_, _, _| {
            Err("no such block".into())
        })
        .unwrap_err();
        assert!(
            err.contains("line 2") && err.contains("no such block"),
            "{err}"
        );
    }

    #[test]
    fn differences_name_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n"),
            Some((2, "b".into(), "c".into()))
        );
    }

    #[test]
    fn typed_figures_are_found_outside_blocks_only() {
        let page = "Quince is 1.52x faster\nrendered <!-- render: v -->1.52x<!-- /render --> fine\n\
                    55 % of games\n<!-- render: t -->\n| 3.2 | 4 % |\n<!-- /render -->\n\
                    Stockfish 15.1 at 10+0.1 with rustc 1.95 on 2 cores, perft(7) = 3195901860\n\
                    `1.5x` in code and [v1.2](a/1.5x.md)\n+19.1 ± 40.3 Elo\n\
                    not shown at 95 %\n\
                    about 5 minutes\nStockfish 50.5 % and chess 1.9x\n17,163 games and a 256 MB table\n\
                    two games at once with `--hash 256`\n";
        let found: Vec<usize> = typed_figures(page).into_iter().map(|(l, _)| l).collect();
        assert_eq!(found, vec![1, 3, 9, 11, 12, 13]);
    }
}
