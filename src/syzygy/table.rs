//! One table file: its header read into layouts and decoders, and the value
//! it stores for a position.
//!
//! A WDL file (`.rtbw`) stores win/draw/loss for both sides to move; a DTZ
//! file (`.rtbz`) stores distance to zeroing for one side to move only (the
//! side whose table is smaller once compressed), with the value maps that
//! translate its symbols. Files with pawns hold one subtable per file a-d
//! of the leading pawn.

use super::bytes::{Bytes, Corrupt};
use super::index::{FLAP, Layout, Leading, MAX_PIECES};
use super::material::{Material, piece_of};
use super::pairs::Pairs;
use crate::{Bitboard, Color, Position};
use std::path::Path;

/// The first four bytes of each kind of file.
pub(super) const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
pub(super) const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// What a file name says about its table, before the file is read.
#[derive(Clone, Debug)]
pub(super) struct TableName {
    pub material: Material,
    pub symmetric: bool,
    /// Leading and other pawns (the colour with fewer pawns leads, if it
    /// has any); `None` for a pawnless table.
    pub pawns: Option<(usize, usize)>,
    pub leading: Leading,
}

impl TableName {
    /// The table a canonical name like `KQvKR` stands for.
    pub fn new(material: Material) -> Option<TableName> {
        let pieces = material.pieces();
        if !(3..=MAX_PIECES).contains(&pieces) {
            return None;
        }
        let (first, second) = material.pawns();
        let pawns = if first + second == 0 {
            None
        } else if second > 0 && (first == 0 || second < first) {
            Some((second, first))
        } else {
            Some((first, second))
        };
        let leading = match material.unique_kinds() {
            3.. => Leading::Triple,
            2 => Leading::Kings,
            _ => return None,
        };
        Some(TableName {
            material,
            symmetric: material == material.mirrored(),
            pawns,
            leading,
        })
    }
}

/// How a position maps onto a table's stored orientation.
struct Orientation {
    /// XOR for the colour bit of a header piece code (8: colours swapped).
    colour: u8,
    /// XOR for squares (0x38: ranks mirrored, with colours swapped).
    squares: usize,
    /// Which of the header's two sides-to-move layouts applies.
    side: usize,
}

/// One layout and its decoder.
struct Subtable {
    layout: Layout,
    pairs: Pairs,
}

/// A read table of either kind.
pub(super) struct Table {
    bytes: Bytes,
    name: TableName,
    /// The material whose first side is the header's colour 0.
    key: Material,
    /// WDL: `[file][side]`; DTZ: `[file][0]` (one side stored).
    files: Vec<[Option<Subtable>; 2]>,
    /// DTZ only: each file's flags and value-map offsets, and where the
    /// maps start.
    dtz: Vec<(u8, [usize; 4])>,
    maps: usize,
}

/// The DTZ maps by WDL (-2..=2 at index wdl + 2): which of the four maps.
const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
/// The DTZ flag that says a WDL class's values are stored in full moves
/// rather than plies (then doubled on reading).
const PLIES_FLAG: [u8; 5] = [8, 0, 0, 0, 4];

impl Table {
    /// Maps and reads a table file; `wdl` says which kind it must be.
    pub fn open(path: &Path, name: TableName, wdl: bool) -> Result<Table, OpenError> {
        let bytes = Bytes::map(path).map_err(OpenError::Io)?;
        check_file(&bytes, wdl).map_err(OpenError::Corrupt)?;
        Table::read(bytes, name, wdl).map_err(OpenError::Corrupt)
    }

