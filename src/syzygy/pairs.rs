//! The compressed values of a table: Syzygy's pair encoding.
//!
//! A table's values are compressed in blocks. Each block is a canonical
//! Huffman stream of symbols, and each symbol stands for a run of values
//! built by repeatedly replacing a frequent pair of symbols with a new one
//! (a grammar of pairs). An index table gives, every `2^idx_bits` positions,
//! the block and the offset inside it, so a probe decodes at most part of
//! one block.
//!
//! Everything here reads through [`Bytes`], whose every access is bounds
//! checked: a truncated or corrupt file gives [`Corrupt`], never a panic or
//! a read outside the file.

use super::bytes::{Bytes, Corrupt};

/// One subtable's decoding data: where its index table, block sizes and
/// blocks lie in the file, and its Huffman code and pair grammar.
#[derive(Clone, Debug, Default)]
pub(super) struct Pairs {
    /// Every position has this one value (a table of one value stores no
    /// blocks).
    pub constant: Option<u16>,
    pub index_table: usize,
    pub size_table: usize,
    pub data: usize,
    /// The first symbol of each code length, `min_len` first (u16 each).
    lowest_symbol: usize,
    /// Three bytes per symbol: its two halves (12 bits each), or a value.
    symbol_patterns: usize,
    /// How many values each symbol stands for, minus one.
    symbol_length: Vec<u32>,
    /// The first code of each length, left-aligned in 64 bits.
    base: Vec<u64>,
    block_size: u32,
    idx_bits: u32,
    min_len: u32,
}

/// What [`Pairs::read`] found: the decoding data, where the next header
/// starts, and the byte sizes of the index table, size table and blocks.
pub(super) struct PairsHeader {
    pub pairs: Pairs,
    /// The flags byte (DTZ tables: which side, value maps).
    pub flags: u8,
    pub next: usize,
    pub sizes: [usize; 3],
}

impl Pairs {
    /// Reads the header at `at` of a subtable indexing `positions`
    /// positions. `wdl`: a one-value WDL table stores its value; a one-value
    /// DTZ table's value is 0.
    pub fn read(
        bytes: &Bytes,
        at: usize,
        positions: u64,
        wdl: bool,
    ) -> Result<PairsHeader, Corrupt> {
        let flags = bytes.u8(at)?;
        if flags & 0x80 != 0 {
            let value = if wdl { bytes.u8(at + 1)? as u16 } else { 0 };
            return Ok(PairsHeader {
                pairs: Pairs {
                    constant: Some(value),
                    ..Pairs::default()
                },
                flags,
                next: at + 2,
                sizes: [0; 3],
            });
        }
        let block_size = bytes.u8(at + 1)? as u32;
        let idx_bits = bytes.u8(at + 2)? as u32;
        let real_blocks = bytes.u32_le(at + 4)? as usize;
        let blocks = real_blocks + bytes.u8(at + 3)? as usize;
        let max_len = bytes.u8(at + 8)? as u32;
        let min_len = bytes.u8(at + 9)? as u32;
        if !(1..=32).contains(&idx_bits)
            || block_size > 32
            || min_len == 0
            || max_len < min_len
            || max_len > 64
        {
            return Err(Corrupt("a pairs header out of range"));
        }
        let lengths = (max_len - min_len + 1) as usize;
        let lowest_symbol = at + 10;
        let symbols = bytes.u16_le(lowest_symbol + 2 * lengths)? as usize;
        let symbol_patterns = at + 12 + 2 * lengths;
        let next = symbol_patterns + 3 * symbols + (symbols & 1);

        let index_entries = positions.div_ceil(1 << idx_bits) as usize;
        let sizes = [6 * index_entries, 2 * blocks, real_blocks << block_size];

        let symbol_length = symbol_lengths(bytes, symbol_patterns, symbols)?;

        // Canonical Huffman: the first code of each length, from the
        // longest (0) up; then left-aligned so that a 64-bit window of the
        // stream compares directly.
        let mut base = vec![0u64; lengths];
        for i in (0..lengths - 1).rev() {
            let here = bytes.u16_le(lowest_symbol + 2 * i)? as u64;
            let longer = bytes.u16_le(lowest_symbol + 2 * i + 2)? as u64;
            let sum = (base[i + 1] + here)
                .checked_sub(longer)
                .ok_or(Corrupt("a Huffman code table"))?;
            base[i] = sum / 2;
        }
        for (i, b) in base.iter_mut().enumerate() {
            *b = b.checked_shl(64 - (min_len + i as u32)).unwrap_or(0);
        }

        Ok(PairsHeader {
            pairs: Pairs {
                constant: None,
                index_table: 0,
                size_table: 0,
                data: 0,
                lowest_symbol,
                symbol_patterns,
                symbol_length,
                base,
                block_size,
                idx_bits,
                min_len,
            },
            flags,
            next,
            sizes,
        })
    }

