//! `UCI_ShowWDL`'s model in the engine (`quince::search::wdl::MODEL`) is
//! the fit recorded in `reports/data/wdl-model.json` (`quince-train wdl`).

use quince::search::wdl::MODEL;

#[test]
fn the_engine_holds_the_recorded_fit() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/reports/data/wdl-model.json");
    let text = std::fs::read_to_string(path).expect("the record");
    let record: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(record["kind"], "wdl-model");
    assert_eq!(record["converged"], true);
    for (name, ours) in [("a", MODEL.a), ("b", MODEL.b)] {
        for (i, value) in ours.iter().enumerate() {
            let fitted = record[name][i].as_f64().expect("a number");
            assert!(
                (value - fitted).abs() < 0.01,
                "{name}[{i}]: {value} against {fitted}"
            );
        }
    }
    // The score explains the results better than the results' own shares.
    let with = record["mean_log_likelihood"].as_f64().unwrap();
    let without = record["mean_log_likelihood_without_the_score"]
        .as_f64()
        .unwrap();
    assert!(with > without);
}