    fn read(bytes: Bytes, name: TableName, wdl: bool) -> Result<Table, Corrupt> {
        let count = name.material.pieces();
        let split = wdl && bytes.u8(4)? & 0x01 != 0;
        let file_count = if bytes.u8(4)? & 0x02 != 0 { 4 } else { 1 };
        let sides = if wdl { 2 } else { 1 };
        let mut at = 5;
        let mut layouts: Vec<[(Layout, u64); 2]> = Vec::new();
        let piece_codes =
            |at: usize, skip: usize, high: bool| -> Result<[u8; MAX_PIECES], Corrupt> {
                let mut codes = [0u8; MAX_PIECES];
                for (i, code) in codes.iter_mut().enumerate().take(count) {
                    let byte = bytes.u8(at + skip + i)?;
                    *code = if high { byte >> 4 } else { byte & 0x0f };
                    piece_of(*code).ok_or(Corrupt("a piece code out of range"))?;
                }
                Ok(codes)
            };
        match name.pawns {
            None => {
                let mut pair = [(Layout::default(), 0), (Layout::default(), 0)];
                for (side, slot) in pair.iter_mut().enumerate().take(sides) {
                    let high = side == 1;
                    let order = nibble(bytes.u8(at)?, high) as usize;
                    *slot = Layout::pieces(piece_codes(at, 1, high)?, count, name.leading, order);
                }
                layouts.push(pair);
                at += count + 1;
            }
            Some((leading, other)) => {
                let skip = 1 + usize::from(other > 0);
                for file in 0..4 {
                    let mut pair = [(Layout::default(), 0), (Layout::default(), 0)];
                    for (side, slot) in pair.iter_mut().enumerate().take(sides) {
                        let high = side == 1;
                        let order = nibble(bytes.u8(at)?, high) as usize;
                        let order2 = if other > 0 {
                            nibble(bytes.u8(at + 1)?, high) as usize
                        } else {
                            0x0f
                        };
                        let codes = piece_codes(at, skip, high)?;
                        *slot =
                            Layout::pawns(codes, count, (leading, other), (order, order2), file);
                    }
                    layouts.push(pair);
                    at += count + skip;
                }
            }
        }
        at += at & 1;

        // Every subtable's header, then every index table, every size
        // table and every block area, each group in file order.
        let stored = if split { 2 } else { 1 };
        let mut files: Vec<[Option<Subtable>; 2]> = Vec::new();
        let mut sizes = Vec::new();
        let mut flags = Vec::new();
        for layout in layouts.iter().take(file_count) {
            let mut pair = [None, None];
            for (side, slot) in pair.iter_mut().enumerate().take(stored) {
                let header = Pairs::read(&bytes, at, layout[side].1, wdl)?;
                at = header.next;
                flags.push(header.flags);
                sizes.push(header.sizes);
                *slot = Some(Subtable {
                    layout: layout[side].0.clone(),
                    pairs: header.pairs,
                });
            }
            files.push(pair);
        }

        let mut dtz = Vec::new();
        let maps = at;
        if !wdl {
            for &flag in &flags {
                let mut offsets = [0; 4];
                if flag & 0x02 != 0 {
                    if flag & 0x10 == 0 {
                        for offset in &mut offsets {
                            *offset = at + 1 - maps;
                            at += 1 + bytes.u8(at)? as usize;
                        }
                    } else {
                        if name.pawns.is_some() {
                            at += at & 1;
                        }
                        for offset in &mut offsets {
                            *offset = (at + 2 - maps) / 2;
                            at += 2 + 2 * bytes.u16_le(at)? as usize;
                        }
                    }
                }
                dtz.push((flag, offsets));
            }
            at += at & 1;
        }

        // The index tables, then the size tables, then the block areas
        // (each on a 64-byte boundary), in the order the headers came.
        let mut index_tables = Vec::with_capacity(sizes.len());
        for size in &sizes {
            index_tables.push(at);
            at += size[0];
        }
        let mut size_tables = Vec::with_capacity(sizes.len());
        for size in &sizes {
            size_tables.push(at);
            at += size[1];
        }
        let mut blocks = Vec::with_capacity(sizes.len());
        for size in &sizes {
            at = (at + 0x3f) & !0x3f;
            blocks.push(at);
            at += size[2];
        }
        for (k, sub) in files.iter_mut().flatten().flatten().enumerate() {
            sub.pairs.index_table = index_tables[k];
            sub.pairs.size_table = size_tables[k];
            sub.pairs.data = blocks[k];
        }
        if at > bytes.len() {
            return Err(Corrupt("subtables that run past the end of the file"));
        }

        let key = if name.pawns.is_none() {
            let codes = &files[0][0]
                .as_ref()
                .ok_or(Corrupt("no subtable"))?
                .layout
                .pieces[..count];
            Material::from_codes(codes)
        } else {
            name.material
        };
        Ok(Table {
            bytes,
            name,
            key,
            files,
            dtz,
            maps,
        })
    }

    fn orientation(&self, position: &Position) -> Orientation {
        let white = position.side_to_move() == Color::White;
        if self.name.symmetric {
            if white {
                Orientation {
                    colour: 0,
                    squares: 0,
                    side: 0,
                }
            } else {
                Orientation {
                    colour: 8,
                    squares: 0x38,
                    side: 0,
                }
            }
        } else if Material::of(position) != self.key {
            Orientation {
                colour: 8,
                squares: 0x38,
                side: usize::from(white),
            }
        } else {
            Orientation {
                colour: 0,
                squares: 0,
                side: usize::from(!white),
            }
        }
    }

    /// A WDL table's value for `position` (-2..=2, before captures are
    /// considered).
    pub fn wdl(&self, position: &Position) -> Result<i32, Corrupt> {
        let orientation = self.orientation(position);
        let leading = self.leading(position, &orientation)?;
        let (sub, index) = self.locate(position, &orientation, orientation.side, leading)?;
        Ok(sub.pairs.value(&self.bytes, index, false)? as i32 - 2)
    }

    /// A DTZ table's value for `position`, whose WDL is `wdl`; `None` when
    /// the table stores the other side to move.
    pub fn dtz(&self, position: &Position, wdl: i32) -> Result<Option<i32>, Corrupt> {
        let orientation = self.orientation(position);
        let leading = self.leading(position, &orientation)?;
        let file = leading.1;
        let &(flags, maps) = self
            .dtz
            .get(file)
            .ok_or(Corrupt("a pawn file without a subtable"))?;
        let stored = usize::from(flags & 1);
        if stored != orientation.side && !(self.name.pawns.is_none() && self.name.symmetric) {
            return Ok(None);
        }
        let (sub, index) = self.locate(position, &orientation, 0, leading)?;
        let mut value = sub.pairs.value(&self.bytes, index, true)? as usize;
        let class = (wdl + 2) as usize;
        if flags & 0x02 != 0 {
            let map = maps[WDL_TO_MAP[class]];
            value = if flags & 0x10 == 0 {
                self.bytes.u8(self.maps + map + value)? as usize
            } else {
                self.bytes.u16_le(self.maps + 2 * (map + value))? as usize
            };
        }
        let mut value = value as i32;
        if flags & PLIES_FLAG[class] == 0 || wdl & 1 != 0 {
            value *= 2;
        }
        Ok(Some(value))
    }

