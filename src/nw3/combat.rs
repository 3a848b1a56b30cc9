//! Enemy combat data for the party at the table: one formula, used by the generator, by `check`
//! (which recomputes every stat block) and by the upgrade of format-1 files.
//!
//! The formula is documented beside the data in `tables/nw3/enemies.toml`. In short: a model PC
//! of the party's character level (accuracy, evasion, attack, defence, Body) is built from the
//! creation and level-up rules of seed 000 (~l.290-430); each rank (Mob, Guest, Boss) sets its
//! accuracy, evasion, attack and defence against that PC, and a Boss's Body is the party's
//! expected damage per round times [`FIGHT_ROUNDS`] (seed 000 ~l.1060-1075), computed exactly
//! over the 2D6 against 2D6 of the Hit Check and the damage judge.

use crate::nw3::model::{Area, Attack, Fortress, Skill, Stats};
use crate::nw3::rules::{AMBUSH_BONUS, DANGER_SENSE_DEFAULT};
use crate::tables::Tables;
use crate::tables::nw3::{CL_MAX, CL_MIN, MemberRecord, Nw3Data, Rank, RulerRecord};
use crate::tables::nw3_combat::{AttackKind, AttackRecord, StatTweak};

/// Rounds a Boss fight should last (the book warns that ten rounds lose the tension).
pub const FIGHT_ROUNDS: u64 = 5;
/// A Boss's defence may not be this much or more above the party's attack (seed 000 ~l.1070).
pub const DEFENCE_GAP: u32 = 5;
/// The kind an enemy does not mainly use (physical or magical) gets this much less accuracy, and
/// half the attack.
const OFF_KIND_ACCURACY: i64 = 3;

/// The party member the numbers are measured against, at a character level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelPc {
    /// PACC or MACC of the PC's main attack.
    pub accuracy: u32,
    pub evasion: u32,
    /// PATK or MATK of the PC's main attack, weapon and attack skills averaged in.
    pub attack: u32,
    pub defence: u32,
    pub body: u32,
}

/// Party sizes and levels outside the options are clamped (hand-edited files may hold anything).
fn clamp(cl: u32, party: u32) -> (u32, u32) {
    (cl.clamp(CL_MIN, CL_MAX), party.clamp(1, 8))
}

/// The model PC of character level `cl`: our reading of a typical built PC with a weapon (the
/// seeds' sample PC has physical attack 3 at CL 1 and no weapon data, so the GM may state the
/// party's own numbers instead, [`PartyModel::of`]).
pub fn model_pc(cl: u32) -> ModelPc {
    let c = cl.clamp(CL_MIN, CL_MAX);
    ModelPc { accuracy: 10 + c / 3, evasion: 9 + c / 4, attack: 10 + c, defence: 5 + c / 2, body: 21 + 6 * c }
}

/// The party every stat block is tuned to: its level, its size and the PC the numbers are
/// measured against (the model PC, with the attack, defence and HP the GM states in its place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartyModel {
    pub cl: u32,
    pub size: u32,
    pub pc: ModelPc,
}

impl PartyModel {
    /// The model party of `size` PCs of level `cl`, as the blocks assume without party options.
    pub fn model(cl: u32, size: u32) -> PartyModel {
        PartyModel { cl, size, pc: model_pc(cl) }
    }

    /// The party the options describe: `--party-attack`, `--party-defence`, `--party-hp` replace
    /// the model PC's attack, defence and Body.
    pub fn of(p: &crate::nw3::params::FortressParams) -> PartyModel {
        let mut m = PartyModel::model(p.cl, p.party);
        m.pc.attack = p.party_attack.unwrap_or(m.pc.attack);
        m.pc.defence = p.party_defence.unwrap_or(m.pc.defence);
        m.pc.body = p.party_hp.unwrap_or(m.pc.body);
        m
    }
}

/// Entry `k` counts the rolls of (2D6, 2D6), of 1296, whose difference (first minus second) is
/// `k - 10` ([`diff_counts`] derives it; a test holds the two equal).
const DIFF: [u64; 21] = [1, 4, 10, 20, 35, 56, 80, 104, 125, 140, 146, 140, 125, 104, 80, 56, 35, 20, 10, 4, 1];

/// [`DIFF`] counted from the dice.
#[cfg(test)]
fn diff_counts() -> [u64; 21] {
    let mut d = [0u64; 21];
    for a in 2..=12i64 {
        for b in 2..=12i64 {
            let ways = |s: i64| 6 - (s - 7).abs();
            d[(a - b + 10) as usize] += (ways(a) * ways(b)) as u64;
        }
    }
    d
}

