//! `quince pack` and `quince unpack`: self-play data between the working
//! `.qdg` file (what `datagen` writes and the trainer reads) and the packed
//! `.qdp` file that is committed, xz-compressed (see
//! `quince::datagen::packed` for why and how).
//!
//! Both directions check themselves: `pack` unpacks what it made and
//! compares it with its input byte for byte before writing anything, so a
//! committed `.qdp` always gives back the `.qdg` whose checksum
//! `data/SHA256SUMS` lists.

use crate::UserError;
use clap::Args;
use quince::datagen::format::read_games;
use quince::datagen::packed::{pack, to_qdg, unpack};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct PackArgs {
    /// The `.qdg` file to pack (every record whole: resume an interrupted
    /// `datagen` first).
    #[arg(value_name = "FILE.qdg")]
    pub input: PathBuf,
    /// Where to write (default: the input with the extension `.qdp`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace an existing output file whose content differs.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args)]
pub struct UnpackArgs {
    /// The `.qdp` file to unpack (decompress a committed `.qdp.xz` with
    /// `xz -dk` first).
    #[arg(value_name = "FILE.qdp")]
    pub input: PathBuf,
    /// Where to write (default: the input with the extension `.qdg`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace an existing output file whose content differs.
    #[arg(long)]
    pub force: bool,
}

pub fn run_pack(args: &PackArgs) -> Result<ExitCode, UserError> {
    let bytes = read(&args.input)?;
    let name = args.input.display();
    let (games, whole) = read_games(&bytes).map_err(|e| format!("{name}: {e}"))?;
    if whole != bytes.len() {
        return Err(UserError(format!(
            "{name}: the last {} bytes are a cut record (an interrupted datagen); \
             resume it with the same arguments, then pack",
            bytes.len() - whole
        )));
    }
    let packed = pack(&games).map_err(|e| format!("{name}: {e}"))?;
    let back = unpack(&packed).map_err(|e| format!("{name}: packed copy unreadable: {e}"))?;
    if to_qdg(&back) != bytes {
        return Err(UserError(format!(
            "{name}: the packed copy does not give back the same bytes; nothing written"
        )));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.input.with_extension("qdp"));
    write(&out, &packed, args.force)?;
    println!(
        "pack: {} games, {} -> {} bytes, {}",
        games.len(),
        bytes.len(),
        packed.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

pub fn run_unpack(args: &UnpackArgs) -> Result<ExitCode, UserError> {
    let bytes = read(&args.input)?;
    let name = args.input.display();
    let games = unpack(&bytes).map_err(|e| format!("{name}: {e}"))?;
    let qdg = to_qdg(&games);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.input.with_extension("qdg"));
    write(&out, &qdg, args.force)?;
    println!(
        "unpack: {} games, {} -> {} bytes, {}",
        games.len(),
        bytes.len(),
        qdg.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn read(path: &Path) -> Result<Vec<u8>, UserError> {
    std::fs::read(path).map_err(|e| UserError(format!("{}: {e}", path.display())))
}

/// Writes `bytes` to `path` through a temporary file, so an interrupted
/// run never leaves a half-written output. An existing file with the same
/// content is left as it is; one with other content needs `force`.
fn write(path: &Path, bytes: &[u8], force: bool) -> Result<(), UserError> {
    match std::fs::read(path) {
        Ok(existing) if existing == bytes => return Ok(()),
        Ok(_) if !force => {
            return Err(UserError(format!(
                "{} exists with other content (--force replaces it)",
                path.display()
            )));
        }
        _ => {}
    }
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    std::fs::write(&part, bytes).map_err(|e| format!("{}: {e}", part.display()))?;
    std::fs::rename(&part, path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}
