//! What the objective's room key says about the objective: the one **Objective:** line every
//! format prints (Markdown, HTML and so the PDF, the Udonarium notes, the workbench), written
//! from the room as it stands, and a race's arrival as the Objective section and the Scenario
//! Movement print it. Nothing here is rolled: every word follows from the scenario.

use crate::myk::frame::objective_room;
use crate::myk::goal;
use crate::myk::model::{ObjectiveKind, Place, Reaction, Room, Scenario};
use crate::myk::traps::search_difficulty;
use crate::tables::Tables;

/// The difficulty of the Quest check that opens a captive's cage where no guard holds the key:
/// the book's Lock (seed 003, Movement traps, Quest / 10).
const CAGE_DIFFICULTY: u32 = 10;

/// The Charisma check a Friendly group or a beaten ruler asks before it stands with the kingdom:
/// the Negotiation Table's own Charisma / 9 (its row 10).
const SWAY_DIFFICULTY: u32 = 9;

/// The room's line about the objective, when `at` is the objective's room.
pub fn room_line(s: &Scenario, tables: &Tables, at: Place) -> Option<String> {
    if objective_room(s)? != at {
        return None;
    }
    let room = s.map(at.map)?.room(at.room);
    let o = &s.objective;
    let kingdom = s.story.as_ref().map_or("the kingdom", |st| st.kingdom.as_str());
    let npc = s.npc_name(o.npc).unwrap_or("the one the objective names");
    let item = o.item.as_deref().unwrap_or(o.target.as_str());
    Some(match o.kind {
        ObjectiveKind::Defeat => defeat(room, &o.target),
        ObjectiveKind::Rescue => rescue(room, npc, kingdom),
        ObjectiveKind::Acquire => acquire(room, tables, item, kingdom),
        ObjectiveKind::Search => search(s, room, tables, &o.target),
        ObjectiveKind::Deliver => deliver(room, npc, item, kingdom),
        ObjectiveKind::WinOver => win_over(room, &o.target, kingdom),
        ObjectiveKind::Race => race(s, room, kingdom),
    })
}

/// The room's monsters of `reaction` (the ruler counts as hostile), as "1 Evil Eye".
fn guards(room: &Room, reaction: Reaction) -> Vec<String> {
    let ruler = room.ruler.iter().filter(|_| reaction == Reaction::Hostile).map(|r| r.name.to_string());
    let groups =
        room.monsters.iter().filter(|g| g.reaction == reaction).map(|g| crate::text::count(g.count.into(), &g.name));
    ruler.chain(groups).collect()
}

/// "A, B and C".
fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn defeat(room: &Room, target: &str) -> String {
    let ruler = room.ruler.as_ref().is_some_and(|r| r.name == target);
    let who = if ruler { "it drops to 0 HP" } else { "every monster of the group drops to 0 HP" };
    format!(
        "{target} here is the objective: it is met when {target} is defeated in combat ({who}; the stat line above). \
         Whatever else stands here fights beside it."
    )
}

fn rescue(room: &Room, captive: &str, kingdom: &str) -> String {
    let hostile = guards(room, Reaction::Hostile);
    let freed = if hostile.is_empty() {
        format!("No guard holds the key: a Quest / {CAGE_DIFFICULTY} check opens the cage, one try per Quarter")
    } else {
        format!(
            "The key hangs on the guards: once {} are defeated or driven off, the cage opens with no check",
            and_list(&hostile)
        )
    };
    format!(
        "{captive} is held here, locked in a cage at the back of the room. {freed}. Freed, {captive} follows the \
         court; the objective is met when {captive} reaches {kingdom} alive."
    )
}

fn acquire(room: &Room, tables: &Tables, item: &str, kingdom: &str) -> String {
    let kind = tables.items.item(item).map(|i| i.category.label()).map_or_else(String::new, |l| {
        let article = if l.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
        format!(" ({article} {l})")
    });
    let (hostile, others) = (guards(room, Reaction::Hostile), other_groups(room));
    let held = match (&room.ruler, hostile.is_empty(), others.is_empty()) {
        // Kept, not carried: a carried item would raise the holder's effective level.
        (Some(r), _, _) => {
            format!(
                "it lies in a strongbox at {} side: it is the court's once {} is defeated",
                crate::text::possessive(&r.name),
                r.name
            )
        }
        (None, false, _) => format!(
            "it lies in a strongbox that {} guard: it is the court's once they are defeated or driven off",
            and_list(&hostile)
        ),
        (None, true, false) => format!(
            "it lies in a strongbox that {} keep: it is the court's once they are defeated, or turned Friendly \
             on the Negotiation Table",
            and_list(&others)
        ),
        (None, true, true) => "it lies in a strongbox in plain sight: any member takes it, no check".into(),
    };
    format!("{item}{kind} is here; {held}. The objective is met when {item} reaches {kingdom}.")
}

