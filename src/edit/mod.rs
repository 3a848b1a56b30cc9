//! The workbench stage, beside generate: reroll one part of a scenario on its own dice stream,
//! keep locked parts while the rest is rolled anew (`--from`). The CLI and the server both call it.

pub mod myk;
pub mod nw3;
