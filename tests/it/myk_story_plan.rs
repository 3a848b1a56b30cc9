//! Parts of a MYK scenario that must agree with its plan (issue 46, the GM's count of places to
//! invent or reconcile): a weak point's clue says a fact of this ruler, not the rule's keyword; a
//! Relationship's NPC can be met before the ruler; a mini event happens where no ruler or hostile
//! group stands; every item part one names has its entry in part two; an NPC's line speaks as
//! the NPC and fits the objective's kind. `check` refuses each hand edit that breaks one.

use crate::myk::tables;
use dungeonsmith::dice::Dice;
use dungeonsmith::model::Format;
use dungeonsmith::myk::clues::text::players_texts;
use dungeonsmith::myk::model::{AdjustmentKind, Layout, ObjectiveKind, Place, Reaction, Reveals, Scenario};
use dungeonsmith::myk::reach::Reach;
use dungeonsmith::myk::story::Fill;
use dungeonsmith::myk::{MykParams, check, generate};
use dungeonsmith::render::{RenderOptions, render_myk, text::Templates};

fn templates() -> &'static Templates {
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    T.get_or_init(|| Templates::load(None).expect("embedded templates load"))
}

/// Options of every mix: each objective kind in turn, courts of 1-8 at levels 1-12, 1-3 maps,
/// each layout.
fn scenario(seed: u64) -> Scenario {
    let mut d = Dice::new(seed).child("test/story-plan-options");
    let size = d.between(1, 8) as usize;
    let p = MykParams {
        levels: vec![d.between(1, 12); size],
        maps: d.between(1, 3),
        rooms: d.between(5, 9),
        layout: [Layout::Straight, Layout::Junction, Layout::Mixed][d.below(3) as usize],
        objective: Some(ObjectiveKind::ALL[seed as usize % ObjectiveKind::ALL.len()]),
        ..Default::default()
    };
    let s = generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed} {p:?}: {e}"));
    assert!(check(&s, tables()).is_empty(), "seed {seed}: {:?}", check(&s, tables()));
    s
}

/// The Markdown booklet.
fn booklet(s: &Scenario) -> String {
    let opts = RenderOptions { formats: &[Format::Md], templates: templates(), reference: Default::default() };
    let files = render_myk(s, tables(), &opts).expect("renders");
    let file = files.into_iter().find(|a| a.name.ends_with(".md")).expect("the booklet");
    String::from_utf8(file.bytes).expect("text")
}

/// The book's weak-point names, the rule's keywords a player never finds written on a clue.
fn keywords() -> Vec<&'static str> {
    tables().myk.weak_points.iter().map(|w| w.name.as_str()).collect()
}

fn weak_point_clues_say_a_fact_of_the_ruler_not_the_rules_keyword() {
    let mut told = 0;
    for seed in crate::seeds(0..300u64) {
        let s = scenario(seed);
        for c in &s.clues {
            let Reveals::Room(p) = c.reveals else { continue };
            let Some(ru) = s.map(p.map).and_then(|m| m.room(p.room).ruler.as_ref()) else { continue };
            let weak: Vec<_> = ru.adjustments.iter().filter(|a| a.kind == AdjustmentKind::WeakPoint).collect();
            if weak.is_empty() || !weak.iter().any(|a| c.text.contains(a.what.as_str())) {
                continue;
            }
            told += 1;
            let said = players_texts(&s, c).join(" ");
            assert!(!said.contains('{'), "seed {seed}: a slot left in `{said}`");
            for k in keywords() {
                assert!(!said.contains(k), "seed {seed}: the players read the keyword `{k}`: {said}");
            }
            for a in &weak {
                if let Some(n) = a.npc.and_then(|n| s.cast_member(n)) {
                    assert!(said.contains(n.name.as_str()), "seed {seed}: the bond to {} is not told: {said}", n.name);
                }
                for sk in &a.sealed {
                    let name = sk.split(" (").next().unwrap_or(sk);
                    assert!(said.contains(name), "seed {seed}: sealed `{name}` not told: {said}");
                }
            }
        }
    }
    assert!(told > 0, "no weak point's clue in the seeds");
}

#[test]
fn a_weak_points_clue_tells_a_fact_of_the_ruler_not_the_rules_keyword() {
    weak_point_clues_say_a_fact_of_the_ruler_not_the_rules_keyword();
}