    /// The leading pawns' squares (oriented) and the file subtable they
    /// select.
    fn leading_file(
        &self,
        position: &Position,
        orientation: &Orientation,
    ) -> Result<([usize; MAX_PIECES], usize), Corrupt> {
        let first = self.files[0][0].as_ref().ok_or(Corrupt("no subtable"))?;
        let mut squares = [0usize; MAX_PIECES];
        let pawns = pieces_of(position, first.layout.pieces[0], orientation.colour)?;
        let leading = self.name.pawns.map_or(0, |p| p.0);
        if pawns.len() as usize != leading {
            return Err(Corrupt("a position that does not match its table"));
        }
        for (slot, square) in squares.iter_mut().zip(pawns) {
            *slot = square.index() ^ orientation.squares;
        }
        for i in 1..leading {
            if FLAP[squares[0]] > FLAP[squares[i]] {
                squares.swap(0, i);
            }
        }
        let file = squares[0] & 7;
        Ok((squares, file.min(7 - file)))
    }

    /// The leading pawns' squares, their file subtable and how many they
    /// are (no squares, file 0, none for a pawnless table): found once per
    /// probe, for the DTZ side check and for [`Table::locate`].
    fn leading(
        &self,
        position: &Position,
        orientation: &Orientation,
    ) -> Result<([usize; MAX_PIECES], usize, usize), Corrupt> {
        match self.name.pawns {
            None => Ok(([0usize; MAX_PIECES], 0, 0)),
            Some((leading, _)) => {
                let (squares, file) = self.leading_file(position, orientation)?;
                Ok((squares, file, leading))
            }
        }
    }

    /// The subtable and index of `position`, its leading pawns placed by
    /// [`Table::leading`].
    fn locate(
        &self,
        position: &Position,
        orientation: &Orientation,
        side: usize,
        (mut squares, file, start): ([usize; MAX_PIECES], usize, usize),
    ) -> Result<(&Subtable, u64), Corrupt> {
        let count = self.name.material.pieces();
        let sub = self
            .files
            .get(file)
            .and_then(|pair| pair[side].as_ref())
            .ok_or(Corrupt("a subtable the header does not provide"))?;
        // Pawnless tables fold every symmetry in the encoding, so their
        // squares go in as they stand; with pawns, a colour swap mirrors
        // the ranks too.
        let flip = if self.name.pawns.is_some() {
            orientation.squares
        } else {
            0
        };
        let mut i = start;
        while i < count {
            let on = pieces_of(position, sub.layout.pieces[i], orientation.colour)?;
            if on.is_empty() || i + on.len() as usize > count {
                return Err(Corrupt("a position that does not match its table"));
            }
            for square in on {
                squares[i] = square.index() ^ flip;
                i += 1;
            }
        }
        let squares = &mut squares[..count];
        let index = match self.name.pawns {
            None => sub.layout.encode_pieces(squares, self.name.leading),
            Some(pawns) => sub.layout.encode_pawns(squares, pawns),
        };
        Ok((sub, index))
    }
}

/// The squares of the pieces a header code names, for this orientation.
fn pieces_of(position: &Position, code: u8, colour_flip: u8) -> Result<Bitboard, Corrupt> {
    let piece = piece_of(code).ok_or(Corrupt("a piece code out of range"))?;
    let color = if (code ^ colour_flip) & 8 == 0 {
        Color::White
    } else {
        Color::Black
    };
    Ok(position.colored(color, piece))
}

fn nibble(byte: u8, high: bool) -> u8 {
    if high { byte >> 4 } else { byte & 0x0f }
}

/// The checks every table file must pass before its header is read: the
/// generator writes sizes of 16 more than a multiple of 64, and a magic
/// number per kind.
pub(super) fn check_file(bytes: &Bytes, wdl: bool) -> Result<(), Corrupt> {
    if bytes.len() % 64 != 16 {
        return Err(Corrupt(
            "a file size that is not 16 more than a multiple of 64",
        ));
    }
    let magic = [bytes.u8(0)?, bytes.u8(1)?, bytes.u8(2)?, bytes.u8(3)?];
    let expected = if wdl { WDL_MAGIC } else { DTZ_MAGIC };
    if magic != expected {
        return Err(Corrupt(if wdl {
            "not a WDL table (wrong magic number)"
        } else {
            "not a DTZ table (wrong magic number)"
        }));
    }
    Ok(())
}

/// Why a table file could not be opened.
#[derive(Debug)]
pub(super) enum OpenError {
    Io(std::io::Error),
    Corrupt(Corrupt),
}
