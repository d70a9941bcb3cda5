//! Format-1 lab records (`reports/data/v1/`), read for the history table of
//! `reports/README.md` only: each figure is a single median (of a few short
//! alternating runs, or criterion's), with no rounds kept and no interval,
//! so they are shown apart from format-2 figures and never compared with
//! them. Records from uncommitted trees are not kept there.

use std::path::Path;

use serde::Deserialize;

use crate::measure::host::{CommitInfo, Host};
use crate::measure::stats::geomean;
use crate::util::Result;

/// One figure of a format-1 peers record.
#[derive(Deserialize, Debug, Clone)]
pub struct Figure {
    pub group: String,
    pub workload: String,
    pub engine: String,
    pub value: f64,
}

/// The fields of a format-1 record that the history table reads.
#[derive(Deserialize, Debug, Clone)]
pub struct Record {
    pub kind: String,
    pub commit: CommitInfo,
    pub date_utc: String,
    pub host: Host,
    #[serde(default)]
    pub figures: Vec<Figure>,
    #[serde(default)]
    pub backends: Vec<Backend>,
}

#[derive(Deserialize, Debug, Clone)]
pub struct Backend {
    pub name: String,
    pub bulk_ratio_to_best_geomean: Option<f64>,
}

impl Record {
    /// Quince over the best other engine of `engines` in `group`, geometric
    /// mean over the workloads (higher is better).
    pub fn ratio_to_best(&self, group: &str, engines: &[&str]) -> Option<f64> {
        let mut workloads: Vec<&str> = self
            .figures
            .iter()
            .filter(|f| f.group == group)
            .map(|f| f.workload.as_str())
            .collect();
        workloads.dedup();
        let ratios = workloads.iter().map(|w| {
            let get = |e: &str| {
                self.figures
                    .iter()
                    .find(|f| f.group == group && f.workload == *w && f.engine == e)
                    .map(|f| f.value)
            };
            let best = engines
                .iter()
                .filter_map(|e| get(e))
                .fold(f64::NAN, f64::max);
            get("quince").map_or(f64::NAN, |q| q / best)
        });
        geomean(ratios.collect::<Vec<_>>())
    }
}

/// Every format-1 record under `dir` with its file name, oldest first
/// (none when the folder is absent).
pub fn load(dir: &Path) -> Result<Vec<(String, Record)>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for path in entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
    {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let r: Record =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if r.commit.dirty {
            return Err(format!(
                "{}: a dirty record has no place in reports/data/",
                path.display()
            ));
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((name, r));
    }
    out.sort_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc));
    Ok(out)
}
