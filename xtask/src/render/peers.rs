//! The blocks of the peers record: README's results table, the
//! per-position tables, the commands, every round, instructions per node,
//! inline ratios.

use std::fmt::Write as _;

use super::format::{coverage_note, display, provenance, ratio_text, record_link, record_path};
use super::lab::{comparison, latest, latest_comparison};
use crate::measure::host::family_name;
use crate::record::{Comparison, LabRecord, Records};
use crate::util::Result;

/// The geometric-mean ratio, saying which positions it leaves out (where a
/// contender failed).
pub fn geomean_row(c: &Comparison, kind: &str, other: &str) -> Option<String> {
    let text = ratio_text(&c.timings.geomean_ratio(kind, &c.reference, other)?);
    let missing = c.timings.missing(kind, other);
    Some(if missing.is_empty() {
        text
    } else {
        format!("{text}, without {}", missing.join(", "))
    })
}

/// One line per failed run, for the note under a table.
pub fn failures_note(c: &Comparison) -> String {
    let mut s = String::new();
    for f in &c.timings.failures {
        writeln!(
            s,
            "\n* {} failed on `{}` in round {} and is left out of it: {}",
            f.contender, f.workload, f.round, f.error
        )
        .unwrap();
    }
    s
}

/// Instructions per node of `engine` over Quince's, geometric mean over the
/// positions both were counted on.
pub fn instructions_ratio(r: &LabRecord, kind: &str, engine: &str) -> Option<f64> {
    let mut pairs = Vec::new();
    for q in r
        .instructions
        .iter()
        .filter(|i| i.engine == "quince" && i.kind == kind)
    {
        let other = r
            .instructions
            .iter()
            .find(|i| i.engine == engine && i.kind == kind && i.position == q.position)?;
        pairs.push(other.per_node / q.per_node);
    }
    crate::measure::stats::geomean(pairs)
}

pub fn readme_results(records: &Records, page: &str) -> Result<String> {
    // The C/C++ peers and the crates may come from different records
    // (`report --no-crates`, or a report run without the C/C++ binaries):
    // each from the newest record that measured it.
    let (file, r, process, _) = latest_comparison(records, "peers", "process", page)?;
    let (crates_file, crates_record, crates, _) =
        latest_comparison(records, "peers", "crates", page)?;
    let crates_link = format!("[record]({})", record_path(page, crates_file));
    let mut s = String::new();
    writeln!(s, "{}", provenance(file, r, page)).unwrap();
    writeln!(s, "{}", backend_note(records, r, page)).unwrap();
    if crates_file != file {
        writeln!(
            s,
            "The crate rows are from the record [`{crates_file}`]({}) (commit `{}`, {}), the newest to measure the crates; the rows above them from the newest to measure the C/C++ peers.",
            record_path(page, crates_file),
            crates_record.commit.short,
            crates_record.date_utc.get(..10).unwrap_or("")
        )
        .unwrap();
    }
    let crates_note = if crates.timings.rounds == process.timings.rounds {
        String::new()
    } else {
        format!(" (the crate rows: {})", coverage_note(&crates.timings))
    };
    writeln!(s, "Each ratio: how many times faster Quince is, geometric mean over the six standard positions, {}{crates_note}.", coverage_note(&process.timings)).unwrap();
    writeln!(s).unwrap();
    let link = format!("[record]({})", record_path(page, file));
    writeln!(s, "| measure | Quince against it | from |").unwrap();
    writeln!(s, "| --- | ---: | --- |").unwrap();
    for other in process.others() {
        if let Some(t) = geomean_row(process, "bulk", other) {
            writeln!(
                s,
                "| bulk perft against {} (C/C++), whole process | {t} | {link} |",
                display(other)
            )
            .unwrap();
        }
    }
    for (kind, label) in [("bulk", "bulk perft"), ("full", "full-make perft")] {
        for other in crates.others() {
            if let Some(t) = geomean_row(crates, kind, other) {
                writeln!(
                    s,
                    "| {label} against the {} crate | {t} | {crates_link} |",
                    display(other)
                )
                .unwrap();
            }
        }
    }
    let counted = [(r, &link), (crates_record, &crates_link)]
        .into_iter()
        .find_map(|(r, link)| Some((instructions_ratio(r, "bulk", "cozy-chess")?, link)));
    if let Some((x, link)) = counted {
        writeln!(
            s,
            "| bulk instructions per node, cozy-chess over Quince (callgrind) | {x:.2}x | {link} |"
        )
        .unwrap();
    }
    Ok(s)
}

/// Which Quince build the ratios measure, and where the library's
/// default build stands against it on the same CPU model (from the atlas),
/// so that a headline figure is never read as the default's.
fn backend_note(records: &Records, r: &LabRecord, page: &str) -> String {
    let features = &r.toolchain.features;
    let backend = features
        .split(',')
        .find(|f| crate::util::ALL_BACKENDS.contains(f))
        .unwrap_or("hq");
    let mut note = format!(
        "Quince is built with its `{backend}` sliding-attack backend (Cargo features `{features}`) and those RUSTFLAGS"
    );
    if backend == "hq" {
        note.push_str(", the library's default backend.");
        return note;
    }
    let cpu = family_name(&r.host);
    match super::atlas::bulk_ratio(records, &cpu, "hq", backend) {
        Some((atlas_file, ratio)) => write!(
            note,
            "; the library's default build (the portable `hq` backend) is slower: in the atlas on the same CPU model, `hq` runs bulk perft at {} of `{backend}` (record {}).",
            ratio_text(&ratio),
            record_link(page, atlas_file)
        )
        .unwrap(),
        None => write!(
            note,
            "; the library's default build (the portable `hq` backend) is not what these ratios measure, and no atlas record of this CPU model says how far it stands from `{backend}`."
        )
        .unwrap(),
    }
    note
}

