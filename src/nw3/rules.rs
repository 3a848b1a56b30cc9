//! The numbers the NW3 rules fix (seed 000, ~l.960-1013; seed 002), shared by the generator,
//! `check` and the booklet so they cannot drift apart.

// The judge arithmetic (the model PC and the difficulty it passes) sits beside the words the
// tables write (`ordinary`, `hard`), so the tables can print a record's numbers without naming
// this module (no module circle); here is where the game's code takes it from.
pub use crate::tables::judge::{
    Hardness, MODEL_ATTRIBUTE, MODEL_CRITICAL, MODEL_FUMBLE, judge_difficulty, judge_successes_of_36, model_alter,
};
use crate::tables::nw3_episode::Topic;

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

/// Whether a legwork topic tells the party how to go on: how the Entrance opens, what the Logic
/// inside holds them to, where a secret gate lies, where the Core stands and the victim is held.
/// A party that fails such a judge may have no other way on, so it is never harder than
/// ordinary. Who the Ruler was and where it is weak only help, and may be hard.
pub fn legwork_is_way_onward(topic: Topic) -> bool {
    !matches!(topic, Topic::Ruler | Topic::Weakness)
}

/// The hardness of a legwork item of `topic` whose record asks `asked` (none: the topic's own,
/// hard for what only helps): ordinary for a way onward whatever the record says.
pub fn legwork_hardness(topic: Topic, asked: Option<Hardness>) -> Hardness {
    if legwork_is_way_onward(topic) { Hardness::Ordinary } else { asked.unwrap_or(Hardness::Hard) }
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
    fn a_legwork_judge_that_shows_the_way_onward_is_never_above_ordinary() {
        for t in Topic::ALL {
            let asked_hard = legwork_hardness(t, Some(Hardness::Hard));
            if legwork_is_way_onward(t) {
                assert_eq!(asked_hard, Hardness::Ordinary, "{t:?}");
            } else {
                assert_eq!((asked_hard, legwork_hardness(t, None)), (Hardness::Hard, Hardness::Hard), "{t:?}");
                assert_eq!(legwork_hardness(t, Some(Hardness::Ordinary)), Hardness::Ordinary, "{t:?}");
            }
        }
        assert!(legwork_is_way_onward(Topic::Entrance) && !legwork_is_way_onward(Topic::Weakness));
    }
}
