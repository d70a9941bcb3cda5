//! Generates Quince's lookup tables as Rust source in `OUT_DIR/tables.rs`
//! (see `codegen/`), and picks the sliding-attack backend.
//!
//! Magic numbers are verified here, never searched for.
//!
//! **Backend selection** (the one place it is decided): every backend is a
//! Cargo feature named like the backend. `hq` is the default and yields to
//! any other backend feature, so `--features pext` works with or without
//! `--no-default-features`. Two non-default backend features at once is an
//! error (`compile_error!` naming both), and so is a backend whose target
//! features (`BACKENDS`) the target lacks. The feature `all-sliders`
//! compiles every backend the target can run (those needing BMI2, AVX2,
//! AVX-512 or GFNI only where it has them; `LEFT_OUT` names the others) so
//! the lab, the tests and the benches run them all from one build, without
//! changing which one move generation uses.
//!
//! The script tells the crate what it decided through two `cfg`s:
//! `quince_slider = "<name>"` (the active backend) and one
//! `quince_compiled = "<name>"` per backend whose module is compiled.

use std::{env, fs, path::PathBuf};

/// Every backend feature with the target features its module needs (one
/// list, shared with the lab's `xtask`: `codegen/src/techniques.rs`).
use codegen::techniques::BACKENDS;

fn feature(name: &str) -> bool {
    let var = format!("CARGO_FEATURE_{}", name.to_uppercase().replace('-', "_"));
    env::var_os(var).is_some()
}

fn main() {
    println!("cargo::rerun-if-changed=codegen/src");
    println!("cargo::rerun-if-changed=codegen/data");
    println!("cargo::rerun-if-changed=build.rs");
    let values = BACKENDS
        .iter()
        .map(|(b, _)| format!("\"{b}\""))
        .collect::<Vec<_>>()
        .join(", ");
    println!("cargo::rustc-check-cfg=cfg(quince_slider, values({values}))");
    println!("cargo::rustc-check-cfg=cfg(quince_compiled, values({values}))");

    // Which backend move generation uses.
    let chosen: Vec<&str> = BACKENDS[1..]
        .iter()
        .map(|(b, _)| *b)
        .filter(|b| feature(b))
        .collect();
    let active = chosen.first().copied().unwrap_or("hq");
    let conflict = (chosen.len() > 1).then(|| {
        format!(
            "features `{}` and `{}` both select a sliding-attack backend: enable exactly one \
             (`hq` is the default and yields to any other), e.g. \
             `cargo build --release --features {}`",
            chosen[0], chosen[1], chosen[0]
        )
    });
    println!("cargo::rustc-cfg=quince_slider=\"{active}\"");

    // Which backends are compiled: the active one, `hq` (the reference and
    // the default), and with `all-sliders` every one this target can run.
    let target_features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let target_has = |f: &str| target_features.split(',').any(|t| t == f);
    let runnable = |needs: &[&str]| needs.iter().all(|f| target_has(f));
    let all = feature("all-sliders");
    let compiled: Vec<&str> = BACKENDS
        .iter()
        .filter(|&&(b, needs)| b == active || b == "hq" || (all && runnable(needs)))
        .map(|(b, _)| *b)
        .collect();
    for b in &compiled {
        println!("cargo::rustc-cfg=quince_compiled=\"{b}\"");
    }
    // The chosen backend on a target without what it needs: a clear error,
    // never a wrong count.
    let (_, needs) = BACKENDS
        .iter()
        .find(|(b, _)| *b == active)
        .expect("the active backend is listed");
    let missing: Vec<&str> = needs.iter().copied().filter(|f| !target_has(f)).collect();
    let conflict = conflict.or_else(|| {
        (!missing.is_empty()).then(|| {
            format!(
                "feature `{active}` needs a target with {}: build with \
                 RUSTFLAGS='-C target-cpu=native' on a CPU that has it (and RUSTDOCFLAGS \
                 the same for doctests)",
                missing.join(", ")
            )
        })
    });

    let has = |b: &str| compiled.contains(&b);
    let options = codegen::Options {
        magic: has("magic"),
        // The emulated backend reads the same tables as `pext`.
        pext: has("pext") || has("pext-emulated"),
        pext_pdep: has("pext-pdep"),
        split_pext: has("split-pext"),
        sissy: has("sissy"),
        kindergarten_super_sissy: has("kindergarten-super-sissy"),
        plain_magic: has("plain-magic"),
        black_magic: has("black-magic"),
        hypercube: has("hypercube"),
        folding_hash: has("folding-hash"),
        spectral_magic: has("spectral-magic"),
    };
    if (options.magic || options.plain_magic)
        && let Err(message) = codegen::magics::verify()
    {
        panic!("{message}");
    }
    if options.black_magic
        && let Err(message) = codegen::black_magics::verify()
    {
        panic!("{message}");
    }
    if options.spectral_magic
        && let Err(message) = codegen::spectral_magics::verify()
    {
        panic!("{message}");
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("tables.rs"), codegen::emit(options)).expect("OUT_DIR is writable");
    // The selection's verdict, `include!`d by `sliders/mod.rs`: empty, or a
    // `compile_error!` that names the conflicting features.
    let mut verdict = match conflict {
        Some(message) => format!("compile_error!({message:?});\n"),
        None => String::new(),
    };
    // What `all-sliders` leaves out on this target, and why.
    let left_out: Vec<String> = BACKENDS
        .iter()
        .filter(|(_, needs)| !runnable(needs))
        .map(|(b, needs)| {
            let missing: Vec<&str> = needs.iter().copied().filter(|f| !target_has(f)).collect();
            format!("({b:?}, {:?})", missing.join(", "))
        })
        .collect();
    verdict.push_str(&format!(
        "/// Techniques this target cannot run, with the target features they\n\
         /// miss: `all-sliders` leaves them out (build with\n\
         /// `RUSTFLAGS='-C target-cpu=native'` on a CPU that has them).\n\
         pub const LEFT_OUT: &[(&str, &str)] = &[{}];\n",
        left_out.join(", ")
    ));
    fs::write(out.join("slider_selection.rs"), verdict).expect("OUT_DIR is writable");

    // The NNUE network: the committed `.qnn` file as a `static`, or the
    // candidate QUINCE_NETWORK names (a path from the repository root), so
    // that a freshly trained network can be built and tested beside the
    // committed one without replacing it.
    println!("cargo::rerun-if-env-changed=QUINCE_NETWORK");
    let network = std::env::var("QUINCE_NETWORK").unwrap_or_else(|_| NETWORK.to_string());
    println!("cargo::rerun-if-changed={network}");
    let bytes = fs::read(&network)
        .unwrap_or_else(|e| panic!("cannot read the NNUE network {network}: {e}"));
    let net = codegen::network::parse(&bytes).unwrap_or_else(|e| panic!("{network}: {e}"));
    fs::write(out.join("network.rs"), codegen::network::emit(&net)).expect("OUT_DIR is writable");
}

/// The network the engine embeds (see `nets/README.md` for how it was made).
const NETWORK: &str = "nets/quince.qnn";
