//! The scenes around the handouts (issue 47 items 2 and 7): every PC has an Opening scene with
//! their Connection (where they meet, what the Connection says, what it knows: the legwork its
//! help gives +2 to), a party of two or more has one scene that brings it together, the Middle
//! Phase is a list of scenes in play order ending on the one that leads to the Dive, and `check`
//! refuses an episode where a PC lacks their scene, the keyword or item is planted in no Opening
//! scene, or a scene names a PC, NPC, place or legwork item that does not exist.

use std::sync::OnceLock;

use dungeonsmith::nw3::{Fortress, FortressParams, check, generate};
use dungeonsmith::render::fortress_view::fortress_view;
use dungeonsmith::render::text::Templates;
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::nw3::EntranceKind;
use dungeonsmith::tables::nw3_episode::Topic;

use crate::seeds;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

/// The spread: areas 3-40, party 1-8, CL 1-20.
fn fortress(i: u64) -> Fortress {
    let p = FortressParams {
        areas: 3 + (i * 7 % 38) as u32,
        party: 1 + (i % 8) as u32,
        cl: 1 + (i * 3 % 20) as u32,
        ..Default::default()
    };
    generate(tables(), &p, 4747 + i).expect("generates")
}

/// The booklet's Markdown and HTML, as `render` writes them (texts filled).
fn booklets(f: &Fortress) -> (String, String) {
    let t = Templates::load(None).expect("built-in templates");
    let filled = dungeonsmith::nw3::text::filled(f);
    let v = fortress_view(&filled, tables(), dungeonsmith::model::Paper::A4, (String::new(), String::new()));
    (t.render("fortress.md", &v).expect("renders"), t.render("fortress.html", &v).expect("renders"))
}

/// Everything the scenes promise of one generated fortress, as a list of what is wrong.
fn scene_faults(f: &Fortress) -> Vec<String> {
    let mut bad = Vec::new();
    let filled = dungeonsmith::nw3::text::filled(f);
    let e = filled.episode.as_ref().expect("an episode");
    let (md, html) = booklets(f);
    let opening = md.split("## Opening Phase").nth(1).and_then(|s| s.split("## Middle Phase").next()).unwrap_or("");
    let mut last = 0;
    for h in &e.handouts {
        let name = &h.connection.name;
        let Some(s) = e.opening.iter().find(|s| s.pc == h.pc) else {
            bad.push(format!("PC {} has no Opening scene", h.pc));
            continue;
        };
        if s.at.is_empty() || !s.says.contains(name.as_str()) || !s.knows.contains(name.as_str()) {
            bad.push(format!("PC {}'s scene lacks a place, or its Connection's words or knowledge: {s:?}", h.pc));
        }
        // What the Connection knows is exactly the legwork its help gives +2 to.
        for l in &e.legwork {
            if (l.connection == *name) != s.knows.contains(l.title.as_str()) {
                bad.push(format!("PC {}'s {name} and the legwork `{}` (Connection {})", h.pc, l.title, l.connection));
            }
        }
        // Printed in PC order, in both booklets.
        let heading = format!("*PC {}'s scene, with {name};", h.pc);
        match opening.find(&heading) {
            Some(at) if at >= last => last = at,
            _ => bad.push(format!("the Markdown booklet does not print PC {}'s scene in order", h.pc)),
        }
        if !html.contains(&format!("<i>PC {}&#x27;s scene, with", h.pc))
            && !html.contains(&format!("<i>PC {}'s scene, with", h.pc))
        {
            bad.push(format!("the HTML booklet does not print PC {}'s scene", h.pc));
        }
    }
    let parties = e.opening.iter().filter(|s| s.party).count();
    if parties != usize::from(e.handouts.len() > 1) {
        bad.push(format!("{parties} party scenes for a party of {}", e.handouts.len()));
    }
    match (f.entrance_condition.kind, &e.keyword, &e.item) {
        (EntranceKind::Keyword, Some(k), _) if !e.opening.iter().any(|s| s.pc == 1 && s.says.contains(&k.word)) => {
            bad.push(format!("PC 1's Connection never says the keyword {:?}", k.word));
        }
        (EntranceKind::Item, _, Some(i)) if !e.opening.iter().any(|s| s.pc == 1 && s.says.contains(&i.name)) => {
            bad.push(format!("PC 1's Connection never names the item {:?}", i.name));
        }
        _ => {}
    }
    let onward: Vec<_> = e.middle.iter().filter(|m| m.onward).collect();
    if onward.len() != 1 || e.middle.last().map(|m| m.legwork) != Some(Some(Topic::Entrance)) {
        bad.push(format!(
            "the Middle Phase does not end on the Entrance's legwork leading to the Dive: {:?}",
            e.middle
        ));
    }
    if e.middle.iter().filter(|m| m.legwork.is_some()).count() != e.legwork.len() {
        bad.push("the Middle Phase does not play every legwork item".into());
    }
    if !md.contains("### Scenes, in play order") || !md.contains("This leads on to the Dive.") {
        bad.push("the Markdown booklet prints no Middle Phase scene list".into());
    }
    if !html.contains("<h3>Scenes, in play order</h3>") {
        bad.push("the HTML booklet prints no Middle Phase scene list".into());
    }
    bad.extend(check(f, tables()).iter().filter(|v| v.rule.starts_with("episode.")).map(|v| v.to_string()));
    bad
}

