//! The numbers the NW3 rules fix (seed 000, ~l.960-1013; seed 002), shared by the generator,
//! `check` and the booklet so they cannot drift apart.

/// Danger Sense difficulty that reveals a secret gate without its event (seed 000 ~l.962).
pub const DANGER_SENSE: u32 = 15;
/// Danger Sense difficulty when nothing else sets it (seed 000 ~l.1003).
pub const DANGER_SENSE_DEFAULT: u32 = 12;
/// Added to an ambusher's Perception for the Danger Sense difficulty (seed 000 ~l.1003).
pub const AMBUSH_BONUS: u32 = 7;
/// Any Seven: an enemy's initiative is its SPD plus this (seed 001).
pub const ANY_SEVEN: u32 = 7;
/// Appearance difficulty in the Entrance area, and what each gate from it adds (seed 000 ~l.966).
pub const APPEARANCE_BASE: u32 = 8;
pub const APPEARANCE_PER_GATE: u32 = 2;
/// Prana a PC spends to stop one Logic applying to them (seed 000 ~l.1015, seed 002).
pub const LOGIC_REMOVAL_PRANA: u32 = 1;
/// The Bad Statuses of the combat rules (seed 001), as the skill and trap texts name them; the
/// booklet's glossary explains those a fortress names.
pub const BAD_STATUSES: [&str; 5] = ["Pressure", "Rigor", "Poison", "Paralysis", "Dazed"];

/// How hard a judge of the fortress is meant to be for the model PC (see [`judge_difficulty`]).
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

/// The D6 a failed judge costs each PC who tried, for a party of character level `cl`: about an
/// eighth of the model PC's Body (`combat::model_pc`), at least 1D6.
pub fn failure_dice(cl: u32) -> u32 {
    let body = crate::nw3::combat::model_pc(cl).body;
    ((body + 14) / 28).max(1)
}

/// A table text with the judge placeholders filled for character level `cl`: `{ordinary}` and
/// `{hard}` by [`judge_difficulty`], `{cost}` by [`failure_dice`] (as "3D6").
pub fn fill_judges(text: &str, cl: u32) -> String {
    text.replace("{ordinary}", &judge_difficulty(cl, Hardness::Ordinary).to_string())
        .replace("{hard}", &judge_difficulty(cl, Hardness::Hard).to_string())
        .replace("{cost}", &format!("{}D6", failure_dice(cl)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ordinary_judge_passes_about_half_the_time_and_a_hard_one_a_quarter_at_every_cl() {
        for cl in 1..=20 {
            let alter = model_alter(cl);
            let ord = judge_difficulty(cl, Hardness::Ordinary);
            let hard = judge_difficulty(cl, Hardness::Hard);
            let (po, ph) = (judge_successes_of_36(alter, ord), judge_successes_of_36(alter, hard));
            assert!((18..=24).contains(&po), "CL {cl}: ordinary {ord} passes {po}/36");
            assert!((9..=12).contains(&ph), "CL {cl}: hard {hard} passes {ph}/36");
            // one step harder falls below the target: the difficulty is the highest that meets it
            assert!(judge_successes_of_36(alter, ord + 1) < 18 && judge_successes_of_36(alter, hard + 1) < 9);
        }
        assert_eq!((judge_difficulty(1, Hardness::Ordinary), judge_difficulty(20, Hardness::Hard)), (15, 18));
    }

    #[test]
    fn a_judge_counts_the_critical_as_success_and_the_fumble_as_failure() {
        // Alter 7 against 30: only the critical (7, six ways of 36) passes.
        assert_eq!(judge_successes_of_36(7, 30), 6);
        // Alter 20 against 10: every roll but the fumble (2, one way) passes.
        assert_eq!(judge_successes_of_36(20, 10), 35);
    }

    #[test]
    fn failure_costs_grow_with_the_party_level() {
        assert_eq!(failure_dice(1), 1);
        assert!(failure_dice(20) >= 5, "a CL 20 PC has about 140 HP");
        assert!((1..20).all(|cl| failure_dice(cl) <= failure_dice(cl + 1)));
        assert_eq!(fill_judges("{ordinary}/{hard}, {cost}", 1), "15/18, 1D6");
    }
}
