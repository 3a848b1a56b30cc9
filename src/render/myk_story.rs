//! The scenario's parts as the book names them (Prologue, Objective, Cast, Clues, Mini events,
//! Scenario Movement, Epilogue), laid out once as sections of paragraphs and labelled entries so
//! the Markdown, HTML (and so the PDF) and the Udonarium notes print the same words.

use serde::Serialize;

use crate::myk::clues::text as clue_text;
use crate::myk::frame;
use crate::myk::model::{Clue, ClueMethod, MiniEvent, Npc, Place, Quarter, Scenario};
use crate::myk::story::{self, Fill, Story};
use crate::tables::Tables;

#[derive(Serialize)]
pub struct Section {
    pub heading: String,
    pub paragraphs: Vec<String>,
    pub entries: Vec<Entry>,
}

/// A labelled line, with lines beneath it (a clue's puzzle, a shop's wares).
#[derive(Serialize)]
pub struct Entry {
    pub label: String,
    pub text: String,
    pub sub: Vec<String>,
}

fn entry(label: impl Into<String>, text: impl Into<String>) -> Entry {
    Entry { label: label.into(), text: text.into(), sub: Vec::new() }
}

fn section(heading: &str, paragraphs: Vec<String>, entries: Vec<Entry>) -> Section {
    Section { heading: heading.into(), paragraphs, entries }
}

/// Every part, in the book's order; a file without a story prints its introduction and
/// resolution as it always did.
pub fn sections(s: &Scenario, tables: &Tables) -> Vec<Section> {
    let mut out = Vec::with_capacity(9);
    let kind = s.objective.kind.name().replace('_', " ");
    let mut objective = section("Objective", vec![frame::objective(s)], vec![entry("Kind:", kind)]);
    objective.entries.extend(arrival_entry(s).map(|t| entry("Arrival:", t)));
    match &s.story {
        Some(st) => out.extend([prologue(s, st, tables), objective]),
        None => out.extend([objective, section("Introduction", vec![frame::fill(s, &s.introduction)], Vec::new())]),
    }
    out.push(departure(s));
    out.push(cast(s, tables));
    out.push(clues(s));
    if let Some(st) = &s.story {
        out.push(mini_events(s, st));
        out.push(movement(s, st));
        out.push(epilogue(s, st));
    } else {
        out.push(section("Resolution", vec![frame::fill(s, &s.resolution)], Vec::new()));
    }
    out.push(end_phase());
    out
}

/// The road to the dungeon and back (seed 003 l.1689-1699): the booklet cites the Travel Events
/// Table, so it prints it.
fn departure(s: &Scenario) -> Section {
    let first = s.maps.first().map_or_else(|| "the dungeon".to_string(), |m| format!("map 1 ({})", m.name));
    let text = format!(
        "When the Kingdom Phase is over the court sets out for {first}: roll 2D6 on the Travel Events Table \
         for each region it enters on the way, and again for each on the way home once the Dungeon Phase ends."
    );
    section("Departure", vec![text], Vec::new())
}

/// What every game ends with (seed 003 l.2387-2434): the tables the End Phase rolls, cited so the
/// booklet prints them whether or not the objective is met.
fn end_phase() -> Section {
    let text = "Back in the kingdom, each character who returns rolls once on the Kingdom Change Table if the \
                objective was met, or on the Kingdom Change Failure Table if it was not (unless the court \
                retries); the Earnings Report then rolls the Market Table for the Material that sells best.";
    section("End Phase", vec![text.to_string()], Vec::new())
}

fn form_label(form: &str) -> &'static str {
    match form {
        "scout" => "The Scout",
        "wanderer" => "The Wanderer",
        _ => "The Appeal",
    }
}

fn prologue(s: &Scenario, st: &Story, tables: &Tables) -> Section {
    let p = &st.prologue;
    let f = Fill::of(s);
    let mut paragraphs = vec![
        [form_label(&p.form), " — ", &story::capitalise(&f.text(&p.who))].concat(),
        story::capitalise(&f.text(&p.problem)),
        story::capitalise(&f.text(&p.offer)),
    ];
    for n in s.cast.iter().filter(|n| n.place.is_none()) {
        paragraphs.push(format!("{} ({}) waits in {} for the court's answer.", n.name, n.role, st.kingdom));
    }
    paragraphs.extend(kingdom_note(s));
    // The one place a stake is read: a filled value that opens a later sentence (`{member}`,
    // "the Treasurer") is raised here, for stakes of every file version alike.
    let mut entries: Vec<Entry> = st
        .stakes
        .iter()
        .map(|k| entry([k.member.as_str(), ":"].concat(), story::sentence_capitals(f.text(&k.text))))
        .collect();
    if kingdom_note(s).is_some() {
        let lines = crate::myk::court::name_table_lines(tables);
        if !lines.is_empty() {
            let mut e = entry("Kingdom Name Tables:", "roll 1D66 on each in turn; the three words make the name.");
            e.sub = lines;
            entries.push(e);
        }
    }
    section("Prologue", paragraphs, entries)
}