/// The room's groups that are not hostile, as "Minotaur x2".
fn other_groups(room: &Room) -> Vec<String> {
    let mut out = guards(room, Reaction::Neutral);
    out.extend(guards(room, Reaction::Friendly));
    out
}

fn search(s: &Scenario, room: &Room, tables: &Tables, target: &str) -> String {
    let lead = format!("{target} here is the trouble the objective names");
    if let Some(t) = room.traps.iter().find(|t| t.name == target) {
        let find = search_difficulty(s.court.size);
        let stop = match super::threats::disarm_text(tables.myk.trap(&t.name), t).as_str() {
            "by discovering it" => "finding it stops it".to_string(),
            "cannot be disarmed" => "it cannot be disarmed, so finding it is enough: marked on the map, it \
                                     catches no one again"
                .to_string(),
            d => format!("it is stopped by disarming it ({d})"),
        };
        return format!(
            "{lead}. The court finds it with the search check in this room (difficulty {find}); {stop}. Found and \
             stopped, it meets the objective."
        );
    }
    if let Some(b) = room.bases.iter().find(|b| b.name == target) {
        let hp = tables.myk.base(&b.name).map_or(0, |r| r.hp);
        return format!(
            "{lead}: the objective is met when the base is destroyed (HP {hp}, defense {}; see the base above).",
            7 + b.level
        );
    }
    if room.ruler.as_ref().is_some_and(|r| r.name == target) {
        return format!("{lead}: the objective is met when {target} is defeated in combat.");
    }
    format!(
        "{lead}: the objective is met when the group is defeated, or, when it is not hostile, turned Friendly on \
         the Negotiation Table."
    )
}

fn deliver(room: &Room, npc: &str, item: &str, kingdom: &str) -> String {
    let hostile = guards(room, Reaction::Hostile);
    let waits = if hostile.is_empty() {
        format!("{npc} waits here")
    } else {
        format!("{npc} hides here from {} and comes out once they are defeated or driven off", and_list(&hostile))
    };
    let npcs = crate::text::possessive(npc);
    format!(
        "{waits}, to receive {item}, which the court carries from {kingdom} from the start. Putting it in {npcs} \
         hands meets the objective; the court then returns to {kingdom}."
    )
}

fn win_over(room: &Room, target: &str, kingdom: &str) -> String {
    if let Some(g) = room.monsters.iter().find(|g| g.name == target) {
        // The group by its name as the objective names it, and how many stand here.
        let who = format!("the {} ({})", g.name, crate::text::count(g.count.into(), "monster"));
        return match g.reaction {
            Reaction::Friendly => format!(
                "Friendly is not yet allegiance: to bring {who} here to stand with {kingdom}, the court's \
                 representative passes a Charisma / {SWAY_DIFFICULTY} check, one try per Quarter. Success meets \
                 the objective."
            ),
            _ => format!(
                "To win over {who} here, the court talks with them on the Negotiation Table (see Negotiation, \
                 under For play): a result that turns them Friendly wins them over and meets the objective. \
                 A result that starts a fight ends the talks: beaten, they are lost to the kingdom."
            ),
        };
    }
    format!(
        "{target} here listens only once beaten: brought to 0 HP in combat, it yields instead of falling, and a \
         Charisma / {SWAY_DIFFICULTY} check by the court's representative then wins it over for {kingdom}, which \
         meets the objective."
    )
}

fn race(s: &Scenario, room: &Room, kingdom: &str) -> String {
    let rival = super::myk_story::rival_court(s);
    let when = goal::arrival(s)
        .map(|n| format!("reaches this room at the end of Quarter {n}"))
        .unwrap_or_else(|| "heads for this room".into());
    let hold = if guards(room, Reaction::Hostile).is_empty() {
        format!("enters this room first and plants the flag of {kingdom} here")
    } else {
        format!("enters this room first, defeats what stands here and plants the flag of {kingdom}")
    };
    let meanwhile = super::myk_story::meanwhile(s).map(|m| format!(" {m}")).unwrap_or_default();
    format!("{rival} {when}. The court wins the race if it {hold}.{meanwhile}")
}
