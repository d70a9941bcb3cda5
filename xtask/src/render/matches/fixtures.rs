//! The records the tests of the match blocks render: the v4 match against
//! Stockfish on two hosts and an SPRT.

use crate::record::matches::{
    Engine, Engines, Host, Kind, LogFormat, MatchRecord, Results, SegmentResult, SprtBounds, Stats,
    Tally,
};

fn engine(label: &str, commit: Option<&str>, options: &[(&str, serde_json::Value)]) -> Engine {
    Engine {
        label: label.into(),
        path: None,
        protocol: None,
        id_name: None,
        commit: commit.map(String::from),
        sha256: None,
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    }
}

pub(super) fn host(vendor: &str, family: u32, model: Option<u32>) -> Host {
    Host {
        cpu_vendor: Some(vendor.into()),
        cpu_family: Some(family),
        cpu_model: model,
        cpu_stepping: None,
        cpu_model_name: Some(if vendor == "GenuineIntel" {
            "Intel(R) Xeon(R) Processor".into()
        } else {
            "AMD EPYC".into()
        }),
        microarchitecture: None,
        logical_cores: Some(2),
    }
}

fn tally(wdl: [u32; 3], ptnml: [u32; 5]) -> Tally {
    Tally {
        wdl,
        ptnml,
        ..Tally::default()
    }
}

/// The v4 match against Stockfish as its log has it: 158 games on the
/// Intel host, 42 on the AMD one.
pub(super) fn v4() -> MatchRecord {
    let sprt = None;
    let intel = tally([62, 47, 49], [9, 10, 28, 23, 9]);
    let mut amd = tally([14, 12, 16], [3, 6, 5, 4, 3]);
    amd.terminations.insert("adjudication (resign)".into(), 30);
    amd.terminations.insert("checkmate".into(), 1);
    amd.terminations.insert("threefold_repetition".into(), 11);
    let mut all = intel.clone();
    for i in 0..3 {
        all.wdl[i] += amd.wdl[i];
    }
    for i in 0..5 {
        all.ptnml[i] += amd.ptnml[i];
    }
    let seg = |h: Host, t: &Tally| SegmentResult {
        host: Some(h),
        source: None,
        stats: Stats::from_tally(t.clone(), false, sprt),
    };
    MatchRecord {
        format_version: 1,
        name: "quince-nnue4-stockfish2400-200".into(),
        kind: Kind::Match,
        title: None,
        games_log: "reports/quince-nnue4-stockfish2400-200.jsonl".into(),
        log_format: LogFormat::Pairs,
        pgn: None,
        engines: Engines {
            a: engine("Quince 1f4a046 (NNUE v4)", Some("1f4a046aaaa"), &[]),
            b: engine(
                "Stockfish 15.1 UCI_Elo 2400",
                None,
                &[
                    ("UCI_Elo", serde_json::json!(2400)),
                    ("UCI_LimitStrength", serde_json::json!(true)),
                    ("Move Overhead", serde_json::json!(100)),
                ],
            ),
        },
        time_control: Some("10+0.1".into()),
        openings: None,
        games_planned: Some(200),
        concurrency: Some(2),
        adjudication: None,
        sprt: None,
        started_utc: None,
        date: Some("2026-11-25".into()),
        segments: vec![],
        backfilled: true,
        source: None,
        notes: None,
        outcome: None,
        discarded: false,
        file: "match-quince-nnue4-stockfish2400-200.json".into(),
        results: Results {
            overall: Stats::from_tally(all, false, None),
            segments: vec![
                seg(host("GenuineIntel", 6, Some(167)), &intel),
                seg(host("AuthenticAMD", 25, Some(17)), &amd),
            ],
        },
    }
}

pub(super) fn an_sprt() -> MatchRecord {
    let bounds = SprtBounds {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let t = tally([184, 120, 112], [12, 33, 72, 53, 38]);
    let mut r = v4();
    r.name = "sprt-7055d2f-vs-a83f0b6".into();
    r.file = "match-sprt-7055d2f-vs-a83f0b6.json".into();
    r.kind = Kind::Sprt;
    r.title = Some("evaluation: NNUE v3".into());
    r.games_log = "reports/sprt/7055d2f-vs-a83f0b6.jsonl".into();
    r.engines.a = engine("new 7055d2f", Some("7055d2f0"), &[]);
    r.engines.b = engine("base a83f0b6", Some("a83f0b61"), &[]);
    r.time_control = Some("2+0.02".into());
    r.outcome = Some("kept".into());
    r.results = Results {
        overall: Stats::from_tally(t.clone(), false, Some(&bounds)),
        segments: vec![SegmentResult {
            host: Some(host("GenuineIntel", 6, Some(167))),
            source: None,
            stats: Stats::from_tally(t, false, Some(&bounds)),
        }],
    };
    r.sprt = Some(bounds);
    r.date = Some("2026-11-25T16:58:00Z".into());
    r
}
