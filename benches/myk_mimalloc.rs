//! The measurements of `benches/myk.rs` (default MYK scenario generate+check, check alone, tables
//! ready) on mimalloc, the allocator the `dungeonsmith` binary uses (`src/main.rs`), so the
//! figures are what a GM's run pays. `cargo bench --bench myk_mimalloc`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

include!("shared/myk.rs");