/// Outcomes (of 1296) in which 2D6 + `accuracy` meets or beats 2D6 + `evasion` (ties to the
/// attacker, seed 002).
pub fn hits_of_1296(accuracy: u32, evasion: u32) -> u64 {
    let need = i64::from(evasion) - i64::from(accuracy);
    DIFF.iter().enumerate().filter(|(k, _)| *k as i64 - 10 >= need).map(|(_, n)| n).sum()
}

/// Sum over the 1296 outcomes of max(0, (2D6 + `attack`) - (2D6 + `defence`)): 1296 times the
/// mean HP damage of a hit.
pub fn damage_of_1296(attack: u32, defence: u32) -> u64 {
    let margin = i64::from(attack) - i64::from(defence);
    DIFF.iter().enumerate().map(|(k, n)| (margin + k as i64 - 10).max(0) as u64 * n).sum()
}

/// The Body that `pcs` model PCs of level `cl` wear down in `rounds` rounds on average: their
/// expected damage in a round (hit chance against `eva` times the mean damage against the mean of
/// `pdef` and `mdef`) times the rounds, rounded up, at least 1.
pub fn worn_down_in(pc: ModelPc, pcs: u32, rounds: u64, eva: u32, pdef: u32, mdef: u32) -> u32 {
    let def = (pdef + mdef) / 2;
    let num = u64::from(pcs) * hits_of_1296(pc.accuracy, eva) * damage_of_1296(pc.attack, def) * rounds;
    let body = num.div_ceil(1296 * 1296);
    u32::try_from(body).unwrap_or(u32::MAX).max(1)
}

/// A Boss's Body (seed 000 ~l.1060-1075): the whole party's expected damage in a round times
/// [`FIGHT_ROUNDS`].
pub fn boss_body(p: PartyModel, eva: u32, pdef: u32, mdef: u32) -> u32 {
    let (_, party) = clamp(p.cl, p.size);
    worn_down_in(p.pc, party, FIGHT_ROUNDS, eva, pdef, mdef)
}

/// The stat block, attacks and skills of one enemy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub stats: Stats,
    pub attacks: Vec<Attack>,
    pub skills: Vec<Skill>,
}

fn nat(v: i64) -> u32 {
    u32::try_from(v.max(0)).unwrap_or(u32::MAX)
}

/// The stat block of an enemy of `rank` whose main kind is that of its first attack.
pub fn stats(rank: Rank, attacks: &[AttackRecord], tweak: &StatTweak, p: PartyModel) -> Stats {
    let (cl, party) = clamp(p.cl, p.size);
    let pc = p.pc;
    let c = i64::from(cl);
    let (acc_mod, eva_pen, hit_div, margin) = match rank {
        Rank::Mob => (0, 3, 8, 7),
        Rank::Guest => (1, 1, 6, 5),
        Rank::Boss => (2, 0, 4, 4),
    };
    let acc = i64::from(pc.evasion) + acc_mod;
    // A hit takes a share of a PC's Body; a Boss's share grows with the party as its Body does
    // (a quarter for the party of four, the model's).
    let atk = match rank {
        Rank::Boss => i64::from(pc.defence) + i64::from(pc.body) * i64::from(party) / (4 * i64::from(hit_div)),
        _ => i64::from(pc.defence) + i64::from(pc.body / hit_div),
    };
    let def = i64::from(pc.attack) - margin - c / 2;
    let physical = attacks.first().is_none_or(|a| a.kind == AttackKind::Physical);
    let (p_acc, m_acc) = if physical { (acc, acc - OFF_KIND_ACCURACY) } else { (acc - OFF_KIND_ACCURACY, acc) };
    let (p_atk, m_atk) = if physical { (atk, atk / 2) } else { (atk / 2, atk) };
    let t = tweak;
    let eva = nat(i64::from(pc.accuracy) - eva_pen + i64::from(t.eva));
    let pdef = nat(def + i64::from(t.pdef));
    let mdef = nat(def + i64::from(t.mdef));
    // A Mob falls to one PC in 2 rounds (its numbers, not its Body, grow with the party); a Guest
    // is built like a PC (seed 000 ~l.1027) and has a PC's Body; the Boss lasts the fight.
    let body = match rank {
        Rank::Mob => worn_down_in(pc, 1, 2, eva, pdef, mdef),
        Rank::Guest => pc.body,
        // never less than a Guest's (a PC's) Body, which a small party's damage can fall below
        Rank::Boss => boss_body(p, eva, pdef, mdef).max(pc.body),
    };
    let (mind, perception) = match rank {
        Rank::Mob => (4 + cl, 2 + cl / 3),
        Rank::Guest => (10 + 2 * cl, 3 + cl / 3),
        Rank::Boss => (20 + 3 * cl, 4 + cl / 3),
    };
    Stats {
        pacc: nat(p_acc + i64::from(t.pacc)),
        patk: nat(p_atk + i64::from(t.patk)),
        pdef,
        macc: nat(m_acc + i64::from(t.macc)),
        matk: nat(m_atk + i64::from(t.matk)),
        mdef,
        eva,
        body,
        mind,
        perception: nat(i64::from(perception) + i64::from(t.perception)),
    }
}