/// Where the booklet says "your kingdom", the players' own kingdom is meant: a group whose kingdom
/// has no name yet finds the book's Kingdom Name Tables here (seed 003 l.19-56). Nothing when the
/// GM named the kingdom.
fn kingdom_note(s: &Scenario) -> Option<String> {
    let st = s.story.as_ref()?;
    (st.kingdom == crate::myk::court::YOUR_KINGDOM).then(|| {
        "\"Your kingdom\" is the kingdom the players made. If it has no name yet, roll 1D66 on each of the \
         three Kingdom Name Tables below, one word from each, for a provisional name; a player who \
         dislikes it may roll one table again, once."
            .to_string()
    })
}

/// Where an NPC stands, in words.
pub fn where_is(s: &Scenario, place: Option<Place>) -> String {
    match place {
        Some(p) => match s.map(p.map) {
            // The map by its name too: a booklet of several maps is read by map name.
            Some(m) => format!("map {} ({}), room {} ({})", p.map, m.name, p.room, m.room(p.room).name),
            None => format!("map {}, room {}", p.map, p.room),
        },
        None => s.story.as_ref().map_or_else(|| "the kingdom".into(), |st| st.kingdom.clone()),
    }
}

/// A cast NPC as the Cast section and the room key (where the NPC stands) both print it.
pub fn npc_text(s: &Scenario, tables: &Tables, n: &Npc) -> Entry {
    let f = Fill::with_npc(s, &n.name);
    let mut text = format!("{}; {}, {}; {}", n.role, n.age, n.sex, n.traits.join("; "));
    let mut sub = Vec::new();
    if !n.personality.is_empty() {
        let meaning = tables.story.personality.iter().find(|p| p.name == n.personality).map(|p| p.meaning.as_str());
        sub.push(match meaning {
            Some(m) => format!("Personality: {} ({m})", n.personality),
            None => format!("Personality: {}", n.personality),
        });
        sub.push(format!("Where: {}", where_is(s, n.place)));
        if !n.wants.is_empty() {
            sub.push(format!("Wants {}", f.text(&n.wants).trim_end_matches('.')));
        }
        if !n.line.is_empty() {
            sub.push(format!("Says: “{}”", f.text(&n.line)));
        }
        let knows: Vec<String> = s
            .clues
            .iter()
            .enumerate()
            .filter(|(_, c)| s.npc_name(c.npc) == Some(n.name.as_str()))
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        if !knows.is_empty() {
            sub.push(format!("Knows clue {}", knows.join(", ")));
        }
    } else {
        text.push('.');
    }
    if let Some(f) = &n.fights {
        let st = &f.stats;
        let numbers = [
            st.warfare.to_string(),
            st.range.to_string(),
            st.damage.to_string(),
            st.defense.to_string(),
            st.hp.to_string(),
        ];
        sub.push(format!(
            "Fights as an Important NPC of level {} (stats of the {}): {}",
            f.level,
            f.as_monster,
            super::myk_play::combat_numbers(&numbers)
        ));
    }
    Entry { label: n.name.to_string(), text, sub }
}

fn cast(s: &Scenario, tables: &Tables) -> Section {
    let mut entries: Vec<Entry> = s.cast.iter().map(|n| npc_text(s, tables, n)).collect();
    if let Some(ru) = s.story.as_ref().and_then(|st| st.ruler.as_ref()) {
        let meaning = tables.story.personality.iter().find(|p| p.name == ru.personality).map(|p| p.meaning.as_str());
        let f = Fill::of(s);
        let mut e = entry(f.ruler.clone().unwrap_or_default(), "the villain".to_string());
        e.sub.push(format!(
            "Personality: {}{}",
            ru.personality,
            meaning.map(|m| format!(" ({m})")).unwrap_or_default()
        ));
        e.sub.push(format!("Motive: {}", f.text(&ru.motive)));
        e.sub.push(format!("Says: “{}”", f.text(&ru.line)));
        entries.push(e);
    }
    section("Cast", Vec::new(), entries)
}

fn clues(s: &Scenario) -> Section {
    let entries = s.clues.iter().enumerate().map(|(i, c)| clue_entry(s, i, c)).collect();
    section("Clues", Vec::new(), entries)
}

