//! # momentum-plan-alloc
//!
//! The global allocator of the native bindings (`bindings-python`, `bindings-node`): mimalloc,
//! called the way its size classes make cheapest. It holds no rule of the validator.
//!
//! The `mimalloc` crate's `MiMalloc` sends every allocation through `mi_malloc_aligned`, whatever
//! the alignment. mimalloc (v3, which that crate builds by default) takes its plain path for such a
//! call only when a small block of the right class happens to be free, or when the rounded size
//! is a power of two; anything else (a 4 KiB arena chunk, a 1,280-byte vector) goes through the
//! generic aligned path and over-allocates. Measured with callgrind on the calm-weekday plan
//! (bindings-python, 23 allocations per call): 50.5k → 48.9k instructions for
//! `validate_plan(dict)`, 39.9k → 38.5k for `validate_plan(str)` (README "Speed"). The same
//! problem and fix are known upstream (`purpleprotocol/mimalloc_rust` pull request 170).
//!
//! [`MiMalloc`] calls `mi_malloc`, `mi_zalloc` and `mi_realloc` when the alignment is at most 16
//! bytes (`MI_MAX_ALIGN_SIZE`) and divides the size: every mimalloc size class is a multiple of
//! 8, and of 16 from 16 bytes up, and a page's first block is 16-aligned, so a block of such a
//! size is aligned by construction (the rule std's `System` uses for `malloc`, with mimalloc's
//! classes in place of glibc's guarantee). Anything else goes to the `_aligned` calls. Freeing is
//! `mi_free` for both (it accepts blocks from either).
//!
//! Input and output are those of [`GlobalAlloc`]: a [`Layout`] (size and alignment in bytes) in,
//! a pointer (null when memory runs out) out. No error beyond that null; no panic.
#![allow(unsafe_code)] // an allocator is an FFI boundary: each call is documented at its `unsafe`

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc, mi_zalloc_aligned,
};
use std::alloc::{GlobalAlloc, Layout};

/// The largest alignment every mimalloc block whose size it divides has (`MI_MAX_ALIGN_SIZE`).
const NATURAL_ALIGN: usize = 16;

/// mimalloc as a [`GlobalAlloc`]: `#[global_allocator] static GLOBAL: MiMalloc = MiMalloc;`.
#[derive(Debug, Clone, Copy, Default)]
pub struct MiMalloc;

/// Whether a plain mimalloc block of `size` bytes is always aligned to `align` (a power of two).
#[inline]
fn natural(size: usize, align: usize) -> bool {
    align <= NATURAL_ALIGN && size.is_multiple_of(align)
}

// SAFETY: every method forwards to the mimalloc call that satisfies `layout` (see the crate doc
// for why the plain calls do when `natural` holds); `mi_free` and `mi_realloc*` accept any block
// mimalloc gave out, aligned or not.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc returns a block of at least `size` bytes with the alignment asked, or null.
        unsafe {
            if natural(layout.size(), layout.align()) {
                mi_malloc(layout.size()).cast()
            } else {
                mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`; the block is zeroed by mimalloc.
        unsafe {
            if natural(layout.size(), layout.align()) {
                mi_zalloc(layout.size()).cast()
            } else {
                mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: the caller passes a block this allocator gave out.
        unsafe { mi_free(ptr.cast()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller passes a block this allocator gave out with `layout`; the new block
        // has `new_size` bytes and `layout.align()`, its first bytes copied, or null (then `ptr`
        // is still valid).
        unsafe {
            if natural(new_size, layout.align()) {
                mi_realloc(ptr.cast(), new_size).cast()
            } else {
                mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes around mimalloc's classes and alignments on both sides of 16, through every method:
    /// each block is aligned, a zeroed one is zero, and a realloc (smaller and larger) keeps the
    /// bytes written.
    #[test]
    fn every_block_is_aligned_and_keeps_its_bytes() {
        let a = MiMalloc;
        let sizes = [1, 7, 8, 12, 16, 24, 40, 48, 56, 72, 80, 100, 1280, 4096, 4136, 70_000, 3 << 20];
        for size in sizes {
            for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
                let layout = Layout::from_size_align(size, align).expect("a valid layout");
                // SAFETY: non-zero sizes; each block is written within its size and freed once,
                // with the layout it has.
                unsafe {
                    let z = a.alloc_zeroed(layout);
                    assert!(!z.is_null());
                    assert_eq!(z as usize % align, 0, "alloc_zeroed {size}/{align}");
                    assert!(std::slice::from_raw_parts(z, size).iter().all(|&b| b == 0), "zeroed {size}/{align}");
                    a.dealloc(z, layout);
                    for new_size in [size / 2 + 1, size * 3 + align] {
                        let p = a.alloc(layout);
                        assert!(!p.is_null());
                        assert_eq!(p as usize % align, 0, "alloc {size}/{align}");
                        p.write_bytes(0xA5, size);
                        let q = a.realloc(p, layout, new_size);
                        assert!(!q.is_null());
                        assert_eq!(q as usize % align, 0, "realloc {size}/{align} -> {new_size}");
                        let kept = std::slice::from_raw_parts(q, size.min(new_size));
                        assert!(kept.iter().all(|&b| b == 0xA5), "kept {size} -> {new_size}");
                        a.dealloc(q, Layout::from_size_align(new_size, align).expect("a valid layout"));
                    }
                }
            }
        }
    }
}
