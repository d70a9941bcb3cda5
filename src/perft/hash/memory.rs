//! The memory behind a perft table: one zeroed block, offered to the OS as
//! huge pages where it takes them, checked against the machine's memory
//! before anything is allocated, and (on Linux) zeroed lazily by the
//! kernel as pages are first touched.
//!
//! Why huge pages: a deep perft probes the table at random, so nearly
//! every probe of a multi-gigabyte table misses the TLB too; with 4 KiB
//! pages that is a page walk (itself up to several cache misses) on top
//! of the entry's own miss. Linux backs a 2 MiB-aligned block with 2 MiB
//! pages when asked (`madvise(MADV_HUGEPAGE)`, which the common `madvise`
//! setting of transparent huge pages requires); the measured effect is in
//! `reports/perft-hash.md`. Elsewhere the block is ordinary memory.
//!
//! `unsafe` here is the allocation itself (FFI to `mmap`, `munmap` and
//! `madvise`, which std does not offer) and the slice view of it; each
//! block says why it is sound.

use std::alloc::Layout;
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
        check_fits(bytes)?;
        let layout = Layout::from_size_align(bytes, HUGE_PAGE.max(align_of::<T>()))
            .map_err(|_| "the hash table size overflows".to_string())?;
        let raw = zeroed(layout, pages)
            .ok_or_else(|| format!("cannot allocate a {} MB hash table", bytes >> 20))?;
        Ok(Block {
            ptr: raw.cast::<T>(),
            len,
            layout,
        })
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
        // SAFETY: made by `zeroed` with exactly this layout.
        unsafe { release(self.ptr.cast(), self.layout) };
    }
}

/// Linux: an anonymous mapping, which the kernel hands out zero-filled
/// page by page on first touch. Nothing is written up front, so a large
/// table costs nothing until it is used, and the zeroing of the pages a
/// run touches is spread over its threads (zeroing 8 GB up front on one
/// thread took a good part of a hashed perft(9)). With [`Pages::Huge`] the
/// mapping is advised as huge pages first.
#[cfg(target_os = "linux")]
mod os {
    use super::{Layout, Pages};
    use std::ffi::{c_int, c_long, c_void};
    use std::ptr::NonNull;

    const PROT_READ: c_int = 1;
    const PROT_WRITE: c_int = 2;
    const MAP_PRIVATE: c_int = 2;
    const MAP_ANONYMOUS: c_int = 0x20;
    const MADV_HUGEPAGE: c_int = 14;

    unsafe extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            off: c_long,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> c_int;
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }

    pub(super) fn zeroed(layout: Layout, pages: Pages) -> Option<NonNull<u8>> {
        // SAFETY: a fresh private anonymous mapping of `layout.size()`
        // bytes (non-zero); no existing memory is touched.
        let raw = unsafe {
            mmap(
                std::ptr::null_mut(),
                layout.size(),
                PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw as isize == -1 {
            return None;
        }
        if pages == Pages::Huge {
            // SAFETY: `raw..raw + size` is the mapping just made;
            // MADV_HUGEPAGE only changes how it is backed, never its
            // contents. A refusal leaves ordinary pages, which are only
            // slower, so the result is ignored.
            let _ = unsafe { madvise(raw, layout.size(), MADV_HUGEPAGE) };
        }
        NonNull::new(raw.cast())
    }

    /// # Safety
    ///
    /// `ptr` must come from `zeroed` with this `layout`, released once.
    pub(super) unsafe fn release(ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract: our mapping, of this size.
        let _ = unsafe { munmap(ptr.as_ptr().cast(), layout.size()) };
    }
}

/// Elsewhere: the global allocator, zeroed up front.
#[cfg(not(target_os = "linux"))]
mod os {
    use super::{Layout, Pages};
    use std::ptr::NonNull;

    pub(super) fn zeroed(layout: Layout, _pages: Pages) -> Option<NonNull<u8>> {
        // SAFETY: the layout has a non-zero size (at least one value of a
        // non-zero-sized type).
        NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })
    }

    /// # Safety
    ///
    /// `ptr` must come from `zeroed` with this `layout`, released once.
    pub(super) unsafe fn release(ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { std::alloc::dealloc(ptr.as_ptr(), layout) };
    }
}

use os::{release, zeroed};

/// Refuses a table of `bytes` that the machine's available memory cannot
/// hold, with the figures in the message (before anything is allocated,
/// so a too-large `--hash` is an error rather than the OOM killer).
pub fn check_fits(bytes: usize) -> Result<(), String> {
    match available_bytes() {
        Some(available) if bytes as u64 > available => Err(format!(
            "a {} MB hash table does not fit: this machine has about {} MB of memory available",
            bytes >> 20,
            available >> 20
        )),
        _ => Ok(()),
    }
}

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
