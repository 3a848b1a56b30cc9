//! The NW3 workbench (issue #12 items 1-2): any part of a Fortress rerolled on its own stream stays
//! legal and solvable and leaves everything outside it byte-identical; the reroll list replays to
//! the same bytes; locks refuse rerolls and survive `regenerate`.

use std::sync::OnceLock;

use dungeonsmith::edit::nw3::{AreaPart, Nw3Part, regenerate, replay, reroll};
use dungeonsmith::model::Reroll;
use dungeonsmith::nw3::combat::danger_sense;
use dungeonsmith::nw3::{AreaKind, EventKind, Fortress, FortressParams, Opener, check, generate};
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::nw3::EntranceKind;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

fn fortress(seed: u64, areas: u32) -> Fortress {
    let params =
        FortressParams { areas, party: 1 + (seed % 8) as u32, cl: 1 + (seed % 20) as u32, ..Default::default() };
    generate(tables(), &params, seed).expect("generates")
}

const PARTS: [AreaPart; 5] = [AreaPart::All, AreaPart::Enemies, AreaPart::Trap, AreaPart::Event, AreaPart::Objects];

/// Whether `what` exists in an area of this kind (Ruler encounter aside).
fn applies(kind: AreaKind, what: AreaPart, ruler_area: bool) -> bool {
    match what {
        AreaPart::All => kind != AreaKind::Entrance,
        AreaPart::Enemies => matches!(kind, AreaKind::Enemy | AreaKind::Core),
        AreaPart::Trap => kind == AreaKind::Trap,
        AreaPart::Event => {
            matches!(kind, AreaKind::Normal | AreaKind::Object) || (kind == AreaKind::Event && !ruler_area)
        }
        AreaPart::Objects => matches!(kind, AreaKind::Object | AreaKind::Core),
    }
}

/// The fortress with the part (and what follows it) blanked and the reroll record dropped: two
/// fortresses that agree here differ only inside the part.
fn outside(f: &Fortress, part: &Nw3Part) -> Fortress {
    let mut f = f.clone();
    f.rerolls.clear();
    match *part {
        Nw3Part::Frame => {
            let area = f.ruler.area;
            f.title.clear();
            f.trailer.clear();
            let r = &mut f.ruler;
            (r.name, r.title, r.description, r.motive) = Default::default();
            (r.spd, r.initiative, r.stats) = (0, 0, None);
            r.attacks.clear();
            r.skills.clear();
            f.logic.clear();
            f.entrance_condition.text.clear();
            f.entrance_condition.kind = EntranceKind::Keyword;
            f.core.name.clear();
            f.core.description.clear();
            // The episode belongs to the frame.
            f.episode = None;
            if let Some(a) = f.areas.iter_mut().find(|a| a.id == area) {
                a.event = None;
            }
        }
        Nw3Part::Area { id, what } => {
            let a = f.areas.iter_mut().find(|a| a.id == id).expect("the area exists");
            a.danger_sense = None;
            match what {
                AreaPart::All => {
                    a.kind = AreaKind::Normal;
                    a.name.clear();
                    a.description.clear();
                    a.event = None;
                    a.trap = None;
                    a.enemies.clear();
                    a.objects.clear();
                }
                AreaPart::Enemies => a.enemies.clear(),
                AreaPart::Trap => a.trap = None,
                AreaPart::Event => a.event = None,
                AreaPart::Objects => a.objects.clear(),
            }
        }
    }
    f
}

/// Byte-identical texts, or a panic showing the first lines that differ.
fn same_bytes(a: &str, b: &str, what: &str) {
    if a == b {
        return;
    }
    let diff: Vec<String> = a
        .lines()
        .zip(b.lines())
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .take(6)
        .map(|(i, (x, y))| format!("line {}: {x} | {y}", i + 1))
        .collect();
    panic!("{what}: outside the part the bytes differ:\n{}", diff.join("\n"));
}