#[test]
fn every_pc_has_an_opening_scene_with_their_connection_and_the_middle_phase_leads_to_the_dive() {
    for i in seeds(0..300) {
        let f = fortress(i);
        let bad = scene_faults(&f);
        assert!(bad.is_empty(), "seed {} (party {}): {bad:#?}", 4747 + i, f.party.size);
    }
}

crate::in_full! {
    every_pc_has_an_opening_scene_with_their_connection_and_the_middle_phase_leads_to_the_dive
        => every_pc_has_an_opening_scene_with_their_connection_and_the_middle_phase_leads_to_the_dive_in_full,
}

/// The `check` messages of rule `rule` for `f`.
fn refused(f: &Fortress, rule: &str) -> Vec<String> {
    check(f, tables()).into_iter().filter(|v| v.rule == rule).map(|v| v.message).collect()
}

fn episode(f: &mut Fortress) -> &mut dungeonsmith::nw3::Episode {
    f.episode.as_mut().expect("an episode")
}

/// A generated fortress of a party of at least three whose Entrance asks `kind`.
fn asking(kind: EntranceKind) -> Fortress {
    (0..200)
        .map(fortress)
        .find(|f| f.entrance_condition.kind == kind && f.party.size >= 3)
        .expect("a fortress whose Entrance asks it")
}

#[test]
fn episode_opening_pc_refuses_a_pc_without_an_opening_scene() {
    let mut f = asking(EntranceKind::Keyword);
    assert!(refused(&f, "episode.opening-pc").is_empty());
    episode(&mut f).opening.retain(|s| s.pc != 3);
    let m = refused(&f, "episode.opening-pc");
    assert_eq!(m, ["PC 3 has no Opening scene"]);
}

#[test]
fn episode_opening_pc_refuses_a_scene_that_never_names_its_connection() {
    let mut f = asking(EntranceKind::Keyword);
    let s = episode(&mut f).opening.iter_mut().find(|s| s.pc == 3).expect("PC 3's scene");
    s.title = "PC 3 alone".into();
    s.says = "Nobody says anything.".into();
    s.knows = "Nobody knows anything.".into();
    let m = refused(&f, "episode.opening-pc");
    assert!(m.len() == 1 && m[0].contains("PC 3's Connection"), "{m:?}");
}

#[test]
fn episode_keyword_refuses_a_keyword_no_opening_scene_plants() {
    let mut f = asking(EntranceKind::Keyword);
    assert!(refused(&f, "episode.keyword").is_empty());
    let word = episode(&mut f).keyword.as_ref().expect("a keyword").word.clone();
    for s in &mut episode(&mut f).opening {
        for t in [&mut s.title, &mut s.text, &mut s.at, &mut s.says, &mut s.knows] {
            *t = t.replace("{keyword}", "the word").replace(&word, "the word");
        }
    }
    // A legwork result that speaks it does not plant it: the Opening must.
    let m = refused(&f, "episode.keyword");
    assert!(m.len() == 1 && m[0].contains("no opening scene"), "{m:?}");
}

