//! The Climax as one plan (issue 47, the GM's read of ten episodes; `src/nw3/episode/core.rs`):
//! the booklet says how the party breaks the Core this fortress has, a retreat follows from the
//! Ruler's persona with a stated trigger (none from a Ruler that bars the door), the Core's guards
//! fight in or before the Climax as the Climax says and never after it, and a Climax or After
//! Phase text sets the Ruler's wish where any wish reads. `check` refuses each contradiction.

use std::sync::OnceLock;

use dungeonsmith::nw3::episode::core::{CORE_SUCCESSES, GUARDS_ROUND, Leave};
use dungeonsmith::nw3::finale::CoreOrder;
use dungeonsmith::nw3::{Fortress, FortressParams, check, generate};
use dungeonsmith::render::fortress_view::fortress_view;
use dungeonsmith::render::text::Templates;
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::nw3::BreakWay;
use dungeonsmith::tables::nw3_episode::Way;

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

/// The booklet's Climax Phase, up to the Ruler's stat block.
fn climax_md(f: &Fortress) -> String {
    let t = Templates::load(None).expect("built-in templates");
    let v = fortress_view(f, tables(), dungeonsmith::model::Paper::A4, (String::new(), String::new()));
    let md = t.render("fortress.md", &v).expect("renders");
    md.split("## Climax Phase").nth(1).unwrap_or("").split("## After Phase").next().unwrap_or("").to_string()
}

/// The `check` messages of rule `rule` for `f`.
fn refused(f: &Fortress, rule: &str) -> Vec<String> {
    check(f, tables()).into_iter().filter(|v| v.rule == rule).map(|v| v.message).collect()
}

fn episode(f: &mut Fortress) -> &mut dungeonsmith::nw3::Episode {
    f.episode.as_mut().expect("an episode")
}

fn find(what: impl Fn(&Fortress) -> bool) -> Fortress {
    (0..300).map(fortress).find(|f| what(f)).expect("a generated fortress of that kind")
}

fn leave(f: &Fortress) -> Leave {
    f.episode.as_ref().map_or(Leave::Unsaid, |e| e.climax.leave)
}

fn episode_core_break_is_printed_from_the_tables_for_every_core() {
    for i in seeds(0..300) {
        let f = fortress(i);
        let e = f.episode.as_ref().expect("an episode");
        let rec = tables().nw3.cores.iter().find(|c| c.name == f.core.name).expect("the Core's record");
        let k = e.climax.core.expect("the Climax says how the Core breaks");
        assert_eq!(k.way, rec.breaks, "seed {}", f.seed);
        let md = climax_md(&f);
        let rule = format!("To break the {}", f.core.name);
        assert!(md.contains(&rule), "seed {}: the Climax never says how the Core breaks:\n{md}", f.seed);
        match k.way {
            BreakWay::Strike => {
                assert!(md.contains(&format!("taken {} HP", k.takes)) && k.takes > 0, "seed {}", f.seed)
            }
            w => {
                let judge = format!("{} judge (difficulty {})", w.attribute().unwrap_or("?"), k.difficulty);
                assert!(md.contains(&judge) && k.takes == CORE_SUCCESSES, "seed {}: {judge} not in\n{md}", f.seed);
            }
        }
        assert!(refused(&f, "episode.core-break").is_empty(), "seed {}", f.seed);
    }
}

#[test]
fn episode_core_break() {
    episode_core_break_is_printed_from_the_tables_for_every_core();
    // Every way a Core breaks comes up in the tables.
    let ways: std::collections::BTreeSet<String> =
        tables().nw3.cores.iter().map(|c| format!("{:?}", c.breaks)).collect();
    assert_eq!(ways.len(), 4, "{ways:?}");
    // A difficulty off the rule is refused, in one line naming the Core.
    let mut f = find(|f| f.episode.as_ref().is_some_and(|e| e.climax.core.is_some_and(|k| k.difficulty > 0)));
    let k = episode(&mut f).climax.core.as_mut().expect("a Core");
    k.difficulty += 4;
    let m = refused(&f, "episode.core-break");
    assert!(m.len() == 1 && m[0].contains(&f.core.name), "{m:?}");
}