/// Rerolls `part` of `f`, demanding a legal result that differs from `f` only inside the part,
/// with its Danger Sense following the contents and the reroll recorded.
fn reroll_ok(f: &Fortress, part: &Nw3Part) -> Fortress {
    let mut g = f.clone();
    reroll(tables(), &mut g, part).unwrap_or_else(|e| panic!("seed {} {part}: {e}", f.seed));
    let v = check(&g, tables());
    assert!(v.is_empty(), "seed {} {part}: {v:?}", f.seed);
    let (was, now) = (outside(f, part), outside(&g, part));
    if was != now {
        same_bytes(&was.to_json(), &now.to_json(), &format!("seed {} {part}", f.seed));
    }
    assert_eq!(g.rerolls.last(), Some(&Reroll { part: part.to_string(), n: 1 }));
    for a in &g.areas {
        assert_eq!(a.danger_sense, Some(danger_sense(a).0), "seed {} {part}", f.seed);
    }
    g
}

#[test]
fn part_paths_print_as_they_parse() {
    for s in ["area5", "area5/enemies", "area5/trap", "area5/event", "area5/objects", "frame", "area40"] {
        let p: Nw3Part = s.parse().unwrap();
        assert_eq!(p.to_string(), s);
    }
    assert_eq!("area12/all".parse::<Nw3Part>().unwrap(), Nw3Part::Area { id: 12, what: AreaPart::All });
    for bad in ["", "area", "area05", "area-1", "area5/", "area5/monsters", "map1/B2", "Frame", "area 5"] {
        let e = bad.parse::<Nw3Part>().unwrap_err().to_string();
        assert!(e.starts_with(&format!("reroll `{bad}`: not a fortress part")), "{e}");
        assert!(!e.contains('\n'));
    }
}

#[test]
fn every_area_part_rerolled_stays_legal_and_changes_nothing_outside_it() {
    let mut done = [0usize; 5];
    let mut changed = 0;
    let seeds: Vec<u64> = crate::seeds(0..1500u64).collect();
    let n = seeds.len();
    for seed in seeds {
        let f = fortress(seed, 3 + (seed % 28) as u32);
        for a in &f.areas {
            let what = PARTS[((seed + u64::from(a.id)) % 5) as usize];
            let part = Nw3Part::Area { id: a.id, what };
            let ruler_area = a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler);
            if applies(a.kind, what, ruler_area) {
                let g = reroll_ok(&f, &part);
                done[(seed + u64::from(a.id)) as usize % 5] += 1;
                changed += usize::from(g.area(a.id) != f.area(a.id));
            } else {
                let mut g = f.clone();
                let e = reroll(tables(), &mut g, &part).unwrap_err().to_string();
                assert!(e.starts_with(&format!("reroll `{part}`: area {}", a.id)), "{e}");
                assert_eq!(g, f, "a refused reroll leaves the fortress unchanged");
            }
        }
    }
    assert!(done.iter().all(|&d| d > n / 5), "parts rerolled over {n} seeds: {done:?}");
    let total: usize = done.iter().sum();
    assert!(changed * 10 > total * 8, "only {changed} of {total} rerolls changed their area");
}

#[test]
fn the_frame_rerolled_stays_legal_and_its_ruler_meets_the_party_in_the_same_area() {
    let mut new_ruler = 0;
    let seeds: Vec<u64> = crate::seeds(0..300u64).collect();
    let n = seeds.len();
    for seed in seeds {
        let f = fortress(seed, 3 + (seed % 38) as u32);
        let g = reroll_ok(&f, &Nw3Part::Frame);
        assert_eq!(g.ruler.area, f.ruler.area);
        let ev = g.area(g.ruler.area).and_then(|a| a.event.as_ref()).expect("the Ruler encounter");
        assert_eq!(
            (ev.kind, ev.name.as_str()),
            (EventKind::Ruler, "{ruler}"),
            "the encounter is named after the Ruler as it stands"
        );
        new_ruler += usize::from(g.ruler.name != f.ruler.name);
    }
    assert!(new_ruler * 3 > n * 2, "only {new_ruler} of {n} frame rerolls brought a new Ruler");
}