/// An attack's Hit Check and damage numbers for a stat block.
fn attack_numbers(a: &AttackRecord, s: &Stats) -> (u32, u32) {
    let (hit, dmg) = match a.kind {
        AttackKind::Physical => (s.pacc, s.patk),
        AttackKind::Magical => (s.macc, s.matk),
    };
    (nat(i64::from(hit) + i64::from(a.accuracy)), nat(i64::from(dmg) + i64::from(a.damage)))
}

/// `{rating}` for a level: 1 + CL / 5.
fn rating(cl: u32) -> u32 {
    1 + cl.clamp(CL_MIN, CL_MAX) / 5
}

/// True when `text` is `template` with every `{rating}` replaced by `rating` (no allocation).
fn is_filled(text: &str, template: &str, rating: &str) -> bool {
    let mut rest = text;
    for (i, part) in template.split("{rating}").enumerate() {
        if i > 0 {
            let Some(r) = rest.strip_prefix(rating) else { return false };
            rest = r;
        }
        let Some(r) = rest.strip_prefix(part) else { return false };
        rest = r;
    }
    rest.is_empty()
}

/// True when `attacks` and `skills` are what the records give for the stat block `s` (what
/// `check` compares, without building the block).
pub fn same_moves(
    d: &Nw3Data,
    records: (&[AttackRecord], &[String]),
    s: &Stats,
    cl: u32,
    attacks: &[Attack],
    skills: &[Skill],
) -> bool {
    let (ar, sr) = records;
    let mut rating_buf = itoa::Buffer::new();
    let rating_str = rating_buf.format(rating(cl));
    let attacks_ok = ar.len() == attacks.len()
        && ar.iter().zip(attacks).all(|(rec, a)| {
            let (hit, dmg) = attack_numbers(rec, s);
            rec.name == a.name
                && rec.kind == a.kind
                && rec.range == a.range
                && rec.target == a.target
                && (hit, dmg) == (a.accuracy, a.damage)
        });
    let mut want = sr.iter().filter_map(|name| d.enemy_skill(name));
    let skills_ok = skills.iter().all(|k| {
        want.next()
            .is_some_and(|w| w.name == k.name && w.timing == k.timing && is_filled(&k.effect, &w.effect, rating_str))
    }) && want.next().is_none();
    attacks_ok && skills_ok
}

/// The numbers for an enemy of `rank` whose main kind is that of its first attack.
pub fn block(
    d: &Nw3Data,
    rank: Rank,
    attacks: &[AttackRecord],
    skills: &[String],
    tweak: &StatTweak,
    p: PartyModel,
) -> Block {
    let cl = p.cl;
    let stats = stats(rank, attacks, tweak, p);
    let attacks = attacks
        .iter()
        .map(|a| {
            let (accuracy, damage) = attack_numbers(a, &stats);
            Attack { name: a.name.clone(), kind: a.kind, range: a.range, target: a.target, accuracy, damage }
        })
        .collect();
    let rating = rating(cl).to_string();
    let skills = skills
        .iter()
        .filter_map(|name| d.enemy_skill(name))
        .map(|k| Skill { name: k.name.clone(), timing: k.timing, effect: k.effect.replace("{rating}", &rating) })
        .collect();
    Block { stats, attacks, skills }
}

/// The block of an enemy-group member.
pub fn member_block(d: &Nw3Data, m: &MemberRecord, p: PartyModel) -> Block {
    block(d, m.rank, &m.attacks, &m.skills, &m.tweak, p)
}

/// One member of an enemy group, `count` strong, for the party: record data, Any Seven initiative
/// and stat block. The generator and `fix` build members with this one function.
pub fn enemy(d: &Nw3Data, m: &MemberRecord, count: u32, p: PartyModel) -> crate::nw3::model::Enemy {
    let b = member_block(d, m, p);
    crate::nw3::model::Enemy {
        name: m.name.clone(),
        rank: m.rank,
        count,
        spd: m.spd,
        initiative: m.spd.saturating_add(crate::nw3::rules::ANY_SEVEN),
        stats: Some(b.stats),
        attacks: b.attacks,
        skills: b.skills,
    }
}

