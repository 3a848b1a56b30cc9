//! The rules of enemy combat data and Danger Sense (rule ids below), run by [`crate::nw3::check`].
//!
//! | rule | what it checks |
//! | --- | --- |
//! | `enemy.body` | every enemy and the Ruler have a stat block with a Body above 0 |
//! | `enemy.attack` | every enemy and the Ruler have at least one attack |
//! | `enemy.stats` | stat blocks, attacks and skills are the tables' formula for the party's CL and size |
//! | `enemy.defence` | a Boss's (the Ruler's) PDEF and MDEF stay below the party's attack + 5 |
//! | `enemy.skills` | no skill works through an attack kind the fighter lacks, and none says it cannot do what another says it may |
//! | `ruler.outclassed` | the Ruler has at least the HP and the attack damage of every enemy of its fortress |
//! | `enemy.ambush` | a group lies in ambush exactly when its table record says so |
//! | `danger-sense.difficulty` | each area's Danger Sense difficulty: a trap's Removal Value, an ambusher's Perception + 7, else 12 |

use crate::check::Violation;
use crate::nw3::combat::{self, Block, DEFENCE_GAP, PartyModel, danger_sense};
use crate::nw3::model::{Attack, Fortress, Skill, Stats};
use crate::tables::Tables;
use crate::tables::nw3::{Nw3Data, Rank};
use crate::tables::nw3_combat::{AttackRecord, StatTweak};

/// One fighter as the file has it.
struct Fighter<'a> {
    name: &'a str,
    rank: Rank,
    stats: Option<&'a Stats>,
    attacks: &'a [Attack],
    skills: &'a [Skill],
}

fn summary(s: &Stats) -> String {
    format!(
        "PACC {} PATK {} PDEF {} MACC {} MATK {} MDEF {} EVA {} HP {} MP {} Perception {}",
        s.pacc, s.patk, s.pdef, s.macc, s.matk, s.mdef, s.eva, s.body, s.mind, s.perception
    )
}

/// The rules one fighter must obey; `want` is the tables' block when the tables know it.
/// What the tables give for a fighter: its records, built into a block only for a message.
struct Want<'a> {
    d: &'a Nw3Data,
    attacks: &'a [AttackRecord],
    skills: &'a [String],
    tweak: &'a StatTweak,
    party: PartyModel,
}

