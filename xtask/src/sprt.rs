//! `cargo run -p xtask -- sprt`: the SPRT of one count, for the Python
//! tools (`tools/sprt.py`, and through it the match runner and the SPRT
//! table), so that the pages and the runner decide with one
//! implementation ([`crate::record::matches::stats`]).

use serde_json::json;

use crate::record::matches::SprtBounds;
use crate::record::matches::stats::{
    elo_estimate, elo_estimate_trinomial, sprt_llr, sprt_llr_trinomial,
};
use crate::util::Result;

const HELP: &str = "\
usage: cargo run -p xtask -- sprt --elo0 E0 --elo1 E1 (--ptnml A,B,C,D,E | --wdl W,D,L)
                                   [--alpha 0.05] [--beta 0.05]

Prints one JSON object: the exact log-likelihood ratio of H1 (logistic Elo
E1) against H0 (E0), by maximum likelihood (Van den Bergh's method, as
fishtest's LLRcalc), its bounds for the error rates alpha and beta, the
verdict (H1, H0 or open), and the Elo estimate with its 95 % margin.
--ptnml counts game pairs by the first engine's points (0, 0.5, 1, 1.5,
2); --wdl counts single games (its wins, draws, losses).";

fn counts<const N: usize>(flag: &str, text: Option<&String>) -> Result<[u32; N]> {
    let text = text.ok_or(format!("{flag} needs {N} counts, e.g. 1,2,3"))?;
    let parsed: Vec<u32> = text
        .split(',')
        .map(|c| c.trim().parse::<u32>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| format!("{flag} {text}: {e}"))?;
    parsed
        .try_into()
        .map_err(|v: Vec<u32>| format!("{flag} {text}: {N} counts, not {}", v.len()))
}

fn number(flag: &str, text: Option<&String>) -> Result<f64> {
    let text = text.ok_or(format!("{flag} needs a number"))?;
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or(format!("{flag} {text}: not a number"))
}

enum Count {
    Pairs([u32; 5]),
    Games([u32; 3]),
}

pub fn run(args: &[String]) -> Result<bool> {
    let (mut elo0, mut elo1, mut count) = (None, None, None);
    let (mut alpha, mut beta) = (0.05, 0.05);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--elo0" => elo0 = Some(number(arg, it.next())?),
            "--elo1" => elo1 = Some(number(arg, it.next())?),
            "--alpha" => alpha = number(arg, it.next())?,
            "--beta" => beta = number(arg, it.next())?,
            "--ptnml" => count = Some(Count::Pairs(counts(arg, it.next())?)),
            "--wdl" => count = Some(Count::Games(counts(arg, it.next())?)),
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(true);
            }
            other => return Err(format!("sprt: unknown option '{other}' (see --help)")),
        }
    }
    let (Some(elo0), Some(elo1), Some(count)) = (elo0, elo1, count) else {
        return Err("sprt needs --elo0, --elo1 and --ptnml or --wdl (see --help)".into());
    };
    if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
        return Err(format!(
            "sprt: --alpha {alpha} and --beta {beta} must lie in (0, 0.5)"
        ));
    }
    let bounds = SprtBounds {
        elo0,
        elo1,
        alpha,
        beta,
    };
    let (lower, upper) = bounds.llr_bounds();
    let (llr, elo) = match count {
        Count::Pairs(p) => (sprt_llr(p, elo0, elo1), elo_estimate(p)),
        Count::Games(w) => (sprt_llr_trinomial(w, elo0, elo1), elo_estimate_trinomial(w)),
    };
    let verdict = bounds.verdict(llr).as_str();
    println!(
        "{}",
        json!({
            "llr": llr,
            "lower": lower,
            "upper": upper,
            "verdict": verdict,
            "elo": elo.map(|e| e.estimate),
            "margin": elo.map(|e| e.margin),
        })
    );
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(run(&args(&["--elo0", "0", "--elo1", "5"])).is_err());
        assert!(run(&args(&["--elo0", "0", "--elo1", "5", "--ptnml", "1,2,3"])).is_err());
        assert!(run(&args(&["--elo0", "x", "--elo1", "5", "--wdl", "1,2,3"])).is_err());
        assert!(run(&args(&["--elo0", "0", "--elo1", "5", "--wdl", "1,-2,3"])).is_err());
        assert!(
            run(&args(&[
                "--elo0", "0", "--elo1", "5", "--wdl", "1,2,3", "--alpha", "0.7"
            ]))
            .is_err()
        );
        assert!(run(&args(&["--elo0", "0", "--elo1", "5", "--wdl", "1,2,3"])).unwrap());
    }
}
