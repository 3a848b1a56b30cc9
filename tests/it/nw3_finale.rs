//! One finale (issue 47 items 1, 2 and 7): the Climax is set in the Ruler's area and shows the
//! Core only where it lies; each ending is one the gates and the Ruler allow (the Core broken
//! only where a way around the Ruler reaches it, a retreat only with the Ruler's leave, nobody
//! fleeing whose tactics say it never flees); the area where the victim is held names them and
//! every ending says what became of them; `check` refuses a hand edit that breaks any of it.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use dungeonsmith::nw3::finale::{Claim, CoreOrder};
use dungeonsmith::nw3::model::Opener;
use dungeonsmith::nw3::{Fortress, FortressParams, GateKind, check, generate};
use dungeonsmith::render::fortress_view::fortress_view;
use dungeonsmith::render::text::Templates;
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::nw3_episode::{Topic, Way};

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

/// The spread: areas 3-40, party 1-8, CL 1-20.
fn fortress(i: u64) -> Fortress {
    let p = FortressParams {
        areas: 3 + (i * 5 % 38) as u32,
        party: 1 + (i % 8) as u32,
        cl: 1 + (i * 3 % 20) as u32,
        ..Default::default()
    };
    generate(tables(), &p, 4700 + i).expect("generates")
}

fn markdown(f: &Fortress) -> String {
    let t = Templates::load(None).expect("built-in templates");
    let v = fortress_view(f, tables(), dungeonsmith::model::Paper::A4, (String::new(), String::new()));
    t.render("fortress.md", &v).expect("renders")
}

/// The areas a party reaches from the Entrance while the Ruler still stands (its area entered,
/// its fight on), a gate its encounter opens staying shut: where it can go before the Ruler
/// falls (the test's own walk).
fn before_the_ruler_falls(f: &Fortress) -> BTreeSet<u32> {
    let r = f.ruler.area;
    let mut seen: BTreeSet<u32> = f.entrance().map(|a| a.id).into_iter().collect();
    loop {
        let n = seen.len();
        for g in &f.gates {
            let open = match (g.kind, g.opened_by) {
                (GateKind::Damaged, _) => g.uses.unwrap_or(0) > 0,
                (GateKind::Closed, None) => false,
                (GateKind::Closed | GateKind::Secret, Some(Opener::Event(x) | Opener::Device(x))) => {
                    x != r && seen.contains(&x)
                }
                _ => true,
            };
            let ends =
                if g.kind == GateKind::OneWay { vec![(g.from, g.to)] } else { vec![(g.from, g.to), (g.to, g.from)] };
            for (a, b) in ends {
                if open && seen.contains(&a) {
                    seen.insert(b);
                }
            }
        }
        if seen.len() == n {
            return seen;
        }
    }
}

