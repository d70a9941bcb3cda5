//! Splitting a perft tree into independent subtrees ("units"): expand the
//! tree a few plies, merge the positions reached by transposition, and
//! remember how many paths (the *multiplicity*) lead to each.
//!
//! The same expansion feeds the threads (`threads.rs`, in memory) and the
//! work units of `quince perft split` (as JSON lines, for other processes
//! and machines). A node also records which *tags* its paths came from —
//! the root move for `--divide` — so a merged subtree's count can still be
//! credited to every root move that reaches it.

use crate::movegen::MoveList;
use crate::position::Position;
use crate::types::{Color, Piece};
use std::collections::HashMap;

/// A position in the expanded tree and the paths that reach it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The position reached.
    pub position: Position,
    /// `(tag, number of paths)`, sorted by tag, tags unique.
    pub paths: Vec<(u32, u64)>,
}

impl Node {
    /// A node reached by one path from tag `tag`.
    pub fn new(position: Position, tag: u32) -> Node {
        Node {
            position,
            paths: vec![(tag, 1)],
        }
    }

    /// The number of paths that reach this node, over all tags.
    pub fn multiplicity(&self) -> u64 {
        self.paths.iter().map(|&(_, n)| n).sum()
    }

    fn absorb(&mut self, other: &[(u32, u64)]) {
        for &(tag, n) in other {
            match self.paths.binary_search_by_key(&tag, |&(t, _)| t) {
                Ok(i) => self.paths[i].1 += n,
                Err(i) => self.paths.insert(i, (tag, n)),
            }
        }
    }
}

/// Whether two positions are the same for perft: what FEN's first four
/// fields say (board, side, castling, capturable e.p. square). Clocks are
/// ignored since they never change a perft count.
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.key() == b.key()
        && a.side_to_move() == b.side_to_move()
        && a.castling() == b.castling()
        && a.en_passant() == b.en_passant()
        && a.color(Color::White) == b.color(Color::White)
        && Piece::ALL.iter().all(|&p| a.pieces(p) == b.pieces(p))
}

/// Merges nodes holding the same position (Zobrist key, then a full
/// comparison, so a key collision can never merge two different positions).
/// The first occurrence's position (and so its clocks) is kept; order is
/// that of first occurrence, so the result is deterministic.
pub fn merge_transpositions(nodes: Vec<Node>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    let mut by_key: HashMap<u64, Vec<usize>> = HashMap::with_capacity(nodes.len());
    for node in nodes {
        let slots = by_key.entry(node.position.key()).or_default();
        match slots
            .iter()
            .find(|&&i| same_position(&out[i].position, &node.position))
        {
            Some(&i) => out[i].absorb(&node.paths),
            None => {
                slots.push(out.len());
                out.push(node);
            }
        }
    }
    out
}

/// Expands every node by one ply with `moves` (the legal moves, found as
/// the caller's strategy finds them) and merges transpositions. Nodes
/// without legal moves (mate, stalemate) disappear: their subtrees have no
/// leaves below this ply.
pub fn expand_ply(nodes: &[Node], moves: &mut dyn FnMut(&mut Position) -> MoveList) -> Vec<Node> {
    let mut children = Vec::new();
    for node in nodes {
        let mut pos = node.position.clone();
        for &mv in moves(&mut pos).iter() {
            children.push(Node {
                position: pos.play_unchecked(mv),
                paths: node.paths.clone(),
            });
        }
    }
    merge_transpositions(children)
}

/// Expands `nodes` by `plies` plies.
pub fn expand(
    mut nodes: Vec<Node>,
    plies: u32,
    moves: &mut dyn FnMut(&mut Position) -> MoveList,
) -> Vec<Node> {
    for _ in 0..plies {
        nodes = expand_ply(&nodes, moves);
    }
    nodes
}

/// Expands `nodes` ply by ply until there are at least `target` nodes or
/// `max_plies` plies were expanded; returns the nodes and the plies used.
pub fn expand_until(
    mut nodes: Vec<Node>,
    target: usize,
    max_plies: u32,
    moves: &mut dyn FnMut(&mut Position) -> MoveList,
) -> (Vec<Node>, u32) {
    let mut plies = 0;
    while nodes.len() < target && plies < max_plies && !nodes.is_empty() {
        nodes = expand_ply(&nodes, moves);
        plies += 1;
    }
    (nodes, plies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    fn legal(pos: &mut Position) -> MoveList {
        legal_moves(pos)
    }

    #[test]
    fn start_position_ply_two_has_400_paths_and_no_transpositions() {
        let nodes = expand(vec![Node::new(Position::startpos(), 0)], 2, &mut legal);
        assert_eq!(nodes.len(), 400);
        let nodes = expand(nodes, 2, &mut legal);
        let paths: u64 = nodes.iter().map(Node::multiplicity).sum();
        assert_eq!(paths, 197_281);
        // 1.e4 e5 2.d4 and 1.d4 e5 2.e4 and many more: far fewer positions.
        assert_eq!(nodes.len(), 72_078);
    }

    #[test]
    fn tags_survive_merging() {
        let root = Position::startpos();
        let roots: Vec<Node> = legal_moves(&root)
            .iter()
            .enumerate()
            .map(|(i, &mv)| Node::new(root.play_unchecked(mv), i as u32))
            .collect();
        let nodes = expand(roots, 2, &mut legal);
        let mut per_root = [0u64; 20];
        for node in &nodes {
            for &(tag, n) in &node.paths {
                per_root[tag as usize] += n;
            }
        }
        // Each root move has 20 replies; the ply-3 counts sum to perft(3).
        assert_eq!(per_root.iter().sum::<u64>(), 8902);
    }
}
