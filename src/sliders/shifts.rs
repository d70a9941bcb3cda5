//! Board shifts shared by the fill backends (Kogge-Stone, dumb7fill, the
//! SIMD fill's scalar path): a step in square indices plus the mask of the
//! squares a step in that direction may land on without wrapping round a
//! board edge.

/// Every square but the a-file: where an eastward step may land.
pub(crate) const NOT_A_FILE: u64 = !0x0101_0101_0101_0101;
/// Every square but the h-file: where a westward step may land.
pub(crate) const NOT_H_FILE: u64 = !0x8080_8080_8080_8080;

/// The rook's four steps (north, south, east, west) with their masks.
pub(crate) const ROOK_STEPS: [(i32, u64); 4] =
    [(8, !0), (-8, !0), (1, NOT_A_FILE), (-1, NOT_H_FILE)];
/// The bishop's four steps (north-east, north-west, south-east, south-west).
pub(crate) const BISHOP_STEPS: [(i32, u64); 4] = [
    (9, NOT_A_FILE),
    (7, NOT_H_FILE),
    (-7, NOT_A_FILE),
    (-9, NOT_H_FILE),
];

/// Shifts by `step` squares: left for positive steps, right for negative.
#[inline(always)]
pub(crate) const fn shift(x: u64, step: i32) -> u64 {
    if step > 0 { x << step } else { x >> -step }
}