/// Whether the cast member stands where the court meets them before the ruler at `ruler`.
fn met_before(s: &Scenario, g: &Reach, at: Option<Place>, ruler: Place) -> bool {
    let Some(p) = at else { return true };
    let pos = s.maps.iter().position(|m| m.index == p.map).expect("the NPC's map");
    p != ruler && Reach::at(&g.from_outside_without(Reveals::Room(ruler)), pos, p.room)
}

fn bond_npcs_can_be_met_before_the_ruler() {
    for seed in crate::seeds(0..300u64) {
        let s = scenario(seed);
        let g = Reach::new(&s, tables());
        for m in &s.maps {
            for r in m.used_rooms() {
                let Some(ru) = &r.ruler else { continue };
                for a in ru.adjustments.iter().filter(|a| a.what == "Relationship") {
                    let n = a.npc.and_then(|n| s.cast_member(n)).expect("a Relationship names an NPC");
                    let here = Place { map: m.index, room: r.id };
                    assert!(!n.role.starts_with("rival"), "seed {seed}: bound to the rival");
                    assert!(met_before(&s, &g, n.place, here), "seed {seed}: {} stands beyond {}", n.name, ru.name);
                }
            }
        }
    }
}

#[test]
fn a_relationships_npc_stands_where_the_court_meets_them_before_the_ruler() {
    bond_npcs_can_be_met_before_the_ruler();
}

fn mini_events_stand_where_an_event_can_happen() {
    let mut events = 0;
    for seed in crate::seeds(0..300u64) {
        let s = scenario(seed);
        for e in &s.story.as_ref().expect("a story").mini_events {
            events += 1;
            let r = s.map(e.at.map).expect("its map").room(e.at.room);
            assert!(r.used && r.ruler.is_none(), "seed {seed}: `{}` in a ruler's or unused room", e.title);
            let hostile = r.monsters.iter().any(|g| g.reaction == Reaction::Hostile);
            assert!(!hostile, "seed {seed}: `{}` among hostile monsters", e.title);
        }
    }
    assert!(events > 0);
}

#[test]
fn mini_events_happen_in_rooms_without_a_ruler_or_a_hostile_group() {
    mini_events_stand_where_an_event_can_happen();
}

/// The item names part one prints in the item wordings: the Reward's "1 X (a Rare Item)", a
/// shop's "For sale: X, N MG" and a group's "Gear: each carries X, Y (common)".
fn items_named(part_one: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in part_one.lines() {
        if let Some(i) = line.find("**The Reward:** 1 ") {
            let rest = &line[i + "**The Reward:** 1 ".len()..];
            out.extend(rest.find(" (a Rare Item)").map(|e| rest[..e].to_string()));
        }
        if let Some(rest) = line.trim_start().strip_prefix("- For sale: ") {
            out.extend(rest.rsplit_once(", ").map(|(n, _)| n.to_string()));
        }
        let mut from = 0;
        while let Some(i) = line[from..].find("Gear: each carries ").map(|i| from + i + "Gear: each carries ".len()) {
            let end = line[i..].find(';').map_or(line.len(), |e| i + e);
            for part in line[i..end].split(" and ") {
                let names = part.split(" (").next().unwrap_or(part);
                out.extend(
                    names
                        .split(", ")
                        .filter(|n| !n.is_empty() && !n.contains("relationship point"))
                        .map(str::to_string),
                );
            }
            from = end;
        }
    }
    out
}

fn every_named_item_has_an_entry() {
    let mut named = 0;
    for seed in crate::seeds(0..300u64) {
        let s = scenario(seed);
        let md = booklet(&s);
        let split = md.find("## Part two").unwrap_or(md.len());
        let (one, two) = md.split_at(split);
        let mut names = items_named(one);
        names.extend(s.objective.item.iter().cloned());
        for n in names {
            named += 1;
            assert!(tables().items.item(&n).is_some(), "seed {seed}: `{n}` read as an item but is none");
            assert!(two.contains(&format!("**{n}**")), "seed {seed}: part one names `{n}`, part two has no entry");
        }
    }
    assert!(named > 0);
}

#[test]
fn every_item_part_one_names_has_its_entry_in_part_two() {
    every_named_item_has_an_entry();
}