    /// The stored value of position `index`: a WDL table's byte, or a DTZ
    /// table's 12-bit value (`wide`).
    pub fn value(&self, bytes: &Bytes, index: u64, wide: bool) -> Result<u16, Corrupt> {
        if let Some(value) = self.constant {
            return Ok(value);
        }
        let main = (index >> self.idx_bits) as usize;
        let mut literal =
            (index & ((1 << self.idx_bits) - 1)) as i64 - (1i64 << (self.idx_bits - 1));
        let entry = self.index_table + 6 * main;
        let mut block = bytes.u32_le(entry)? as usize;
        literal += bytes.u16_le(entry + 4)? as i64;

        // The entry points near the position; walk to its block.
        let block_values = |block: usize| -> Result<i64, Corrupt> {
            Ok(bytes.u16_le(self.size_table + 2 * block)? as i64)
        };
        while literal < 0 {
            block = block
                .checked_sub(1)
                .ok_or(Corrupt("an index entry before the first block"))?;
            literal += block_values(block)? + 1;
        }
        loop {
            let values = block_values(block)?;
            if literal <= values {
                break;
            }
            literal -= values + 1;
            block += 1;
        }

        // Decode symbols until the one that covers `literal`.
        let mut at = self.data + (block << self.block_size);
        let mut code = bytes.u64_be(at)?;
        at += 8;
        let mut spare_bits = 0;
        let symbol = loop {
            let mut length = self.min_len;
            let mut i = 0;
            while code < self.base[i] {
                i += 1;
                length += 1;
                if i == self.base.len() {
                    return Err(Corrupt("a Huffman code longer than the table allows"));
                }
            }
            let offset = (code - self.base[i]) >> (64 - length);
            let symbol = bytes.u16_le(self.lowest_symbol + 2 * i)? as usize + offset as usize;
            let covers = *self
                .symbol_length
                .get(symbol)
                .ok_or(Corrupt("a symbol out of range"))? as i64
                + 1;
            if literal < covers {
                break symbol;
            }
            literal -= covers;
            code = code.checked_shl(length).unwrap_or(0);
            spare_bits += length;
            if spare_bits >= 32 {
                spare_bits -= 32;
                code |= (bytes.u32_be(at)? as u64) << spare_bits;
                at += 4;
            }
        };

        // Descend the symbol's pair grammar to the value.
        let mut symbol = symbol;
        while self.symbol_length[symbol] != 0 {
            let (left, right) = halves(bytes, self.symbol_patterns, symbol)?;
            let left_covers = *self
                .symbol_length
                .get(left)
                .ok_or(Corrupt("a symbol out of range"))? as i64
                + 1;
            if literal < left_covers {
                symbol = left;
            } else {
                literal -= left_covers;
                symbol = right;
            }
            if symbol >= self.symbol_length.len() {
                return Err(Corrupt("a symbol out of range"));
            }
        }
        let pattern = self.symbol_patterns + 3 * symbol;
        if wide {
            Ok(((bytes.u8(pattern + 1)? as u16 & 0x0f) << 8) | bytes.u8(pattern)? as u16)
        } else {
            Ok(bytes.u8(pattern)? as u16)
        }
    }
}

/// A symbol's two halves (12 bits each); the right half is 0xfff for a
/// symbol that is a value.
fn halves(bytes: &Bytes, patterns: usize, symbol: usize) -> Result<(usize, usize), Corrupt> {
    let at = patterns + 3 * symbol;
    let (b0, b1, b2) = (
        bytes.u8(at)? as usize,
        bytes.u8(at + 1)? as usize,
        bytes.u8(at + 2)? as usize,
    );
    Ok((((b1 & 0x0f) << 8) | b0, (b2 << 4) | (b1 >> 4)))
}

/// How many values each symbol expands to, minus one, computed from the
/// grammar without recursion (a corrupt file could make it a cycle).
fn symbol_lengths(bytes: &Bytes, patterns: usize, symbols: usize) -> Result<Vec<u32>, Corrupt> {
    const UNSEEN: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut length = vec![0u32; symbols];
    let mut state = vec![UNSEEN; symbols];
    let mut stack = Vec::new();
    for start in 0..symbols {
        if state[start] == DONE {
            continue;
        }
        stack.push(start);
        while let Some(&symbol) = stack.last() {
            if state[symbol] == DONE {
                stack.pop();
                continue;
            }
            let (left, right) = halves(bytes, patterns, symbol)?;
            if right == 0xfff {
                state[symbol] = DONE;
                stack.pop();
                continue;
            }
            if left >= symbols || right >= symbols {
                return Err(Corrupt("a symbol out of range"));
            }
            state[symbol] = OPEN;
            let mut waiting = false;
            for half in [left, right] {
                match state[half] {
                    DONE => {}
                    OPEN => return Err(Corrupt("a symbol that contains itself")),
                    _ => {
                        stack.push(half);
                        waiting = true;
                    }
                }
            }
            if !waiting {
                length[symbol] = length[left] + length[right] + 1;
                state[symbol] = DONE;
                stack.pop();
            }
        }
    }
    Ok(length)
}
