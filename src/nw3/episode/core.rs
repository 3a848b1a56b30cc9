//! The Climax as one plan with the Fortress Core and the Core's guards (issue 47, as a GM read
//! it): how the party breaks the Core, whether the Ruler ever grants leave and what sets it off,
//! and when the guards of the Core's area fight.
//!
//! - **The Core** (seed 000 l.873-881, l.941-943): the Core this fortress has is broken the way
//!   its record says (`breaks` in `tables/nw3/areas.toml`): struck down as an object that neither
//!   dodges nor defends (the rules' incomplete enemies, l.1057-1060), or worked apart by judges of
//!   one Attribute at the ordinary difficulty, as a trap is removed (l.991-995). [`core_break`]
//!   gives the numbers for the party.
//! - **The Ruler's leave** (l.863-871): a persona that bars the door (`bars_door` in
//!   `tables/nw3/rulers.toml`) grants none, so its Dive has no retreat; any other Ruler offers
//!   leave once the fight has taken half its HP, which is the one threshold its tactics name.
//! - **The guards** (l.941-943: a Core's area is guarded in advance): they fight beside the Ruler
//!   from round 1 when the Core is in its room, else they answer its call at the start of round
//!   [`GUARDS_ROUND`] (or fight in their own area if the party gets there first, before the
//!   Climax). Nothing fights after the Climax: the Core stands unguarded once the Ruler falls.
//!
//! Generation stores the three on the Climax, the booklet prints them where the GM runs it
//! ([`lines`], [`area_note`]) and `check` holds them to the fortress ([`problems`]).

use crate::nw3::combat::PartyModel;
use crate::nw3::finale::{CoreOrder, Finale, NEVER_FLEES};
use crate::nw3::model::{Climax, Fortress};
pub use crate::nw3::model::{CoreBreak, Guards, Leave};
use crate::nw3::params::FortressParams;
use crate::nw3::rules::{Hardness, judge_difficulty};
use crate::tables::nw3::{BreakWay, Nw3Data};
use crate::tables::nw3_episode::Way;

/// Blows of a PC's mean damage roll (2D6 + attack, nothing taken off) a struck Core takes: one
/// PC breaks it in three Major Actions, three PCs in one round.
pub const CORE_BLOWS: u32 = 3;
/// Successes a worked Core takes, by one PC or several.
pub const CORE_SUCCESSES: u32 = 2;
/// The Climax round at whose start the guards of a Core apart from the Ruler join its fight.
pub const GUARDS_ROUND: u32 = 2;

/// The Core's numbers for the party of `p`, broken `way`.
pub fn core_break(way: BreakWay, p: &FortressParams) -> CoreBreak {
    match way.attribute() {
        None => CoreBreak { way, difficulty: 0, takes: CORE_BLOWS * (7 + PartyModel::of(p).pc.attack) },
        Some(_) => CoreBreak { way, difficulty: judge_difficulty(p.cl, Hardness::Ordinary), takes: CORE_SUCCESSES },
    }
}

/// The HP at which a Ruler of Body `body` offers its leave: half of it.
fn threshold(body: u32) -> u32 {
    (body / 2).max(1)
}

/// The leave of the fortress's Ruler: barred when its persona bars the door, else offered at
/// half its HP.
pub fn leave_of(d: &Nw3Data, f: &Fortress) -> Leave {
    if d.ruler(&f.ruler.name).is_some_and(|r| r.bars_door) {
        Leave::Barred
    } else {
        Leave::Offered(threshold(f.ruler.stats.map_or(0, |s| s.body)))
    }
}

/// The leave `kept` for the Ruler as its stat block now stands (a fortress rolled anew).
pub fn leave_again(kept: Leave, f: &Fortress) -> Leave {
    match kept {
        Leave::Offered(_) => Leave::Offered(threshold(f.ruler.stats.map_or(0, |s| s.body))),
        other => other,
    }
}

/// The tactics' last line: the one HP threshold that changes what the Ruler does (it offers its
/// leave), or that it lets nobody go; either way it never flees.
pub fn last_stand(leave: Leave) -> String {
    match leave {
        Leave::Offered(hp) => format!(
            "At {hp} HP or less it offers the party its leave: if they stop fighting and go, leaving the victim to it, the Entrance lets them out (the retreat ending). It {NEVER_FLEES}: it cannot leave its own Casket."
        ),
        Leave::Barred | Leave::Unsaid => format!(
            "It lets nobody go and offers no leave, so this Dive has no retreat: it fights on to its last HP and {NEVER_FLEES}."
        ),
    }
}

/// The words [`last_stand`] offers leave with, as `check` finds them in stored tactics.
const OFFERS: &str = "HP or less it offers the party its leave";