fn fighter(place: &str, x: &Fighter, want: Option<Want>, p: PartyModel, v: &mut Vec<Violation>) {
    let cl = p.cl;
    let name = x.name;
    match x.stats {
        None => v.push(Violation::new(place, "enemy.body", format!("{name} has no stat block (no HP)"))),
        Some(s) if s.body == 0 => v.push(Violation::new(place, "enemy.body", format!("{name} has 0 HP"))),
        Some(_) => {}
    }
    if x.attacks.is_empty() {
        v.push(Violation::new(place, "enemy.attack", format!("{name} has no attack")));
    }
    let named: Vec<(&str, &str)> = x.skills.iter().map(|k| (k.name.as_str(), k.effect.as_str())).collect();
    let kinds: Vec<_> = x.attacks.iter().map(|a| a.kind).collect();
    if let Some(why) = combat::skill_conflict(&named, &kinds) {
        v.push(Violation::new(place, "enemy.skills", format!("{name}'s skills do not fit it: {why}")));
    }
    if let (Some(s), Some(w)) = (x.stats, &want)
        && !x.attacks.is_empty()
    {
        let stats = combat::stats(x.rank, w.attacks, w.tweak, w.party);
        if *s != stats {
            v.push(Violation::new(
                place,
                "enemy.stats",
                format!("{name} at CL {cl} has {}; the tables give {}", summary(s), summary(&stats)),
            ));
        }
        if !combat::same_moves(w.d, (w.attacks, w.skills), &stats, cl, x.attacks, x.skills) {
            let w: Block = combat::block(w.d, x.rank, w.attacks, w.skills, w.tweak, w.party);
            let names =
                |a: &[Attack]| a.iter().map(|a| format!("{} {}/{}", a.name, a.accuracy, a.damage)).collect::<Vec<_>>();
            v.push(Violation::new(
                place,
                "enemy.stats",
                format!(
                    "the attacks or skills of {name} differ from the tables (attacks {} with skills {})",
                    names(&w.attacks).join(", "),
                    w.skills.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
    if x.rank == Rank::Boss
        && let Some(s) = x.stats
    {
        let attack = p.pc.attack;
        let limit = attack + DEFENCE_GAP;
        if s.pdef >= limit || s.mdef >= limit {
            v.push(Violation::new(
                place,
                "enemy.defence",
                format!(
                    "{name} is a Boss with PDEF {} and MDEF {}; a party of CL {cl} attacks at {attack}, so each must stay below {limit}",
                    s.pdef, s.mdef
                ),
            ));
        }
    }
}

pub(crate) fn check_combat(f: &Fortress, tables: &Tables, v: &mut Vec<Violation>) {
    let d = &tables.nw3;
    let party = PartyModel::of(&f.params);
    for a in &f.areas {
        // Formatted only for areas with enemies, or when Danger Sense is wrong.
        let place = if a.enemies.is_empty() { String::new() } else { format!("area {}", a.id) };
        for g in &a.enemies {
            let record = d.enemy(&g.name);
            if let Some(r) = record
                && r.ambush != g.ambush
            {
                v.push(Violation::new(
                    place.as_str(),
                    "enemy.ambush",
                    format!(
                        "enemy group `{}` {} in ambush by the tables",
                        g.name,
                        if r.ambush { "lies" } else { "does not lie" }
                    ),
                ));
            }
            for m in &g.members {
                let want = record
                    .and_then(|r| r.members.iter().find(|rm| rm.name == m.name && rm.rank == m.rank))
                    .map(|rm| Want { d, attacks: &rm.attacks, skills: &rm.skills, tweak: &rm.tweak, party });
                let x = Fighter {
                    name: &m.name,
                    rank: m.rank,
                    stats: m.stats.as_ref(),
                    attacks: &m.attacks,
                    skills: &m.skills,
                };
                fighter(&place, &x, want, party, v);
            }
        }
        let (want, why) = danger_sense(a);
        match a.danger_sense {
            Some(n) if n == want => {}
            got => v.push(Violation::new(
                format!("area {}", a.id),
                "danger-sense.difficulty",
                format!(
                    "Danger Sense here is {}; the rules give {want} ({})",
                    got.map_or("not given".to_string(), |n| n.to_string()),
                    why.label()
                ),
            )),
        }
    }
    let r = &f.ruler;
    let record = d.ruler(&r.name);
    let tweak = record.map(|rr| combat::ruler_tweak(d, rr, party));
    let want = record.zip(tweak.as_ref()).map(|(rr, tweak)| Want {
        d,
        attacks: &rr.attacks,
        skills: &rr.skills,
        tweak,
        party,
    });
    let x =
        Fighter { name: &r.name, rank: Rank::Boss, stats: r.stats.as_ref(), attacks: &r.attacks, skills: &r.skills };
    fighter("ruler", &x, want, party, v);
    outclassed(f, v);
}

/// The Ruler is never below a Guest (or Mob) of its own fortress in HP or in its strongest
/// attack's damage (the glossary: a Boss is tougher than a Guest).
fn outclassed(f: &Fortress, v: &mut Vec<Violation>) {
    let r = &f.ruler;
    // No stat block or no attack is reported by `enemy.body` and `enemy.attack`.
    let Some(rs) = r.stats.as_ref().filter(|_| !r.attacks.is_empty()) else { return };
    let hits = |a: &[Attack]| a.iter().map(|a| a.damage).max().unwrap_or(0);
    let members =
        f.areas.iter().flat_map(|a| a.enemies.iter().flat_map(move |g| g.members.iter().map(move |m| (a.id, m))));
    for (id, m) in members.filter(|(_, m)| m.rank != Rank::Boss) {
        let Some(ms) = &m.stats else { continue };
        if ms.body > rs.body || hits(&m.attacks) > hits(&r.attacks) {
            v.push(Violation::new(
                "ruler",
                "ruler.outclassed",
                format!(
                    "{} has {} HP and hits for {}, below {} in area {id} ({} HP, hits for {})",
                    r.name,
                    rs.body,
                    hits(&r.attacks),
                    m.name,
                    ms.body,
                    hits(&m.attacks)
                ),
            ));
            return;
        }
    }
}
