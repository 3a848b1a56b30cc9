//! The allocator the `dungeonsmith` binary runs on (and `benches/myk_mimalloc.rs` measures with).

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// mimalloc: a run makes many small short-lived allocations (tables, views, SVG and text
/// building), which glibc's allocator serves with more instructions; see README "Speed".
///
/// Not `mimalloc::MiMalloc` itself: that asks for every block through `mi_malloc_aligned`, whose
/// fast path only serves blocks up to 1 KiB and sends larger ones (most strings and text buffers)
/// through mimalloc's generic aligned path, over-allocating for the alignment. Every mimalloc
/// block is aligned to 8 bytes at least (blocks are whole words), so a layout asking for no more
/// than that takes the plain calls; mimalloc's own `mi_realloc_aligned` draws the same line.
pub struct Mimalloc;

/// Alignments every mimalloc block has without asking.
const WORD: usize = std::mem::size_of::<usize>();

fn plain(layout: &Layout) -> bool {
    layout.align() <= WORD && layout.align() <= layout.size()
}

// SAFETY: every call hands mimalloc a layout it can serve (the plain calls only for alignments
// its blocks always have) and frees only blocks it handed out.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation functions accept any size and power-of-two alignment.
        unsafe {
            if plain(&layout) {
                mi::mi_malloc(layout.size()).cast()
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        unsafe {
            if plain(&layout) {
                mi::mi_zalloc(layout.size()).cast()
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, i.e. from mimalloc.
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from mimalloc. (This call itself takes the plain path for small
        // alignments.)
        unsafe { mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast() }
    }
}
