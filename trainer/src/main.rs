//! `quince-train`: trains Quince's NNUE evaluation on `quince datagen`
//! games, on the CPU, and exports the quantised network the engine embeds.
//!
//! * `train`: replays the games, fits the network, writes a checkpoint and
//!   a `.qnn` after every epoch, and a `log.json` with the recipe.
//! * `stats`: what a data set holds.
//! * `eval`: a position's evaluation by a `.qnn`, computed independently of
//!   the engine (`quince eval` must print the same number).
//! * `export`: quantises a float checkpoint into a `.qnn`;
//!   `quant-error` measures what the quantisation changes.
//! * `wdl`: fits `UCI_ShowWDL`'s win/draw/loss model to the games' results.
//!
//! Exit codes: 0 success, 2 bad input (with `error: ...` on stderr).

mod data;
mod hidden_layer;
mod inputs;
mod instruction_set;
mod network;
mod quantised;
mod train;
mod wdl;

use clap::{Parser, Subcommand};
use network::Network;
use quince::Position;
use quince::eval::nnue::{MAX_BUCKETS, MAX_HIDDEN, MAX_L1};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "quince-train",
    version,
    about = "Train Quince's NNUE evaluation on self-play games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fit a 768 K -> HIDDEN x 2 -> 1 network (K king buckets) to `.qdg`
    /// games and export it.
    ///
    /// The per-sample loops run with the widest vectors the CPU has
    /// (AVX-512, AVX2, or the build's own target), chosen at start; each
    /// gives the same bits. `QUINCE_TRAIN_ISA=baseline|avx2|avx512` in the
    /// environment picks one, to compare them.
    Train(TrainArgs),
    /// Count the games, positions and results in `.qdg` files.
    Stats {
        /// `.qdg` files from `quince datagen`.
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<String>,
    },
    /// Print a position's evaluation (centipawns, side to move) by a `.qnn`.
    /// Fit UCI_ShowWDL's win/draw/loss model (quince::search::wdl) to the
    /// data sets' game results, and write its record.
    Wdl {
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<String>,
        /// Keep every N-th training position (the fit needs far fewer
        /// than a network).
        #[arg(long, default_value_t = 10)]
        every: usize,
        /// Where the record goes.
        #[arg(long, default_value = "reports/data/wdl-model.json")]
        out: PathBuf,
    },
    Eval {
        #[arg(long)]
        net: PathBuf,
        #[arg(long, default_value = quince::position::STARTPOS_FEN)]
        fen: String,
    },
    /// How far the quantised network strays from the float one: both
    /// evaluate the held-out positions of `--data` (every `--valid-every`-th
    /// game, as `train` holds them out), and the differences in
    /// centipawns are summarised.
    QuantError {
        /// The float checkpoint (`.qnf`).
        #[arg(long)]
        from: PathBuf,
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<String>,
        #[arg(long, default_value_t = 20)]
        valid_every: u32,
    },
    /// Quantise a float checkpoint (`.qnf`, as `train` writes after every
    /// epoch) into the `.qnn` the engine embeds: what `train` does at each
    /// epoch's end, for a checkpoint kept from an earlier run.
    Export {
        /// The float checkpoint.
        #[arg(long)]
        from: PathBuf,
        /// Where the `.qnn` goes (an existing file is replaced only with
        /// --force).
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        force: bool,
    },
}

