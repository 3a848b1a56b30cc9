//! The MYK room key names the Scenario Movement (issue 48, "Done means": every room entry names
//! its Movement steps): each step of the movement plan is printed in the entry of the room it
//! starts in and the room it ends in, with its Quarter, who acts and what happens, in the
//! Markdown and the HTML booklet; no room's entry prints a step that does not happen there.

use dungeonsmith::model::Format;
use dungeonsmith::myk::model::{ObjectiveKind, Place, Quarter, Scenario};
use dungeonsmith::myk::story::Fill;
use dungeonsmith::myk::{MykParams, generate};
use dungeonsmith::render::booklet::Reference;
use dungeonsmith::render::myk_story::room_name;
use dungeonsmith::render::text::{Templates, markdown_escape};
use dungeonsmith::render::{RenderOptions, render_myk};

use crate::myk::{options_for, tables};

/// Scenario `seed` of every option mix, its objective kind going round the seven.
fn scenario(seed: u64) -> Scenario {
    let kind = ObjectiveKind::ALL[seed as usize % ObjectiveKind::ALL.len()];
    let mut p = MykParams { objective: Some(kind), ..options_for(seed) };
    p.maps = p.maps.min(4);
    generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// The Markdown and the HTML booklet, reference left out (only part one is read).
fn booklets(s: &Scenario) -> (String, String) {
    let templates = Templates::load(None).expect("built-in templates");
    let opts =
        RenderOptions { formats: &[Format::Md, Format::Html], templates: &templates, reference: Reference::None };
    let files = render_myk(s, tables(), &opts).expect("renders");
    let text = |ext: &str| {
        let a = files.iter().find(|a| a.name.ends_with(ext)).expect("a booklet");
        String::from_utf8(a.bytes.clone()).expect("UTF-8")
    };
    (text(".md"), text(".html"))
}

/// The part of `doc` from `open` (found after `from`) to the first of `ends` after it.
fn span<'a>(doc: &'a str, from: usize, open: &str, ends: &[&str]) -> &'a str {
    let start = from + doc[from..].find(open).unwrap_or_else(|| panic!("no `{open}`"));
    let rest = &doc[start + open.len()..];
    &rest[..ends.iter().filter_map(|e| rest.find(e)).min().unwrap_or(rest.len())]
}

/// The room's entry in the Markdown room key of its map.
fn md_room<'a>(md: &'a str, s: &Scenario, at: Place) -> &'a str {
    let map = md.find(&format!("\n## Map {} of {}: ", at.map, s.maps.len())).expect("the map's key");
    let name = &s.map(at.map).expect("the map").room(at.room).name;
    span(md, map, &format!("\n### {} — {}\n", at.room, markdown_escape(name)), &["\n### ", "\n## "])
}

/// The room's entry in the HTML room key of its map.
fn html_room<'a>(html: &'a str, s: &Scenario, at: Place) -> &'a str {
    let map = html.find(&format!("<h2>Map {} of {}: ", at.map, s.maps.len())).expect("the map's key");
    span(html, map, &format!("<h3>{} — ", at.room), &["<div class=\"room\">", "</section>"])
}

/// `text` as the HTML templates escape it (minijinja's HTML escaping).
fn html_escape(text: &str) -> String {
    let pairs = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#x27;"), ("/", "&#x2f;")];
    pairs.iter().fold(text.to_string(), |t, (from, to)| t.replace(from, to))
}

/// The label the room key gives step `q`: who acts, its Quarter and action.
fn label(q: &Quarter) -> String {
    let who = if q.who.is_empty() { String::new() } else { format!("{}, ", dungeonsmith::text::capitalise(&q.who)) };
    format!("Scenario Movement — {who}Quarter {} ({}):", q.quarter, q.action)
}

/// The rooms a step happens in: where it starts (a move's room of departure) and where it ends.
fn rooms_of(q: &Quarter) -> Vec<Place> {
    q.from.into_iter().chain(q.at).collect()
}

#[test]
fn every_movement_step_is_named_in_the_entry_of_each_room_it_starts_or_ends_in() {
    let (mut steps, mut moves) = (0, 0);
    for seed in crate::seeds(0..300u64) {
        let s = scenario(seed);
        let Some(st) = &s.story else { continue };
        let (md, html) = booklets(&s);
        let f = Fill::of(&s);
        for q in &st.movement {
            let what = format!("seed {seed}, Quarter {}", q.quarter);
            let rooms = rooms_of(q);
            assert!(!rooms.is_empty(), "{what}: the step stands nowhere");
            for at in rooms {
                let line = format!("- **{}** {}", markdown_escape(&label(q)), markdown_escape(&f.text(&q.text)));
                assert!(md_room(&md, &s, at).contains(&line), "{what}: room {} of map {}: `{line}`", at.room, at.map);
                let html_label = format!("<b>{}</b>", html_escape(&label(q)));
                assert!(html_room(&html, &s, at).contains(&html_label), "{what}: the HTML room {}", at.room);
                // A move says, in each of its rooms, which way it goes from there.
                if let (Some(from), Some(to)) = (q.from, q.at) {
                    let way = if at == from {
                        format!("  - Leaves this room for room {}, along", markdown_escape(&room_name(&s, to)))
                    } else {
                        format!("  - Arrives from room {}, along", markdown_escape(&room_name(&s, from)))
                    };
                    assert!(md_room(&md, &s, at).contains(&way), "{what}: room {}: `{way}`", at.room);
                }
            }
            steps += 1;
            moves += usize::from(q.from.is_some());
        }
        // No entry prints a step that does not happen in its room.
        for m in &s.maps {
            for r in m.used_rooms() {
                let at = Place { map: m.index, room: r.id };
                let here = st.movement.iter().filter(|q| rooms_of(q).contains(&at)).count();
                let printed = md_room(&md, &s, at).matches("**Scenario Movement — ").count();
                assert_eq!(printed, here, "seed {seed}: room {} of map {} prints {printed} steps", r.id, m.index);
            }
        }
    }
    assert!(steps > 40 && moves > 5, "steps checked: {steps}, of which moves {moves}");
}

crate::in_full! {
    every_movement_step_is_named_in_the_entry_of_each_room_it_starts_or_ends_in =>
        every_movement_step_is_named_in_the_entry_of_each_room_it_starts_or_ends_in_in_full,
}
