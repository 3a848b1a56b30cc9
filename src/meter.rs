//! A memory meter per piece of work: how many bytes the threads working for it hold, and the most
//! they held at once, counted by the global allocator itself.
//!
//! Why the allocator: the workbench must bound the memory of one request (issue 50), and the
//! process's resident size (what `cli::memory` watches for a CLI run) is shared by every request
//! at once, so it cannot say which one to stop; nor does it shrink when the allocator keeps freed
//! pages. [`Counting`] wraps the real allocator (mimalloc in the binary) and, on a thread that
//! carries a [`Meter`], adds each allocation's size to it and takes each free's size off. A thread
//! carries a meter inside [`metered`] only; threads the work spawns carry it when their closure is
//! wrapped in [`carried`] (the renderers' `thread::scope` jobs are), any other thread is not
//! counted.
//!
//! What it never does: fail an allocation (that aborts the whole process, every request with it)
//! or unwind from the allocator (undefined behaviour). The meter only counts; the work asks at
//! its checkpoints whether it passed its budget ([`over`]) and stops itself there. So one step
//! between two checkpoints (a generation, an edit, a render) runs to its end whatever it holds:
//! what bounds a single step is the limits on what it builds (counts, names, filled texts), and
//! the meter bounds what a request piles up across its steps and stops it after the step that
//! passed. The peak, not the bytes held at the checkpoint, is compared, so a step that held too
//! much and freed it is still refused.
//!
//! What it counts: the bytes asked of the allocator, net of those given back, by the threads that
//! carry the meter. Memory allocated before and freed inside counts negative; memory allocated
//! inside and freed elsewhere (an answer's body, sent by another thread) stays counted, which
//! errs on the side of stopping. The allocator's own overhead and page rounding are not counted.
//! A binary without [`Counting`] installed counts nothing (every meter stays at zero): the binary
//! (`main.rs`) and the test binaries install it; [`counting`] says whether this one does.
//!
//! The thread's meter is a raw pointer in a `const` thread-local with no destructor: reading it
//! from inside the allocator neither allocates nor registers anything (a lazy or dropping
//! thread-local would, and recurse). It points at an `Arc` that [`metered`] holds for as long as
//! the pointer is set, and is restored when [`metered`] returns or unwinds.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// The bytes one piece of work holds, the most it held, and the most it may hold.
#[derive(Debug)]
pub struct Meter {
    held: AtomicIsize,
    peak: AtomicUsize,
    budget: usize,
}

impl Meter {
    /// A meter at zero for work that may hold at most `budget` bytes.
    pub fn new(budget: usize) -> Arc<Meter> {
        Arc::new(Meter { held: AtomicIsize::new(0), peak: AtomicUsize::new(0), budget })
    }

    /// The bytes held now (negative when the work freed more than it allocated).
    pub fn held(&self) -> isize {
        self.held.load(Ordering::Relaxed)
    }

    /// The most bytes held at once so far.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    pub fn budget(&self) -> usize {
        self.budget
    }

    fn charge(&self, bytes: isize) {
        let now = self.held.fetch_add(bytes, Ordering::Relaxed).wrapping_add(bytes);
        // Most allocations do not raise the peak: one load, and a write only when they do.
        if let Ok(now) = usize::try_from(now)
            && now > self.peak.load(Ordering::Relaxed)
        {
            self.peak.fetch_max(now, Ordering::Relaxed);
        }
    }
}

thread_local! {
    /// The meter this thread counts into (null: none), set only inside [`metered`].
    static CURRENT: Cell<*const Meter> = const { Cell::new(std::ptr::null()) };
}

/// The meter this thread carries, if any.
pub fn current() -> Option<Arc<Meter>> {
    let ptr = CURRENT.get();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: a non-null pointer was set by `metered`, from an `Arc` that `metered`'s frame holds
    // until it puts the previous pointer back; adding a strong count first keeps that one intact.
    unsafe {
        Arc::increment_strong_count(ptr);
        Some(Arc::from_raw(ptr))
    }
}

/// Whether the work this thread does has held more than its meter's budget at any moment
/// (`None` outside [`metered`]): the meter's peak and budget then, for the refusal's line.
pub fn over() -> Option<(usize, usize)> {
    let m = current()?;
    (m.peak() > m.budget).then(|| (m.peak(), m.budget))
}

/// Runs `work` with this thread counting into `meter`; the thread's previous meter (none, on a
/// pool thread) is back after it, even when `work` panics, so a reused thread never counts into
/// a meter that is done.
pub fn metered<T>(meter: Arc<Meter>, work: impl FnOnce() -> T) -> T {
    struct Restore {
        previous: *const Meter,
        _meter: Arc<Meter>,
    }
    impl Drop for Restore {
        fn drop(&mut self) {
            // The pointer first: the `Arc` is dropped after, when the thread no longer counts.
            CURRENT.set(self.previous);
        }
    }
    let previous = CURRENT.replace(Arc::as_ptr(&meter));
    let _restore = Restore { previous, _meter: meter };
    work()
}

