//! The search's tunable constants: every margin, depth limit and reduction
//! coefficient of its selectivity, gathered in one table so that a tuner
//! (`tools/spsa.py`) can move them and a match can prove the new set.
//!
//! Each parameter is a function. In the ordinary build it returns its
//! default, a literal the compiler folds into the search exactly as the
//! hand-written constants were (same code, same speed). Built with
//! `--features tune`, it reads an atomic instead, and the UCI front end
//! offers every parameter as a spin option (`setoption name rfp_margin
//! value 80`), so the tuner can play one binary at many settings. The
//! tuned values then become the defaults here, in one commit that an SPRT
//! decides like any other search change.
//!
//! ```
//! use quince::search::params;
//! let rfp = params::PARAMS.iter().find(|p| p.name == "rfp_margin").unwrap();
//! assert_eq!(params::rfp_margin(), rfp.default);
//! assert!(rfp.min <= rfp.default && rfp.default <= rfp.max);
//! ```

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// One tunable parameter: its UCI option name, default and the range a
/// tuner may explore (also the option's `min` and `max`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The function's name, which is also the UCI option's name.
    pub name: &'static str,
    /// The value of the ordinary build.
    pub default: i32,
    /// The lowest value a tuner may try.
    pub min: i32,
    /// The highest value a tuner may try.
    pub max: i32,
}

/// Declares the parameters: one accessor function each, the [`PARAMS`]
/// table, and with `tune` the atomics behind them.
macro_rules! search_params {
    ($( $(#[doc = $doc:expr])* $name:ident = $default:literal in $min:literal ..= $max:literal; )*) => {
        /// Each parameter's position in [`PARAMS`] (and in the atomics).
        #[allow(non_camel_case_types, dead_code)]
        #[repr(usize)]
        enum Slot { $($name),* }

        /// Every tunable parameter, in declaration order.
        pub const PARAMS: &[Param] = &[
            $( Param { name: stringify!($name), default: $default, min: $min, max: $max } ),*
        ];

        #[cfg(feature = "tune")]
        static VALUES: [AtomicI32; PARAMS.len()] = [ $( AtomicI32::new($default) ),* ];

        $(
            $(#[doc = $doc])*
            #[inline(always)]
            pub fn $name() -> i32 {
                #[cfg(feature = "tune")]
                {
                    VALUES[Slot::$name as usize].load(Relaxed)
                }
                #[cfg(not(feature = "tune"))]
                {
                    $default
                }
            }
        )*
    };
}

search_params! {
    /// Reverse futility pruning applies at this depth and below.
    rfp_depth = 6 in 3..=10;
    /// Reverse futility: centipawns above beta needed per ply of depth.
    rfp_margin = 90 in 40..=160;
    /// Reverse futility: centipawns the margin shrinks when the
    /// evaluation improves on two plies before.
    rfp_improving = 30 in 0..=90;
    /// Null move: the reduction's constant part, in plies.
    nmp_base = 3 in 2..=5;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor = 4 in 2..=8;
    /// Null move: one more ply of reduction per this many centipawns the
    /// evaluation exceeds beta (at most two).
    nmp_eval_divisor = 200 in 80..=400;
    /// Internal iterative reduction applies from this depth up.
    iir_depth = 4 in 2..=8;
    /// SEE pruning of moves applies at this depth and below.
    see_depth = 8 in 3..=12;
    /// SEE pruning: a quiet move may lose this many centipawns per ply.
    see_quiet_margin = 60 in 20..=150;
    /// SEE pruning: a capture may lose this many centipawns per ply.
    see_capture_margin = 100 in 40..=200;
    /// Singular extensions apply from this depth up.
    singular_depth = 8 in 5..=12;
    /// Singular extension: the bound sits this many centipawns per ply
    /// below the hash move's score.
    singular_margin = 2 in 1..=5;
    /// Late-move pruning applies at this depth and below.
    lmp_depth = 4 in 2..=8;
    /// Late-move pruning: quiet moves allowed before pruning, beyond
    /// depth squared (doubled when improving).
    lmp_base = 3 in 1..=8;
    /// Futility pruning of quiet moves applies at this depth and below.
    futility_depth = 5 in 2..=9;
    /// Futility pruning: the margin's constant part, in centipawns.
    futility_base = 100 in 30..=250;
    /// Futility pruning: the margin's part per ply of depth.
    futility_margin = 90 in 40..=180;
    /// Late-move reductions: the table's constant part, in hundredths of a ply.
    lmr_base = 75 in 0..=150;
    /// Late-move reductions: ln(depth) × ln(move number) is divided by
    /// this, in hundredths.
    lmr_divisor = 225 in 150..=350;
    /// Late-move reductions: a quiet move's history score (butterfly and
    /// continuation, within +-65,536) divided by this is taken off its
    /// reduction, at most two plies either way.
    lmr_history_divisor = 8192 in 2048..=32768;
    /// Quiescence delta pruning: a capture must be able to lift the
    /// stand-pat score to within this many centipawns of alpha.
    qs_delta_margin = 200 in 50..=400;
    /// Aspiration windows: the first window's half-width in centipawns.
    aspiration_delta = 20 in 8..=50;
}

/// Sets the parameter called `name` to `value`. Returns the accepted
/// value, or an error for an unknown name or a value outside its range.
/// Without the `tune` feature every parameter is fixed and this only
/// reports that.
pub fn set(name: &str, value: i32) -> Result<i32, String> {
    let (slot, param) = PARAMS
        .iter()
        .enumerate()
        .find(|(_, p)| p.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("no search parameter called {name}"))?;
    if !(param.min..=param.max).contains(&value) {
        return Err(format!(
            "{} must lie in {}..={}, not {value}",
            param.name, param.min, param.max
        ));
    }
    #[cfg(feature = "tune")]
    {
        VALUES[slot].store(value, Relaxed);
        Ok(value)
    }
    #[cfg(not(feature = "tune"))]
    {
        let _ = slot;
        Err("search parameters are fixed in this build (build with --features tune)".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(PARAMS[..i].iter().all(|q| q.name != p.name), "{p:?}");
        }
    }

    #[test]
    fn set_checks_names_and_ranges() {
        assert!(
            set("no_such_parameter", 1)
                .unwrap_err()
                .contains("no search parameter")
        );
        assert!(set("rfp_margin", 10_000).unwrap_err().contains("40..=160"));
    }

    #[cfg(feature = "tune")]
    #[test]
    fn a_tune_build_reads_what_was_set() {
        assert_eq!(set("lmr_divisor", 240), Ok(240));
        assert_eq!(lmr_divisor(), 240);
        assert_eq!(set("lmr_divisor", 225), Ok(225));
        assert_eq!(lmr_divisor(), 225);
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn an_ordinary_build_keeps_its_defaults() {
        assert!(set("rfp_margin", 80).unwrap_err().contains("fixed"));
        assert_eq!(rfp_margin(), 90);
    }
}
