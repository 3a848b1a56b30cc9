//! The episode's rules: every Handout, Entrance condition and legwork item points at something
//! the episode holds, so a hand edit that drops what another part relies on is caught in one
//! line naming it. A fortress without an episode (format 2 and older) has none of these.
//!
//! | rule | what it checks |
//! | --- | --- |
//! | `episode.handouts` | one Handout per PC, PC 1 to PC n in order |
//! | `episode.connection` | each Handout's Connection is different, and its hook names that NPC |
//! | `episode.keyword` | a keyword Entrance says the episode's keyword, and an opening scene speaks it (a legwork result too, in files made before the Opening scenes were planned) |
//! | `episode.item` | an item Entrance names the episode's item, and an opening scene finds it and says where |
//! | `episode.opening` | at least one opening scene |
//! | `episode.opening-pc` | every PC has an Opening scene, and it names that PC's Connection (see `episode/scenes.rs`) |
//! | `episode.scenes` | no scene is for a PC the party lacks or names one, no Middle Phase scene plays a legwork item the episode lacks |
//! | `episode.legwork` | at least two legwork items, each judged by an Attribute with a difficulty, helped by a Handout's Connection |
//! | `episode.legwork-difficulty` | each legwork difficulty is the judge rule's at the party's CL (`rules::judge_difficulty`): ordinary, or hard for who the Ruler was and where it is weak, never above ordinary for a topic that shows the way onward |
//! | `episode.ruler` | the Ruler has a former name |
//! | `episode.endings` | an ending for each way the gates and the Ruler allow and none other (no retreat without the Ruler's leave, no claim the finale breaks), with 5 to 10 XP |
//! | `episode.climax` | the Climax is set in the Ruler's area, and what its scene claims (a Core beside the Ruler) holds |
//! | `episode.leave` | no retreat from a Ruler that bars the door; a Ruler that offers leave names its threshold (half its HP) in its tactics (`episode/core.rs`) |
//! | `episode.guards` | the Climax says when the Core's area's guards fight, and names no guards that are not there |
//! | `episode.core-break` | the Climax says how the Core breaks, with the rule's numbers for this party |
//! | `episode.core`, `episode.victim` | the legwork states the Core's and the victim's areas as they are, and the victim's area text is in the area where they are held |
//! | `event.outcome` | every judged scenario event says what success and failure do and whether it may be tried again |
//! | `episode.hook` | each Handout's hook names the victim, the Fortress's place, the Ruler or the Core (see `facts.rs`) |
//! | `episode.victim-count` | no text outside the finale speaks of more than the episode's one victim |
//! | `episode.former-sex` | the Ruler's former name, former life and persona tell of one sex |
//! | `episode.logic-sign` | the Logic's first sign in the Opening is not another Logic's |
//! | `event.setup` | a scenario event's set-up promises what clearing it does (a gate, or its reward) |

use crate::check::Violation;
use crate::nw3::model::{Episode, EventKind, Fortress, Legwork};
use crate::nw3::rules::{Hardness, judge_difficulty, legwork_is_way_onward};
use crate::tables::nw3::EntranceKind;
use crate::tables::nw3_episode::{ATTRIBUTES, Way};

/// Fewest legwork items an episode has (the floor: the Entrance and one more).
const MIN_LEGWORK: usize = 2;

/// Every slot of a stored text that names nothing in the fortress (an unknown name, an area or
/// a handout that is not there), one violation each: the text would print it as written.
pub fn check_slots(f: &Fortress, v: &mut Vec<Violation>) {
    for (place, slot) in crate::nw3::text::unresolved(f) {
        v.push(Violation::new(
            "episode",
            "episode.texts",
            format!("the {place} names `{slot}`, which is nothing in the fortress"),
        ));
    }
}

/// Every episode rule `f` breaks, appended to `v`.
pub fn check_episode(f: &Fortress, v: &mut Vec<Violation>) {
    let Some(e) = &f.episode else { return };
    handouts(f, e, v);
    entrance(f, e, v);
    if e.opening.is_empty() {
        v.push(Violation::new("episode", "episode.opening", "the episode has no opening scene"));
    }
    for (place, rule, m) in crate::nw3::episode::scenes::problems(f) {
        v.push(Violation::new(place, rule, m));
    }
    legwork(e, v);
    legwork_difficulties(f.params.cl, e, v);
    if e.past.former.trim().is_empty() {
        v.push(Violation::new("episode", "episode.ruler", format!("{} has no former name", f.ruler.name)));
    }
    for x in e.endings.iter().filter(|x| !(5..=10).contains(&x.xp)) {
        let m = format!("the ending `{}` gives {} XP, outside the seeds' 5-10", x.way.label(), x.xp);
        v.push(Violation::new("episode", "episode.endings", m));
    }
    outcomes(f, v);
}

