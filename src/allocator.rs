//! The binary's allocator: the system allocator, asking the kernel for transparent huge pages
//! (`MADV_HUGEPAGE`) on every allocation of at least 4 MiB.
//!
//! A large analysis touches gigabytes of fresh memory (the request view, each metric's ranks);
//! in 4 KiB pages that is millions of page faults, and on a virtual machine each costs
//! microseconds: on a 100-million-request run half the CPU time was the kernel's. Where huge
//! pages are enabled only on request (`/sys/kernel/mm/transparent_hugepage/enabled` =
//! `madvise`, the common default), asking for them for the large buffers took that run to
//! 34–36 s from 43–73 s without (alternating runs of one binary; system time 13 s against
//! 24–57 s; `benches/analyze_long.rs`). Where they are
//! `always` or `never`, the advice changes nothing. Small allocations are left alone: a huge
//! page would round them up.

use std::alloc::{GlobalAlloc, Layout, System};

pub struct HugePageAdvice;

/// Allocations at least this large are advised.
const ADVISE_FROM: usize = 4 << 20;
const HUGE_PAGE: usize = 2 << 20;

/// Advises the whole 2 MiB pages inside `size` bytes at `ptr` (a no-op off Linux).
fn advise(ptr: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    if !ptr.is_null() && size >= ADVISE_FROM {
        let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
        let end = (ptr as usize + size) / HUGE_PAGE * HUGE_PAGE;
        if end > start {
            // SAFETY: the range lies inside an allocation this process owns; MADV_HUGEPAGE
            // changes only how the kernel backs it, never its contents. A refusal (huge pages
            // compiled out) leaves ordinary pages, so the result is ignored.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
}

// SAFETY: every call is forwarded to `System` unchanged; `advise` only adds a hint.
unsafe impl GlobalAlloc for HugePageAdvice {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let ptr = unsafe { System.realloc(ptr, layout, new_size) };
        advise(ptr, new_size);
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Lets freed memory be reused instead of returned to the kernel, for the commands that analyze
/// runs (`main` asks `Command::analyzes_runs`; a load generator or a server keeps glibc's
/// defaults: its threads allocate at once and want their own arenas). A large analysis frees and allocates buffers of hundreds of MB, metric
/// after metric; glibc serves each from fresh mmapped pages that the kernel must fault in and
/// zero again (over 40 % of the time on a 100-million-request run). With no mmap, no trim below
/// 2 GB and one arena, the next buffer reuses the last one's pages: that run took 100 s instead
/// of 122 (`benches/analyze_long.rs`). Set once, before the analysis starts its threads.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: mallopt only sets allocator parameters.
        ONCE.call_once(|| unsafe {
            libc::mallopt(libc::M_MMAP_MAX, 0);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 2_000_000_000);
            libc::mallopt(libc::M_ARENA_MAX, 1);
        });
    }
}