/// The Ruler's tweak for the party: its record's, with PATK and MATK raised as far as it takes for
/// its strongest attack to hit at least as hard as every Mob's and Guest's of the tables (so of
/// its own fortress): the glossary's Boss is tougher than a Guest.
pub fn ruler_tweak(d: &Nw3Data, r: &RulerRecord, p: PartyModel) -> StatTweak {
    let best = |b: &Block| b.attacks.iter().map(|a| a.damage).max().unwrap_or(0);
    let plain = block(d, Rank::Boss, &r.attacks, &[], &r.tweak, p);
    let others = d
        .enemies
        .iter()
        .flat_map(|e| &e.members)
        .filter(|m| m.rank != Rank::Boss)
        .map(|m| best(&block(d, m.rank, &m.attacks, &[], &m.tweak, p)))
        .max()
        .unwrap_or(0);
    let gap = i32::try_from(others.saturating_sub(best(&plain))).unwrap_or(i32::MAX);
    StatTweak { patk: r.tweak.patk.saturating_add(gap), matk: r.tweak.matk.saturating_add(gap), ..r.tweak }
}

/// The Ruler's block: it fights as a Boss, with [`ruler_tweak`].
pub fn ruler_block(d: &Nw3Data, r: &RulerRecord, p: PartyModel) -> Block {
    block(d, Rank::Boss, &r.attacks, &r.skills, &ruler_tweak(d, r, p), p)
}

// Why a fighter's skills do not fit it is a fact of its records: the tables' load asks it too.
pub use crate::tables::nw3_combat::skill_conflict;

/// Why an area's Danger Sense difficulty is what it is (seed 000 ~l.1003).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DangerSource {
    /// The trap's Removal Value.
    Trap,
    /// The best Perception among the ambushers, + 7.
    Ambush,
    /// Nothing sets it: 12.
    Default,
}

impl DangerSource {
    pub fn label(self) -> &'static str {
        match self {
            DangerSource::Trap => "the trap's Removal Value",
            DangerSource::Ambush => "the ambushers' best Perception + 7",
            DangerSource::Default => "the default",
        }
    }
}

/// The Danger Sense difficulty an area calls for, and why.
pub fn danger_sense(a: &Area) -> (u32, DangerSource) {
    if let Some(t) = &a.trap {
        return (t.removal, DangerSource::Trap);
    }
    let ambush = a
        .enemies
        .iter()
        .filter(|g| g.ambush)
        .flat_map(|g| &g.members)
        .filter_map(|m| m.stats.as_ref())
        .map(|s| s.perception)
        .max();
    match ambush {
        Some(p) => (p.saturating_add(AMBUSH_BONUS), DangerSource::Ambush),
        None => (DANGER_SENSE_DEFAULT, DangerSource::Default),
    }
}

/// Fills what a format-1 file lacks (stat blocks, group descriptions and ambushes, Danger Sense
/// difficulties) from the tables, by enemy name and the party in `params`. Names the tables do
/// not know are left empty, for `check` to report.
pub fn fill_from_tables(f: &mut Fortress, tables: &Tables) {
    let d = &tables.nw3;
    let p = PartyModel::of(&f.params);
    for a in &mut f.areas {
        for g in &mut a.enemies {
            let Some(r) = d.enemy(&g.name) else { continue };
            if g.description.is_empty() {
                g.description = r.description.clone();
            }
            g.ambush = r.ambush;
            for m in &mut g.members {
                if m.stats.is_some() {
                    continue;
                }
                if let Some(rm) = r.members.iter().find(|rm| rm.name == m.name) {
                    let b = member_block(d, rm, p);
                    (m.stats, m.attacks, m.skills) = (Some(b.stats), b.attacks, b.skills);
                }
            }
        }
        if a.danger_sense.is_none() {
            a.danger_sense = Some(danger_sense(a).0);
        }
    }
    if f.ruler.stats.is_none()
        && let Some(r) = d.ruler(&f.ruler.name)
    {
        let b = ruler_block(d, r, p);
        (f.ruler.stats, f.ruler.attacks, f.ruler.skills) = (Some(b.stats), b.attacks, b.skills);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dice_tables_sum_to_every_outcome() {
        assert_eq!(diff_counts(), DIFF);
        assert_eq!(DIFF.iter().sum::<u64>(), 1296);
        // Equal values: the attacker wins every tie, so more than half the rolls.
        assert_eq!(hits_of_1296(10, 10), (1296 + 146) / 2);
        // A margin of 0 still deals damage when the attacker rolls higher.
        assert!(damage_of_1296(5, 5) > 0);
        // Far apart: always or never.
        assert_eq!(hits_of_1296(30, 5), 1296);
        assert_eq!(hits_of_1296(5, 30), 0);
        assert_eq!(damage_of_1296(5, 30), 0);
        assert_eq!(damage_of_1296(25, 5), 20 * 1296);
    }
}
