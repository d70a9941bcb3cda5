//! The selective parts of the main search, each a decision of its own:
//! singular extensions, late-move and futility pruning, null-move pruning,
//! and the late-move reduction table.

use super::*;

impl Searcher<'_> {
    /// Singular extension: whether the hash move, which scored at least
    /// `entry.score` in an earlier search, is much better than every other
    /// move. A reduced search of the node without it, against a bound a
    /// little below that score, says so if it fails low: then the hash
    /// move is the only good one and is searched a ply deeper. If even
    /// without it the node reaches `beta`, several moves do (multi-cut): the node is cut at once.
    pub(super) fn singular(
        &mut self,
        entry: tt::Entry,
        depth: i32,
        ply: usize,
        beta: Score,
    ) -> Singular {
        let trusted = matches!(entry.bound, Bound::Lower | Bound::Exact);
        if depth < params::singular_depth()
            || !trusted
            || entry.depth < depth - 3
            || is_mate(entry.score)
        {
            return Singular::No;
        }
        let singular_beta = entry.score - params::singular_margin() * depth;
        self.excluded[ply] = entry.mv;
        let score = self.negamax(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            false,
        );
        self.excluded[ply] = Move::NULL;
        if self.stopped {
            Singular::No
        } else if score < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else {
            Singular::No
        }
    }

    /// Whether a quiet move near the leaves is not worth searching: too many
    /// quiet moves tried already (late-move pruning), or the static
    /// evaluation too far below alpha for a quiet move to help (futility).
    #[inline]
    pub(super) fn futile(
        &self,
        depth: i32,
        quiets: usize,
        eval: Score,
        alpha: Score,
        improving: bool,
    ) -> bool {
        let late = depth <= params::lmp_depth()
            && quiets as i32 >= params::lmp_base() + depth * depth * (1 + i32::from(improving));
        late || (depth <= params::futility_depth()
            && eval + params::futility_base() + params::futility_margin() * depth <= alpha)
    }

    /// Null-move pruning: if passing still leaves us at or above beta after
    /// a reduced search, a real move will too. Not in pawn-only endings,
    /// where zugzwang makes passing a fantasy. Returns the cut-off score.
    pub(super) fn null_move(
        &mut self,
        beta: Score,
        depth: i32,
        ply: usize,
        eval: Score,
        allow: bool,
    ) -> Option<Score> {
        let side = self.pos.side_to_move();
        if !allow || depth < 3 || eval < beta || non_pawn_material(&self.pos, side) == 0 {
            return None;
        }
        let reduction = params::nmp_base()
            + depth / params::nmp_depth_divisor()
            + ((eval - beta) / params::nmp_eval_divisor()).min(2);
        self.ordering.record(&self.pos, Move::NULL, ply);
        let ep = self.pos.make_null();
        self.keys.push(self.pos.key());
        self.null.push(true);
        #[cfg(not(feature = "hce"))]
        self.nnue.push_null();
        let score = -self.negamax(-beta, -beta + 1, depth - 1 - reduction, ply + 1, false);
        self.keys.pop();
        self.null.pop();
        #[cfg(not(feature = "hce"))]
        self.nnue.pop();
        self.pos.unmake_null(ep);
        if self.stopped || score < beta {
            return None;
        }
        // An unproven mate from a null move is not trusted.
        Some(if score >= MATE_BOUND { beta } else { score })
    }
}

/// What a singular-extension search found out about the hash move.
pub(super) enum Singular {
    /// Search it a ply deeper.
    Extend,
    /// Other moves also reach beta: the node fails high with this score.
    MultiCut(Score),
    No,
}

/// Late-move reduction in plies for `depth` and move number: grows with
/// the logarithm of both (the usual shape since Stockfish and Ethereal).
/// Built when a search starts, so a tuner's new coefficients apply to the
/// next `go`.
pub(super) fn reduction_table() -> Box<[[u8; 64]; 64]> {
    let base = f64::from(params::lmr_base()) / 100.0;
    let divisor = f64::from(params::lmr_divisor()) / 100.0;
    let mut table = Box::new([[0u8; 64]; 64]);
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (count, cell) in row.iter_mut().enumerate().skip(1) {
            let r = base + (depth as f64).ln() * (count as f64).ln() / divisor;
            *cell = r.clamp(0.0, 60.0) as u8;
        }
    }
    table
}
