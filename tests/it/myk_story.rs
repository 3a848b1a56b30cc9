//! The scenario around the dungeon (issue 31): objective kinds as data, a cast placed in rooms,
//! clues written out, Prologue, mini events, Scenario Movement and Epilogue, checked over hundreds
//! of generated scenarios, and hand edits that break the story caught by `check` in one line.

use std::collections::BTreeMap;

use crate::myk::{default_scenario, options_for, params, tables};
use dungeonsmith::myk::model::{ClueMethod, Layout, ObjectiveKind, Reveals, Scenario};
use dungeonsmith::myk::story::DEFERRALS;
use dungeonsmith::myk::{MykParams, check, generate};
use dungeonsmith::render::myk_story::{events_in, people_in, sections};

/// Every word the booklet prints of the story: the sections' paragraphs, entries and lines.
fn story_words(s: &Scenario) -> String {
    let mut out = String::new();
    for part in sections(s, tables()) {
        out.push_str(&part.heading);
        for p in &part.paragraphs {
            out.push_str(p);
            out.push('\n');
        }
        for e in &part.entries {
            out.push_str(&format!("{} {}\n", e.label, e.text));
            for l in &e.sub {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    out
}

/// A named NPC (an Important NPC, l.2973) whose Cast entry prints no stat line, or whose level
/// is above the court's average.
fn npc_without_stat_line(s: &Scenario) -> Option<String> {
    let Some(cast) = sections(s, tables()).into_iter().find(|x| x.heading == "Cast") else {
        return Some("no Cast section".into());
    };
    for n in &s.cast {
        let Some(f) = &n.fights else { return Some(format!("{} has no Important-NPC numbers", n.name)) };
        if f.level > s.court.average_level.max(1) {
            return Some(format!("{} is level {}, above the court's average", n.name, f.level));
        }
        let line = format!("Fights as an Important NPC of level {} (stats of the {}): Warfare ", f.level, f.as_monster);
        let Some(entry) = cast.entries.iter().find(|e| e.label == n.name.as_str()) else {
            return Some(format!("{} is not in the Cast", n.name));
        };
        if !entry.sub.iter().any(|l| l.starts_with(&line) && l.contains(" / HP ")) {
            return Some(format!("{} ({}) has no stat line in the booklet: {:?}", n.name, n.role, entry.sub));
        }
    }
    None
}

/// Why a threat clue's way to find it does not fit what stands in its room, or `None`: it names
/// something there; a ruler or monster is defeated (a hostile group driven off, another won over),
/// a trap alone disarmed, a base alone destroyed; what it turns up speaks of that kind of threat.
fn threat_clue_misfit(s: &Scenario, c: &dungeonsmith::myk::model::Clue) -> Option<String> {
    use dungeonsmith::myk::model::Reaction;
    use dungeonsmith::tables::story::Threat;
    let room = s.map(c.at.map)?.room(c.at.room);
    let at = format!("the threat clue in map {} room {} (`{}`)", c.at.map, c.at.room, c.how);
    let (kind, verb) = match (&room.ruler, room.monsters.first(), room.traps.first(), room.bases.first()) {
        (Some(r), ..) => (Threat::Monster, format!("defeat {}", r.name)),
        (None, Some(g), ..) if g.reaction == Reaction::Hostile => {
            (Threat::Monster, format!("drive off the {}", g.name))
        }
        (None, Some(g), ..) => (Threat::Monster, format!("win over the {}", g.name)),
        (None, None, Some(t), _) => (Threat::Trap, format!("disarm the {}", t.name)),
        (None, None, None, Some(b)) => (Threat::Base, format!("destroy the {}", b.name)),
        (None, None, None, None) => return Some(format!("{at} stands in a room with no threat")),
    };
    if !c.how.contains(&verb) {
        return Some(format!("{at} does not say `{verb}`"));
    }
    // Written from the clue's fact (issue 46): the entry whose words, between its slots, the
    // find holds in order.
    if let Some(e) = tables().story.clue_fact.iter().find(|e| fits_template(&e.text, &c.found)) {
        return e
            .threat
            .is_some_and(|k| k != kind)
            .then(|| format!("{at} turns up a {:?} text where a {kind:?} stands: `{}`", e.threat, c.found));
    }
    let (pool, keep) = (&tables().story.clue_threat, dungeonsmith::myk::story::Fill::keep());
    match pool.iter().find(|t| keep.text(&t.text) == c.found) {
        None => Some(format!("{at} turns up `{}`, no threat text of the pool", c.found)),
        Some(t) if t.threat.is_some_and(|k| k != kind) => {
            Some(format!("{at} turns up a {:?} text where a {kind:?} stands: `{}`", t.threat, c.found))
        }
        Some(_) => None,
    }
}

/// Whether `text` reads as `template` with each slot filled by something: the words between
/// the slots in order, the first at the start and the last at the end.
fn fits_template(template: &str, text: &str) -> bool {
    let mut pieces = Vec::new();
    let mut at = 0;
    for slot in dungeonsmith::text::slots(template) {
        pieces.push(&template[at..slot.start]);
        at = slot.end;
    }
    pieces.push(&template[at..]);
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return text == first;
    }
    let mut rest = match text.strip_prefix(first) {
        Some(r) => r,
        None => return false,
    };
    for p in &pieces[1..pieces.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// The first story rule a generated scenario breaks, or `None`.
fn broken_story_rule(s: &Scenario) -> Option<String> {
    let words = story_words(s);
    let st = s.story.as_ref()?;
    for n in &s.cast {
        let in_room = n.place.is_some_and(|p| people_in(s, p).iter().any(|x| x.starts_with(n.name.as_str())));
        let in_scene = n.place.is_none() && words.contains(&format!("{} (", n.name));
        if !(in_room || in_scene) {
            return Some(format!("{} appears in no room or scene", n.name));
        }
    }
    if let Some(why) = npc_without_stat_line(s) {
        return Some(why);
    }
    if let Some(phrase) = DEFERRALS.iter().find(|p| words.contains(*p)) {
        return Some(format!("the booklet leaves the GM to invent: `{phrase}`"));
    }
    for c in &s.clues {
        if c.method == ClueMethod::Puzzle
            && !c.puzzle.as_ref().is_some_and(|p| !p.text.is_empty() && !p.answer.is_empty() && !p.hints.is_empty())
        {
            return Some("a puzzle clue without its puzzle, answer and a hint".into());
        }
        if c.method == ClueMethod::Threat
            && let Some(why) = threat_clue_misfit(s, c)
        {
            return Some(why);
        }
    }
    let e = &st.epilogue;
    if st.prologue.who.is_empty() || e.success.is_empty() || e.failure.is_empty() || e.retry.is_empty() {
        return Some("no Prologue, Epilogue or retry terms".into());
    }
    // Printed, not only kept in the file: the parts under the book's names, the retry terms.
    for part in ["\nPrologue", "\nEpilogue", "Retry: "] {
        if !format!("\n{words}").contains(part) {
            return Some(format!("the booklet prints no `{}`", part.trim()));
        }
    }
    if e.reward.is_empty() || st.stakes.len() != s.court.levels.len() {
        return Some("no reward, or not one stake per court member".into());
    }
    for m in &s.maps {
        if !m
            .used_rooms()
            .any(|r| !events_in(s, dungeonsmith::myk::model::Place { map: m.index, room: r.id }).is_empty())
        {
            return Some(format!("map {} has no mini event", m.index));
        }
    }
    if let Some(v) = check(s, tables()).first() {
        return Some(format!("check: {v}"));
    }
    None
}

#[test]
fn three_hundred_scenarios_spread_their_objective_kinds_and_tell_a_whole_story() {
    let mut kinds: BTreeMap<ObjectiveKind, u32> = BTreeMap::new();
    for seed in 0..300u64 {
        let p = options_for(seed);
        let s = generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed} {p:?}: {e}"));
        *kinds.entry(s.objective.kind).or_default() += 1;
        if let Some(why) = broken_story_rule(&s) {
            panic!("seed {seed} {p:?}: {why}");
        }
    }
    assert!(kinds.len() >= 6, "{kinds:?}");
    for (k, n) in &kinds {
        assert!((15..=120).contains(n), "{k:?} in {n} of 300 scenarios (5%-40% expected): {kinds:?}");
    }
}

#[test]
fn clues_of_one_map_do_not_all_sit_in_one_room() {
    let (mut maps_with_several, mut all_in_one) = (0, 0);
    for seed in 0..300u64 {
        let s = generate(tables(), &options_for(seed), seed).expect("generates");
        for m in &s.maps {
            let rooms: Vec<_> = s.clues.iter().filter(|c| c.at.map == m.index).map(|c| c.at.room).collect();
            if rooms.len() >= 2 {
                maps_with_several += 1;
                all_in_one += usize::from(rooms.iter().all(|r| *r == rooms[0]));
            }
        }
    }
    assert!(maps_with_several > 100, "{maps_with_several}");
    assert!(
        all_in_one * 10 <= maps_with_several,
        "{all_in_one} of {maps_with_several} maps hold all clues in one room"
    );
}

#[test]
fn every_way_of_finding_a_clue_appears_over_many_scenarios() {
    let mut ways = BTreeMap::new();
    for seed in 0..200u64 {
        let s = generate(tables(), &options_for(seed), seed).expect("generates");
        for c in &s.clues {
            *ways.entry(c.method.label()).or_insert(0) += 1;
        }
    }
    assert_eq!(ways.len(), 4, "{ways:?}");
}

#[test]
fn each_objective_kind_asked_for_gives_a_legal_scenario_over_100_seeds() {
    for kind in ObjectiveKind::ALL {
        for seed in 0..100u64 {
            let p = MykParams { objective: Some(kind), ..options_for(seed) };
            let s = generate(tables(), &p, seed).unwrap_or_else(|e| panic!("{kind:?} seed {seed} {p:?}: {e}"));
            assert_eq!(s.objective.kind, kind);
            assert_eq!(s.params.objective, Some(kind), "the file records the kind asked for");
            if let Some(why) = broken_story_rule(&s) {
                panic!("{kind:?} seed {seed} {p:?}: {why}");
            }
        }
    }
}

/// A scenario of the kind, from the first seed that makes one with `ok`.
fn scenario_of(kind: ObjectiveKind, ok: impl Fn(&Scenario) -> bool) -> Scenario {
    (0..200)
        .map(|seed| {
            let p = MykParams { objective: Some(kind), ..params(vec![2; 4], 1, 9, Layout::Mixed) };
            generate(tables(), &p, seed).expect("generates")
        })
        .find(|s| ok(s))
        .expect("a scenario of the kind")
}

/// `check` run by the program on the scenario as a file: exit 1, and the lines naming `rule`.
fn checked_lines(s: &Scenario, rule: &str) -> Vec<String> {
    let path = std::env::temp_dir().join(format!("ds-story-{}-{rule}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(s).expect("serialises")).expect("writes");
    let (code, out, _) = crate::run(&["check", &path.to_string_lossy()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 1, "{out}");
    out.lines().filter(|l| l.contains(&format!("[{rule}]"))).map(str::to_string).collect()
}

#[test]
fn a_hand_edit_that_removes_the_captives_room_is_caught_in_one_line() {
    let mut s = scenario_of(ObjectiveKind::Rescue, |_| true);
    let at = s.objective.at.expect("the captive's room");
    let captive = s.objective_target().to_owned();
    // The room is struck from the map: unused, its corridors and clues gone.
    let m = &mut s.maps[0];
    m.rooms[at.room.index()] = dungeonsmith::myk::model::Room::empty(at.room);
    m.corridors.retain(|c| c.a != at.room && c.b != at.room);
    s.clues.retain(|c| c.at != at && c.reveals != Reveals::Room(at));
    let lines = checked_lines(&s, "objective.place");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains(&format!("map 1 room {}", at.room)), "{lines:?}");
    assert!(!captive.is_empty());
}

#[test]
fn a_hand_edit_that_removes_the_npc_a_clue_names_is_caught_in_one_line() {
    let mut s = scenario_of(ObjectiveKind::Defeat, |s| s.clues.iter().any(|c| c.npc.is_some()));
    // The cast cut short before the last member a clue names (the file names NPCs by place).
    let last = s.clues.iter().filter_map(|c| c.npc).max().expect("a conversation clue");
    s.cast.truncate(last.index().expect("a place"));
    let told = s.clues.iter().filter(|c| c.npc == Some(last)).count();
    let lines = checked_lines(&s, "clue.npc");
    assert_eq!(lines.len(), told, "{lines:?}");
    assert!(lines[0].contains(&format!("cast member {}", last.0)), "{lines:?}");
}

#[test]
fn moving_a_captive_out_of_the_objectives_room_is_caught() {
    let mut s = scenario_of(ObjectiveKind::Rescue, |_| true);
    let captive = s.objective.npc.and_then(|r| r.index()).expect("the captive");
    let other = s.maps[0].used_rooms().map(|r| r.id).find(|&r| Some(r) != s.objective.at.map(|p| p.room));
    let npc = s.cast.get_mut(captive).expect("in the cast");
    npc.place = other.map(|room| dungeonsmith::myk::model::Place { map: 1, room });
    let rules: Vec<&str> = check(&s, tables()).into_iter().map(|v| v.rule).collect();
    assert!(rules.contains(&"objective.target"), "{rules:?}");
}

#[test]
fn a_format_2_file_loads_and_reads_as_the_defeat_kind() {
    let s = default_scenario(42);
    let mut v = serde_json::to_value(&s).expect("json");
    let old_objective = "Defeat someone, ruler of the somewhere, and make the map the kingdom's territory.";
    v["format"] = serde_json::json!(2);
    v["objective"] = serde_json::json!(old_objective);
    let o = v.as_object_mut().expect("object");
    o.remove("story");
    for c in o.get_mut("cast").and_then(|c| c.as_array_mut()).expect("cast") {
        let c = c.as_object_mut().expect("npc");
        for k in ["personality", "place", "wants", "line", "fights"] {
            c.remove(k);
        }
    }
    let version = dungeonsmith::format::upgrade("myk", &mut v).expect("upgrades");
    assert_eq!(version, 2);
    let back: Scenario = serde_json::from_value(v).expect("a format-2 file parses once upgraded");
    assert_eq!(back.objective.kind, ObjectiveKind::Defeat);
    let text = dungeonsmith::myk::frame::objective(&back);
    let ruler = back.maps.last().and_then(|m| m.rooms.iter().find_map(|r| r.ruler.as_ref())).expect("a ruler");
    assert!(text.starts_with("Defeat ") && text.contains(ruler.name.as_str()), "{text}");
}

#[test]
fn an_unknown_objective_kind_is_one_line_naming_the_option_and_exit_2() {
    let (code, _, err) = crate::run(&["myk", "--seed", "1", "--objective", "conquer"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--objective") && err.contains("conquer"), "{err}");
}

#[test]
fn the_same_seed_and_kind_give_the_same_story() {
    let p = MykParams { objective: Some(ObjectiveKind::Race), ..params(vec![3; 5], 2, 7, Layout::Junction) };
    let a = generate(tables(), &p, 99).expect("generates");
    let b = generate(tables(), &p, 99).expect("generates");
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
}

/// Counted as the GM reads them, names filled in. (Counted before the names are filled, the most
/// frequent pool sentence is in 10 of these 300: the pools give 20-25 prologues per objective kind.)
#[test]
fn the_most_frequent_prologue_sentence_is_in_at_most_3_percent_of_scenarios() {
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    let n = 300u32;
    for seed in 0..u64::from(n) {
        let s = generate(tables(), &options_for(seed), seed).expect("generates");
        let p = &s.story.as_ref().expect("a story").prologue;
        let fill = dungeonsmith::myk::story::Fill::of(&s);
        for sentence in [&p.who, &p.problem, &p.offer] {
            *seen.entry(fill.text(sentence)).or_default() += 1;
        }
    }
    let (top, count) = seen.iter().max_by_key(|(_, c)| **c).expect("sentences");
    assert!(count * 100 <= n * 3, "`{top}` in {count} of {n} scenarios");
}

/// A mini event on map 1 of a two-map scenario whose objective lies on map 2 happens on map 1:
/// its entry opens by naming map 1 by number and name (after its title, the bold label), and its
/// `{map}` is map 1's name.
#[test]
fn each_mini_event_names_the_map_it_is_placed_on() {
    let (mut own_map_text, mut other_maps) = (0, 0);
    for seed in 0..80u64 {
        let p = params(vec![2; 3], 2 + (seed % 2) as u32, 9, Layout::Mixed);
        let s = generate(tables(), &p, seed).expect("generates");
        let st = s.story.as_ref().expect("a story");
        let part = sections(&s, tables()).into_iter().find(|x| x.heading == "Mini events").expect("mini events");
        assert_eq!(part.entries.len(), st.mini_events.len());
        for (e, entry) in st.mini_events.iter().zip(&part.entries) {
            let m = s.map(e.at.map).expect("the event's map");
            let named = format!("Map {} ({}), room {} (", m.index, m.name, e.at.room);
            assert!(entry.text.starts_with(&named), "seed {seed}: `{}` does not open with `{named}`", entry.text);
            let objective_map = s.objective.at.map_or(s.maps.len() as u32, |p| p.map);
            if e.at.map != objective_map {
                other_maps += 1;
                if e.text.contains("{map}") {
                    own_map_text += 1;
                    assert!(entry.text.contains(m.name.as_str()), "seed {seed}: `{}` names not {}", entry.text, m.name);
                }
            }
        }
    }
    assert!(
        other_maps > 50 && own_map_text > 0,
        "{other_maps} events off the objective's map, {own_map_text} with {{map}}"
    );
}

/// Informants that a reroll adds when it places the clues anew are Important NPCs like those the
/// generator makes: each gets a personality and a stat line in the Cast, at the level the
/// generator gives the scenario's own cast (the same rule: the court's average level at most).
#[test]
fn npcs_added_when_clues_are_placed_anew_get_the_generators_stat_lines() {
    use dungeonsmith::edit::myk::{MykPart, RoomPart, reroll};
    let mut added = 0;
    for seed in 0..200u64 {
        let p = params(vec![1 + (seed % 9) as u32; 1 + (seed % 5) as usize], 1 + (seed % 2) as u32, 9, Layout::Mixed);
        let mut s = generate(tables(), &p, seed).expect("generates");
        let level = s.cast.first().and_then(|n| n.fights.as_ref()).map(|f| f.level);
        let rooms: Vec<_> = s.clues.iter().map(|c| c.at).collect();
        for at in rooms {
            let before: Vec<String> = s.cast.iter().map(|n| n.name.to_string()).collect();
            let part = MykPart::Room { map: at.map, room: at.room, what: RoomPart::All };
            if reroll(tables(), &mut s, &part).is_err() {
                continue;
            }
            for n in s.cast.iter().filter(|n| !before.contains(&n.name.to_string())) {
                added += 1;
                assert!(!n.personality.is_empty(), "seed {seed} {part}: {} has no personality", n.name);
                assert_eq!(n.fights.as_ref().map(|f| f.level), level, "seed {seed} {part}: {}", n.name);
            }
            if let Some(why) = npc_without_stat_line(&s) {
                panic!("seed {seed} after `{part}`: {why}");
            }
        }
    }
    assert!(added >= 20, "only {added} NPCs joined the cast through a clue reroll");
}

/// Every text a scenario goes out as: each rendered file (with `all`, also the Udonarium zips'
/// entries, the VTT maps and the PDF's text layer) and the workbench's view of it, as (what, text).
fn every_output(s: &Scenario, all: bool) -> Vec<(String, String)> {
    use dungeonsmith::model::Format;
    use dungeonsmith::render::{RenderOptions, render_myk, text::Templates};
    use std::io::Read;
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    let templates = T.get_or_init(|| Templates::load(None).expect("embedded templates load"));
    let slow = [Format::Pdf, Format::Udonarium, Format::Uvtt];
    let formats: Vec<Format> = Format::ALL.into_iter().filter(|f| all || !slow.contains(f)).collect();
    let files = render_myk(s, tables(), &RenderOptions { formats: &formats, templates, reference: Default::default() })
        .expect("renders");
    let mut out = Vec::new();
    for a in files {
        if a.name.ends_with(".pdf") {
            out.push((a.name, pdf_extract::extract_text_from_mem(&a.bytes).expect("the PDF's text reads back")));
        } else if a.name.ends_with(".zip") {
            let mut z = zip::ZipArchive::new(std::io::Cursor::new(&a.bytes)).expect("a zip");
            for i in 0..z.len() {
                let mut f = z.by_index(i).expect("entry");
                let mut text = String::new();
                if f.read_to_string(&mut text).is_ok() {
                    out.push((format!("{} {}", a.name, f.name().unwrap_or_default()), text));
                }
            }
        } else if let Ok(text) = String::from_utf8(a.bytes) {
            out.push((a.name, text));
        }
    }
    let view = dungeonsmith::workbench::myk(s, tables());
    out.push(("workbench".into(), serde_json::to_string(&view).expect("the view serialises")));
    out
}

/// No output a scenario goes out as leaves the GM something to invent (issue 31, "nothing to
/// invent"): over 300 scenarios the JSON, Markdown, HTML, DOT, SVG sheets and the workbench's view
/// hold no deferral phrase, nor do two scenarios' Udonarium rooms, VTT maps and PDF (the pictures
/// they draw make those slow). The phrases are matched in any letter case.
#[test]
fn no_output_format_holds_a_gm_deferral_phrase_over_300_seeds() {
    // Two one-map scenarios go out in every format, then 300 of every shape in the quick ones.
    let every = (0..2u64).map(|seed| (seed, params(vec![3 + seed as u32 * 5; 4], 1, 9, Layout::Mixed), true));
    for (seed, p, all) in every.chain((0..300u64).map(|seed| (seed, options_for(seed), false))) {
        let s = generate(tables(), &p, seed).expect("generates");
        for (what, text) in every_output(&s, all) {
            let low = text.to_lowercase();
            if let Some(p) = DEFERRALS.iter().find(|p| low.contains(&p.to_lowercase())) {
                let at = low.find(&p.to_lowercase()).unwrap_or_default();
                let near = &text[text.floor_char_boundary(at.saturating_sub(60))..text.ceil_char_boundary(at + 60)];
                panic!("seed {seed} {what}: `{p}` in `{near}`");
            }
        }
    }
}

/// Each kind of story sentence one scenario holds, as the GM reads it (names filled in) when
/// `filled`, else as the pool wrote it (placeholders kept).
fn story_sentences(s: &Scenario, filled: bool) -> BTreeMap<&'static str, Vec<String>> {
    let mut out: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let Some(st) = &s.story else { return out };
    let p = &st.prologue;
    let e = &st.epilogue;
    out.insert("introduction", vec![p.who.clone(), p.problem.clone(), p.offer.clone()]);
    out.insert("objective", vec![s.objective.text.clone()]);
    out.insert("success", vec![e.success.clone()]);
    out.insert("failure", vec![e.failure.clone()]);
    out.insert("roles", st.stakes.iter().map(|k| k.text.clone()).collect());
    out.insert("puzzles", s.clues.iter().filter_map(|c| c.puzzle.as_ref().map(|p| p.text.clone())).collect());
    out.insert("mini events", st.mini_events.iter().flat_map(|m| [m.text.clone(), m.outcome.clone()]).collect());
    out.insert("prologue", vec![p.who.clone()]);
    out.insert("epilogue", vec![e.change.clone(), e.farewell.clone(), e.retry.clone()]);
    out.insert("movement", st.movement.iter().map(|q| q.text.clone()).collect());
    let f = dungeonsmith::myk::story::Fill::of(s);
    for v in out.values_mut() {
        v.retain(|t| !t.is_empty());
        if filled {
            v.iter_mut().for_each(|t| *t = f.text(t));
        }
    }
    out
}

/// Over seeds 1-100, for each kind of story sentence, how many of the 99 pairs of consecutive
/// scenarios share one.
fn consecutive_repeats(filled: bool) -> BTreeMap<&'static str, u32> {
    let mut repeats: BTreeMap<&'static str, u32> = BTreeMap::new();
    let mut last: Option<BTreeMap<&'static str, Vec<String>>> = None;
    for seed in 1..=100u64 {
        let s = generate(tables(), &options_for(seed), seed).expect("generates");
        let now = story_sentences(&s, filled);
        if let Some(before) = &last {
            for (kind, texts) in &now {
                let shared = texts.iter().any(|t| before.get(kind).is_some_and(|b| b.contains(t)));
                *repeats.entry(kind).or_default() += u32::from(shared);
            }
        }
        last = Some(now);
    }
    repeats
}

/// "A sentence a GM reads twice in a row of scenarios is a defect": over seeds 1-100, for each
/// kind of story sentence, few pairs of consecutive scenarios share one as the pool wrote it
/// (placeholders kept: the same sentence about another ruler still reads as the same sentence). A
/// kind drawn once per scenario repeats in at most 5 of the 99 pairs; the kinds drawn once per
/// court member, map or Quarter (roles, mini events, movement: up to 12, 20 and 6 a scenario) in
/// at most 10. Measured when this bound was set (seeds 1-100, pool sentences): movement 57, mini
/// events 14, roles 13, epilogue 10 before the pools grew (45 movement entries, 70 mini events,
/// 36 stakes, 24-28 farewells, changes and retries); movement 8, mini events 4, roles 1, epilogue
/// 4 after (355, 210, 202, 60 each).
#[test]
fn consecutive_scenarios_rarely_share_a_story_sentence() {
    let repeats = consecutive_repeats(false);
    eprintln!("consecutive repeats of 99 pairs, pool sentences: {repeats:?}");
    eprintln!("the same, names filled: {:?}", consecutive_repeats(true));
    assert_eq!(repeats.len(), 10, "every kind counted: {repeats:?}");
    for (kind, n) in &repeats {
        // "roles" are the stakes: a court of up to 12 draws as many from a pool of 202, and two
        // courts of 6-7 share one by chance about one pair in five (17 of 99 here since stakes
        // name numbered members, not invented seats that made equal entries read apart). Known
        // gap (issue 46): stakes composed of parts.
        let bound = match *kind {
            "roles" => 20,
            "mini events" | "movement" => 10,
            _ => 5,
        };
        assert!(*n <= bound, "{kind}: {n} of 99 consecutive pairs share a sentence ({repeats:?})");
    }
}

/// A conversation's condition asks for one unit of one Material, named once: "one unit of Wood",
/// never "one unit of one unit of Wood" (the gift was once written with its count, and the pool
/// texts say the count too), and always one of the Market Table's Materials.
#[test]
fn a_conversations_gift_is_one_unit_of_a_material_named_once() {
    let market = tables().roll_table("myk.market").expect("the Market Table");
    let materials: Vec<&str> =
        market.rows.iter().filter_map(|r| r.result.as_deref()).filter(|r| *r != "None").collect();
    let mut gifts = 0;
    for seed in 1..=200u64 {
        let s = generate(tables(), &options_for(seed), seed).expect("generates");
        for c in s.clues.iter().filter(|c| c.method == ClueMethod::Conversation) {
            assert!(!c.condition.contains("one unit of one unit"), "seed {seed}: {}", c.condition);
            if let Some((_, after)) = c.condition.split_once("one unit of ") {
                gifts += 1;
                assert!(
                    materials.iter().any(|m| after.starts_with(m)),
                    "seed {seed}: `{}` names no Material",
                    c.condition
                );
            }
        }
    }
    assert!(gifts >= 20, "only {gifts} conditions asked for a gift over 200 seeds");
}

/// Every booklet carries the tables every game rolls on, whatever its story cites (issue 46, item
/// 5): the Travel Events Table on the way out and home (seed 003 l.1689), and the End Phase's
/// Kingdom Change, Kingdom Change Failure and Market Tables (l.2405-2471), each printed once.
#[test]
fn every_booklet_prints_the_travel_events_table_and_the_end_phase_tables() {
    for seed in 0..24u64 {
        let s = generate(tables(), &options_for(seed), seed).expect("generates");
        let md = every_output(&s, false).into_iter().find(|(n, _)| n.ends_with(".md")).expect("a booklet").1;
        for t in ["Travel Events Table", "Kingdom Change Table", "Kingdom Change Failure Table", "Market Table"] {
            let heading = format!("### {t}\n");
            assert_eq!(md.matches(&heading).count(), 1, "seed {seed}: `{t}` printed once");
        }
        assert!(md.contains("roll 2D6 on the Travel Events Table"), "seed {seed}: the Departure cites it");
    }
}

/// Every room with monsters says where they stand when a fight starts (seed 003 l.2068: the GM
/// places monsters as the scenario describes), each group and ruler in exactly one area, by the
/// one rule of `myk::battlefield`.
#[test]
fn every_room_with_monsters_places_them_on_the_battlefield() {
    use dungeonsmith::myk::battlefield::{placement, position_for};
    for seed in 0..24u64 {
        let s = generate(tables(), &options_for(seed), seed).expect("generates");
        let md = every_output(&s, false).into_iter().find(|(n, _)| n.ends_with(".md")).expect("a booklet").1;
        for m in &s.maps {
            for r in &m.rooms {
                let line = placement(r, tables());
                assert_eq!(line.is_some(), r.ruler.is_some() || !r.monsters.is_empty(), "seed {seed} {}", r.id);
                let Some(line) = line else { continue };
                assert!(md.contains(&format!("- **Battlefield:** {line}.")), "seed {seed} {}: `{line}` printed", r.id);
                for g in &r.monsters {
                    let area = position_for(tables().myk.monster(&g.name).and_then(|x| x.range)).label();
                    let part = line.split("; ").find(|p| p.starts_with(area)).expect("its area is listed");
                    let group = dungeonsmith::text::count(g.count.into(), &g.name);
                    assert!(part.contains(&group), "seed {seed} {}: {group} in the {area}: `{line}`", r.id);
                }
            }
        }
    }
}
