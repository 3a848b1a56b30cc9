//! `examples/bar.rs` on mimalloc, the allocator the `dungeonsmith` binary uses (`src/main.rs`):
//! what a GM's run of the program pays for generate+check, beside the bar's system-allocator
//! figure. `scripts/rotjs-bar/run.sh` prints both.
//!
//! `cargo build --profile bench --locked --example bar_mimalloc`, then
//! `target/release/examples/bar_mimalloc [PER_BATCH [BATCHES [WARMUP]]]`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const ALLOCATOR: &str = "mimalloc";

include!("shared/bar.rs");
