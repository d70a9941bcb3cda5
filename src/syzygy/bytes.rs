//! A table file's bytes, mapped into memory, read only through
//! bounds-checked accessors.

use std::fs::File;
use std::path::Path;

/// What is wrong with a table file whose contents do not make sense.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corrupt(pub &'static str);

/// The contents of one table file.
pub(super) struct Bytes {
    map: memmap2::Mmap,
}

impl Bytes {
    /// Maps `path` read-only.
    pub fn map(path: &Path) -> std::io::Result<Bytes> {
        let file = File::open(path)?;
        // SAFETY: a mapping is only undefined behaviour if the file changes
        // underneath it. Tablebase files are read-only data that nothing
        // rewrites while an engine runs (the documented requirement of
        // every Syzygy prober); every read below is bounds checked, so a
        // corrupt file gives `Corrupt`, not a stray read. Mapping rather
        // than reading pays: a 6-piece set is 150 GB, of which a search
        // touches a few pages per table.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        // Probes hit random pages: read-ahead would only waste memory.
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        Ok(Bytes { map })
    }

    /// The file's length in bytes.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    fn slice<const N: usize>(&self, at: usize) -> Result<[u8; N], Corrupt> {
        at.checked_add(N)
            .and_then(|end| self.map.get(at..end))
            .map(|s| s.try_into().expect("slice of length N"))
            .ok_or(Corrupt("a read past the end of the file"))
    }

    pub fn u8(&self, at: usize) -> Result<u8, Corrupt> {
        self.map
            .get(at)
            .copied()
            .ok_or(Corrupt("a read past the end of the file"))
    }

    pub fn u16_le(&self, at: usize) -> Result<u16, Corrupt> {
        self.slice(at).map(u16::from_le_bytes)
    }

    pub fn u32_le(&self, at: usize) -> Result<u32, Corrupt> {
        self.slice(at).map(u32::from_le_bytes)
    }

    pub fn u32_be(&self, at: usize) -> Result<u32, Corrupt> {
        self.slice(at).map(u32::from_be_bytes)
    }

    pub fn u64_be(&self, at: usize) -> Result<u64, Corrupt> {
        self.slice(at).map(u64::from_be_bytes)
    }
}
