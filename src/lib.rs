//! dungeonsmith: seeded, printable dungeon scenarios for Make You Kingdom and Night Wizard 3rd.
//!
//! The pipeline, one module per stage: [`tables`] (load + validate) → generate ([`myk`], [`nw3`])
//! → [`check`] (the same rules the generators obey) → render (artifacts in memory) → output
//! (the only writer). [`cli`] sits on top.

pub mod check;
pub mod cli;
pub mod dice;
pub mod document;
pub mod edit;
pub mod error;
pub mod fix;
pub mod format;
pub mod input;
pub mod limits;
pub mod meter;
pub mod model;
pub mod myk;
pub mod near;
pub mod nw3;
pub mod options;
pub mod output;
pub mod permalink;
pub mod render;
pub mod serve;
pub mod tables;
pub mod text;
pub mod workbench;

pub use error::{Error, Result};

/// The library's own tests count memory as the binary does (`meter`'s tests need it).
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: meter::Counting<std::alloc::System> = meter::Counting(std::alloc::System);