/// Clue `i` (0-based) as the Clues section and its room's entry in the room key both print it:
/// where and how it is found, what is asked and found, a puzzle whole.
pub fn clue_entry(s: &Scenario, i: usize, c: &Clue) -> Entry {
    let room = s.map(c.at.map).map(|m| m.room(c.at.room).name.to_string()).unwrap_or_default();
    let f = Fill::with_npc(s, s.npc_name(c.npc).unwrap_or_default());
    let text = format!(
        "{} — found in map {}, room {} ({room}), by {}: {}.",
        clue_text::clue_text(s, c),
        c.at.map,
        c.at.room,
        c.method.label(),
        f.text(&c.how).trim_end_matches('.')
    );
    let mut sub = Vec::new();
    // What the players get, filled from what the clue reveals (`clue_text::fill`).
    if !c.ask.is_empty() {
        sub.push(format!("Ask: “{}”", question(&clue_text::fill(s, c, &c.ask))));
    }
    if let Some(p) = &c.puzzle {
        sub.push(format!("Puzzle: {}", p.text));
        sub.push(format!("Answer: {}", p.answer));
        sub.extend(p.hints.iter().enumerate().map(|(k, h)| format!("Hint {}: {h}", k + 1)));
    }
    // A puzzle's find is what solving it opens, so it follows the puzzle.
    if !c.found.is_empty() {
        let what = if c.method == ClueMethod::Conversation { "Answer" } else { "Found" };
        sub.push(format!("{what}: {}", clue_text::fill(s, c, &c.found)));
    }
    Entry { label: format!("Clue {}:", i + 1), text, sub }
}

/// A question as the GM asks it aloud: a capital first, one closing mark (a text without one
/// gains a question mark).
fn question(t: &str) -> String {
    let q = story::capitalise(t.trim());
    if q.ends_with(['?', '!', '.']) { q } else { q + "?" }
}

fn mini_events(s: &Scenario, st: &Story) -> Section {
    let entries = st.mini_events.iter().map(|e| mini_event_entry(s, e)).collect();
    section("Mini events", Vec::new(), entries)
}

/// A mini event as the Mini events section and its room's entry both print it.
pub fn mini_event_entry(s: &Scenario, e: &MiniEvent) -> Entry {
    // The map the event is placed on, whichever map the objective is on.
    let f = Fill::on_map(s, e.at.map);
    // The title alone in bold (a label, short whatever the map's and room's names); the
    // place opens the plain text.
    let mut en = entry(
        format!("{}:", f.text(&e.title)),
        format!("{}. {} Outcome: {}", story::capitalise(&where_is(s, Some(e.at))), f.text(&e.text), f.text(&e.outcome)),
    );
    en.sub.extend(e.wares.iter().map(|w| format!("For sale: {}, {} MG", w.item, w.cost)));
    en
}

fn movement(s: &Scenario, st: &Story) -> Section {
    use crate::myk::movement::{HARM_GAP, HOSTAGE_HP};
    let f = Fill::of(s);
    let list = &st.movement;
    let who = list.iter().find(|q| !q.who.is_empty()).map_or("the villain", |q| q.who.as_str());
    let mut intro = vec![format!(
        "An optional rule of the book (Scenario Movement): after each Quarter listed, {who} acts as below; a check under \
         \"To prevent it\", made by any member of the court, stops that Quarter's action."
    )];
    if let (Some(q), Some(p)) = (list.first(), list.first().and_then(|q| q.at))
        && q.quarter > 1
    {
        let name = s.map(p.map).map_or(String::new(), |m| format!(" ({})", m.name));
        intro.push(format!(
            "Nothing happens before Quarter {}: it is the first Quarter in which the court can enter map {}{name}.",
            q.quarter, p.map
        ));
    }
    let captive = f.text("{captive}");
    let hostage = s.objective.kind == crate::myk::model::ObjectiveKind::Rescue && !captive.is_empty();
    if hostage && list.iter().any(|q| q.action == "violence") {
        intro.push(format!(
            "{captive} starts with {HOSTAGE_HP} HP; at 0 {captive} is unconscious, not dead, and the court must carry \
             {captive} out."
        ));
    }
    let mut entries: Vec<Entry> = list
        .iter()
        .map(|q| {
            let mut e = movement_entry(s, &f, q, None);
            e.sub.extend(arrival_in(s, q.quarter));
            e
        })
        .collect();
    if let Some(q) = list.last() {
        let place = q.at.map(|p| format!(" in {}", where_is(s, Some(p)))).unwrap_or_default();
        let after = if hostage && q.action != "move" {
            format!("The guards go on: 1D6 damage to {captive} every {} Quarters until the court arrives.", HARM_GAP.1)
        } else {
            format!("{} stays{place} and acts no more.", crate::text::capitalise(who))
        };
        entries.push(entry(format!("After Quarter {}:", q.quarter), after));
    }
    section("Scenario Movement", intro, entries)
}

