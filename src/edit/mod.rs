//! The workbench stage, beside generate: reroll one part of a scenario on its own dice stream,
//! keep locked parts while the rest is rolled anew (`--from`). The CLI and the server both call it.

pub mod myk;
pub mod nw3;

use serde::{Deserialize, Serialize};

/// One reroll as the scenario records it, replayed in order after generation: the part's path
/// (e.g. `map1/B2/monsters`, `area5/enemies`, `frame`) and which reroll of that part it was
/// (1 for the first), so the part's dice stream is `seed + path + n`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reroll {
    pub part: String,
    pub n: u32,
}

/// Serde helper: skip `false` flags so files without locks stay byte-identical.
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}