#[test]
fn episode_item_refuses_an_item_no_opening_scene_plants() {
    let mut f = asking(EntranceKind::Item);
    assert!(refused(&f, "episode.item").is_empty());
    let name = episode(&mut f).item.as_ref().expect("an item").name.clone();
    for s in &mut episode(&mut f).opening {
        for t in [&mut s.title, &mut s.text, &mut s.at, &mut s.says, &mut s.knows] {
            *t = t.replace("{item}", "the thing").replace(&name, "the thing");
        }
    }
    let m = refused(&f, "episode.item");
    assert!(m.len() == 1 && m[0].contains("no opening scene finds"), "{m:?}");
}

#[test]
fn episode_scenes_refuses_a_scene_naming_a_pc_the_party_lacks() {
    let mut f = asking(EntranceKind::Keyword);
    let size = f.party.size;
    assert!(refused(&f, "episode.scenes").is_empty());
    episode(&mut f).opening[0].pc = size + 1;
    let m = refused(&f, "episode.scenes");
    assert!(m.iter().any(|m| m.contains(&format!("PC {}'s", size + 1))), "{m:?}");
    let mut f = asking(EntranceKind::Keyword);
    episode(&mut f).opening[1].says.push_str(&format!(" PC {} nods.", size + 2));
    let m = refused(&f, "episode.scenes");
    assert!(m.iter().any(|m| m.contains(&format!("`PC {}`", size + 2))), "{m:?}");
}

#[test]
fn episode_scenes_refuses_a_middle_scene_playing_a_legwork_item_the_episode_lacks() {
    let mut f = asking(EntranceKind::Keyword);
    let e = episode(&mut f);
    let topic = e.middle.iter().find_map(|m| m.legwork).expect("a legwork scene");
    e.legwork.retain(|l| l.topic != topic);
    let m = refused(&f, "episode.scenes");
    assert!(m.len() == 1 && m[0].contains(&format!("`{}`", topic.label())), "{m:?}");
}

#[test]
fn episode_texts_refuses_a_scene_naming_an_npc_or_an_area_that_does_not_exist() {
    let mut f = asking(EntranceKind::Keyword);
    let (npcs, areas) = (f.party.size + 1, f.areas.len() + 1);
    let s = episode(&mut f).opening.iter_mut().find(|s| s.pc == 2).expect("PC 2's scene");
    s.says.push_str(&format!(" Ask {{npc:{npcs}}}."));
    s.at = format!("{{area:{areas}}}");
    let m = refused(&f, "episode.texts");
    assert!(m.iter().any(|m| m.contains(&format!("{{npc:{npcs}}}"))), "{m:?}");
    assert!(m.iter().any(|m| m.contains(&format!("{{area:{areas}}}"))), "{m:?}");
}

#[test]
fn a_file_made_before_the_scenes_were_planned_still_passes() {
    let mut f = asking(EntranceKind::Keyword);
    let e = episode(&mut f);
    e.middle.clear();
    for s in &mut e.opening {
        s.pc = 0;
        s.party = false;
    }
    let rules = ["episode.opening-pc", "episode.scenes", "episode.keyword"];
    let m: Vec<String> = rules.iter().flat_map(|r| refused(&f, r)).collect();
    assert!(m.is_empty(), "{m:?}");
}

#[test]
fn the_scenes_follow_a_legwork_item_dropped_when_the_fortress_rolls_anew() {
    let mut f = (0..200)
        .map(fortress)
        .find(|f| {
            f.party.size >= 5
                && f.episode.as_ref().is_some_and(|e| e.legwork.iter().any(|l| l.topic == Topic::SecretGate))
        })
        .expect("a fortress with a secret gate's legwork");
    let title = episode(&mut f).legwork.iter().find(|l| l.topic == Topic::SecretGate).expect("it").title.clone();
    // The fortress rolled anew without a secret gate: its legwork item goes, and the scenes follow.
    for g in &mut f.gates {
        if g.kind == dungeonsmith::nw3::GateKind::Secret {
            g.kind = dungeonsmith::nw3::GateKind::Normal;
            g.opened_by = None;
        }
    }
    dungeonsmith::nw3::episode::reveal_anew(&mut f);
    let e = episode(&mut f);
    assert!(!e.middle.iter().any(|m| m.legwork == Some(Topic::SecretGate)));
    assert!(!e.opening.iter().any(|s| s.knows.contains(&title)), "{title}");
    assert!(refused(&f, "episode.scenes").is_empty());
    assert!(refused(&f, "episode.opening-pc").is_empty());
}
