//! Rendering the pages from the records, and checking that they match.
//!
//! `report --render` fills every rendered block of every page below and
//! redraws the charts; `report --check` does the same in memory and fails
//! on the first difference (naming the page and line), on a figure typed
//! outside a block, and on a dirty record. So a figure a reader sees
//! either comes from a record in `reports/data/` or fails CI.

mod atlas;
pub mod blocks;
mod charts;
mod curve;
mod datasets;
mod format;
mod lab;
mod lead_profile;
pub mod matches;
mod peers;
mod scaling;
mod sliders;
mod syzygy;

use std::path::PathBuf;

use crate::record::{self, Records};
use crate::util::{Result, root};

/// The pages with rendered blocks, relative to the workspace root. Each is
/// also checked for typed figures outside its blocks.
pub const PAGES: [&str; 9] = [
    "README.md",
    "reports/README.md",
    "reports/perft-hash.md",
    "reports/sliders.md",
    "reports/strength.md",
    "reports/nnue.md",
    "reports/tuning.md",
    "docs/lab.md",
    "reports/atlas.md",
];

/// Every other page a user reads, checked for typed figures only (they
/// have no blocks, so they carry no figure outside code): README.md's
/// siblings in `docs/` and `reports/` (not the generated history page,
/// compared whole). The archive's pages, its index included, keep their
/// typed figures under a dated banner instead ([`archive_banners`]).
fn figure_free_pages() -> Result<Vec<String>> {
    let mut pages = Vec::new();
    for dir in ["docs", "reports"] {
        let entries = std::fs::read_dir(root().join(dir)).map_err(|e| format!("{dir}/: {e}"))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let page = format!("{dir}/{name}");
            if name.ends_with(".md")
                && !PAGES.contains(&page.as_str())
                && page != "reports/history.md"
            {
                pages.push(page);
            }
        }
    }
    pages.sort();
    Ok(pages)
}

/// Every match record whose PGN the repository keeps: the first engine's
/// wins, draws and losses recounted from the PGN's results must be the
/// games log's (the figures the pages render), or the check fails.
fn pgn_recounts(records: &Records) -> Vec<String> {
    use crate::record::matches::pgn::{Kept, locate, recount};
    let mut problems = Vec::new();
    for r in &records.matches {
        let Kept::Yes(path) = locate(&root(), r.pgn.as_deref()) else {
            continue;
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("reports/data/{}: {}: {e}", r.file, path.display()));
                continue;
            }
        };
        let logged = r.results.overall.tally.wdl;
        let mut names = vec![r.engines.a.label.as_str()];
        names.extend(r.engines.a.id_name.as_deref());
        match recount(&text, &names) {
            Ok(wdl) if wdl == logged => {}
            Ok(wdl) => problems.push(format!(
                "reports/data/{}: its PGN has {} / {} / {} (A's W / D / L), its games log {} / {} / {}",
                r.file, wdl[0], wdl[1], wdl[2], logged[0], logged[1], logged[2]
            )),
            Err(e) => problems.push(format!(
                "reports/data/{}: its PGN cannot be recounted: {e}",
                r.file
            )),
        }
    }
    problems
}

/// The archive's dated pages: each must open with its banner
/// (`> **Archived ...`, with the date it was archived), which tells a
/// reader its typed figures are of that date and never a current result.
fn archive_banners() -> Result<Vec<String>> {
    let dir = root().join("reports/archive");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut problems = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".md") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let first = text.lines().next().unwrap_or("");
        let dated = first.as_bytes().windows(10).any(|w| {
            w[4] == b'-'
                && w[7] == b'-'
                && w.iter()
                    .enumerate()
                    .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
        });
        if !(first.starts_with("> **Archived") && dated) {
            problems.push(format!(
                "reports/archive/{name}:1: no dated archive banner ('> **Archived ... YYYY-MM-DD ...'): its typed figures would read as current"
            ));
        }
    }
    Ok(problems)
}