#[derive(clap::Args)]
struct TrainArgs {
    /// `.qdg` files from `quince datagen`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<String>,
    /// Directory for checkpoints, `.qnn` exports and `log.json`.
    #[arg(long)]
    out_dir: PathBuf,
    /// Accumulator width per side (a multiple of 16; the engine takes up
    /// to 1024, `quince::eval::nnue::MAX_HIDDEN`).
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Output buckets by material: one output layer per band of the piece
    /// count (1 = a single output layer). The engine takes 1 to 16.
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Initial learning rate (Adam); decays along a half cosine.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Learning rate at the end, as a fraction of --lr.
    #[arg(long, default_value_t = 0.05)]
    final_lr: f32,
    /// Weight of the game result in the target (the rest is the score).
    #[arg(long, default_value_t = 0.2)]
    wdl: f32,
    /// Games whose index is a multiple of this are held out for validation.
    #[arg(long, default_value_t = 20)]
    valid_every: u32,
    /// Threads (0 = every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Add every training position's left-right mirror image (plain
    /// inputs only: a mirrored king-bucket layout has the symmetry built
    /// in).
    #[arg(long)]
    mirror: bool,
    /// Input layout: which block of 768 feature weights a side's pieces
    /// use, by where its own king stands. One of: none (768 inputs, no
    /// king buckets: v1-v10), mirror (one bucket, mirrored: the board
    /// flipped left to right when the king is on files e-h), m2, m4, m8
    /// (mirrored, 2, 4 or 8 king buckets; `inputs.rs` draws them).
    #[arg(long, default_value = "none")]
    king_buckets: String,
    /// Train king buckets with a factoriser: 768 shared feature weights
    /// that every bucket adds to its own, learnt from all positions (the
    /// exported network holds the sums). Needs two king buckets or more.
    #[arg(long)]
    factorise: bool,
    /// Units of a hidden layer between the accumulators and the output,
    /// fed the pairwise products of each accumulator's halves (0: none,
    /// as v1-v11 and v14-v16): `768 K -> H x 2 -> L1 -> 1`.
    #[arg(long, default_value_t = 0)]
    l1: usize,
    /// Start from this float checkpoint (`.qnf`) instead of random weights.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Go on with the run in --out-dir after its last finished epoch (from
    /// its `state.qrs` and `progress.json`, written after every epoch),
    /// given the same arguments, --threads included: the result is the
    /// one the run would have given without stopping, to the bit.
    #[arg(long)]
    resume: bool,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Train(args) => run_train(&args),
        Command::Stats { data } => run_stats(&data),
        Command::Eval { net, fen } => run_eval(&net, &fen),
        Command::Wdl { data, every, out } => wdl::run(&data, every.max(1), &out),
        Command::Export { from, out, force } => run_export(&from, &out, force),
        Command::QuantError {
            from,
            data,
            valid_every,
        } => run_quant_error(&from, &data, valid_every.max(1)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_stats(paths: &[String]) -> Result<(), String> {
    let set = data::load(paths, 0.0, 20, &inputs::InputLayout::NONE)?;
    let [white, draws, black] = set.results;
    println!("games          : {}", set.games);
    println!("scored plies   : {}", set.scored);
    println!(
        "training pos.  : {} (+{} validation)",
        set.train.len(),
        set.valid.len()
    );
    println!("results        : {white} white wins, {draws} draws, {black} black wins");
    Ok(())
}

fn run_eval(net: &PathBuf, fen: &str) -> Result<(), String> {
    let bytes = std::fs::read(net).map_err(|e| format!("{}: {e}", net.display()))?;
    let q = quantised::Quantised::parse(&bytes).map_err(|e| format!("{}: {e}", net.display()))?;
    let pos = Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?;
    println!(
        "{}",
        q.evaluate(&data::sample(&pos, 0.0, 0.5, 0.0, &q.inputs))
    );
    Ok(())
}

/// The float checkpoint at `path`, or an error naming it.
fn load_checkpoint(path: &std::path::Path) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Network::load_float(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn run_quant_error(
    from: &std::path::Path,
    paths: &[String],
    valid_every: u32,
) -> Result<(), String> {
    let net = load_checkpoint(from)?;
    let q = quantised::Quantised::parse(&net.export()).map_err(|e| format!("the export: {e}"))?;
    let set = data::load(paths, 0.0, valid_every, &net.inputs)?;
    let mut errors: Vec<f64> = set
        .valid
        .iter()
        .map(|s| f64::from(q.evaluate(s)) - f64::from(net.output(s)) * 400.0)
        .collect();
    if errors.is_empty() {
        return Err("no held-out positions in the data".into());
    }
    let n = errors.len() as f64;
    let mean = errors.iter().sum::<f64>() / n;
    let mean_abs = errors.iter().map(|e| e.abs()).sum::<f64>() / n;
    errors.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    let quantile = |f: f64| errors[((n - 1.0) * f) as usize].abs();
    println!("positions       : {}", errors.len());
    println!("mean (q - float): {mean:+.2} cp");
    println!("mean |q - float|: {mean_abs:.2} cp");
    println!(
        "|q - float| p50 {:.1}, p90 {:.1}, p99 {:.1}, max {:.1} cp",
        quantile(0.5),
        quantile(0.9),
        quantile(0.99),
        quantile(1.0)
    );
    Ok(())
}

fn run_export(from: &std::path::Path, out: &PathBuf, force: bool) -> Result<(), String> {
    let net = load_checkpoint(from)?;
    if out.exists() && !force {
        return Err(format!(
            "{} exists: give --force to replace it",
            out.display()
        ));
    }
    let exported = net.export();
    // What the engine would evaluate must parse: the same checks as `eval`.
    quantised::Quantised::parse(&exported).map_err(|e| format!("the export: {e}"))?;
    std::fs::write(out, &exported).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "{}: {} bytes (hidden size {}, {} buckets, L1 {})",
        out.display(),
        exported.len(),
        net.hidden,
        net.buckets,
        net.l1
    );
    Ok(())
}

fn run_train(args: &TrainArgs) -> Result<(), String> {
    if args.batch == 0 || args.epochs == 0 {
        return Err("--batch and --epochs must be positive".into());
    }
    // The engine's build refuses a network outside these bounds; refuse it
    // here, before the hours of training rather than after.
    if args.hidden == 0 || args.hidden > MAX_HIDDEN || !args.hidden.is_multiple_of(16) {
        return Err(format!(
            "--hidden {}: expected a multiple of 16 up to {MAX_HIDDEN} (the engine's limit)",
            args.hidden
        ));
    }
    if !(1..=MAX_BUCKETS).contains(&args.buckets) {
        return Err(format!(
            "--buckets {}: expected 1 to {MAX_BUCKETS}",
            args.buckets
        ));
    }
    if args.l1 > MAX_L1 {
        return Err(format!(
            "--l1 {}: expected 0 (none) to {MAX_L1} units",
            args.l1
        ));
    }
    let layout = inputs::InputLayout::named(&args.king_buckets)?;
    if args.mirror && layout.king_dependent() {
        return Err(format!(
            "--mirror adds flipped copies of plain-input samples; with --king-buckets {} the layout is mirrored already (leave --mirror out)",
            args.king_buckets
        ));
    }
    if args.factorise && layout.king_bucket_count() < 2 {
        return Err(format!(
            "--factorise shares weights between king buckets; --king-buckets {} has one",
            args.king_buckets
        ));
    }
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    std::fs::create_dir_all(&args.out_dir)
        .map_err(|e| format!("{}: {e}", args.out_dir.display()))?;
    let start = std::time::Instant::now();
    let mut set = data::load(&args.data, args.wdl, args.valid_every.max(1), &layout)?;
    eprintln!(
        "loaded {} games: {} training and {} validation positions in {:.1} s",
        set.games,
        set.train.len(),
        set.valid.len(),
        start.elapsed().as_secs_f64()
    );
    // Loading grew the vector by doubling; the slack (up to as much
    // again) would sit unused through the whole run.
    set.train.shrink_to_fit();
    let train_set = train::TrainingSet::new(&set.train, args.mirror).ok_or_else(|| {
        format!(
            "{} training positions{} are more than one run takes (at most {}): train on fewer sets",
            set.train.len(),
            if args.mirror {
                " and their mirror images"
            } else {
                ""
            },
            u32::MAX
        )
    })?;
    let mut net = match &args.init {
        Some(path) => load_checkpoint(path)?,
        None => Network::random(args.hidden, args.buckets, args.l1, layout, args.seed),
    };
    if args.factorise {
        net.factorise();
    }
    if net.hidden != args.hidden
        || net.buckets != args.buckets
        || net.inputs != layout
        || net.l1 != args.l1
    {
        return Err(format!(
            "--init has hidden size {}, {} buckets, king buckets {} and L1 {}, not {}, {}, {} and {}",
            net.hidden,
            net.buckets,
            net.inputs.name().unwrap_or("(a table of its own)"),
            net.l1,
            args.hidden,
            args.buckets,
            args.king_buckets,
            args.l1
        ));
    }
    let settings = train::Settings {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        final_lr_fraction: args.final_lr,
        threads,
        seed: args.seed,
    };
    // What must not change between a run and its resumption.
    let recipe = serde_json::json!({
        "data": args.data,
        "games": set.games,
        "train_positions": train_set.len(),
        "valid_positions": set.valid.len(),
        "hidden": args.hidden,
        "buckets": args.buckets,
        "epochs": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "final_lr": args.final_lr,
        "wdl": args.wdl,
        "valid_every": args.valid_every,
        "seed": args.seed,
        "mirror": args.mirror,
        "king_buckets": args.king_buckets,
        "factorise": args.factorise,
        "l1": args.l1,
        "threads": threads,
        "init": args.init,
    });
    let (resume, mut epochs, earlier_seconds) = if args.resume {
        let (progress, epochs, seconds) = read_progress(&args.out_dir, &recipe, net.params.len())?;
        eprintln!(
            "resuming after epoch {} of {}",
            progress.epochs_done, args.epochs
        );
        (Some(progress), epochs, seconds)
    } else {
        (None, Vec::new(), 0.0)
    };
    let isa = instruction_set::chosen();
    if let Ok(asked) = std::env::var("QUINCE_TRAIN_ISA")
        && asked != isa.name()
    {
        eprintln!(
            "warning: QUINCE_TRAIN_ISA={asked}: not baseline, avx2 or avx512, or not one this CPU runs; using {}",
            isa.name()
        );
    }
    eprintln!(
        "instruction set: {} (QUINCE_TRAIN_ISA=baseline, avx2 or avx512 chooses another; each gives the same bits)",
        isa.name()
    );
    let mut failure = None;
    let out_dir = args.out_dir.clone();
    train::train(
        &mut net,
        &train_set,
        &set.valid,
        &settings,
        resume,
        |net, report, progress| {
            eprintln!(
                "epoch {:>3}/{}: train loss {:.6}, validation loss {:.6}, {:.0} samples/s, {:.1} s",
                report.epoch,
                settings.epochs,
                report.train_loss,
                report.valid_loss,
                report.samples_per_second,
                report.seconds
            );
            epochs.push(serde_json::json!({
                "epoch": report.epoch,
                "train_loss": report.train_loss,
                "valid_loss": report.valid_loss,
                "seconds": report.seconds,
                "instruction_set": isa.name(),
            }));
            let state = serde_json::json!({
                "recipe": recipe,
                "per_epoch": epochs,
                "seconds": earlier_seconds + start.elapsed().as_secs_f64(),
            });
            let files = [
                ("last.qnf", net.save_float()),
                ("last.qnn", net.export()),
                ("state.qrs", progress.to_bytes()),
                (
                    "progress.json",
                    serde_json::to_vec_pretty(&state).expect("JSON"),
                ),
            ];
            for (name, bytes) in files {
                if let Err(e) = std::fs::write(out_dir.join(name), bytes) {
                    failure.get_or_insert(format!("{}: {e}", out_dir.join(name).display()));
                }
            }
        },
    );
    if let Some(message) = failure {
        return Err(message);
    }
    let mut log = recipe;
    log["per_epoch"] = serde_json::json!(epochs);
    log["seconds"] = serde_json::json!(earlier_seconds + start.elapsed().as_secs_f64());
    let path = args.out_dir.join("log.json");
    std::fs::write(&path, serde_json::to_string_pretty(&log).expect("JSON"))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!(
        "done in {:.1} s: {} (quantised), {} (float), {}",
        start.elapsed().as_secs_f64(),
        args.out_dir.join("last.qnn").display(),
        args.out_dir.join("last.qnf").display(),
        path.display()
    );
    Ok(())
}

/// A stopped run's state in `dir`: its [`train::Progress`], the epochs
/// it logged and the seconds it ran, if its recipe is `recipe`.
fn read_progress(
    dir: &std::path::Path,
    recipe: &serde_json::Value,
    params: usize,
) -> Result<(train::Progress, Vec<serde_json::Value>, f64), String> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(|e| format!("--resume: {}: {e}", path.display()))
    };
    let state: serde_json::Value = serde_json::from_slice(&read("progress.json")?)
        .map_err(|e| format!("--resume: progress.json: {e}"))?;
    if let Some(fields) = recipe.as_object() {
        for (key, value) in fields {
            if state["recipe"][key] != *value {
                return Err(format!(
                    "--resume: the run in {} had {key} = {}, not {value}",
                    dir.display(),
                    state["recipe"][key]
                ));
            }
        }
    }
    let progress = train::Progress::from_bytes(&read("state.qrs")?, params)
        .map_err(|e| format!("--resume: state.qrs: {e}"))?;
    let epochs = state["per_epoch"].as_array().cloned().unwrap_or_default();
    if epochs.len() != progress.epochs_done {
        return Err(format!(
            "--resume: progress.json logs {} epochs, state.qrs {}",
            epochs.len(),
            progress.epochs_done
        ));
    }
    Ok((progress, epochs, state["seconds"].as_f64().unwrap_or(0.0)))
}

#[cfg(test)]
mod tests;
