//! The workbench stage, beside generate: reroll one part of a scenario on its own dice stream,
//! keep locked parts while the rest is rolled anew (`--from`). The CLI and the server both call it.

pub mod myk;
pub mod nw3;

/// What the `reroll` command's options say about the part (`--map 1 --room B2 --part traps`,
/// `--area 5`, `--frame`); each game reads the combinations it knows, naming the option at fault.
#[derive(Clone, Copy, Debug, Default)]
pub struct PartOptions<'a> {
    /// The scenario file, as its errors name it.
    pub file: &'a str,
    pub map: Option<u32>,
    pub room: Option<&'a str>,
    pub area: Option<u32>,
    pub frame: bool,
    pub part: Option<&'a str>,
}

/// Why a reroll changed nothing when no rule held it back: the new roll drew what was there.
pub const SAME_ROLL: &str = "the new roll drew what was there; reroll again for the next roll";