/// `work`, to run on another thread counting into this thread's meter (as it is now): for the
/// threads a piece of work spawns to do part of it.
pub fn carried<T>(work: impl FnOnce() -> T + Send) -> impl FnOnce() -> T + Send {
    let meter = current();
    move || match meter {
        Some(m) => metered(m, work),
        None => work(),
    }
}

/// Whether this binary's global allocator is [`Counting`]: a metered allocation shows on the meter.
pub fn counting() -> bool {
    let meter = Meter::new(usize::MAX);
    metered(meter.clone(), || drop(std::hint::black_box(vec![0u8; 64])));
    meter.peak() >= 64
}

/// The global allocator `A`, counting on a [`Meter`] what the threads that carry one allocate
/// and free. Installed by the binary over mimalloc: `Counting(mimalloc::MiMalloc)`.
pub struct Counting<A>(pub A);

fn charge(bytes: isize) {
    // `try_with`: never fails for a const thread-local without destructor, but costs nothing.
    let ptr = CURRENT.try_with(Cell::get).unwrap_or(std::ptr::null());
    if !ptr.is_null() {
        // SAFETY: see `current`: the `Arc` behind a set pointer lives while it is set.
        unsafe { &*ptr }.charge(bytes);
    }
}

/// A size as a signed count: allocations never pass `isize::MAX` bytes (`Layout` refuses them).
fn signed(bytes: usize) -> isize {
    isize::try_from(bytes).unwrap_or(isize::MAX)
}

// SAFETY: every call is passed on to `A` unchanged; the counting around it neither allocates nor
// unwinds.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.alloc(layout) };
        if !p.is_null() {
            charge(signed(layout.size()));
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if !p.is_null() {
            charge(signed(layout.size()));
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.0.dealloc(ptr, layout) };
        charge(-signed(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            charge(signed(new_size) - signed(layout.size()));
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` bytes the optimiser cannot drop.
    fn block(n: usize) -> Vec<u8> {
        std::hint::black_box(vec![1u8; n])
    }

    #[test]
    fn the_library_tests_count_through_the_counting_allocator() {
        assert!(counting(), "lib.rs installs `Counting` for its own tests");
    }

    #[test]
    fn a_meter_counts_what_its_thread_holds_and_its_peak_and_goes_back_to_zero_when_freed() {
        let meter = Meter::new(1 << 20);
        metered(meter.clone(), || {
            let a = block(300_000);
            let b = block(500_000);
            assert!(meter.held() >= 800_000, "{}", meter.held());
            drop((a, b));
            let mut grown = Vec::<u8>::with_capacity(10);
            grown.reserve_exact(100_000);
            std::hint::black_box(&grown);
        });
        assert_eq!(meter.held(), 0, "everything allocated inside was freed inside");
        assert!((800_000..900_000).contains(&meter.peak()), "peak {}", meter.peak());
        assert!(over().is_none(), "outside `metered` there is no meter");
    }

    #[test]
    fn a_meter_past_its_budget_says_so_at_the_next_question_even_after_the_memory_is_freed() {
        let meter = Meter::new(100_000);
        let seen = metered(meter.clone(), || {
            assert_eq!(over(), None);
            drop(block(200_000));
            over()
        });
        let (peak, budget) = seen.expect("over its budget");
        assert!(peak >= 200_000, "{peak}");
        assert_eq!(budget, 100_000);
    }

    #[test]
    fn a_thread_counts_into_no_meter_after_its_work_even_when_the_work_panicked() {
        let first = Meter::new(1 << 20);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            metered(first.clone(), || {
                let _held = block(50_000);
                panic!("a render that failed");
            })
        }));
        assert!(caught.is_err());
        assert!(current().is_none(), "the panic left no meter on the thread");
        let after = first.held();
        drop(block(400_000));
        assert_eq!(first.held(), after, "the done meter counts nothing more");
        // The next piece of work on this (reused) thread starts from zero.
        let second = Meter::new(1 << 20);
        metered(second.clone(), || drop(block(10_000)));
        assert_eq!(second.held(), 0);
        assert!((10_000..60_000).contains(&second.peak()), "{}", second.peak());
    }

    #[test]
    fn a_carried_closure_counts_its_thread_into_the_spawners_meter_and_others_do_not() {
        let meter = Meter::new(1 << 30);
        metered(meter.clone(), || {
            std::thread::scope(|s| {
                s.spawn(carried(|| drop(block(2_000_000))));
            });
            let before = meter.peak();
            std::thread::scope(|s| {
                s.spawn(|| drop(block(8_000_000)));
            });
            assert!(meter.peak() < before + 1_000_000, "an uncarried thread is not counted");
        });
        assert!(meter.peak() >= 2_000_000, "the carried thread's block: peak {}", meter.peak());
    }

    #[test]
    fn nested_work_counts_into_its_own_meter_and_the_outer_one_comes_back() {
        let outer = Meter::new(1 << 30);
        let inner = Meter::new(1 << 30);
        metered(outer.clone(), || {
            metered(inner.clone(), || drop(block(300_000)));
            assert!(Arc::ptr_eq(&current().unwrap(), &outer));
            drop(block(100_000));
        });
        assert!(inner.peak() >= 300_000);
        assert!((100_000..300_000).contains(&outer.peak()), "{}", outer.peak());
    }
}
