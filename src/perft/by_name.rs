//! Strategy and make style chosen by name at run time (`--legality`,
//! `--make`): one `match` on the names, then a monomorphised call, so the
//! hot loop never branches on the choice. Its items are also reachable
//! as `perft::strategy::{Job, dispatch, perft_by_name, divide_by_name}`.

use super::strategy::{CopyMake, KingCapture, Legal, MakeStyle, Pseudo, Strategy, Unmake};
use crate::position::Position;
use crate::types::Move;

/// Something to run with a strategy and make style chosen at run time.
pub trait Job {
    /// What the job returns.
    type Output;
    /// Does the job with strategy `S` and make style `M`.
    fn run<S: Strategy, M: MakeStyle>(self) -> Self::Output;
}

/// Runs `job` monomorphised for the named strategy and make style; `None`
/// for an unknown name.
pub fn dispatch<J: Job>(strategy: &str, make: &str, job: J) -> Option<J::Output> {
    fn with_make<S: Strategy, J: Job>(make: &str, job: J) -> Option<J::Output> {
        match make {
            "unmake" => Some(job.run::<S, Unmake>()),
            "copy" => Some(job.run::<S, CopyMake>()),
            _ => None,
        }
    }
    match strategy {
        "legal" => with_make::<Legal, J>(make, job),
        "pseudo" => with_make::<Pseudo, J>(make, job),
        "king-capture" => with_make::<KingCapture, J>(make, job),
        _ => None,
    }
}

struct Count<'a> {
    pos: &'a mut Position,
    depth: u32,
    bulk: bool,
}

impl Job for Count<'_> {
    type Output = u64;
    fn run<S: Strategy, M: MakeStyle>(self) -> u64 {
        if self.bulk {
            S::perft::<M>(self.pos, self.depth)
        } else {
            S::perft_full::<M>(self.pos, self.depth)
        }
    }
}

/// Perft with a strategy and make style chosen by name (dispatched once,
/// monomorphised below); `None` for an unknown name.
pub fn perft_by_name(
    pos: &mut Position,
    depth: u32,
    bulk: bool,
    strategy: &str,
    make: &str,
) -> Option<u64> {
    dispatch(strategy, make, Count { pos, depth, bulk })
}

struct DivideByName<'a> {
    pos: &'a mut Position,
    depth: u32,
    bulk: bool,
    progress: &'a mut dyn FnMut(usize, usize, u64),
}

impl Job for DivideByName<'_> {
    type Output = Vec<(Move, u64)>;
    fn run<S: Strategy, M: MakeStyle>(self) -> Self::Output {
        let DivideByName {
            pos,
            depth,
            bulk,
            progress,
        } = self;
        if depth == 0 {
            return Vec::new();
        }
        let moves = S::legal_moves::<M>(pos);
        let mut out = Vec::with_capacity(moves.len());
        let mut total = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let below = depth - 1;
            let nodes = M::with_child(pos, mv, |child| {
                if bulk {
                    S::perft::<M>(child, below)
                } else {
                    S::perft_full::<M>(child, below)
                }
            });
            total += nodes;
            out.push((mv, nodes));
            progress(i + 1, moves.len(), total);
        }
        out
    }
}

/// Divide under a strategy and make style chosen by name: the count below
/// each root move (found the strategy's way). `progress(done, total, nodes)`
/// is called after each root move. `None` for an unknown name.
pub fn divide_by_name(
    pos: &mut Position,
    depth: u32,
    bulk: bool,
    strategy: &str,
    make: &str,
    progress: &mut dyn FnMut(usize, usize, u64),
) -> Option<Vec<(Move, u64)>> {
    let job = DivideByName {
        pos,
        depth,
        bulk,
        progress,
    };
    dispatch(strategy, make, job)
}