/// Everything the finale asks of one generated fortress, as a list of what is wrong.
fn finale_faults(f: &Fortress) -> Vec<String> {
    let mut bad = Vec::new();
    let filled = dungeonsmith::nw3::text::filled(f);
    let e = filled.episode.as_ref().expect("an episode");
    let (r, core) = (f.ruler.area, f.core_area().expect("a Core area").id);
    let lair = &f.area(r).expect("the Ruler's area").name;
    if e.climax.area != r || !e.climax.setting.contains(lair.as_str()) {
        bad.push(format!("Climax in area {} ({:?}), Ruler in area {r} ({lair})", e.climax.area, e.climax.setting));
    }
    let md = markdown(&filled);
    let climax = md.split("## Climax Phase").nth(1).unwrap_or("").split("**Tactics").next().unwrap_or("");
    let head = climax.trim().split("\n\n").next().unwrap_or("");
    // The scene itself, after the rules for running the Climax (`episode/core.rs`).
    let scene = climax.split("\n\n").find(|p| p.contains("When the party arrives")).unwrap_or("");
    if !head.contains(&format!("makes its stand in area {r} ")) {
        bad.push(format!("the Climax does not open in the Ruler's area {r}: {head}"));
    }
    if core != r && scene.contains(&f.core.name) {
        bad.push(format!("the Climax scene shows the {} though it lies in area {core}: {scene}", f.core.name));
    }
    let first = before_the_ruler_falls(f).contains(&core);
    for x in &e.endings {
        let ok = match x.way {
            Way::CoreBroken => first,
            Way::Retreat => x.needs.contains(&Claim::RulerLeave),
            Way::RulerDefeated => x.text.contains(&f.core.name),
            Way::Fall => true,
        };
        if !ok || (x.needs.contains(&Claim::RulerFlees) && e.climax.tactics.iter().any(|t| t.contains("never flees"))) {
            bad.push(format!("ending `{}` the fortress does not allow: {}", x.way.label(), x.text));
        }
        if !x.text.contains(&e.victim) {
            bad.push(format!("ending `{}` forgets {}: {}", x.way.label(), e.victim, x.text));
        }
    }
    let ways: Vec<Way> = e.endings.iter().map(|x| x.way).collect();
    // No retreat from a Ruler that bars the door (`episode/core.rs`).
    let barred = e.climax.leave == dungeonsmith::nw3::episode::core::Leave::Barred;
    let want: Vec<Way> = Way::ALL
        .into_iter()
        .filter(|&w| w != Way::CoreBroken || first)
        .filter(|&w| w != Way::Retreat || !barred)
        .collect();
    if ways != want {
        bad.push(format!("endings {ways:?}, the gates allow {want:?}"));
    }
    let held = md.split(&format!("\n### {r}. ")).nth(1).unwrap_or("").split("\n### ").next().unwrap_or("");
    if !held.contains(&format!("**Held here:** {}", e.victim)) || !held.contains("Freeing") {
        bad.push(format!("area {r}, where {} is held, does not say so", e.victim));
    }
    bad.extend(check(f, tables()).iter().filter(|v| v.rule.starts_with("episode.")).map(|v| v.to_string()));
    bad
}

fn assert_finales(seeds: u64) {
    let mut orders = BTreeSet::new();
    for i in 0..seeds {
        let f = fortress(i);
        let bad = finale_faults(&f);
        assert!(bad.is_empty(), "seed {} ({} areas): {bad:#?}", 4700 + i, f.areas.len());
        orders.insert(format!("{:?}", dungeonsmith::nw3::finale::of(&f).order));
    }
    // Both finales a generator makes are met: the Core only after the Ruler, and during its fight.
    assert_eq!(orders.len(), 2, "{orders:?}");
}

#[test]
fn every_climax_is_in_the_rulers_area_every_ending_reachable_and_the_victim_held_on_the_page() {
    assert_finales(60);
}

#[test]
#[ignore = "300 episodes: the issue's Done means"]
fn full_every_climax_is_in_the_rulers_area_every_ending_reachable_and_the_victim_held_on_the_page() {
    assert_finales(300);
}

/// A generated fortress whose finale has the Core `order`.
fn with_order(order: CoreOrder) -> Fortress {
    (0..200).map(fortress).find(|f| dungeonsmith::nw3::finale::of(f).order == order).expect("a fortress of that finale")
}

/// The `check` messages of rule family `rule` for `f`.
fn refused(f: &Fortress, rule: &str) -> Vec<String> {
    check(f, tables()).into_iter().filter(|v| v.rule == rule).map(|v| v.message).collect()
}

fn episode(f: &mut Fortress) -> &mut dungeonsmith::nw3::Episode {
    f.episode.as_mut().expect("an episode")
}

#[test]
fn a_climax_set_outside_the_rulers_area_is_refused() {
    let mut f = fortress(3);
    let elsewhere = f.areas.iter().map(|a| a.id).find(|&a| a != f.ruler.area).expect("another area");
    episode(&mut f).climax.area = elsewhere;
    let m = refused(&f, "episode.climax");
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains(&format!("set in area {elsewhere}")), "{m:?}");
}

#[test]
fn a_climax_showing_the_core_beside_a_ruler_it_is_not_beside_is_refused() {
    let mut f = fortress(5);
    episode(&mut f).climax.needs = vec![Claim::CoreBeside];
    let m = refused(&f, "episode.climax");
    assert!(m.len() == 1 && m[0].contains("`core_beside`"), "{m:?}");
}

