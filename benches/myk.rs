//! Time to generate and check one default MYK scenario (court of 4 at level 2, one mixed map of 9
//! rooms). `cargo bench --bench myk`; the figure is recorded in the README.
//!
//! This bench runs on the system allocator, as a program using the library would by default;
//! `--bench myk_mimalloc` runs the same measurements on mimalloc, the allocator the
//! `dungeonsmith` binary uses.

include!("shared/myk.rs");