#[test]
fn a_second_reroll_of_a_part_draws_the_next_stream() {
    let f = fortress(11, 12);
    let part = Nw3Part::Area { id: f.areas.len() as u32, what: AreaPart::Enemies };
    let mut g = f.clone();
    reroll(tables(), &mut g, &part).unwrap();
    let once = g.clone();
    reroll(tables(), &mut g, &part).unwrap();
    assert_eq!(
        g.rerolls,
        vec![Reroll { part: "area12/enemies".into(), n: 1 }, Reroll { part: "area12/enemies".into(), n: 2 }]
    );
    let mut again = f.clone();
    reroll(tables(), &mut again, &part).unwrap();
    assert_eq!(again, once, "the same reroll of the same fortress gives the same part");
}

#[test]
fn replaying_the_reroll_list_on_a_fresh_fortress_reproduces_the_bytes() {
    for seed in crate::seeds(0..200u64) {
        let f = fortress(seed, 3 + (seed % 38) as u32);
        let mut g = f.clone();
        let n = f.areas.len() as u64;
        for k in 0..8u64 {
            let id = 2 + ((seed * 7 + k * 3) % (n - 1)) as u32;
            let what = PARTS[((seed + k) % 5) as usize];
            let part = if k == 5 { Nw3Part::Frame } else { Nw3Part::Area { id, what } };
            let _ = reroll(tables(), &mut g, &part);
        }
        assert!(!g.rerolls.is_empty(), "seed {seed}: nothing rerolled");
        let written = g.to_json();
        let read = Fortress::from_json(&written).expect("the file reads back");
        let mut fresh = generate(tables(), &f.params, seed).unwrap();
        replay(tables(), &mut fresh, &read.rerolls).unwrap();
        same_bytes(&fresh.to_json(), &written, &format!("seed {seed}"));
    }
}

#[test]
fn a_replayed_reroll_must_carry_its_count() {
    let mut f = fortress(3, 10);
    let list = [Reroll { part: "area10/enemies".into(), n: 2 }];
    let e = replay(tables(), &mut f, &list).unwrap_err().to_string();
    assert_eq!(e, "reroll `area10/enemies`: recorded as reroll 2 of this part, but it is reroll 1");
    let bad = [Reroll { part: "room9".into(), n: 1 }];
    assert!(replay(tables(), &mut f, &bad).unwrap_err().to_string().starts_with("reroll `room9`"));
}

#[test]
fn a_locked_area_or_frame_refuses_a_reroll_and_stays_unchanged() {
    let mut f = fortress(5, 10);
    f.areas[3].locked = true;
    let before = f.clone();
    for what in PARTS {
        let part = Nw3Part::Area { id: 4, what };
        let e = reroll(tables(), &mut f, &part).unwrap_err().to_string();
        assert_eq!(e, format!("reroll `{part}`: area 4 is locked; unlock it to reroll"));
    }
    f.frame_locked = true;
    let e = reroll(tables(), &mut f, &Nw3Part::Frame).unwrap_err().to_string();
    assert_eq!(e, "reroll `frame`: the frame is locked (`frame_locked`); unlock it to reroll");
    f.frame_locked = false;
    assert_eq!(f, before);
    let e = reroll(tables(), &mut f, &Nw3Part::Area { id: 99, what: AreaPart::All }).unwrap_err().to_string();
    assert_eq!(e, "reroll `area99`: the fortress has no area 99");
}

#[test]
fn the_frame_keeps_its_ruler_while_the_rulers_area_is_locked() {
    for seed in 0..40u64 {
        let mut f = fortress(seed, 10);
        let at = f.ruler.area;
        f.areas.iter_mut().find(|a| a.id == at).unwrap().locked = true;
        let g = reroll_ok(&f, &Nw3Part::Frame);
        assert_eq!(g.ruler, f.ruler);
        assert_eq!(g.area(at), f.area(at));
    }
}

