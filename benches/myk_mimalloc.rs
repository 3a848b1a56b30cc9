//! The measurements of `benches/myk.rs` (default MYK scenario generate+check, check alone, tables
//! ready) on mimalloc through the glue the `dungeonsmith` binary uses (`src/alloc.rs`), so the
//! figures are what a GM's run pays. `cargo bench --bench myk_mimalloc`.

#[global_allocator]
static GLOBAL: dungeonsmith::alloc::Mimalloc = dungeonsmith::alloc::Mimalloc;

include!("shared/myk.rs");
