//! Flamegraphs for criterion benches: criterion's `Profiler` trait on top of
//! pprof's sampling profiler. pprof's own `criterion` feature implements an
//! older criterion's trait, so the lab carries this small adapter instead.
//!
//! `cargo bench --bench <name> -- --profile-time 5` runs each benchmark for
//! 5 s under the profiler and writes
//! `target/criterion/<group>/<id>/profile/flamegraph.svg`.

use std::fs::File;
use std::path::Path;
use std::time::Duration;

use criterion::Criterion;
use criterion::profiler::Profiler;
use pprof::{ProfilerGuard, ProfilerGuardBuilder};

/// Samples the benchmark thread with pprof while criterion profiles.
pub struct Flamegraph {
    frequency: i32,
    guard: Option<ProfilerGuard<'static>>,
}

impl Flamegraph {
    /// A profiler sampling at `frequency` Hz (pprof delivers fewer on
    /// loaded machines, about 230/s here).
    pub fn new(frequency: i32) -> Flamegraph {
        Flamegraph {
            frequency,
            guard: None,
        }
    }
}

impl Profiler for Flamegraph {
    fn start_profiling(&mut self, _benchmark_id: &str, _benchmark_dir: &Path) {
        let guard = ProfilerGuardBuilder::default()
            .frequency(self.frequency)
            .blocklist(&["libc", "libgcc", "pthread", "vdso"])
            .build()
            .expect("start the pprof profiler");
        self.guard = Some(guard);
    }

    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path) {
        let Some(guard) = self.guard.take() else {
            return;
        };
        let report = match guard.report().build() {
            Ok(report) => report,
            Err(e) => {
                eprintln!("flamegraph for {benchmark_id}: no report: {e}");
                return;
            }
        };
        if let Err(e) = std::fs::create_dir_all(benchmark_dir) {
            eprintln!("flamegraph for {benchmark_id}: {e}");
            return;
        }
        let path = benchmark_dir.join("flamegraph.svg");
        match File::create(&path).map(|file| report.flamegraph(file)) {
            Ok(Ok(())) => eprintln!("flamegraph: {}", path.display()),
            Ok(Err(e)) => eprintln!("flamegraph for {benchmark_id}: {e}"),
            Err(e) => eprintln!("flamegraph for {benchmark_id}: {}: {e}", path.display()),
        }
    }
}

/// The lab's criterion settings: short runs (the machines are shared and
/// noisy, so the reports quote ratios from one run, not absolute times),
/// the flamegraph profiler, and no plots (the xtask draws its own).
/// Command-line flags (`--sample-size`, `--measurement-time`, ...) still win.
pub fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .without_plots()
        .with_profiler(Flamegraph::new(997))
}