#[test]
fn a_release_device_stays_when_its_areas_objects_are_rerolled() {
    let mut seen = 0;
    let seeds: Vec<u64> = crate::seeds(0..300u64).collect();
    let n = seeds.len();
    for seed in seeds {
        let f = fortress(seed, 12);
        for g in f.gates.iter().filter(|g| matches!(g.opened_by, Some(Opener::Device(_)))) {
            let Some(Opener::Device(id)) = g.opened_by else { continue };
            for what in [AreaPart::Objects, AreaPart::All] {
                let h = reroll_ok(&f, &Nw3Part::Area { id, what });
                let a = h.area(id).unwrap();
                assert_eq!(a.kind, AreaKind::Object);
                assert!(a.objects.iter().any(|o| o.opens == Some(g.gate_ref())), "seed {seed} area {id}");
            }
            seen += 1;
        }
    }
    assert!(seen * 10 > n, "only {seen} release devices over {n} fortresses");
}

#[test]
fn an_event_that_opens_a_gate_stays_an_event_when_its_area_is_rerolled() {
    let mut seen = 0;
    let seeds: Vec<u64> = crate::seeds(0..300u64).collect();
    let n = seeds.len();
    for seed in seeds {
        let f = fortress(seed, 12);
        for g in f.gates.iter().filter(|g| matches!(g.opened_by, Some(Opener::Event(_)))) {
            let Some(Opener::Event(id)) = g.opened_by else { continue };
            let h = reroll_ok(&f, &Nw3Part::Area { id, what: AreaPart::All });
            let a = h.area(id).unwrap();
            assert_eq!(a.kind, AreaKind::Event);
            assert!(a.event.as_ref().is_some_and(|e| matches!(e.kind, EventKind::Scenario | EventKind::Ruler)));
            seen += 1;
        }
    }
    assert!(seen * 3 > n, "only {seen} gate-opening events over {n} fortresses");
}

#[test]
fn rerolled_enemies_fit_the_party_and_keep_the_gms_notes() {
    let tables = tables();
    for seed in crate::seeds(0..200u64) {
        let mut f = fortress(seed, 10);
        let core = f.areas.len() as u32;
        let last = f.areas.last_mut().unwrap();
        last.enemies[0].notes = "they bargain".into();
        last.notes = "the core hums".into();
        let g = reroll_ok(&f, &Nw3Part::Area { id: core, what: AreaPart::Enemies });
        let a = g.area(core).unwrap();
        assert_eq!(a.notes, "the core hums");
        assert_eq!(a.enemies[0].notes, "they bargain");
        let record = tables.nw3.enemy(&a.enemies[0].name).expect("a group of the tables");
        assert!(record.cl.contains(f.params.cl), "seed {seed}: `{}` is outside CL {}", record.name, f.params.cl);
    }
}

#[test]
fn group_notes_join_the_area_notes_when_a_whole_area_reroll_leaves_no_enemies() {
    let found = (0..400u64).find_map(|seed| {
        let mut f = fortress(seed, 12);
        let i = f.areas.iter().position(|a| a.kind == AreaKind::Enemy)?;
        f.areas[i].enemies[0].notes = "bribable".into();
        let mut g = f.clone();
        reroll(tables(), &mut g, &Nw3Part::Area { id: f.areas[i].id, what: AreaPart::All }).ok()?;
        g.areas[i].enemies.is_empty().then_some(g.areas[i].notes.clone())
    });
    assert_eq!(found.as_deref(), Some("bribable"));
}

#[test]
fn regenerate_without_locks_is_a_fresh_fortress_for_the_seed() {
    let f = fortress(8, 14);
    let g = regenerate(tables(), &f, 99).unwrap();
    assert_eq!(g, generate(tables(), &f.params, 99).unwrap());
}