/// The finale's rules: the Climax in the Ruler's area, the Core and the victim stated where they
/// are, each ending one the gates and the Ruler allow, and one for each way they allow (see
/// [`crate::nw3::finale::problems`]). Episodes made before the finale was planned (their Climax
/// names no area) keep the old rule: an ending for each of the four ways. Reads the texts as
/// stored (their `{area:N}` slots say which area a fact names).
pub fn check_finale(f: &Fortress, v: &mut Vec<Violation>) {
    let Some(e) = &f.episode else { return };
    if e.climax.area == 0 {
        for way in Way::ALL.into_iter().filter(|w| !e.endings.iter().any(|x| x.way == *w)) {
            v.push(Violation::new("episode", "episode.endings", format!("no ending for `{}`", way.label())));
        }
        return;
    }
    for (place, rule, m) in crate::nw3::finale::problems(f) {
        v.push(Violation::new(place, rule, m));
    }
    // The Core, the Ruler's leave and the Core's guards as one plan (`episode/core.rs`).
    let fin = crate::nw3::finale::of(f);
    for (place, rule, m) in crate::nw3::episode::core::problems(f, &fin) {
        v.push(Violation::new(place, rule, m));
    }
}

/// The facts many texts tell, each held to its one fact (see [`crate::nw3::facts`]).
pub fn check_facts(f: &Fortress, tables: &crate::tables::Tables, v: &mut Vec<Violation>) {
    let filled = crate::nw3::text::filled(f);
    for (place, rule, m) in crate::nw3::facts::problems(f, &filled, &tables.nw3) {
        // A GM who writes the Casket's Logics by hand (a warning of its own, `logic.own`) keeps
        // the drawn sign scene until they rewrite it: told, as advice, not refused.
        if rule == "episode.logic-sign" {
            v.push(Violation::advice(place, rule, m));
        } else {
            v.push(Violation::new(place, rule, m));
        }
    }
}

fn handouts(f: &Fortress, e: &Episode, v: &mut Vec<Violation>) {
    let pcs: Vec<u32> = e.handouts.iter().map(|h| h.pc).collect();
    let want: Vec<u32> = (1..=f.party.size).collect();
    if pcs != want {
        v.push(Violation::new(
            "episode",
            "episode.handouts",
            format!(
                "{} Handouts for a party of {} (one per PC, PC 1 to PC {} in order)",
                pcs.len(),
                f.party.size,
                f.party.size
            ),
        ));
    }
    for (i, h) in e.handouts.iter().enumerate() {
        let place = format!("handout {}", h.pc);
        let name = h.connection.name.trim();
        if name.is_empty() {
            v.push(Violation::new(place, "episode.connection", "the Handout names no Connection"));
        } else if !h.hook.contains(name) {
            v.push(Violation::new(
                place,
                "episode.connection",
                format!("the hook never names its Connection `{name}`: \"{}\"", h.hook),
            ));
        } else if e.handouts[..i].iter().any(|o| o.connection.name.trim() == name) {
            v.push(Violation::new(place, "episode.connection", format!("`{name}` is already another PC's Connection")));
        }
    }
}

/// Whether an Opening scene of the episode says `what` (or a legwork result, in an episode made
/// before its Opening scenes were planned).
fn spoken(e: &Episode, what: &str) -> bool {
    use crate::nw3::episode::scenes::{planned, planting_words};
    e.opening.iter().any(|s| planting_words(s).contains(what))
        || (!planned(e) && e.legwork.iter().any(|l| l.reveals.contains(what)))
}

fn entrance(f: &Fortress, e: &Episode, v: &mut Vec<Violation>) {
    let text = &f.entrance_condition.text;
    match f.entrance_condition.kind {
        EntranceKind::Keyword => {
            let Some(k) = &e.keyword else {
                v.push(Violation::new("entrance", "episode.keyword", "the Entrance asks a keyword the episode lacks"));
                return;
            };
            if !text.contains(&k.word) {
                let m = format!("the Entrance condition never says the keyword \"{}\"", k.word);
                v.push(Violation::new("entrance", "episode.keyword", m));
            } else if !spoken(e, &k.word) {
                let m = format!("the keyword \"{}\" is spoken in no opening scene", k.word);
                v.push(Violation::new("entrance", "episode.keyword", m));
            }
        }
        EntranceKind::Item => {
            let Some(i) = &e.item else {
                v.push(Violation::new("entrance", "episode.item", "the Entrance asks an item the episode lacks"));
                return;
            };
            if !text.contains(&i.name) {
                let m = format!("the Entrance condition never names the item \"{}\"", i.name);
                v.push(Violation::new("entrance", "episode.item", m));
            } else if !e
                .opening
                .iter()
                .map(crate::nw3::episode::scenes::planting_words)
                .any(|w| w.contains(&i.name) && w.contains(&i.where_found))
            {
                let m = format!("no opening scene finds \"{}\" and says where ({})", i.name, i.where_found);
                v.push(Violation::new("entrance", "episode.item", m));
            }
        }
        EntranceKind::Cost => {}
    }
}

