//! Generates Quince's lookup tables as Rust source in `OUT_DIR/tables.rs`
//! (see `codegen/`). Magic numbers are verified here, never searched for.

use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo::rerun-if-changed=codegen/src");
    let options = codegen::Options {
        magic: env::var_os("CARGO_FEATURE_MAGIC").is_some(),
        pext: env::var_os("CARGO_FEATURE_PEXT").is_some(),
    };
    if options.magic
        && let Err(message) = codegen::magics::verify()
    {
        panic!("{message}");
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("tables.rs");
    fs::write(&out, codegen::emit(options)).expect("OUT_DIR is writable");
}
