//! What the GM asks a Fortress for (party size, character level, number of areas) and the ranges
//! each may take. Its own module so that the model and `check` need not reach into the generator.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::options::{Input, Opt};
use crate::permalink::Fields;

/// Party size (`--party`).
pub const PARTY: RangeInclusive<u32> = 1..=8;
/// Character level (`--cl`).
pub const CL: RangeInclusive<u32> = 1..=20;
/// Number of areas (`--areas`).
pub const AREAS: RangeInclusive<u32> = 3..=40;

/// What the GM asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FortressParams {
    /// Number of PCs (1-8).
    pub party: u32,
    /// Character level (1-20).
    pub cl: u32,
    /// Number of areas (3-40).
    pub areas: u32,
    /// The party's own attack (PATK or MATK of a PC's main attack), in place of the model PC's
    /// (`--party-attack`); absent: the model's, 10 + CL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party_attack: Option<u32>,
    /// The party's own defence (`--party-defence`); absent: the model's, 5 + CL / 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party_defence: Option<u32>,
    /// A PC's HP, the Body the enemies measure against (`--party-hp`); absent: 21 + 6 x CL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party_hp: Option<u32>,
}

/// `--party-attack` and `--party-defence`.
pub const PARTY_STAT: RangeInclusive<u32> = 0..=99;
/// `--party-hp`.
pub const PARTY_HP: RangeInclusive<u32> = 1..=999;

/// `--party`: party size.
pub const PARTY_OPT: Opt = Opt {
    name: "party",
    label: "Party",
    help: "Party size, {range}.",
    input: Input::Number { range: PARTY, default: Some(4) },
    placeholder: "",
    replaces: &[],
};
/// `--cl`: the party's character level.
pub const CL_OPT: Opt = Opt {
    name: "cl",
    label: "CL",
    help: "Character level of the party, {range}.",
    input: Input::Number { range: CL, default: Some(3) },
    placeholder: "",
    replaces: &[],
};
/// `--areas`: number of areas.
pub const AREAS_OPT: Opt = Opt {
    name: "areas",
    label: "Areas",
    help: "Number of areas, {range}.",
    input: Input::Number { range: AREAS, default: Some(10) },
    placeholder: "",
    replaces: &[],
};
/// `--party-attack`: a PC's own attack (absent: the model PC's).
pub const PARTY_ATTACK: Opt = Opt {
    name: "party-attack",
    label: "PC attack",
    help: "A PC's attack (PATK or MATK of the main attack, {range}): every enemy is tuned to it instead of the model PC's 10 + CL.",
    input: Input::Number { range: PARTY_STAT, default: None },
    placeholder: "model",
    replaces: &[],
};
/// `--party-defence`: a PC's own defence (absent: the model PC's).
pub const PARTY_DEFENCE: Opt = Opt {
    name: "party-defence",
    label: "PC defence",
    help: "A PC's defence (PDEF, {range}), instead of the model PC's 5 + CL / 2.",
    input: Input::Number { range: PARTY_STAT, default: None },
    placeholder: "model",
    replaces: &[],
};
/// `--party-hp`: a PC's own HP (absent: the model PC's).
pub const PARTY_HP_OPT: Opt = Opt {
    name: "party-hp",
    label: "PC HP",
    help: "A PC's HP ({range}), instead of the model PC's 21 + 6 x CL.",
    input: Input::Number { range: PARTY_HP, default: None },
    placeholder: "model",
    replaces: &[],
};
/// Every option of a Fortress, in the order the command line and the form list them.
pub const OPTIONS: [Opt; 6] = [PARTY_OPT, CL_OPT, AREAS_OPT, PARTY_ATTACK, PARTY_DEFENCE, PARTY_HP_OPT];

impl Default for FortressParams {
    fn default() -> Self {
        FortressParams {
            party: const { PARTY_OPT.number_default() },
            cl: const { CL_OPT.number_default() },
            areas: const { AREAS_OPT.number_default() },
            party_attack: None,
            party_defence: None,
            party_hp: None,
        }
    }
}

impl FortressParams {
    /// An error naming the field when a value is out of range.
    pub fn validate(&self) -> Result<()> {
        for (field, value, range) in [("party", self.party, PARTY), ("cl", self.cl, CL), ("areas", self.areas, AREAS)] {
            if !range.contains(&value) {
                return Err(Error::range(field, &range, "", value));
            }
        }
        for (field, value, range) in [
            ("party_attack", self.party_attack, PARTY_STAT),
            ("party_defence", self.party_defence, PARTY_STAT),
            ("party_hp", self.party_hp, PARTY_HP),
        ] {
            if let Some(value) = value
                && !range.contains(&value)
            {
                return Err(Error::range(field, &range, "", value));
            }
        }
        Ok(())
    }
}

impl FortressParams {
    /// The params a permalink gives, each absent one at the command line's default.
    pub fn from_query(q: &Fields) -> Result<FortressParams> {
        let d = FortressParams::default();
        let params = FortressParams {
            party: q.opt_u32(PARTY_OPT.name)?.unwrap_or(d.party),
            cl: q.opt_u32(CL_OPT.name)?.unwrap_or(d.cl),
            areas: q.opt_u32(AREAS_OPT.name)?.unwrap_or(d.areas),
            party_attack: q.opt_u32(PARTY_ATTACK.name)?,
            party_defence: q.opt_u32(PARTY_DEFENCE.name)?,
            party_hp: q.opt_u32(PARTY_HP_OPT.name)?,
        };
        params.validate()?;
        Ok(params)
    }

    /// The params as the workbench's permalink writes them; the party's own numbers only when
    /// the GM gave them (absent: the model PC's).
    pub fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![
            (PARTY_OPT.name, self.party.to_string()),
            (CL_OPT.name, self.cl.to_string()),
            (AREAS_OPT.name, self.areas.to_string()),
        ];
        for (name, v) in [
            (PARTY_ATTACK.name, self.party_attack),
            (PARTY_DEFENCE.name, self.party_defence),
            (PARTY_HP_OPT.name, self.party_hp),
        ] {
            if let Some(v) = v {
                pairs.push((name, v.to_string()));
            }
        }
        pairs
    }
}
