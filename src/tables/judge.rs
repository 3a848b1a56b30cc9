//! How hard an NW3 judge is meant to be, as the tables name it (`ordinary`, `hard`), and the one
//! rule of the number it stands for at a character level ([`judge_difficulty`]; the game's code
//! takes it through `nw3::rules`). Its own module so the trap, event and episode tables can all
//! name it, and print its numbers, without naming each other or the game.

/// How hard a judge of the fortress is meant to be for the model PC (see
/// [`judge_difficulty`], the one rule of judge numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Hardness {
    /// The model PC succeeds about half the time (at least half).
    Ordinary,
    /// The model PC succeeds about a quarter of the time (at least a quarter).
    Hard,
}

impl Hardness {
    /// "ordinary" or "hard", as the tables write it.
    pub fn label(self) -> &'static str {
        match self {
            Hardness::Ordinary => "ordinary",
            Hardness::Hard => "hard",
        }
    }

    /// Successes out of 36 the model PC should have at least.
    fn target_of_36(self) -> u32 {
        match self {
            Hardness::Ordinary => 18,
            Hardness::Hard => 9,
        }
    }
}

/// The Attribute the model PC rolls: a class pair gives 3 + 3 in a typical Attribute (each class
/// spreads 18 points over six, seed 000 l.216-256), the two Elements add 1 (6 points over six,
/// l.262-276). Level-up raises CL, skills, combat stats and Body/Mind but never an Attribute
/// (l.401-436), so the model PC of every CL rolls the same Attribute.
pub const MODEL_ATTRIBUTE: u32 = 7;
/// The model PC's Critical Value: its CF Mod (Luck / 3, l.290-300) moves the rolled value to 7.
pub const MODEL_CRITICAL: u32 = 7;
/// The model PC's Fumble Value: CF Mod moves it to 2 (seed 000 l.104).
pub const MODEL_FUMBLE: u32 = 2;

/// The Alter of the model PC of character level `cl` for an Attribute judge: its Attribute, the
/// same at every CL (see [`MODEL_ATTRIBUTE`]). Prana's +2D (l.134) and a Connection's +2 are the
/// player's to spend, so they are left out: spent, they lift a hard judge above even odds.
pub fn model_alter(_cl: u32) -> u32 {
    MODEL_ATTRIBUTE
}

/// Of the 36 rolls of 2D6, those on which a judge of `alter` against `difficulty` succeeds: the
/// Critical Value always succeeds, the Fumble Value never (its Result is Alter - 10), any other
/// roll when roll + Alter meets the difficulty (seed 000 l.60-66, l.108-114).
pub fn judge_successes_of_36(alter: u32, difficulty: u32) -> u32 {
    let ways = |s: u32| 6 - s.abs_diff(7);
    (2..=12u32).filter(|&r| r == MODEL_CRITICAL || (r != MODEL_FUMBLE && r + alter >= difficulty)).map(ways).sum()
}

/// The difficulty of a judge of `hardness` for a party of character level `cl`: the highest
/// difficulty the model PC (Alter [`model_alter`], Critical 7, Fumble 2) still passes at least
/// half the time (ordinary) or a quarter of the time (hard). The Area Event Chart, the scenario
/// events, trap identification and removal and the episode's legwork all take their numbers here.
pub fn judge_difficulty(cl: u32, hardness: Hardness) -> u32 {
    let alter = model_alter(cl);
    let target = hardness.target_of_36();
    // The critical alone passes 6 of 36, so a target above that is met below alter + 13.
    (alter + 2..=alter + 13).rev().find(|&d| judge_successes_of_36(alter, d) >= target).unwrap_or(alter + 2)
}
