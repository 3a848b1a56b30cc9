//! NW3 rules and the book's allowances (issue 24): a one-use damaged gate may be the Entrance's only
//! way on (its one use is the way in, seed 000 ~l.959); Logics the GM adopts, changes or writes
//! (~l.1011) and enemies of the GM's own are accepted with a warning when they carry what the rules
//! need.

use dungeonsmith::check::Severity;
use dungeonsmith::nw3::FortressParams;
use dungeonsmith::nw3::model::{Fortress, GateKind, Logic};

fn fortress(want: impl Fn(&Fortress) -> bool) -> Fortress {
    let tables = crate::myk::tables();
    for seed in 0..300 {
        let f = dungeonsmith::nw3::generate(tables, &FortressParams { party: 4, cl: 5, areas: 10 }, seed).unwrap();
        if want(&f) {
            return f;
        }
    }
    panic!("no seed below 300 gives the fortress wanted");
}

/// (rule, severity) of every violation.
fn found(f: &Fortress) -> Vec<(&'static str, Severity)> {
    dungeonsmith::nw3::check(f, crate::myk::tables()).iter().map(|v| (v.rule, v.severity)).collect()
}

fn entrance_gates(f: &Fortress) -> Vec<usize> {
    let e = f.entrance().unwrap().id;
    f.gates.iter().enumerate().filter(|(_, g)| g.from == e || g.to == e).map(|(i, _)| i).collect()
}

#[test]
fn a_one_use_damaged_gate_as_the_entrances_only_way_on_is_allowed() {
    let mut f = fortress(|f| entrance_gates(f).len() == 1 && f.gates[entrance_gates(f)[0]].kind == GateKind::Normal);
    let g = entrance_gates(&f)[0];
    f.gates[g].kind = GateKind::Damaged;
    f.gates[g].uses = Some(1);
    dungeonsmith::fix::nw3::fix(&mut f, crate::myk::tables()).unwrap();
    assert_eq!(found(&f), vec![]);
}

#[test]
fn logics_the_gm_writes_or_three_or_none_are_warnings_and_an_own_logic_needs_its_effect() {
    let f0 = fortress(|_| true);
    let own = Logic { name: "Logic of Mirrors".into(), effect: "Every mirror shows the way back.".into() };
    let mut f = f0.clone();
    f.logic = vec![own.clone()];
    assert_eq!(found(&f), vec![("logic.own", Severity::Warning)]);
    let mut f = f0.clone();
    f.logic.clear();
    assert_eq!(found(&f), vec![("logic.count", Severity::Warning)]);
    let mut f = f0.clone();
    while f.logic.len() < 2 {
        f.logic.push(Logic { name: format!("Logic {}", f.logic.len()), effect: "x".into() });
    }
    f.logic.push(own);
    assert!(found(&f).contains(&("logic.count", Severity::Warning)), "{:?}", found(&f));
    assert!(found(&f).iter().all(|(_, s)| *s == Severity::Warning), "{:?}", found(&f));
    let mut f = f0.clone();
    f.logic = vec![Logic { name: "Logic of Nothing".into(), effect: String::new() }];
    assert_eq!(found(&f), vec![("logic.unknown", Severity::Error)]);
}

#[test]
fn an_enemy_of_the_gms_own_with_its_stat_blocks_is_a_warning() {
    let mut f = fortress(|f| f.areas.iter().any(|a| !a.enemies.is_empty()));
    let a = f.areas.iter().position(|a| !a.enemies.is_empty()).unwrap();
    f.areas[a].enemies[0].name = "Hollow Knights of the GM".into();
    assert_eq!(found(&f), vec![("enemy.own", Severity::Warning)]);
    // Without a stat block the rules cannot run it.
    f.areas[a].enemies[0].members[0].stats = None;
    assert!(found(&f).contains(&("enemy.body", Severity::Error)), "{:?}", found(&f));
}

#[test]
fn check_prints_advice_as_a_warning_exits_0_and_strict_makes_it_an_error() {
    let mut f = fortress(|_| true);
    f.logic.clear();
    let dir = std::env::temp_dir().join(format!("dungeonsmith-strict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("fortress.json");
    std::fs::write(&file, serde_json::to_string(&f).unwrap()).unwrap();
    let path = file.to_str().unwrap();
    let (code, out, _) = crate::run(&["check", path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("warning: logic:") && out.contains("[logic.count]"), "{out}");
    assert!(out.contains("1 warning(s)"), "{out}");
    let (code, out, _) = crate::run(&["check", "--strict", path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[logic.count]") && out.contains("1 violation(s)"), "{out}");
    // An error stays an error without --strict.
    f.logic = vec![Logic { name: "Logic of Nothing".into(), effect: String::new() }];
    std::fs::write(&file, serde_json::to_string(&f).unwrap()).unwrap();
    let (code, out, _) = crate::run(&["check", path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[logic.unknown]"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