fn episode_leave_follows_the_rulers_persona() {
    for i in seeds(0..300) {
        let f = fortress(i);
        let e = f.episode.as_ref().expect("an episode");
        let bars = tables().nw3.rulers.iter().find(|r| r.name == f.ruler.name).expect("the Ruler's record").bars_door;
        let retreat = e.endings.iter().any(|x| x.way == Way::Retreat);
        let last = e.climax.tactics.last().expect("tactics");
        let md = climax_md(&f);
        match e.climax.leave {
            Leave::Barred => {
                assert!(bars && !retreat, "seed {}: a retreat from a Ruler that bars the door", f.seed);
                assert!(last.contains("offers no leave") && !last.contains("HP or less"), "seed {}: {last}", f.seed);
                assert!(md.contains("bars the door and grants no leave"), "seed {}", f.seed);
            }
            Leave::Offered(hp) => {
                let body = f.ruler.stats.expect("a stat block").body;
                assert!(!bars && retreat && hp == body / 2, "seed {}: leave at {hp} of {body}", f.seed);
                // The one threshold the tactics name is the leave's trigger, and the booklet says it.
                assert!(last.contains(&format!("At {hp} HP or less it offers the party its leave")), "seed {}", f.seed);
                assert!(md.contains(&format!("takes the leave {} offers at {hp} HP", f.ruler.name)), "seed {}", f.seed);
            }
            Leave::Unsaid => panic!("seed {}: a generated Climax leaves the leave unsaid", f.seed),
        }
        let threshold_lines = e.climax.tactics.iter().filter(|t| t.contains("HP or less")).count();
        assert!(threshold_lines <= 1 && refused(&f, "episode.leave").is_empty(), "seed {}", f.seed);
    }
}

#[test]
fn episode_leave() {
    episode_leave_follows_the_rulers_persona();
    // A retreat ending set on a Ruler that bars the door is refused.
    let mut f = find(|f| leave(f) == Leave::Barred);
    let offered = find(|f| matches!(leave(f), Leave::Offered(_)));
    let x = offered.episode.as_ref().and_then(|e| e.endings.iter().find(|x| x.way == Way::Retreat)).expect("a retreat");
    episode(&mut f).endings.push(x.clone());
    let m = refused(&f, "episode.leave");
    assert!(m.len() == 1 && m[0].contains("bars the door"), "{m:?}");
    // A threshold the tactics do not name is refused.
    let mut g = offered;
    if let Leave::Offered(hp) = leave(&g) {
        episode(&mut g).climax.leave = Leave::Offered(hp + 3);
    }
    let m = refused(&g, "episode.leave");
    assert!(m.len() == 1 && m[0].contains("threshold"), "{m:?}");
}

fn episode_guards_fight_in_or_before_the_climax() {
    for i in seeds(0..300) {
        let f = fortress(i);
        let e = f.episode.as_ref().expect("an episode");
        let fin = dungeonsmith::nw3::finale::of(&f);
        let core = f.core_area().expect("a Core area");
        let md = climax_md(&f);
        match &e.climax.guards {
            None => assert!(core.enemies.is_empty(), "seed {}: guards in area {} and no Climax beat", f.seed, core.id),
            Some(g) => {
                let round = if fin.order == CoreOrder::Beside { 1 } else { GUARDS_ROUND };
                assert_eq!((g.area, g.round), (core.id, round), "seed {}", f.seed);
                // The Climax names every group that guards the Core, as the area has them.
                let named = core.enemies.iter().all(|x| md.contains(&x.name));
                assert!(md.contains(&format!("round {round}")) && named, "seed {}:\n{md}", f.seed);
                // Nothing fights after the Climax: the Core's guards never wait behind the Ruler.
                if fin.order != CoreOrder::Either && fin.order != CoreOrder::Beside {
                    assert!(md.contains("Nothing fights after the Climax"), "seed {}", f.seed);
                }
            }
        }
        assert!(refused(&f, "episode.guards").is_empty(), "seed {}", f.seed);
    }
}

#[test]
fn episode_guards() {
    episode_guards_fight_in_or_before_the_climax();
    let with_guards = |f: &Fortress| f.core_area().is_some_and(|a| !a.enemies.is_empty());
    // Guards in the Core's area with no Climax beat for them are refused.
    let mut f = find(with_guards);
    episode(&mut f).climax.guards = None;
    let m = refused(&f, "episode.guards");
    assert!(m.len() == 1 && m[0].contains("never says when they fight"), "{m:?}");
    // A beat for guards the Core's area no longer holds (a hand edit emptied it) is refused.
    let mut g = find(with_guards);
    let core = g.core_area().expect("a Core area").id;
    g.areas.iter_mut().filter(|a| a.id == core).for_each(|a| a.enemies.clear());
    let m = refused(&g, "episode.guards");
    assert!(m.len() == 1 && m[0].contains("no enemies guard the Core"), "{m:?}");
}

#[test]
fn episode_wish_is_set_after_a_colon_in_climax_and_after_phase_texts() {
    let e = &tables().nw3.episode;
    let texts = e.ruler_line.iter().map(|x| &x.text).chain(e.climax.iter().map(|x| &x.text));
    for t in texts.chain(e.ending.iter().map(|x| &x.text)) {
        for (at, _) in t.match_indices("{wish}") {
            let (before, after) = (&t[..at], &t[at + "{wish}".len()..]);
            assert!(before.ends_with(": "), "the wish runs into the sentence: {t}");
            assert!(after.is_empty() || after.starts_with('.'), "the wish does not end its sentence: {t}");
        }
    }
}

crate::in_full!(
    episode_core_break_is_printed_from_the_tables_for_every_core => episode_core_break_in_full,
    episode_leave_follows_the_rulers_persona => episode_leave_in_full,
    episode_guards_fight_in_or_before_the_climax => episode_guards_in_full,
);