/// The generated content of one block.
fn block(name: &str, args: &[&str], records: &Records, page: &str) -> Result<String> {
    if let Some(out) = atlas::block(name, args, records, page) {
        return out;
    }
    if let Some(out) = lab::block(name, args, records, page) {
        return out;
    }
    if let Some(out) = matches::block(name, args, &records.matches) {
        return out;
    }
    if let Some(out) = datasets::block(name, args, &records.datasets, page) {
        return out;
    }
    if let Some(out) = scaling::block(name, args, &records.matches, &records.datasets) {
        return out;
    }
    if let Some(out) = syzygy::block(name, &records.syzygy, page) {
        return out;
    }
    if let Some(out) = lead_profile::block(name, records, page) {
        return out;
    }
    Err(format!("no block named '{name}'"))
}

/// Every page and chart as rendered now: (path, new text, old text). With
/// `problems`, a block that cannot be rendered is noted there (naming page
/// and line) and keeps its old content, so one check reports everything;
/// without, it is an error.
fn rendered(
    records: &Records,
    mut problems: Option<&mut Vec<String>>,
) -> Result<Vec<(PathBuf, String, String)>> {
    let mut out = Vec::new();
    for page in PAGES {
        let path = root().join(page);
        let old = std::fs::read_to_string(&path).map_err(|e| format!("{page}: {e}"))?;
        let mut failed = Vec::new();
        let check = problems.is_some();
        let new = blocks::fill(&old, |name, args, was| {
            match block(name, args, records, page) {
                Ok(text) => Ok(text),
                Err(e) if check => {
                    failed.push(format!("{page}: block '{name}': {e}"));
                    Ok(was.to_string())
                }
                Err(e) => Err(e),
            }
        })
        .map_err(|e| format!("{page}: {e}"))?;
        if let Some(list) = problems.as_deref_mut() {
            list.append(&mut failed);
        }
        out.push((path, new, old));
    }
    for (file, svg) in charts::all(records)? {
        let path = root().join(&file);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        out.push((path, svg, old));
    }
    // The history page and chart, drawn whole from their cache.
    for (path, text) in crate::history::page::files(&crate::history::read_cache()?)? {
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        out.push((path, text, old));
    }
    Ok(out)
}

/// Says where a new record went, renders every page from the records
/// and says which changed: the end of every measuring command.
pub fn announce(record: &std::path::Path) -> Result<()> {
    println!(
        "record written to {}",
        record.strip_prefix(root()).unwrap_or(record).display()
    );
    for page in render()? {
        println!(
            "rendered {}",
            page.strip_prefix(root()).unwrap_or(&page).display()
        );
    }
    Ok(())
}

/// Writes every page and chart; returns the files that changed.
pub fn render() -> Result<Vec<PathBuf>> {
    let records = record::load()?;
    let mut changed = Vec::new();
    for (path, new, old) in rendered(&records, None)? {
        if new != old {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::write(&path, &new).map_err(|e| format!("{}: {e}", path.display()))?;
            changed.push(path);
        }
    }
    Ok(changed)
}

/// What `--check` finds on one rendered page or chart `shown` (its path
/// from the root): the first line where the file (`old`) differs from its
/// rendering (`new`), and on a page with blocks every typed figure.
fn page_problems(shown: &str, old: &str, new: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some((line, was, would)) = blocks::first_difference(old, new) {
        problems.push(format!(
            "{shown}:{line}: differs from its records (run `cargo run -p xtask -- report --render`)\n    page:     {was}\n    rendered: {would}"
        ));
    }
    if PAGES.contains(&shown) {
        problems.extend(figure_problems(shown, old));
    }
    problems
}

/// Every typed figure outside a rendered block of `page`'s `text`.
fn figure_problems(page: &str, text: &str) -> Vec<String> {
    blocks::typed_figures(text)
        .into_iter()
        .map(|(line, figure)| {
            format!("{page}:{line}: typed figure '{figure}' outside a rendered block")
        })
        .collect()
}