/// The guards of the Core's area as the finale has them (`None`: nobody guards it).
pub fn guards(f: &Fortress, fin: &Finale) -> Option<Guards> {
    let a = f.area(fin.core_area?)?;
    if a.enemies.is_empty() {
        return None;
    }
    let round = if fin.order == CoreOrder::Beside { 1 } else { GUARDS_ROUND };
    Some(Guards { area: a.id, round })
}

/// Sets the Climax's Core, leave and guards from the fortress and its finale (the Core's way
/// from `d`); a fortress whose Core the tables do not know is struck down.
pub fn plan_climax(d: &Nw3Data, f: &Fortress, fin: &Finale, c: &mut Climax) {
    let way = d.cores.iter().find(|r| r.name == f.core.name).map_or(BreakWay::Strike, |r| r.breaks);
    c.core = Some(core_break(way, &f.params));
    c.leave = fin.leave;
    c.guards = guards(f, fin);
}

/// The Climax's Core and guards as the fortress now stands, keeping how the Core breaks and the
/// Ruler's leave (a kept episode set on a fortress rolled anew).
pub fn follow(f: &Fortress, fin: &Finale, c: &mut Climax) {
    if let Some(k) = c.core {
        c.core = Some(core_break(k.way, &f.params));
        c.guards = guards(f, fin);
        c.leave = leave_again(c.leave, f);
        // The threshold follows the Ruler's HP as it now stands.
        if let Some(t) = c.tactics.iter_mut().find(|t| t.contains(NEVER_FLEES)) {
            *t = last_stand(c.leave);
        }
    }
}

/// The Climax's guards and Core as `f` now stands, after a part of it was rolled anew (an area's
/// enemies rerolled: the Climax calls the new guards).
pub fn sync(f: &mut Fortress) {
    let fin = crate::nw3::finale::of(f);
    let Some(mut e) = f.episode.take() else { return };
    follow(f, &fin, &mut e.climax);
    f.episode = Some(e);
}