#[test]
fn a_core_stated_in_the_wrong_area_is_refused() {
    let mut f = fortress(7);
    let core = f.core_area().expect("a Core").id;
    let wrong = f.ruler.area;
    let l = episode(&mut f).legwork.iter_mut().find(|l| l.topic == Topic::Core).expect("Core legwork");
    l.reveals = l.reveals.replace(&format!("{{area:{core}}}"), &format!("{{area:{wrong}}}"));
    let m = refused(&f, "episode.core");
    assert!(m.len() == 1 && m[0].contains(&format!("in area {wrong}; it lies in area {core}")), "{m:?}");
}

#[test]
fn a_victim_stated_in_the_wrong_area_is_refused_in_the_legwork_and_in_the_area_text() {
    let mut f = fortress(9);
    let (r, wrong) = (f.ruler.area, f.entrance().expect("an Entrance").id);
    if let Some(l) = episode(&mut f).legwork.iter_mut().find(|l| l.topic == Topic::Victim) {
        // The legwork names the victim's area by `{victim_area}` (filled from the fortress) or,
        // hand-edited, by an area's number: a wrong number is refused.
        let wrong_slot = format!("{{area:{wrong}}}");
        l.reveals = l.reveals.replace(&format!("{{area:{r}}}"), &wrong_slot).replace("{victim_area}", &wrong_slot);
        assert!(l.reveals.contains(&wrong_slot), "the victim legwork names its area: {}", l.reveals);
        assert_eq!(refused(&f, "episode.victim").len(), 1, "{:?}", refused(&f, "episode.victim"));
        f = fortress(9);
    }
    episode(&mut f).captive.as_mut().expect("a held victim").area = wrong;
    let m = refused(&f, "episode.victim");
    assert!(m.len() == 1 && m[0].contains(&format!("area {wrong}'s text holds")), "{m:?}");
}

#[test]
fn a_core_broken_ending_where_every_way_to_the_core_passes_the_ruler_is_refused() {
    let mut f = with_order(CoreOrder::After);
    let donor = with_order(CoreOrder::During);
    let x = donor.episode.as_ref().and_then(|e| e.endings.iter().find(|x| x.way == Way::CoreBroken)).cloned();
    episode(&mut f).endings.push(x.expect("a Core-broken ending"));
    let m = refused(&f, "episode.endings");
    assert!(m.len() == 1 && m[0].contains("cannot happen") && m[0].contains("opens only when"), "{m:?}");
}

#[test]
fn a_missing_core_broken_ending_where_the_core_can_be_taken_first_is_refused() {
    let mut f = with_order(CoreOrder::During);
    episode(&mut f).endings.retain(|x| x.way != Way::CoreBroken);
    let m = refused(&f, "episode.endings");
    assert!(m.len() == 1 && m[0].contains("no ending for `The Fortress Core broken`"), "{m:?}");
}

#[test]
fn a_retreat_without_the_rulers_leave_is_refused() {
    // A Ruler that offers leave (one that bars the door has no retreat ending).
    let has_retreat =
        |f: &Fortress| f.episode.as_ref().is_some_and(|e| e.endings.iter().any(|x| x.way == Way::Retreat));
    let mut f = (11..200).map(fortress).find(has_retreat).expect("a Ruler that offers leave");
    let x = episode(&mut f).endings.iter_mut().find(|x| x.way == Way::Retreat).expect("a retreat");
    x.needs.clear();
    let m = refused(&f, "episode.endings");
    assert!(m.len() == 1 && m[0].contains("without the Ruler's leave"), "{m:?}");
}

#[test]
fn an_ending_where_a_ruler_that_never_flees_flees_is_refused() {
    let mut f = fortress(13);
    episode(&mut f).endings[0].needs.push(Claim::RulerFlees);
    let m = refused(&f, "episode.endings");
    assert!(m.len() == 1 && m[0].contains("never flees"), "{m:?}");
}

#[test]
fn a_walk_back_ending_with_no_way_back_is_refused() {
    let f = (0..200).map(fortress).find(|f| !dungeonsmith::nw3::finale::of(f).way_back);
    let Some(mut f) = f else { panic!("no fortress without a way back in 200 seeds") };
    let x = episode(&mut f).endings.iter_mut().find(|x| x.way == Way::Retreat).expect("a retreat");
    x.needs.push(Claim::WayBack);
    let m = refused(&f, "episode.endings");
    assert!(m.len() == 1 && m[0].contains("no usable gates lead"), "{m:?}");
}
