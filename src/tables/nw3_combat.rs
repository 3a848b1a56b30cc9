//! NW3 enemy combat records: attacks, enemy skills and stat tweaks of enemy-group members and
//! Rulers (our own content; see `tables/nw3/enemies.toml`). The numbers themselves come from the
//! formula in [`crate::nw3::combat`], so a record only says what kind of fighter it is.

use serde::{Deserialize, Serialize};

/// Physical attacks use PACC to hit and PATK for damage (against EVA and PDEF); magical ones
/// MACC and MATK (against EVA and MDEF) (seed 001, "Hit, Dodge, Damage").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Physical,
    Magical,
}

impl AttackKind {
    pub fn label(self) -> &'static str {
        match self {
            AttackKind::Physical => "physical",
            AttackKind::Magical => "magical",
        }
    }
}

/// How far an attack reaches (seed 001, "Movement & Engage").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// Characters in the attacker's own Engage.
    Close,
    /// Up to Short range (Close included).
    Short,
    /// Up to Long range.
    Long,
}

impl Reach {
    pub fn label(self) -> &'static str {
        match self {
            Reach::Close => "Close",
            Reach::Short => "Short",
            Reach::Long => "Long",
        }
    }
}

/// Who an attack hits (one Hit Check; each target dodges for itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// One character.
    Single,
    /// Every character in one Engage.
    Engage,
    /// Every enemy of the attacker in the scene.
    Scene,
}

impl Target {
    pub fn label(self) -> &'static str {
        match self {
            Target::Single => "one character",
            Target::Engage => "everyone in one Engage",
            Target::Scene => "every foe in the scene",
        }
    }
}

/// When a skill is used (the timings of seed 001's round).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    Constant,
    Setup,
    Initiative,
    Move,
    Minor,
    Major,
    Reaction,
    Auto,
    Cleanup,
}

impl Timing {
    pub fn label(self) -> &'static str {
        match self {
            Timing::Constant => "Constant",
            Timing::Setup => "Setup Process",
            Timing::Initiative => "Initiative Process",
            Timing::Move => "Move Action",
            Timing::Minor => "Minor Action",
            Timing::Major => "Major Action",
            Timing::Reaction => "Reaction",
            Timing::Auto => "Auto Action",
            Timing::Cleanup => "Cleanup Process",
        }
    }
}

/// One attack a member or Ruler makes: its accuracy and damage are the stat of its kind plus
/// these offsets.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AttackRecord {
    pub name: String,
    pub kind: AttackKind,
    pub range: Reach,
    pub target: Target,
    /// Added to PACC or MACC for the Hit Check.
    #[serde(default)]
    pub accuracy: i32,
    /// Added to PATK or MATK for the damage judge.
    #[serde(default)]
    pub damage: i32,
}

/// An enemy skill (shared by name between members and Rulers).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SkillRecord {
    pub name: String,
    pub timing: Timing,
    /// The effect in our own words.
    pub effect: String,
}

/// Small per-record shifts of the formula's stats (each within ±[`MAX_TWEAK`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct StatTweak {
    pub pacc: i32,
    pub patk: i32,
    pub pdef: i32,
    pub macc: i32,
    pub matk: i32,
    pub mdef: i32,
    pub eva: i32,
    pub perception: i32,
}

/// Largest shift a [`StatTweak`] field may make; it keeps a boss's defence below the party's
/// attack + 5 at every level (see [`crate::nw3::combat`]).
pub const MAX_TWEAK: i32 = 4;

impl StatTweak {
    /// The first field beyond ±[`MAX_TWEAK`], as (field, value).
    pub fn out_of_range(&self) -> Option<(&'static str, i32)> {
        [
            ("pacc", self.pacc),
            ("patk", self.patk),
            ("pdef", self.pdef),
            ("macc", self.macc),
            ("matk", self.matk),
            ("mdef", self.mdef),
            ("eva", self.eva),
            ("perception", self.perception),
        ]
        .into_iter()
        .find(|(_, v)| v.abs() > MAX_TWEAK)
    }
}

/// Why a fighter's skills do not fit it, or `None`: a skill that works through a magical (or
/// physical) attack on a fighter without one, or one skill saying it "cannot" do what another
/// says it "may" (as "cannot Cover Up" beside "may Cover Up"). The tables' load and `check`
/// (rule `enemy.skills`) use it.
pub fn skill_conflict<'a>(skills: &[(&'a str, &'a str)], kinds: &[AttackKind]) -> Option<String> {
    for &(name, effect) in skills {
        for (kind, word) in [(AttackKind::Magical, "magical"), (AttackKind::Physical, "physical")] {
            if effect.contains(&format!("its {word} attack")) && !kinds.contains(&kind) {
                return Some(format!("`{name}` works through a {word} attack, and it has none"));
            }
        }
    }
    // "cannot Cover Up" -> "Cover Up": the two words after a "cannot" or a "may".
    let after = |effect: &'a str, word: &str| -> Vec<String> {
        effect
            .match_indices(word)
            .map(|(i, _)| effect[i + word.len()..].split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .map(|w| w.trim_end_matches(['.', ',', ';']).to_string())
            .collect()
    };
    for &(no, no_effect) in skills {
        for barred in after(no_effect, "cannot ") {
            if let Some(&(yes, _)) = skills.iter().find(|(_, e)| after(e, "may ").contains(&barred)) {
                return Some(format!("`{no}` says it cannot {barred} and `{yes}` that it may"));
            }
        }
    }
    None
}