/// One Quarter of the Scenario Movement as its section and the room key both print it: what the
/// actor does, the move's corridor, how to prevent it. In the entry of room `here` a move says
/// which way it goes from there. (The section adds a race's arrival that Quarter, which happens in
/// the objective's room, not where the actor stands.)
pub fn movement_entry(s: &Scenario, f: &Fill, q: &Quarter, here: Option<Place>) -> Entry {
    use crate::myk::movement::prevention;
    let mut e = entry(format!("Quarter {} ({}):", q.quarter, q.action), f.text(&q.text));
    if let (Some(a), Some(b)) = (q.from, q.at) {
        e.sub.push(match here {
            Some(h) if h == a => format!("Leaves this room for room {}, along their corridor", room_name(s, b)),
            Some(h) if h == b => format!("Arrives from room {}, along their corridor", room_name(s, a)),
            _ => format!("Moves from {} to room {}, along their corridor", where_is(s, Some(a)), room_name(s, b)),
        });
    }
    let prevent = f.text(&q.prevent);
    let prevent = prevent.trim_end_matches('.');
    // A scene has nothing to prevent: its line (a later check it sets up) prints as written.
    if q.action != "scene" && prevention(prevent).is_some() {
        e.sub.push(format!("To prevent it: {prevent}"));
    } else if !prevent.is_empty() {
        e.sub.push(prevent.to_string());
    }
    e
}

/// "B3 (Hall of Bones)".
pub fn room_name(s: &Scenario, p: Place) -> String {
    s.map(p.map).map_or_else(|| p.room.to_string(), |m| format!("{} ({})", p.room, m.room(p.room).name))
}

fn epilogue(s: &Scenario, st: &Story) -> Section {
    let (e, f) = (&st.epilogue, Fill::of(s));
    let entries = vec![
        entry("Success:", f.text(&e.success)),
        entry("Failure:", f.text(&e.failure)),
        entry("The Reward:", e.reward.join("; ")),
        entry("A Change in Circumstances:", f.text(&e.change)),
        entry("Farewell:", f.text(&e.farewell)),
        entry("Retry:", f.text(&e.retry)),
    ];
    section("Epilogue", Vec::new(), entries)
}

/// The cast NPCs standing in a room, as its text names them.
pub fn people_in(s: &Scenario, at: Place) -> Vec<String> {
    s.cast
        .iter()
        .filter(|n| n.place == Some(at))
        .map(|n| {
            if n.personality.is_empty() {
                format!("{} ({})", n.name, n.role)
            } else {
                format!("{} ({}, {})", n.name, n.role, n.personality.to_lowercase())
            }
        })
        .collect()
}

/// The mini events of a room, by title.
pub fn events_in(s: &Scenario, at: Place) -> Vec<String> {
    let f = Fill::on_map(s, at.map);
    s.story.iter().flat_map(|st| &st.mini_events).filter(|e| e.at == at).map(|e| f.text(&e.title)).collect()
}

/// "Ramune's court (Abyssal House)".
pub(crate) fn rival_court(s: &Scenario) -> String {
    let o = &s.objective;
    let kingdom = o.rival_kingdom.as_deref().map(|k| format!(" ({k})")).unwrap_or_default();
    match s.npc_name(o.npc) {
        Some(n) => format!("{} court{kingdom}", crate::text::possessive(n)),
        None => format!("The rival's court{kingdom}"),
    }
}

/// Where the rival's court is until it arrives, if its leader stands in a room.
pub(crate) fn meanwhile(s: &Scenario) -> Option<String> {
    let npc = s.cast_member(s.objective.npc?)?;
    let (name, place) = (npc.name.as_str(), npc.place?);
    Some(format!("Until then it is in {}, where the court can meet {name} (see Cast).", where_is(s, Some(place))))
}

/// A race's arrival for the Objective section: when, where, how long the court's way is.
pub fn arrival_entry(s: &Scenario) -> Option<String> {
    let n = crate::myk::goal::arrival(s)?;
    let at = s.objective.at?;
    let way = crate::myk::goal::rooms_to(s, at)
        .map(|r| format!(" The court, entering its first room in Quarter 1, needs at least {r} Quarters to get there."))
        .unwrap_or_default();
    let meanwhile = meanwhile(s).map(|m| format!(" {m}")).unwrap_or_default();
    Some(format!("{} reaches {} at the end of Quarter {n}.{way}{meanwhile}", rival_court(s), where_is(s, Some(at))))
}

/// A race's arrival for its Scenario Movement Quarter.
pub fn arrival_in(s: &Scenario, quarter: u32) -> Option<String> {
    if crate::myk::goal::arrival(s)? != quarter {
        return None;
    }
    let at = s.objective.at?;
    Some(format!(
        "The race: at the end of this Quarter {} reaches {}; unless the court took it first, the race is lost",
        rival_court(s),
        where_is(s, Some(at))
    ))
}