/// Each legwork difficulty by the judge rule at character level `cl` (one line per item off it).
fn legwork_difficulties(cl: u32, e: &Episode, v: &mut Vec<Violation>) {
    for (i, l) in e.legwork.iter().enumerate() {
        if let Some(m) = legwork_off_rule(cl, l) {
            v.push(Violation::new(format!("legwork {}", i + 1), "episode.legwork-difficulty", m));
        }
    }
}

/// Why legwork item `l` is judged off the rule at `cl`, if it is: an ordinary or a hard judge,
/// and never above ordinary when its topic shows the way onward (a failed party may have no
/// other way on). A missing difficulty (0) is `episode.legwork`'s to report.
fn legwork_off_rule(cl: u32, l: &Legwork) -> Option<String> {
    let ordinary = judge_difficulty(cl, Hardness::Ordinary);
    let hard = judge_difficulty(cl, Hardness::Hard);
    let onward = legwork_is_way_onward(l.topic);
    if l.difficulty == 0 || l.difficulty == ordinary || (!onward && l.difficulty == hard) {
        return None;
    }
    let allowed = if onward {
        format!("{ordinary} (ordinary: it shows the way onward)")
    } else {
        format!("{ordinary} (ordinary) or {hard} (hard)")
    };
    Some(format!(
        "the legwork on `{}` is judged at difficulty {}; at CL {cl} the judge rule gives {allowed}",
        l.topic.label(),
        l.difficulty
    ))
}

fn legwork(e: &Episode, v: &mut Vec<Violation>) {
    if e.legwork.len() < MIN_LEGWORK {
        let m = format!("{} legwork items; an episode needs at least {MIN_LEGWORK}", e.legwork.len());
        v.push(Violation::new("episode", "episode.legwork", m));
    }
    let mut strangers: Vec<(&str, Vec<String>)> = Vec::new();
    for (i, l) in e.legwork.iter().enumerate() {
        let place = format!("legwork {}", i + 1);
        if !ATTRIBUTES.contains(&l.attribute.as_str()) {
            let m =
                format!("`{}` is judged by `{}`, not an Attribute ({})", l.title, l.attribute, ATTRIBUTES.join(", "));
            v.push(Violation::new(place, "episode.legwork", m));
        } else if l.difficulty == 0 {
            v.push(Violation::new(place, "episode.legwork", format!("`{}` has no difficulty", l.title)));
        } else if !known(e, &l.connection) {
            match strangers.iter_mut().find(|(n, _)| *n == l.connection) {
                Some((_, items)) => items.push((i + 1).to_string()),
                None => strangers.push((&l.connection, vec![(i + 1).to_string()])),
            }
        }
    }
    // One line per missing NPC, however many items name them.
    for (name, items) in strangers {
        let m = format!("`{name}`, the Connection of legwork {}, is no Handout's Connection", items.join(", "));
        v.push(Violation::new("episode", "episode.legwork", m));
    }
}

/// A Connection a Handout gives, or one a Handout's hook names (a hook whose Connection was
/// renamed is reported once, at the Handout).
fn known(e: &Episode, name: &str) -> bool {
    e.handouts.iter().any(|h| h.connection.name == name || (!name.is_empty() && h.hook.contains(name)))
}

fn outcomes(f: &Fortress, v: &mut Vec<Violation>) {
    for a in &f.areas {
        let Some(ev) = a.event.as_ref().filter(|e| e.kind == EventKind::Scenario && e.judge.is_some()) else {
            continue;
        };
        let missing: Vec<&str> = [("success", &ev.success), ("failure", &ev.failure), ("retry", &ev.retry)]
            .into_iter()
            .filter(|(_, t)| t.trim().is_empty())
            .map(|(k, _)| k)
            .collect();
        if !missing.is_empty() {
            let m = format!("the event `{}` does not say its {}", ev.name, missing.join(", "));
            v.push(Violation::new(format!("area {}", a.id), "event.outcome", m));
        }
    }
}
