//! The memory behind a perft table: one zeroed block, aligned to 2 MiB and
//! offered to the OS as huge pages where it takes them, checked against
//! the machine's memory before anything is allocated.
//!
//! Why huge pages: a deep perft probes the table at random, so nearly
//! every probe of a multi-gigabyte table misses the TLB too; with 4 KiB
//! pages that is a page walk (itself up to several cache misses) on top
//! of the entry's own miss. Linux backs a 2 MiB-aligned block with 2 MiB
//! pages when asked (`madvise(MADV_HUGEPAGE)`, which the common `madvise`
//! setting of transparent huge pages requires); the measured effect is in
//! `reports/perft-hash.md`. Elsewhere the block is ordinary memory.

use std::alloc::{Layout, alloc, dealloc};
use std::ptr::NonNull;

/// The alignment asked for: one x86-64 huge page.
const HUGE_PAGE: usize = 2 << 20;

/// Types for which all-zero bytes are a valid value (the table's buckets
/// of atomics), so a zeroed block can be used as a slice of them.
///
/// # Safety
///
/// Implement only for types whose every field is an integer or atomic
/// integer (no references, no niches).
pub(super) unsafe trait Zeroable: Sized {}

/// Whether to ask the OS for huge pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pages {
    /// Huge pages where the OS offers them (the default).
    Huge,
    /// Ordinary pages only (for measuring what huge pages buy).
    Normal,
}

/// A zeroed, 2 MiB-aligned array of `len` values of `T`.
pub(super) struct Block<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the block owns its memory like a `Box<[T]>`; sharing or sending
// it is as safe as sharing or sending the `T`s (atomics, in the tables).
unsafe impl<T: Zeroable + Send> Send for Block<T> {}
// SAFETY: as above: `&Block<T>` only hands out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for Block<T> {}

impl<T: Zeroable> Block<T> {
    /// `len` zeroed values (at least one), or an error saying why not:
    /// more than the machine's available memory, or an allocation failure.
    pub(super) fn new(len: usize, pages: Pages) -> Result<Block<T>, String> {
        let len = len.max(1);
        let bytes = len
            .checked_mul(size_of::<T>())
            .ok_or_else(|| "the hash table size overflows".to_string())?;
        if let Some(available) = available_bytes()
            && bytes as u64 > available
        {
            return Err(format!(
                "a {} MB hash table does not fit: this machine has about {} MB of memory available",
                bytes >> 20,
                available >> 20
            ));
        }
        let layout = Layout::from_size_align(bytes, HUGE_PAGE.max(align_of::<T>()))
            .map_err(|_| "the hash table size overflows".to_string())?;
        // SAFETY: the layout has a non-zero size (`len >= 1`, and the
        // buckets are not zero-sized).
        let raw = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(raw.cast::<T>()) else {
            return Err(format!("cannot allocate a {} MB hash table", bytes >> 20));
        };
        if pages == Pages::Huge {
            advise_huge_pages(raw, bytes);
        }
        // SAFETY: `raw` is valid for `bytes` bytes of writes (just
        // allocated with that size); zero bytes are a valid `T` (Zeroable).
        // Zeroing after the advice makes the first touch fault huge pages.
        unsafe { raw.write_bytes(0, bytes) };
        Ok(Block { ptr, len, layout })
    }

    /// The values.
    #[inline(always)]
    pub(super) fn as_slice(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised (zeroed, Zeroable)
        // values that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for Block<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with exactly this layout.
        unsafe { dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

/// Asks Linux to back the block with huge pages; a refusal (or another
/// OS) leaves ordinary pages, which are only slower.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    use std::ffi::{c_int, c_void};
    const MADV_HUGEPAGE: c_int = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    // SAFETY: `ptr..ptr + bytes` is one live allocation of ours, aligned to
    // a page; MADV_HUGEPAGE only changes how it is backed, never its
    // contents or validity. The result is ignored on purpose (see above).
    let _ = unsafe { madvise(ptr.cast(), bytes, MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _bytes: usize) {}

/// The memory the machine can give now (Linux's `MemAvailable`), or `None`
/// where that is not known.
pub fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    // SAFETY: an atomic integer; zero is a valid value.
    unsafe impl Zeroable for AtomicU64 {}

    #[test]
    fn blocks_are_zeroed_and_too_large_ones_are_refused() {
        let block: Block<AtomicU64> = Block::new(1000, Pages::Huge).unwrap();
        assert_eq!(block.as_slice().len(), 1000);
        assert!(block.as_slice().iter().all(|x| x.load(Relaxed) == 0));
        if available_bytes().is_some() {
            let error = Block::<AtomicU64>::new(1 << 57, Pages::Normal)
                .err()
                .unwrap();
            assert!(error.contains("does not fit"), "{error}");
        }
        assert!(Block::<AtomicU64>::new(usize::MAX, Pages::Normal).is_err());
    }
}
