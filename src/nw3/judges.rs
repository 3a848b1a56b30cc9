//! What a table text's judge placeholders stand for at a party's level: `{ordinary}` and `{hard}`
//! by the judge rule ([`crate::nw3::rules::judge_difficulty`]), `{cost}` by what a failure costs
//! the model PC ([`crate::nw3::combat::model_pc`]). Apart from `rules` because it reads the
//! model PC's Body from `combat`, which itself reads `rules` (no module circle).

use crate::nw3::rules::{Hardness, judge_difficulty};

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
    fn failure_costs_grow_with_the_party_level() {
        assert_eq!(failure_dice(1), 1);
        assert!(failure_dice(20) >= 5, "a CL 20 PC has about 140 HP");
        assert!((1..20).all(|cl| failure_dice(cl) <= failure_dice(cl + 1)));
        assert_eq!(fill_judges("{ordinary}/{hard}, {cost}", 1), "15/18, 1D6");
    }
}
