//! The Syzygy options, as today's engines name them:
//!
//! * `SyzygyPath` (string, default `<empty>`): table directories,
//!   separated by `:` (`;` on Windows). Setting it reads the directories
//!   at once and reports `info string Syzygy: N files, up to K pieces`; a
//!   directory that cannot be read or a file that is not a table is
//!   reported with `info string error: ...` and leaves no tables loaded
//!   (an empty value or `<empty>` unloads them).
//! * `SyzygyProbeDepth` (1..100, default 1): probe below the root only at
//!   this remaining depth or more (positions with fewer pieces than the
//!   largest tables are probed at any depth). Raise it when the tables sit
//!   on a slow disk.
//! * `SyzygyProbeLimit` (0..7, default 7): probe only positions with at
//!   most this many pieces; 0 turns probing off.
//! * `Syzygy50MoveRule` (default true): a win the fifty-move rule spoils
//!   is a draw. Off, it counts as a win (for correspondence chess, where
//!   the rule is sometimes waived).
//!
//! With tables loaded, `info` lines carry `tbhits`, and a root position
//! in the tables plays a move that keeps its result, converting wins
//! (`search::tablebase`).

use super::Output;
use crate::search::tablebase::TablebaseUse;
use crate::syzygy::Tablebase;
use std::sync::Arc;

const DEFAULT_PROBE_DEPTH: i32 = 1;
const MAX_PROBE_DEPTH: i32 = 100;

/// The Syzygy options and the loaded tables.
pub(super) struct SyzygyOptions {
    tables: Option<Arc<Tablebase>>,
    probe_depth: i32,
    probe_limit: usize,
    fifty_move_rule: bool,
}

impl Default for SyzygyOptions {
    fn default() -> SyzygyOptions {
        SyzygyOptions {
            tables: None,
            probe_depth: DEFAULT_PROBE_DEPTH,
            probe_limit: crate::syzygy::MAX_PIECES,
            fifty_move_rule: true,
        }
    }
}

impl SyzygyOptions {
    /// The `option` lines for `uci`.
    pub fn announce(&self, out: &Output) {
        out.line("option name SyzygyPath type string default <empty>");
        out.line(&format!(
            "option name SyzygyProbeDepth type spin default {DEFAULT_PROBE_DEPTH} min 1 max {MAX_PROBE_DEPTH}"
        ));
        out.line(&format!(
            "option name SyzygyProbeLimit type spin default {0} min 0 max {0}",
            crate::syzygy::MAX_PIECES
        ));
        out.line("option name Syzygy50MoveRule type check default true");
    }

    /// Handles `setoption` for one of the Syzygy options; `false` if
    /// `name` (lower case) is not one.
    pub fn set_option(&mut self, name: &str, value: &str, out: &Output) -> bool {
        let error = |text: String| out.line(&format!("info string error: {text}"));
        match name {
            "syzygypath" => {
                self.tables = None;
                if value.is_empty() || value == "<empty>" {
                    return true;
                }
                match Tablebase::open(value) {
                    Ok(tables) if tables.files() == 0 => {
                        error(format!(
                            "SyzygyPath '{value}' holds no Syzygy tables (*.rtbw, *.rtbz)"
                        ));
                    }
                    Ok(tables) => {
                        out.line(&format!(
                            "info string Syzygy: {} files, up to {} pieces",
                            tables.files(),
                            tables.max_pieces()
                        ));
                        self.tables = Some(Arc::new(tables));
                    }
                    Err(e) => error(format!("SyzygyPath: {e}; no tables loaded")),
                }
            }
            "syzygyprobedepth" => match value.parse::<i64>() {
                Ok(depth) => self.probe_depth = depth.clamp(1, MAX_PROBE_DEPTH as i64) as i32,
                Err(_) => error(format!(
                    "SyzygyProbeDepth must be 1 to {MAX_PROBE_DEPTH}, got '{value}'"
                )),
            },
            "syzygyprobelimit" => match value.parse::<i64>() {
                Ok(limit) => {
                    self.probe_limit = limit.clamp(0, crate::syzygy::MAX_PIECES as i64) as usize
                }
                Err(_) => error(format!(
                    "SyzygyProbeLimit must be 0 to {}, got '{value}'",
                    crate::syzygy::MAX_PIECES
                )),
            },
            "syzygy50moverule" => match super::engine::check(value) {
                Some(on) => self.fifty_move_rule = on,
                None => error(format!(
                    "Syzygy50MoveRule must be true or false, got '{value}'"
                )),
            },
            _ => return false,
        }
        true
    }

    /// What a search gets: the tables and how to probe them, if any are
    /// loaded and probing is on.
    pub fn for_search(&self) -> Option<TablebaseUse> {
        let tables = self.tables.as_ref()?;
        if self.probe_limit == 0 {
            return None;
        }
        let mut use_ = TablebaseUse::new(Arc::clone(tables));
        use_.probe_depth = self.probe_depth;
        use_.probe_limit = self.probe_limit;
        use_.fifty_move_rule = self.fifty_move_rule;
        Some(use_)
    }
}
