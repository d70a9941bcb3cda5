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
pub mod matches;
mod peers;
mod sliders;

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

/// Pages checked for typed figures only: they have no blocks yet, and
/// must carry no figure at all outside code.
pub const FIGURE_FREE: [&str; 1] = ["reports/reliability.md"];

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
    for (name, r) in &records.atlas {
        if r.commit.dirty {
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
        if let Some((line, was, would)) = blocks::first_difference(&old, &new) {
            problems.push(format!(
                "{shown}:{line}: differs from its records (run `cargo run -p xtask -- report --render`)\n    page:     {was}\n    rendered: {would}"
            ));
        }
        if PAGES.contains(&shown.as_str()) {
            for (line, figure) in blocks::typed_figures(&old) {
                problems.push(format!(
                    "{shown}:{line}: typed figure '{figure}' outside a rendered block"
                ));
            }
        }
    }
    for page in FIGURE_FREE {
        let text =
            std::fs::read_to_string(root().join(page)).map_err(|e| format!("{page}: {e}"))?;
        for (line, figure) in blocks::typed_figures(&text) {
            problems.push(format!(
                "{page}:{line}: typed figure '{figure}' outside a rendered block"
            ));
        }
    }
    problems.extend(datasets::stale(&records.datasets, &root()));
    Ok(problems)
}