fn lines_fit_speaker_and_objective() {
    for seed in crate::seeds(0..300u64) {
        let s = scenario(seed);
        let kind = s.objective.kind.name();
        for n in s.cast.iter().filter(|n| !n.line.is_empty()) {
            let said = Fill::with_npc(&s, &n.name).text(&n.line);
            if !n.line.contains("{npc") {
                assert!(!said.contains(n.name.as_str()), "seed {seed}: {} names itself: {said}", n.name);
            }
            let p = tables().story.personality.iter().find(|p| p.name == n.personality).expect("its personality");
            for l in p.kind_lines.iter().filter(|l| !l.kinds.iter().any(|k| k == kind)) {
                assert_ne!(n.line, l.text.as_str(), "seed {seed}: a line not for a {kind} objective");
            }
        }
    }
}

#[test]
fn an_npcs_line_speaks_as_itself_and_fits_the_objectives_kind() {
    lines_fit_speaker_and_objective();
}

crate::in_full!(
    a_weak_points_clue_tells_a_fact_of_the_ruler_not_the_rules_keyword => a_weak_points_clue_tells_a_fact_of_the_ruler_not_the_rules_keyword_in_full,
    a_relationships_npc_stands_where_the_court_meets_them_before_the_ruler => a_relationships_npc_stands_where_the_court_meets_them_before_the_ruler_in_full,
    mini_events_happen_in_rooms_without_a_ruler_or_a_hostile_group => mini_events_happen_in_rooms_without_a_ruler_or_a_hostile_group_in_full,
    every_item_part_one_names_has_its_entry_in_part_two => every_item_part_one_names_has_its_entry_in_part_two_in_full,
    an_npcs_line_speaks_as_itself_and_fits_the_objectives_kind => an_npcs_line_speaks_as_itself_and_fits_the_objectives_kind_in_full,
);

/// The rules `check` names for `s`.
fn rules(s: &Scenario) -> Vec<&'static str> {
    check(s, tables()).into_iter().map(|v| v.rule).collect()
}

#[test]
fn check_refuses_a_mini_event_in_a_rulers_room_among_hostiles_or_nowhere() {
    let s = (0..40u64).map(scenario).find(|s| s.story.as_ref().is_some_and(|st| !st.mini_events.is_empty())).unwrap();
    let last = s.maps.last().unwrap();
    let ruler = last.rooms.iter().find(|r| r.ruler.is_some()).map(|r| Place { map: last.index, room: r.id }).unwrap();
    let mut t = s.clone();
    t.story.as_mut().unwrap().mini_events[0].at = ruler;
    assert!(rules(&t).contains(&"mini-event.ruler"), "{:?}", rules(&t));
    let hostile = s.maps.iter().find_map(|m| {
        m.used_rooms()
            .find(|r| r.ruler.is_none() && r.monsters.iter().any(|g| g.reaction == Reaction::Hostile))
            .map(|r| Place { map: m.index, room: r.id })
    });
    if let Some(h) = hostile {
        let mut t = s.clone();
        t.story.as_mut().unwrap().mini_events[0].at = h;
        assert!(rules(&t).contains(&"mini-event.hostile"), "{:?}", rules(&t));
    }
    let mut t = s.clone();
    t.story.as_mut().unwrap().mini_events[0].at.map = 99;
    assert!(rules(&t).contains(&"mini-event.place"), "{:?}", rules(&t));
}

#[test]
fn check_refuses_a_bond_npc_who_stands_in_the_rulers_room() {
    let found = (0..300u64).map(scenario).find_map(|s| {
        s.maps.iter().find_map(|m| {
            m.rooms.iter().find_map(|r| {
                let ru = r.ruler.as_ref()?;
                let a = ru.adjustments.iter().find(|a| a.what == "Relationship")?;
                Some((s.clone(), a.npc?, Place { map: m.index, room: r.id }))
            })
        })
    });
    let (mut s, npc, ruler) = found.expect("a Relationship in 300 seeds");
    let k = npc.index().expect("a cast place");
    s.cast[k].place = Some(ruler);
    assert!(rules(&s).contains(&"weak-point.bond-place"), "{:?}", rules(&s));
}

#[test]
fn check_refuses_a_line_that_names_its_own_speaker() {
    let mut s = scenario(1);
    let k = s.objective.npc.and_then(|n| n.index()).or_else(|| (!s.cast.is_empty()).then_some(0)).unwrap();
    // The patron speaking of `{patron}`: itself, in the third person.
    let patron = s.cast.iter().position(|n| n.role.starts_with("patron")).unwrap_or(k);
    s.cast[patron].line = "Tell {patron} I sent you.".into();
    assert!(rules(&s).contains(&"cast.speaks-of-self"), "{:?}", rules(&s));
}
