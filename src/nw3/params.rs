//! What the GM asks a Fortress for (party size, character level, number of areas) and the ranges
//! each may take. Its own module so that the model and `check` need not reach into the generator.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
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

impl Default for FortressParams {
    fn default() -> Self {
        FortressParams { party: 4, cl: 3, areas: 10, party_attack: None, party_defence: None, party_hp: None }
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
    /// The permalink fields [`FortressParams::from_query`] reads and
    /// [`FortressParams::query_pairs`] writes.
    pub const QUERY_FIELDS: [&'static str; 6] = ["party", "cl", "areas", "party-attack", "party-defence", "party-hp"];

    /// The params a permalink gives, each absent one at the command line's default.
    pub fn from_query(q: &Fields) -> Result<FortressParams> {
        let d = FortressParams::default();
        let params = FortressParams {
            party: q.opt_u32("party")?.unwrap_or(d.party),
            cl: q.opt_u32("cl")?.unwrap_or(d.cl),
            areas: q.opt_u32("areas")?.unwrap_or(d.areas),
            party_attack: q.opt_u32("party-attack")?,
            party_defence: q.opt_u32("party-defence")?,
            party_hp: q.opt_u32("party-hp")?,
        };
        params.validate()?;
        Ok(params)
    }

    /// The params as the workbench's permalink writes them; the party's own numbers only when
    /// the GM gave them (absent: the model PC's).
    pub fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs =
            vec![("party", self.party.to_string()), ("cl", self.cl.to_string()), ("areas", self.areas.to_string())];
        for (name, v) in
            [("party-attack", self.party_attack), ("party-defence", self.party_defence), ("party-hp", self.party_hp)]
        {
            if let Some(v) = v {
                pairs.push((name, v.to_string()));
            }
        }
        pairs
    }
}