#[test]
fn regenerate_keeps_locked_areas_exactly_and_rolls_the_rest() {
    let mut moved = 0;
    let seeds: Vec<u64> = crate::seeds(0..300u64).collect();
    let count = seeds.len();
    for seed in seeds {
        let mut f = fortress(seed, 4 + (seed % 30) as u32);
        let n = f.areas.len();
        let locked: Vec<usize> = vec![(seed as usize * 5) % n, (seed as usize * 11 + 1) % n];
        for &i in &locked {
            f.areas[i].locked = true;
        }
        let g = regenerate(tables(), &f, seed + 10_000).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(check(&g, tables()).is_empty());
        assert_eq!(g.seed, seed + 10_000);
        assert_eq!(g.gates, f.gates, "the gate graph stays with a locked area");
        for (a, b) in f.areas.iter().zip(&g.areas) {
            assert_eq!(a.kind, b.kind);
        }
        for &i in &locked {
            assert_eq!(g.areas[i], f.areas[i], "seed {seed}: locked area {} changed", f.areas[i].id);
        }
        moved += f.areas.iter().zip(&g.areas).filter(|(a, b)| !a.locked && a != b).count();
        assert_eq!(regenerate(tables(), &f, seed + 10_000).unwrap(), g, "regenerate is deterministic");
    }
    assert!(moved > count * 5, "only {moved} unlocked areas changed over {count} fortresses");
}

#[test]
fn regenerate_keeps_the_locked_frame_and_the_place_its_title_names() {
    for seed in crate::seeds(0..100u64) {
        let mut f = fortress(seed, 3 + (seed % 38) as u32);
        f.frame_locked = true;
        let g = regenerate(tables(), &f, seed + 1).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(check(&g, tables()).is_empty());
        assert_eq!((&g.title, &g.trailer, &g.logic, &g.core), (&f.title, &f.trailer, &f.logic, &f.core));
        assert_eq!(g.ruler.name, f.ruler.name);
        assert_eq!(g.ruler.stats, f.ruler.stats);
        assert_eq!(g.areas[0].name, f.areas[0].name);
        assert!(g.frame_locked);
        // with an area locked too
        f.areas[1].locked = true;
        let g = regenerate(tables(), &f, seed + 1).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(check(&g, tables()).is_empty());
        assert_eq!((&g.title, &g.ruler), (&f.title, &f.ruler));
        assert_eq!(g.areas[1], f.areas[1]);
    }
}

#[test]
fn a_locked_area_that_breaks_a_rule_makes_regenerate_impossible() {
    let (mut f, i) = (0..)
        .map(|seed| fortress(seed, 12))
        .find_map(|f| f.areas.iter().position(|a| a.kind == AreaKind::Trap).map(|i| (f, i)))
        .expect("a fortress with a Trap area");
    let id = f.areas[i].id;
    f.areas[i].locked = true;
    f.areas[i].trap.as_mut().unwrap().removal += 1;
    let e = regenerate(tables(), &f, 5).unwrap_err().to_string();
    assert!(e.starts_with(&format!("regenerate the fortress: locked area {id} (`")), "{e}");
    assert!(e.contains("[trap.values]") || e.contains("[danger-sense.difficulty]"), "{e}");
    assert!(!e.contains('\n'));
}

#[test]
fn tables_without_nw3_content_refuse_a_reroll_in_one_line() {
    let empty = Tables::from_files("my-tables".into(), &[("t.toml".into(), String::new())]).unwrap();
    let mut f = fortress(4, 10);
    let before = f.clone();
    for part in [Nw3Part::Frame, Nw3Part::Area { id: 10, what: AreaPart::All }] {
        let e = reroll(&empty, &mut f, &part).unwrap_err().to_string();
        assert_eq!(e, "`my-tables`: holds no NW3 fortress content (`[nw3]` sections)");
    }
    assert_eq!(f, before);
    f.areas[2].locked = true;
    let e = regenerate(&empty, &f, 1).unwrap_err().to_string();
    assert_eq!(e, "`my-tables`: holds no NW3 fortress content (`[nw3]` sections)");
}

