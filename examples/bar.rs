//! The Rust side of issue 35's bar (`scripts/rotjs-bar/run.sh` runs it against rot-js): MYK
//! generate+check of the default scenario, in microseconds per scenario, with the iteration
//! scheme of `scripts/rotjs-bar/bench.mjs`: WARMUP scenarios first, then BATCHES batches of
//! PER_BATCH scenarios, each batch timed on its own; the median batch's mean is printed (a batch
//! another process interrupts on a shared machine is an outlier, not the figure).
//!
//! `cargo build --profile bench --locked --example bar`, then
//! `target/release/examples/bar [PER_BATCH [BATCHES [WARMUP]]]`.
//!
//! It runs on the system allocator, as `cargo bench --bench myk` does and as a program using the
//! library would by default: this is the bar's figure. `--example bar_mimalloc` measures the same
//! on the `dungeonsmith` binary's allocator.

const ALLOCATOR: &str = "system allocator";

include!("shared/bar.rs");