/// Per position: each contender's ratio, Quince's Mnodes/s.
pub fn per_position(r: &LabRecord, c: &Comparison, kind: &str) -> String {
    let others = c.others();
    let mut s = String::new();
    write!(
        s,
        "| position | depth | {} Mnodes/s |",
        display(&c.reference)
    )
    .unwrap();
    for o in &others {
        write!(s, " over {} |", display(o)).unwrap();
    }
    writeln!(s).unwrap();
    writeln!(s, "| --- | ---: | ---: |{}", " ---: |".repeat(others.len())).unwrap();
    for w in c.timings.workloads.iter().filter(|w| w.kind == kind) {
        let depth = if w.repeat > 1 {
            format!("{} (x{})", w.depth, w.repeat)
        } else {
            w.depth.to_string()
        };
        let mnps = c
            .timings
            .mnps(w, &c.reference)
            .map_or("-".into(), |m| format!("{m:.0}"));
        write!(s, "| {} | {depth} | {mnps} |", w.position).unwrap();
        for o in &others {
            let failed = c
                .timings
                .failures
                .iter()
                .any(|f| f.workload == w.id && f.contender == *o);
            let t = match c.timings.ratio(&w.id, &c.reference, o) {
                _ if failed => "failed (below)".to_string(),
                Some(x) => ratio_text(&x),
                None => "-".into(),
            };
            write!(s, " {t} |").unwrap();
        }
        writeln!(s).unwrap();
    }
    write!(s, "| **geometric mean** | | |").unwrap();
    for o in &others {
        write!(
            s,
            " **{}** |",
            geomean_row(c, kind, o).unwrap_or_else(|| "-".into())
        )
        .unwrap();
    }
    writeln!(s).unwrap();
    let _ = r;
    s
}

pub fn rounds_table(c: &Comparison) -> String {
    let mut s = String::new();
    writeln!(s, "| workload | contender | seconds per round |").unwrap();
    writeln!(s, "| --- | --- | --- |").unwrap();
    for w in &c.timings.workloads {
        for (name, secs) in c.timings.seconds.get(&w.id).into_iter().flatten() {
            let list: Vec<String> = secs.iter().map(|x| format!("{x:.3}")).collect();
            writeln!(s, "| {} | {name} | {} |", w.id, list.join(" ")).unwrap();
        }
    }
    s
}

pub fn commands(c: &Comparison) -> String {
    let mut s = String::from(
        "| contender | version or build | SHA-256 (first 16) | example command |\n| --- | --- | --- | --- |\n",
    );
    let first = c
        .timings
        .workloads
        .first()
        .map(|w| w.id.clone())
        .unwrap_or_default();
    for x in &c.contenders {
        let cmd = c
            .command_lines
            .get(&first)
            .and_then(|m| m.get(&x.name))
            .cloned()
            .unwrap_or_default();
        writeln!(
            s,
            "| {} | {} | `{}` | `{}` |",
            x.name,
            x.version,
            x.sha256.get(..16).unwrap_or(""),
            cmd.replace('|', "\\|")
        )
        .unwrap();
    }
    s
}

pub fn instructions_table(r: &LabRecord, kind: &str) -> String {
    // Each engine once, in the record's order (the records list them
    // position by position, so `dedup` alone repeated every column).
    let mut engines: Vec<&str> = Vec::new();
    for i in r.instructions.iter().filter(|i| i.kind == kind) {
        if !engines.contains(&i.engine.as_str()) {
            engines.push(&i.engine);
        }
    }
    let mut positions: Vec<(&str, u32)> = Vec::new();
    for i in r.instructions.iter().filter(|i| i.kind == kind) {
        if !positions.iter().any(|p| p.0 == i.position) {
            positions.push((&i.position, i.depth));
        }
    }
    let mut s = String::from("| position | depth |");
    for e in &engines {
        write!(s, " {e} |").unwrap();
    }
    writeln!(s).unwrap();
    writeln!(s, "| --- | ---: |{}", " ---: |".repeat(engines.len())).unwrap();
    for (p, d) in positions {
        write!(s, "| {p} | {d} |").unwrap();
        for e in &engines {
            let v = r
                .instructions
                .iter()
                .find(|i| i.engine == *e && i.position == p && i.kind == kind);
            write!(
                s,
                " {} |",
                v.map_or("-".into(), |v| format!("{:.2}", v.per_node))
            )
            .unwrap();
        }
        writeln!(s).unwrap();
    }
    s
}

/// An inline ratio: `ratio KIND COMPARISON WORKLOAD-KIND CONTENDER [POSITION]`
/// (a `+` in CONTENDER stands for a space: `1+thread`).
pub fn inline_ratio(records: &Records, args: &[&str]) -> Result<String> {
    let [kind, comp, wkind, other, rest @ ..] = args else {
        return Err("ratio wants KIND COMPARISON WORKLOAD-KIND CONTENDER [POSITION]".into());
    };
    let other = &other.replace('+', " ");
    let (_, r) = latest(records, kind)?;
    let c = comparison(r, comp)?;
    let ratio = match rest {
        [] => c.timings.geomean_ratio(wkind, &c.reference, other),
        [pos] => c
            .timings
            .workloads
            .iter()
            .find(|w| w.kind == *wkind && w.position == *pos)
            .and_then(|w| c.timings.ratio(&w.id, &c.reference, other)),
        _ => return Err("ratio: too many arguments".into()),
    };
    ratio
        .map(|x| ratio_text(&x))
        .ok_or_else(|| format!("no ratio for {}", args.join(" ")))
}