#[test]
fn a_locked_frame_whose_ruler_the_tables_lack_makes_regenerate_impossible() {
    let mut f = fortress(6, 9);
    f.frame_locked = true;
    f.ruler.name = "Nobody".into();
    let e = regenerate(tables(), &f, 7).unwrap_err().to_string();
    assert_eq!(e, "regenerate the fortress: the locked frame's Ruler `Nobody` is not in the NW3 tables");
    f.areas[2].locked = true;
    let e = regenerate(tables(), &f, 7).unwrap_err().to_string();
    assert!(e.starts_with("regenerate the fortress: "), "{e}");
    assert!(e.contains("`Nobody`"), "{e}");
}

#[test]
fn the_footer_command_of_a_rerolled_fortress_gives_it_back() {
    let dir = std::env::temp_dir().join(format!("dungeonsmith-nw3-footer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let first = dir.join("first");
    let (code, _, err) = crate::run(&[
        "fortress",
        "--seed",
        "7",
        "--reroll",
        "area3",
        "--reroll",
        "frame",
        "--out",
        first.to_str().unwrap(),
        "--format",
        "json,svg",
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(first.join("fortress-7.svg")).unwrap();
    let command = crate::footer_command(&svg, "dungeonsmith fortress");
    assert!(command.ends_with(" --reroll area3 --reroll frame"), "{command}");
    let again = dir.join("again");
    let mut args: Vec<&str> = command.split(' ').skip(1).collect();
    args.extend(["--out", again.to_str().unwrap(), "--format", "json"]);
    let (code, _, err) = crate::run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(first.join("fortress-7.json")).unwrap(),
        std::fs::read(again.join("fortress-7.json")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_footer_command_of_a_locked_fortress_renders_its_own_file() {
    let t = dungeonsmith::tables::Tables::embedded().unwrap();
    let params = dungeonsmith::nw3::FortressParams { party: 4, cl: 3, areas: 10, ..Default::default() };
    let mut f = dungeonsmith::nw3::generate(&t, &params, 7).unwrap();
    f.areas[2].locked = true;
    let regen = dungeonsmith::render::regen::fortress(&f, &t, Default::default());
    assert_eq!(regen.command, "dungeonsmith render fortress-7.json");
    assert!(regen.edited);
}

crate::in_full! {
    every_area_part_rerolled_stays_legal_and_changes_nothing_outside_it => every_area_part_rerolled_stays_legal_and_changes_nothing_outside_it_in_full,
    the_frame_rerolled_stays_legal_and_its_ruler_meets_the_party_in_the_same_area => the_frame_rerolled_stays_legal_and_its_ruler_meets_the_party_in_the_same_area_in_full,
    replaying_the_reroll_list_on_a_fresh_fortress_reproduces_the_bytes => replaying_the_reroll_list_on_a_fresh_fortress_reproduces_the_bytes_in_full,
    a_release_device_stays_when_its_areas_objects_are_rerolled => a_release_device_stays_when_its_areas_objects_are_rerolled_in_full,
    an_event_that_opens_a_gate_stays_an_event_when_its_area_is_rerolled => an_event_that_opens_a_gate_stays_an_event_when_its_area_is_rerolled_in_full,
    rerolled_enemies_fit_the_party_and_keep_the_gms_notes => rerolled_enemies_fit_the_party_and_keep_the_gms_notes_in_full,
    regenerate_keeps_locked_areas_exactly_and_rolls_the_rest => regenerate_keeps_locked_areas_exactly_and_rolls_the_rest_in_full,
    regenerate_keeps_the_locked_frame_and_the_place_its_title_names => regenerate_keeps_the_locked_frame_and_the_place_its_title_names_in_full,
}