/// Every problem `--check` finds, one line each (empty: all is well).
pub fn check() -> Result<Vec<String>> {
    let records = record::load()?;
    let mut problems = Vec::new();
    for (name, r) in &records.lab {
        if r.commit.dirty {
            problems.push(format!(
                "reports/data/{name}: measured from an uncommitted tree (dirty)"
            ));
        }
    }
    // The other records that carry a commit (the pages leave dirty ones out,
    // so without this a dirty one would be skipped silently).
    let with_commit = records
        .atlas
        .iter()
        .map(|(n, r)| (n, r.commit.dirty))
        .chain(
            records
                .lead_profile
                .iter()
                .map(|(n, r)| (n, r.commit.dirty)),
        )
        .chain(records.syzygy.iter().map(|(n, r)| (n, r.commit.dirty)));
    for (name, dirty) in with_commit {
        if dirty {
            problems.push(format!(
                "reports/data/{name}: measured from an uncommitted tree (dirty)"
            ));
        }
    }
    if let Some((_, _, commit)) = crate::history::baseline()
        && commit.ends_with("-dirty")
    {
        problems.push(format!(
            "reports/perft-baseline.json: recorded from an uncommitted tree ({commit}); refresh it on a clean one (`cargo run -p xtask -- perft-track --update`)"
        ));
    }
    for (path, new, old) in rendered(&records, Some(&mut problems))? {
        let shown = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        problems.extend(page_problems(&shown, &old, &new));
    }
    for page in figure_free_pages()? {
        let text =
            std::fs::read_to_string(root().join(&page)).map_err(|e| format!("{page}: {e}"))?;
        problems.extend(figure_problems(&page, &text));
    }
    problems.extend(archive_banners()?);
    problems.extend(pgn_recounts(&records));
    problems.extend(datasets::stale(&records.datasets, &root()));
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first digit inside a rendered block of `page`, changed: an edit
    /// of a figure the records give.
    fn edit_a_rendered_figure(page: &str) -> Option<String> {
        let mut offset = 0;
        while let Some(open) = page[offset..].find(blocks::OPEN) {
            let start = offset + open;
            let body = start + page[start..].find("-->")? + 3;
            let end = body + page[body..].find(blocks::CLOSE)?;
            if let Some(k) = page[body..end].find(|c: char| c.is_ascii_digit()) {
                let at = body + k;
                let digit = page.as_bytes()[at];
                let other = if digit == b'9' {
                    '1'
                } else {
                    (digit + 1) as char
                };
                return Some(format!("{}{other}{}", &page[..at], &page[at + 1..]));
            }
            offset = end;
        }
        None
    }

    /// Issue 67's test of the check's teeth: on every page a user reads,
    /// an edited figure is found. Pages with blocks: a rendered figure
    /// changed by hand differs from its records; the others (and the
    /// history page, drawn whole): a figure typed into their prose is
    /// flagged; an archived page without its dated banner is flagged.
    #[test]
    fn an_edited_figure_fails_the_check_on_every_page() {
        let records = record::load().unwrap();
        let rendered = rendered(&records, None).unwrap();
        let mut pages_seen = 0;
        for (path, new, _) in &rendered {
            let shown = path.strip_prefix(root()).unwrap().display().to_string();
            if !shown.ends_with(".md") {
                continue;
            }
            let edited = if shown == "reports/history.md" {
                new.replacen("| 1 |", "| 2 |", 1)
            } else {
                edit_a_rendered_figure(new)
                    .unwrap_or_else(|| panic!("{shown}: no rendered figure to edit"))
            };
            assert_ne!(&edited, new, "{shown}");
            assert!(
                !page_problems(&shown, &edited, new).is_empty(),
                "{shown}: an edited figure passed"
            );
            assert!(
                page_problems(&shown, new, new)
                    .iter()
                    .all(|p| !p.contains("differs"))
            );
            pages_seen += 1;
        }
        assert!(pages_seen > PAGES.len(), "the history page is checked too");
        for page in figure_free_pages().unwrap() {
            let text = std::fs::read_to_string(root().join(&page)).unwrap();
            assert!(figure_problems(&page, &text).is_empty(), "{page}");
            let edited = format!("{text}\nQuince is 1.5x faster, in 17 minutes.\n");
            assert!(!figure_problems(&page, &edited).is_empty(), "{page}");
        }
        assert!(archive_banners().unwrap().is_empty());
    }
}