/// The enemy groups of area `id` as the fortress has them: "Mannequin Patrol and Moon-Struck
/// Strays" ("guards" when there are none).
fn names(f: &Fortress, id: u32) -> String {
    let groups: Vec<&str> = f.area(id).map(|a| a.enemies.iter().map(|g| g.name.as_str()).collect()).unwrap_or_default();
    match groups.as_slice() {
        [] => "guards".into(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// How the party breaks the Core, one sentence pair for the booklet.
pub fn core_rule(f: &Fortress, k: CoreBreak) -> String {
    let core = &f.core.name;
    match k.way.attribute() {
        None => format!(
            "To break the {core}, a PC in its area attacks it as a Major Action. It is an object: it never dodges or defends, so every attack hits and its whole damage roll counts (no Hit Check, no PDEF or MDEF). It breaks once it has taken {} HP, and the Casket falls with it.",
            k.takes
        ),
        Some(attr) => format!(
            "To break the {core}, a PC in its area makes a {attr} judge (difficulty {}) as a Major Action, one try at a time. {} successes, by one PC or several, break it, and the Casket falls with it; a fumble is only a failed try.",
            k.difficulty,
            count(k.takes)
        ),
    }
}

fn count(n: u32) -> String {
    match n {
        1 => "One".into(),
        2 => "Two".into(),
        3 => "Three".into(),
        n => n.to_string(),
    }
}

/// When the guards fight, for the booklet.
fn guards_rule(f: &Fortress, fin: &Finale, g: &Guards) -> String {
    let (ruler, core, who, at) = (&f.ruler.name, &f.core.name, names(f, g.area), g.area);
    match fin.order {
        CoreOrder::Beside => format!(
            "The {who} guarding the {core} fight beside {ruler} from round 1: one fight, and nobody is left once it ends."
        ),
        CoreOrder::Either => format!(
            "The {who} guarding the {core} in area {at} fight there if the party reaches that area before the Climax; if they still stand when the Climax begins, {ruler} calls them and they join its fight at the start of round {}. Nothing fights after the Climax.",
            g.round
        ),
        CoreOrder::After | CoreOrder::During => format!(
            "The {who} guarding the {core} in area {at} do not wait there: when the Climax begins {ruler} calls them, and they join its fight at the start of round {}. {} Nothing fights after the Climax.",
            g.round,
            if fin.order == CoreOrder::During {
                "The Core stands unguarded while the fight lasts, so a PC who withdraws to it meets nobody."
            } else {
                "Once the Ruler falls, the Core stands unguarded."
            }
        ),
    }
}

/// What the Ruler's leave takes, for the booklet's list of ways the Dive ends.
pub fn retreat_way(f: &Fortress, leave: Leave) -> String {
    match leave {
        Leave::Offered(hp) => {
            format!("a retreat (if the party takes the leave {} offers at {hp} HP or less)", f.ruler.name)
        }
        Leave::Barred | Leave::Unsaid => "a retreat with the Ruler's leave".into(),
    }
}

/// The Climax's rules lines after the headline: when the guards fight, whether the Ruler ever
/// lets the party go, and how the Core breaks (files made before these were planned: none).
pub fn lines(f: &Fortress, fin: &Finale) -> Vec<String> {
    let Some(c) = f.episode.as_ref().map(|e| &e.climax) else { return Vec::new() };
    let Some(k) = c.core else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(g) = &c.guards {
        out.push(guards_rule(f, fin, g));
    }
    if c.leave == Leave::Barred {
        out.push(format!("{} bars the door and grants no leave: the party wins or falls.", f.ruler.name));
    }
    out.push(core_rule(f, k));
    out
}

/// The line the Core's area prints about its Core and guards (empty elsewhere, and in files
/// made before the Climax planned them).
pub fn area_note(f: &Fortress, area: u32) -> String {
    let fin = crate::nw3::finale::of(f);
    let Some(c) = f.episode.as_ref().map(|e| &e.climax) else { return String::new() };
    let Some(k) = c.core.filter(|_| fin.core_area == Some(area)) else { return String::new() };
    let ambush = f.area(area).is_some_and(|a| a.enemies.iter().any(|g| g.ambush));
    let guards = match (&c.guards, fin.order) {
        (Some(g), CoreOrder::After | CoreOrder::During) => format!(
            " Its guards are met in the Climax, not here: they join {} at round {}{}.",
            f.ruler.name,
            g.round,
            if ambush { ", so their ambush does not apply" } else { "" }
        ),
        (Some(g), CoreOrder::Either) => format!(
            " Its guards fight here only if the party comes before the Climax; otherwise they join {} at round {}.",
            f.ruler.name, g.round
        ),
        _ => String::new(),
    };
    format!("{}{guards}", core_rule(f, k))
}

/// Where the stored Climax breaks the plan: `(place, rule, message)`, for `check`. Files made
/// before the Core was planned (no Core on the Climax) are not held to it.
///
/// | rule | what it checks |
/// | --- | --- |
/// | `episode.leave` | no retreat ending for a Ruler that bars the door; the tactics name the leave's threshold (half the Ruler's HP) when it offers leave, and offer none when it bars the door |
/// | `episode.guards` | the Climax says when the Core's area's guards fight (that area, the round the finale gives); no beat for guards that are not there |
/// | `episode.core-break` | the Climax says how the Core breaks, with the numbers the rule gives for this party |
pub fn problems(f: &Fortress, fin: &Finale) -> Vec<(String, &'static str, String)> {
    let Some(e) = &f.episode else { return Vec::new() };
    let c = &e.climax;
    let Some(k) = c.core else { return Vec::new() };
    let mut out = Vec::new();
    let ruler = &f.ruler.name;
    let offers = c.tactics.iter().any(|t| t.contains(OFFERS));
    match c.leave {
        Leave::Barred => {
            if e.endings.iter().any(|x| x.way == Way::Retreat) {
                let m = format!("the ending `retreat` leaves with {ruler}'s leave, but {ruler} bars the door");
                out.push(("endings".into(), "episode.leave", m));
            }
            if offers {
                let m = format!("the tactics offer leave, but {ruler} bars the door");
                out.push(("climax".into(), "episode.leave", m));
            }
        }
        // A Ruler without a stat block has no HP to halve: `enemy.body` says so, once.
        Leave::Offered(hp) if f.ruler.stats.is_some() => {
            let want = threshold(f.ruler.stats.map_or(0, |s| s.body));
            if hp != want || !c.tactics.iter().any(|t| t.contains(&format!("At {hp} {OFFERS}"))) {
                let m = format!(
                    "{ruler} offers leave at {hp} HP, but its tactics must name that threshold and it must be half its HP ({want})"
                );
                out.push(("climax".into(), "episode.leave", m));
            }
        }
        Leave::Offered(_) | Leave::Unsaid => {}
    }
    let want = guards(f, fin);
    if c.guards != want {
        let m = match (&want, &c.guards) {
            (Some(g), None) => {
                format!(
                    "area {} holds the Core's guards ({}), but the Climax never says when they fight",
                    g.area,
                    names(f, g.area)
                )
            }
            (None, Some(g)) => format!("the Climax calls guards from area {}, but no enemies guard the Core", g.area),
            (Some(g), Some(s)) => format!(
                "the Climax has the guards of area {} join at round {}; the Core's guards are the {} of area {}, at round {}",
                s.area,
                s.round,
                names(f, g.area),
                g.area,
                g.round
            ),
            (None, None) => String::new(),
        };
        out.push(("climax".into(), "episode.guards", m));
    }
    let rule = core_break(k.way, &f.params);
    if k != rule {
        let m = format!(
            "the Climax breaks the {} at difficulty {} taking {}; the rule gives difficulty {} taking {} for this party",
            f.core.name, k.difficulty, k.takes, rule.difficulty, rule.takes
        );
        out.push(("climax".into(), "episode.core-break", m));
    }
    out
}
