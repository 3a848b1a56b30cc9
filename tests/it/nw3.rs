//! The NW3 Fortress generator and `check`, as rules: every generated fortress is solvable and
//! passes the check (confirmed by an independent walk over every state the party can be in), and
//! each hand-made broken fortress fails with the rule it breaks.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::OnceLock;

use dungeonsmith::nw3::combat::danger_sense;
use dungeonsmith::nw3::generate::derive_paths;
use dungeonsmith::nw3::rules::{Hardness, judge_difficulty};
use dungeonsmith::nw3::{
    Area, AreaKind, Event, EventKind, Fortress, FortressParams, Gate, GateKind, GateRef, Object, Opener, Trap, check,
    generate, layout,
};
use dungeonsmith::tables::Tables;
use proptest::prelude::*;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

fn rules(f: &Fortress) -> Vec<&'static str> {
    check(f, tables()).into_iter().map(|v| v.rule).collect()
}

// ------------------------------------------------------------------------------------------------
// An independent oracle: explore every state (area, areas visited that open gates, uses left on
// damaged gates, Danger Sense gates found) the party can reach, and demand that the Core stays
// reachable from each one. Danger Sense gates may be found (the party can end up behind them, and
// a found gate stays usable) but the Core must be reached from the Entrance without them, and from
// any state without finding new ones.

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct State {
    at: u32,
    /// Opener areas visited (bit per area id).
    keys: u64,
    /// Uses left on each damaged gate, four bits each.
    uses: u64,
    /// Danger Sense gates found so far (bit per gate index), usable both ways from then on.
    found: u64,
}

fn moves(f: &Fortress, openers: u64, s: &State, sense: bool) -> Vec<State> {
    let mut out = Vec::new();
    let mut damaged = 0;
    for (gi, g) in f.gates.iter().enumerate() {
        let di = damaged;
        if g.kind == GateKind::Damaged {
            damaged += 1;
        }
        let open = match g.kind {
            GateKind::Normal | GateKind::OneWay => true,
            GateKind::Closed | GateKind::Secret => match g.opened_by {
                Some(Opener::Event(a) | Opener::Device(a)) => s.keys >> a & 1 == 1,
                Some(Opener::DangerSense(_)) => sense || s.found >> gi & 1 == 1,
                None => false,
            },
            GateKind::Damaged => s.uses >> (4 * di) & 15 > 0,
        };
        if !open {
            continue;
        }
        let mut targets = Vec::new();
        if g.from == s.at {
            targets.push(g.to);
        }
        if g.to == s.at && g.kind != GateKind::OneWay {
            targets.push(g.from);
        }
        for t in targets {
            let mut n = *s;
            n.at = t;
            n.keys |= openers & (1 << t);
            if g.kind == GateKind::Damaged {
                n.uses -= 1 << (4 * di);
            }
            if matches!(g.opened_by, Some(Opener::DangerSense(_))) {
                n.found |= 1 << gi;
            }
            out.push(n);
        }
    }
    out
}

/// (the Core is reachable from the Entrance without Danger Sense, no reachable state is a dead end)
fn oracle(f: &Fortress) -> (bool, bool) {
    let entrance = f.entrance().unwrap().id;
    let core = f.core_area().unwrap().id;
    let openers: u64 = f
        .gates
        .iter()
        .filter_map(|g| match g.opened_by {
            Some(Opener::Event(a) | Opener::Device(a)) => Some(1u64 << a),
            _ => None,
        })
        .fold(0, |m, b| m | b);
    let uses = f
        .gates
        .iter()
        .filter(|g| g.kind == GateKind::Damaged)
        .enumerate()
        .fold(0u64, |m, (i, g)| m | u64::from(g.uses.unwrap_or(0).min(15)) << (4 * i));
    let start = State { at: entrance, keys: openers & (1 << entrance), uses, found: 0 };
    // Every state reachable with `sense`, with the moves open from it without new Danger Sense finds.
    let explore = |sense: bool| {
        let mut seen: BTreeMap<State, Vec<State>> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            if seen.contains_key(&s) {
                continue;
            }
            queue.extend(moves(f, openers, &s, sense).into_iter().filter(|n| !seen.contains_key(n)));
            seen.insert(s, moves(f, openers, &s, false));
        }
        seen
    };
    let solvable = explore(false).keys().any(|s| s.at == core);
    // Backwards: the states from which the Core can be reached without new Danger Sense finds.
    let all = explore(true);
    let mut good: BTreeSet<State> = all.keys().filter(|s| s.at == core).copied().collect();
    loop {
        let before = good.len();
        for (s, next) in &all {
            if !good.contains(s) && next.iter().any(|n| good.contains(n)) {
                good.insert(*s);
            }
        }
        if good.len() == before {
            break;
        }
    }
    (solvable, all.keys().all(|s| good.contains(s)))
}

// ------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::cases(3000), ..ProptestConfig::default() })]

    #[test]
    fn every_fortress_is_solvable_and_passes_the_check(
        seed in any::<u64>(), areas in 3u32..=40, party in 1u32..=8, cl in 1u32..=20,
    ) {
        let params = FortressParams { party, cl, areas, ..Default::default() };
        let f = generate(tables(), &params, seed).expect("generates");
        let v = check(&f, tables());
        prop_assert!(v.is_empty(), "seed {} {:?}: {:?}", seed, params, v);
        prop_assert_eq!(f.areas.len(), areas as usize);
        prop_assert_eq!(f.params, params);
        prop_assert_eq!((f.party.size, f.party.cl), (party, cl));
        let core = f.core_area().unwrap();
        prop_assert!(!core.optional);
        prop_assert!(f.areas.iter().all(|a| a.appearance_difficulty <= core.appearance_difficulty));
        for a in &f.areas {
            if let Some(t) = &a.trap {
                let rule = [judge_difficulty(cl, Hardness::Ordinary), judge_difficulty(cl, Hardness::Hard)];
                prop_assert!(rule.contains(&t.detection) && rule.contains(&t.removal));
            }
            for m in a.enemies.iter().flat_map(|g| &g.members) {
                prop_assert_eq!(m.initiative, m.spd + 7);
            }
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::cases(2000), ..ProptestConfig::default() })]

    #[test]
    fn small_fortresses_satisfy_an_independent_walk_over_every_state(
        seed in any::<u64>(), areas in 3u32..=20, cl in 1u32..=20,
    ) {
        let f = generate(tables(), &FortressParams { party: 4, cl, areas, ..Default::default() }, seed).expect("generates");
        let (solvable, no_dead_end) = oracle(&f);
        prop_assert!(solvable, "seed {}: the Core cannot be reached", seed);
        prop_assert!(no_dead_end, "seed {}: some reachable state cannot reach the Core", seed);
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::cases(200), ..ProptestConfig::default() })]

    #[test]
    fn json_round_trips_and_still_passes(seed in any::<u64>(), areas in 3u32..=40) {
        let f = generate(tables(), &FortressParams { areas, ..FortressParams::default() }, seed).expect("generates");
        let text = f.to_json();
        let back = Fortress::from_json(&text).expect("parses");
        prop_assert_eq!(&back, &f);
        prop_assert!(check(&back, tables()).is_empty());
        prop_assert_eq!(back.to_json(), text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::cases(500), ..ProptestConfig::default() })]

    /// Hand edits can break anything; `check`, `layout` and `derive_paths` still never panic.
    #[test]
    fn check_and_layout_survive_arbitrary_edits(
        seed in any::<u64>(), areas in 3u32..=40, edits in prop::collection::vec((0u8..13, any::<u32>(), any::<u32>()), 0..12),
    ) {
        let mut f = generate(tables(), &FortressParams { areas, ..FortressParams::default() }, seed).expect("generates");
        let gate_kinds = [GateKind::Normal, GateKind::OneWay, GateKind::Secret, GateKind::Closed, GateKind::Damaged];
        let area_kinds = [E, N, O, AreaKind::Trap, V, AreaKind::Enemy, C];
        for (op, at, v) in edits {
            let (g, a) = (at as usize % f.gates.len().max(1), at as usize % f.areas.len().max(1));
            let id = v % 45;
            match op {
                0 if !f.gates.is_empty() => f.gates[g].kind = gate_kinds[v as usize % 5],
                1 if !f.gates.is_empty() => {
                    f.gates[g].opened_by = [None, Some(Opener::Event(id)), Some(Opener::Device(id)), Some(Opener::DangerSense(v % 20))][v as usize % 4]
                }
                2 if !f.gates.is_empty() => f.gates[g].uses = if v % 2 == 0 { None } else { Some(v % 4) },
                3 if !f.gates.is_empty() => f.gates[g].from = id,
                4 if !f.gates.is_empty() => f.gates[g].to = id,
                5 if !f.areas.is_empty() => f.areas[a].kind = area_kinds[v as usize % 7],
                6 if !f.areas.is_empty() => f.areas[a].id = id,
                7 if !f.areas.is_empty() => f.areas[a].optional = !f.areas[a].optional,
                8 if !f.gates.is_empty() => { f.gates.remove(g); }
                9 if !f.areas.is_empty() => { f.areas.remove(a); }
                10 if !f.areas.is_empty() => f.areas[a].event = None,
                11 if !f.areas.is_empty() => f.areas[a].objects.clear(),
                12 => { f.params.cl = v % 25; f.ruler.spd = v; }
                _ => {}
            }
        }
        let _ = check(&f, tables());
        let l = layout(&f);
        prop_assert_eq!(l.nodes.len(), f.areas.len());
        derive_paths(&mut f);
    }
}

#[test]
fn the_oracle_catches_a_dead_end() {
    // It must be able to fail, or the property above proves nothing.
    let f = hand(
        &[AreaKind::Entrance, AreaKind::Event, AreaKind::Core, AreaKind::Normal],
        &[normal(1, 2), normal(2, 3), gate(1, 4, GateKind::OneWay, None, None)],
    );
    assert_eq!(oracle(&f), (true, false));
}

#[test]
fn seeds_reproduce_and_options_change_the_fortress() {
    let p = FortressParams::default();
    let a = generate(tables(), &p, 99).unwrap();
    assert_eq!(a.to_json(), generate(tables(), &p, 99).unwrap().to_json());
    let more = generate(tables(), &FortressParams { areas: 11, ..p }, 99).unwrap();
    assert_eq!(more.areas.len(), 11);
    let stronger = generate(tables(), &FortressParams { cl: 15, ..p }, 99).unwrap();
    // Same shape and picks; judges stay where the model PC can pass them (its Attributes do not
    // grow with level), while damage grows.
    assert_eq!(stronger.gates, a.gates);
    for (x, y) in a.areas.iter().zip(&stronger.areas) {
        if let (Some(t), Some(u)) = (&x.trap, &y.trap) {
            assert_eq!(t.name, u.name);
            assert_eq!((u.detection, u.removal), (t.detection, t.removal), "the judge rule at CL 15");
        }
    }
}

#[test]
fn out_of_range_options_are_errors_naming_the_field() {
    for (p, line) in [
        (FortressParams { areas: 2, ..Default::default() }, "`areas` must be 3 to 40, got 2"),
        (FortressParams { areas: 41, ..Default::default() }, "`areas` must be 3 to 40, got 41"),
        (FortressParams { party: 9, ..Default::default() }, "`party` must be 1 to 8, got 9"),
        (FortressParams { cl: 0, ..Default::default() }, "`cl` must be 1 to 20, got 0"),
    ] {
        assert_eq!(generate(tables(), &p, 1).unwrap_err().to_string(), line);
    }
}

// ------------------------------------------------------------------------------------------------
// Hand-made fortresses.

fn gate(from: u32, to: u32, kind: GateKind, opened_by: Option<Opener>, uses: Option<u32>) -> Gate {
    Gate { from, to, kind, opened_by, uses }
}

fn normal(from: u32, to: u32) -> Gate {
    gate(from, to, GateKind::Normal, None, None)
}

/// A fortress with these area kinds (ids 1..), these gates, derived appearance and optional
/// flags, and valid content: the first Event area is the Ruler's, later ones hold "Sealed Memory";
/// Object areas hold a release device for every closed gate that names them, or a Prana Spring.
fn hand(kinds: &[AreaKind], gates: &[Gate]) -> Fortress {
    let t = tables();
    let mut f = generate(t, &FortressParams { areas: 3, ..Default::default() }, 1).unwrap();
    let cl = f.params.cl;
    let mut ruler = None;
    f.areas = kinds
        .iter()
        .enumerate()
        .map(|(i, &kind)| {
            let id = i as u32 + 1;
            let mut a = Area {
                id,
                name: format!("Area {id}"),
                kind,
                appearance_difficulty: 0,
                optional: false,
                description: "A hand-made test area.".into(),
                event: None,
                trap: None,
                enemies: vec![],
                objects: vec![],
                danger_sense: None,
                notes: String::new(),
                locked: false,
            };
            match kind {
                AreaKind::Event if ruler.is_none() => {
                    ruler = Some(id);
                    a.event = Some(Event {
                        kind: EventKind::Ruler,
                        roll: None,
                        name: f.ruler.name.clone(),
                        text: "The Ruler waits.".into(),
                        judge: None,
                        difficulty: None,
                        success: String::new(),
                        failure: String::new(),
                        retry: String::new(),
                    });
                }
                AreaKind::Event => {
                    let r = t.nw3.event("Sealed Memory").unwrap();
                    a.event = Some(Event {
                        kind: EventKind::Scenario,
                        roll: None,
                        name: r.name.clone(),
                        text: r.text.clone(),
                        judge: Some(r.judge.clone()),
                        // Sealed Memory is an ordinary judge, as is any event that opens a gate
                        difficulty: Some(judge_difficulty(cl, Hardness::Ordinary)),
                        success: String::new(),
                        failure: String::new(),
                        retry: String::new(),
                    });
                }
                AreaKind::Object => {
                    for g in gates.iter().filter(|g| g.opened_by == Some(Opener::Device(id))) {
                        a.objects.push(Object {
                            name: "Gate Release Device".into(),
                            effect: "Opens a gate.".into(),
                            opens: Some(GateRef { from: g.from, to: g.to }),
                        });
                    }
                    if a.objects.is_empty() {
                        a.objects.push(Object { name: "Prana Spring".into(), effect: "Prana.".into(), opens: None });
                    }
                }
                AreaKind::Trap => {
                    let r = t.nw3.trap("Glass Rain").unwrap();
                    a.trap = Some(Trap {
                        name: r.name.clone(),
                        detection: judge_difficulty(cl, r.detection),
                        removal: judge_difficulty(cl, r.removal),
                        effect: "Glass falls.".into(),
                    });
                }
                _ => {}
            }
            a.danger_sense = Some(danger_sense(&a).0);
            a
        })
        .collect();
    f.ruler.area = ruler.expect("hand-made fortresses have an Event area for the Ruler");
    f.params.areas = kinds.len() as u32;
    f.gates = gates.to_vec();
    derive_paths(&mut f);
    dungeonsmith::nw3::event_outcomes(&t.nw3, &mut f);
    // The episode follows the hand-made areas (its legwork facts and its finale), as `fortress
    // --from` makes a kept episode follow a fortress rolled anew.
    dungeonsmith::nw3::episode::reveal_anew(&mut f);
    dungeonsmith::nw3::finale::follow(&t.nw3.episode, &mut f, &mut dungeonsmith::dice::Dice::new(1));
    f
}

use AreaKind::{Core as C, Entrance as E, Event as V, Normal as N, Object as O};

#[test]
fn a_hand_made_solvable_fortress_passes() {
    let f = hand(
        &[E, N, O, V, C],
        &[
            normal(1, 2),
            normal(1, 3),
            gate(2, 4, GateKind::Closed, Some(Opener::Device(3)), None),
            gate(4, 5, GateKind::OneWay, None, None),
        ],
    );
    assert_eq!(check(&f, tables()), vec![]);
    assert_eq!(oracle(&f), (true, true));
}

#[test]
fn a_core_behind_a_one_way_gate_the_wrong_way_is_unreachable() {
    let f = hand(&[E, V, C], &[normal(1, 2), gate(3, 2, GateKind::OneWay, None, None)]);
    let v = check(&f, tables());
    assert_eq!(rules(&f), vec!["solve.core-unreachable"], "{v:?}");
    assert_eq!(v[0].place, "area 3");
    assert_eq!(
        v[0].message,
        "the Fortress Core (area 3) cannot be reached from the Entrance (area 1) with what the party can find on the way"
    );
}

#[test]
fn a_one_way_gate_into_a_dead_end_strands_the_party() {
    let f = hand(&[E, V, C, N], &[normal(1, 2), normal(2, 3), gate(1, 4, GateKind::OneWay, None, None)]);
    let v = check(&f, tables());
    assert_eq!(rules(&f), vec!["gate.one-way.strands"], "{v:?}");
    assert_eq!(v[0].place, "gate 1-4");
    assert_eq!(
        v[0].message,
        "one-way gate 1-4 leaves the party in area 4, from which the Fortress Core (area 3) cannot be reached"
    );
}

#[test]
fn a_one_way_gate_past_a_device_left_behind_strands_the_party() {
    // 1 -> 2 one-way, but the device for the gate 2-4 stands in area 3, back beside the Entrance.
    let f = hand(
        &[E, N, O, V, C],
        &[
            gate(1, 2, GateKind::OneWay, None, None),
            normal(1, 3),
            gate(2, 4, GateKind::Closed, Some(Opener::Device(3)), None),
            normal(4, 5),
        ],
    );
    assert_eq!(rules(&f), vec!["gate.one-way.strands"]);
    assert_eq!(oracle(&f), (true, false));
}

#[test]
fn a_release_device_behind_its_own_gate_fails() {
    // 2-3 is closed and its device is in area 4, which lies beyond 3.
    let f = hand(
        &[E, N, N, O, V, C],
        &[
            normal(1, 2),
            gate(2, 3, GateKind::Closed, Some(Opener::Device(4)), None),
            normal(3, 4),
            normal(3, 5),
            normal(5, 6),
        ],
    );
    let v = check(&f, tables());
    let behind: Vec<_> = v.iter().filter(|v| v.rule == "gate.closed.release-behind-gate").collect();
    assert_eq!(behind.len(), 1, "{v:?}");
    assert_eq!(behind[0].place, "gate 2-3");
    assert_eq!(
        behind[0].message,
        "closed gate 2-3 opens with the Gate Release Device in area 4, which cannot be reached without passing the gate itself"
    );
    assert!(rules(&f).contains(&"solve.core-unreachable"));
    assert!(rules(&f).contains(&"area.unreachable"));
}

#[test]
fn a_closed_gate_needs_an_opener_in_another_area() {
    let f =
        hand(&[E, O, V, C], &[normal(1, 2), gate(2, 3, GateKind::Closed, Some(Opener::Device(2)), None), normal(3, 4)]);
    assert!(rules(&f).contains(&"gate.closed.opener"), "{:?}", rules(&f));
    let f = hand(&[E, N, V, C], &[normal(1, 2), gate(2, 3, GateKind::Closed, None, None), normal(3, 4)]);
    assert!(rules(&f).contains(&"gate.closed.opener"));
    assert!(rules(&f).contains(&"solve.core-unreachable"));
    // An event opener must be an Event area.
    let f =
        hand(&[E, N, V, C], &[normal(1, 2), gate(2, 3, GateKind::Closed, Some(Opener::Event(2)), None), normal(3, 4)]);
    assert!(rules(&f).contains(&"gate.closed.opener"));
}

#[test]
fn a_closed_gate_opened_by_the_ruler_event_is_fine() {
    let f = hand(&[E, V, C], &[normal(1, 2), gate(2, 3, GateKind::Closed, Some(Opener::Event(2)), None)]);
    assert_eq!(check(&f, tables()), vec![]);
}

#[test]
fn areas_behind_a_danger_sense_gate_must_be_marked_optional() {
    let gates = [normal(1, 2), normal(2, 3), gate(1, 4, GateKind::Secret, Some(Opener::DangerSense(15)), None)];
    let mut f = hand(&[E, V, C, N], &gates);
    assert!(f.areas[3].optional, "derive_paths marks it");
    assert_eq!(check(&f, tables()), vec![]);
    f.areas[3].optional = false;
    let v = check(&f, tables());
    assert_eq!(rules(&f), vec!["area.optional"]);
    assert_eq!(v[0].message, "area 4 is reached only through a secret gate found by Danger Sense; mark it optional");
    f.areas[3].optional = true;
    f.areas[1].optional = true;
    assert_eq!(rules(&f), vec!["area.optional"]);
}

#[test]
fn a_core_only_behind_a_danger_sense_gate_is_not_solvable() {
    let f = hand(&[E, V, C], &[normal(1, 2), gate(2, 3, GateKind::Secret, Some(Opener::DangerSense(15)), None)]);
    let v = check(&f, tables());
    assert_eq!(rules(&f), vec!["solve.core-unreachable"]);
    assert!(v[0].message.ends_with("only through a secret gate that a Danger Sense judge must find"), "{v:?}");
}

#[test]
fn a_secret_gate_is_revealed_by_its_own_areas_event_or_danger_sense_15() {
    // Revealed by the event of area 4, one of its own areas: fine, and not optional.
    let ok = hand(
        &[E, V, C, V, N],
        &[normal(1, 2), normal(2, 3), normal(1, 4), gate(4, 5, GateKind::Secret, Some(Opener::Event(4)), None)],
    );
    assert_eq!(check(&ok, tables()), vec![]);
    assert!(!ok.areas[4].optional);
    // Revealed by an event elsewhere, by a device, by the wrong difficulty, or by nothing.
    for opener in [Some(Opener::Event(2)), Some(Opener::Device(1)), Some(Opener::DangerSense(12)), None] {
        let f = hand(
            &[E, V, C, V, N],
            &[normal(1, 2), normal(2, 3), normal(1, 4), gate(4, 5, GateKind::Secret, opener, None)],
        );
        assert!(rules(&f).contains(&"gate.secret.reveal"), "{opener:?}: {:?}", rules(&f));
    }
}

#[test]
fn damaged_gates_have_uses_and_must_not_strand() {
    // Unusable: the area beyond can't be reached.
    let f = hand(&[E, V, C, N], &[normal(1, 2), normal(2, 3), gate(1, 4, GateKind::Damaged, None, None)]);
    assert_eq!(rules(&f), vec!["area.unreachable"]);
    let f = hand(&[E, V, C, N], &[normal(1, 2), normal(2, 3), gate(1, 4, GateKind::Damaged, None, Some(0))]);
    assert!(rules(&f).contains(&"gate.damaged.uses"));
    // One use into a dead end: the way back may be spent.
    let f = hand(&[E, V, C, N], &[normal(1, 2), normal(2, 3), gate(1, 4, GateKind::Damaged, None, Some(1))]);
    let v = check(&f, tables());
    assert_eq!(rules(&f), vec!["gate.damaged.strands"], "{v:?}");
    assert_eq!(
        v[0].message,
        "damaged gate 1-4 with 1 use(s): after 1 crossing(s) from area 1 the party stands in area 4 with 0 left, \
         from which the Fortress Core (area 3) cannot be reached"
    );
    // A damaged loop beside a normal route is fine.
    let f =
        hand(&[E, V, N, C], &[normal(1, 2), normal(1, 3), gate(2, 3, GateKind::Damaged, None, Some(2)), normal(2, 4)]);
    assert_eq!(check(&f, tables()), vec![]);
    assert_eq!(oracle(&f), (true, true));
}

#[test]
fn a_damaged_gate_into_a_dead_end_is_counted_as_the_party_walks_even_uses_are_legal() {
    // Seed 000 ~l.959 lets the GM set the uses: in and back out spends two.
    for uses in 1..=6 {
        let f = hand(&[E, V, C, N], &[normal(1, 2), normal(2, 3), gate(2, 4, GateKind::Damaged, None, Some(uses))]);
        let strands = rules(&f).contains(&"gate.damaged.strands");
        assert_eq!(strands, uses % 2 == 1, "{uses} use(s): {:?}", check(&f, tables()));
        // The independent walk over every state agrees.
        assert_eq!(oracle(&f), (true, uses % 2 == 0), "{uses} use(s)");
        if !strands {
            assert_eq!(check(&f, tables()), vec![], "{uses} use(s)");
        }
    }
}

#[test]
fn a_damaged_gate_on_the_only_way_to_the_core_strands_only_when_a_sequence_of_moves_can() {
    // Entrance 1 - damaged - 2 - Core 3, with a dead end 4 beside the Entrance: whatever the
    // uses, the party crosses once and walks on; crossing back and forth is the party's choice,
    // and with an even number of uses it can end on the Entrance side with none left.
    for uses in 1..=4 {
        let f = hand(&[E, V, C, N], &[gate(1, 2, GateKind::Damaged, None, Some(uses)), normal(2, 3), normal(1, 4)]);
        let strands = rules(&f).contains(&"gate.damaged.strands");
        assert_eq!(strands, uses % 2 == 0, "{uses} use(s): {:?}", check(&f, tables()));
        assert_eq!(oracle(&f).1, uses % 2 == 1, "{uses} use(s)");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::cases(400), ..ProptestConfig::default() })]

    /// One gate of a generated fortress made damaged with 1-4 uses: when `check` finds no
    /// stranding, the walk over every state finds no dead end either.
    #[test]
    fn a_damaged_gate_check_accepts_strands_no_walk_over_every_state(
        seed in any::<u64>(), areas in 3u32..=14, pick in any::<u32>(), uses in 1u32..=4,
    ) {
        let mut f = generate(tables(), &FortressParams { areas, ..FortressParams::default() }, seed).expect("generates");
        let g = pick as usize % f.gates.len();
        (f.gates[g].kind, f.gates[g].opened_by, f.gates[g].uses) = (GateKind::Damaged, None, Some(uses));
        let v = check(&f, tables());
        if v.iter().all(|v| !v.rule.ends_with("strands") && !v.rule.starts_with("solve")) {
            prop_assert!(oracle(&f).1, "seed {} gate {} with {} use(s): check accepts, but a state is a dead end", seed, g, uses);
        }
    }
}

#[test]
fn structure_is_checked_first() {
    let mut f = hand(&[E, V, C], &[normal(1, 2), normal(2, 3)]);
    f.areas[1].kind = AreaKind::Entrance;
    assert!(rules(&f).contains(&"fortress.entrance"));
    let mut f = hand(&[E, V, C], &[normal(1, 2), normal(2, 3)]);
    f.areas[2].kind = AreaKind::Normal;
    assert!(rules(&f).contains(&"fortress.core"));
    let f = hand(&[E, V, C], &[normal(1, 2), normal(2, 3), normal(3, 9), normal(2, 1)]);
    let r = rules(&f);
    assert!(r.contains(&"gate.endpoint") && r.contains(&"gate.duplicate"), "{r:?}");
    let mut f = hand(&[E, V, C], &[normal(1, 2), normal(2, 3)]);
    f.areas[1].id = 1;
    assert!(rules(&f).contains(&"area.id.duplicate"));
    let mut f = hand(&[E, V, C], &[normal(1, 2), normal(2, 3)]);
    f.params.areas = 5;
    f.params.cl = 30;
    let r = rules(&f);
    assert!(r.contains(&"params.mismatch") && r.contains(&"params.range"), "{r:?}");
}

#[test]
fn content_must_match_the_tables_and_the_level() {
    let base = generate(tables(), &FortressParams { areas: 20, ..Default::default() }, 5).unwrap();
    let trap_area = base.areas.iter().position(|a| a.trap.is_some()).expect("a trap area");
    let enemy_area = base.areas.iter().position(|a| !a.enemies.is_empty()).expect("an enemy area");

    let mut f = base.clone();
    f.areas[trap_area].trap.as_mut().unwrap().detection += 1;
    let v = check(&f, tables());
    assert_eq!(v.iter().map(|v| v.rule).collect::<Vec<_>>(), vec!["trap.values"]);
    assert_eq!(v[0].place, format!("area {}", f.areas[trap_area].id));
    assert!(v[0].message.contains("by the judge rule"), "{}", v[0].message);

    let mut f = base.clone();
    f.areas[trap_area].trap.as_mut().unwrap().name = "Banana Peel".into();
    assert_eq!(rules(&f), vec!["trap.unknown"]);

    let mut f = base.clone();
    f.areas[enemy_area].enemies[0].members[0].initiative += 1;
    assert_eq!(rules(&f), vec!["enemy.initiative"]);

    // A count is the GM's to change (more or fewer than the tables give), but not to 0.
    let mut f = base.clone();
    f.areas[enemy_area].enemies[0].members[0].count += 5;
    assert_eq!(rules(&f), Vec::<&str>::new());
    f.areas[enemy_area].enemies[0].members[0].count = 0;
    assert_eq!(rules(&f), vec!["enemy.count"]);

    let mut f = base.clone();
    f.areas[enemy_area].enemies[0].members[0].spd += 1;
    f.areas[enemy_area].enemies[0].members[0].initiative += 1;
    assert_eq!(rules(&f), vec!["enemy.members"]);

    let mut f = base.clone();
    f.areas[trap_area].trap = None;
    // Without its trap the area's Danger Sense falls back to 12, so that is reported too.
    assert_eq!(rules(&f), vec!["area.content", "danger-sense.difficulty"]);

    let mut f = base.clone();
    f.logic.clear();
    assert_eq!(rules(&f), vec!["logic.count"]);

    let mut f = base.clone();
    f.ruler.initiative = 0;
    assert_eq!(rules(&f), vec!["ruler.initiative"]);

    let mut f = base.clone();
    f.core.name = "Plastic Heart".into();
    assert_eq!(rules(&f), vec!["core.unknown"]);
}

#[test]
fn a_hand_edited_json_with_a_typo_is_refused() {
    let f = generate(tables(), &FortressParams::default(), 3).unwrap();
    let text = f.to_json().replacen("\"appearance_difficulty\"", "\"appearence_difficulty\"", 1);
    let e = Fortress::from_json(&text).unwrap_err().to_string();
    assert!(e.contains("appearence_difficulty"), "{e}");
}

// ------------------------------------------------------------------------------------------------
// Appearance difficulty on known graphs: 8 + 2 per gate on the fewest-gates path.

fn appearances(f: &Fortress) -> Vec<u32> {
    f.areas.iter().map(|a| a.appearance_difficulty).collect()
}

#[test]
fn appearance_difficulty_counts_the_fewest_gates() {
    // A chain.
    let f = hand(&[E, N, V, C], &[normal(1, 2), normal(2, 3), normal(3, 4)]);
    assert_eq!(appearances(&f), vec![8, 10, 12, 14]);
    // A shortcut takes the fewer gates.
    let f = hand(&[E, N, N, V, C], &[normal(1, 2), normal(2, 3), normal(3, 4), normal(1, 4), normal(4, 5)]);
    assert_eq!(appearances(&f), vec![8, 10, 12, 10, 12]);
    // A one-way gate counts only forwards; an unusable damaged gate not at all; a closed or
    // secret gate counts once opened.
    let f = hand(
        &[E, N, N, V, C],
        &[
            normal(1, 2),
            gate(3, 1, GateKind::OneWay, None, None),
            normal(2, 3),
            gate(1, 4, GateKind::Damaged, None, None),
            normal(3, 4),
            gate(2, 5, GateKind::Closed, Some(Opener::Event(4)), None),
        ],
    );
    assert_eq!(appearances(&f), vec![8, 10, 12, 14, 12]);
    assert_eq!(check(&f, tables()), vec![]);
    // The check recomputes it: a wrong value names the area and the expected value.
    let mut g = f.clone();
    g.areas[3].appearance_difficulty = 10;
    let v = check(&g, tables());
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].place.as_str(), v[0].rule), ("area 4", "area.appearance"));
    assert_eq!(v[0].message, "area 4 has appearance difficulty 10, expected 14 (8 + 2 x 3 gates from the Entrance)");
}

// ------------------------------------------------------------------------------------------------
// Golden output.

/// The JSON with the program and tables versions blanked, so the snapshot changes only when the
/// fortress does.
fn golden(f: &Fortress) -> String {
    let mut g = f.clone();
    g.generator.version = "[version]".into();
    g.generator.tables = "[tables]".into();
    g.to_json()
}

#[test]
fn golden_fortress_seed_7_default_options() {
    let f = generate(tables(), &FortressParams::default(), 7).unwrap();
    insta::assert_snapshot!("nw3_seed_7_json", golden(&f));
    let l = layout(&f);
    let text: String = l
        .nodes
        .iter()
        .map(|p| format!("area {:>2}: layer {} slot {} at ({}, {})\n", p.id, p.layer, p.slot, p.x, p.y))
        .collect();
    insta::assert_snapshot!("nw3_seed_7_layout", format!("{} layers, {} wide\n{text}", l.layers, l.width));
}

#[test]
fn golden_fortress_seed_1234_forty_areas_high_level() {
    let f = generate(tables(), &FortressParams { party: 6, cl: 14, areas: 40, ..Default::default() }, 1234).unwrap();
    insta::assert_snapshot!("nw3_seed_1234_40_areas_cl_14_json", golden(&f));
}

/// A hand-made fortress of 500 areas (a binary tree of normal gates from the Entrance, the Core
/// behind a gate the Ruler's defeat opens, a one-way and a damaged gate between siblings): the
/// reachability rules analyse it whole, with no cap on the number of areas.
fn five_hundred() -> (Vec<AreaKind>, Vec<Gate>) {
    let mut kinds = vec![E, V];
    kinds.extend(std::iter::repeat_n(N, 497));
    kinds.push(C);
    let mut gates: Vec<Gate> = (2..=499).map(|i| normal(i / 2, i)).collect();
    gates.push(gate(2, 500, GateKind::Closed, Some(Opener::Event(2)), None));
    gates.push(gate(8, 9, GateKind::OneWay, None, None));
    gates.push(gate(10, 11, GateKind::Damaged, None, Some(2)));
    (kinds, gates)
}

#[test]
fn a_hand_made_fortress_of_500_areas_is_analysed_whole() {
    let (kinds, gates) = five_hundred();
    let f = hand(&kinds, &gates);
    assert_eq!(f.areas[498].appearance_difficulty, 8 + 2 * 8, "area 499 is 8 gates deep");
    assert_eq!(rules(&f), vec!["params.range"], "only the size is beyond what the generator makes");
    // Cut area 499 off: the analysis finds it, past the old limit of 64 areas.
    let cut: Vec<Gate> = gates.iter().filter(|g| g.to != 499).cloned().collect();
    let f = hand(&kinds, &cut);
    let v = check(&f, tables());
    let lost: Vec<&str> = v.iter().filter(|v| v.rule == "area.unreachable").map(|v| v.place.as_str()).collect();
    assert_eq!(lost, vec!["area 499"], "{v:?}");
}

/// What helps against the Ruler (the Echo Recorder) must lie where the party comes before the
/// Ruler's fight: behind the gate the Ruler's defeat opens it breaks a rule; before it, none.
#[test]
fn what_helps_against_the_ruler_lies_before_the_rulers_fight() {
    let recorder = |f: &mut Fortress, id: u32| {
        let a = f.areas.iter_mut().find(|a| a.id == id).expect("the area");
        a.objects = vec![Object { name: "Echo Recorder".into(), effect: "Replays a voice.".into(), opens: None }];
        a.danger_sense = Some(danger_sense(a).0);
    };
    let mut late =
        hand(&[E, V, O, C], &[normal(1, 2), gate(2, 3, GateKind::Closed, Some(Opener::Event(2)), None), normal(2, 4)]);
    recorder(&mut late, 3);
    let v = check(&late, tables());
    assert_eq!(rules(&late), vec!["object.ruler-aid-late"], "{v:?}");
    assert!(v[0].message.contains("Echo Recorder") && v[0].message.contains("area 2"), "{v:?}");
    let mut early = hand(&[E, O, V, C], &[normal(1, 2), normal(1, 3), normal(3, 4)]);
    recorder(&mut early, 2);
    assert_eq!(check(&early, tables()), vec![]);
}

/// The generator places what helps against the Ruler only before the fight (its check holds it
/// to that; here counted, so the rule is seen at work).
#[test]
fn generated_ruler_aids_lie_before_the_rulers_fight() {
    let mut seen = 0;
    for seed in 0..200u64 {
        let areas = 3 + (seed % 38) as u32;
        let f = generate(tables(), &FortressParams { areas, ..Default::default() }, seed).unwrap();
        seen += f.areas.iter().flat_map(|a| &a.objects).filter(|o| o.name == "Echo Recorder").count();
        assert!(!rules(&f).contains(&"object.ruler-aid-late"), "seed {seed}");
    }
    assert!(seen > 5, "the Echo Recorder is placed ({seen} times)");
}

/// A gate opened by the Ruler's event says what the party must do, on the map and in the
/// booklet: "defeat the Ruler (area N)", not "event in N".
#[test]
fn a_gate_the_rulers_defeat_opens_says_so_on_the_map_and_in_the_booklet() {
    use dungeonsmith::model::Paper;
    use dungeonsmith::render::Audience;
    use dungeonsmith::render::area_map::fortress_map;
    let mut found = 0;
    for seed in 1..=12u64 {
        let f = generate(tables(), &FortressParams { areas: 10, ..Default::default() }, seed).unwrap();
        let r = f.ruler.area;
        let Some(g) = f.gates.iter().find(|g| g.opened_by == Some(Opener::Event(r))) else { continue };
        found += 1;
        let svg = fortress_map(&f, tables(), Paper::A4, Audience::Gm);
        let deed = format!("defeat the Ruler (area {r})");
        assert!(svg.contains(&deed) || svg.contains(&format!(">Ruler {r}<")), "seed {seed}: map");
        assert!(!svg.contains(&format!("event in {r}")), "seed {seed}: map still says `event in {r}`");
        let dir = std::env::temp_dir().join(format!("ds-opener-{seed}-{}", std::process::id()));
        let dir_s = dir.to_string_lossy().to_string();
        let (code, _, err) = crate::run(&["fortress", "--seed", &seed.to_string(), "--out", &dir_s, "--format", "md"]);
        assert_eq!(code, 0, "{err}");
        let md = std::fs::read_to_string(dir.join(format!("fortress-{seed}.md"))).expect("markdown");
        let _ = std::fs::remove_dir_all(&dir);
        let other = if g.from == r { g.to } else { g.from };
        assert!(md.contains(&format!("to open it: {deed}")), "seed {seed}: booklet, gate to area {other}");
    }
    assert!(found > 0, "some seed has a gate the Ruler's defeat opens");
}

crate::in_full! {
    every_fortress_is_solvable_and_passes_the_check => every_fortress_is_solvable_and_passes_the_check_in_full,
    small_fortresses_satisfy_an_independent_walk_over_every_state => small_fortresses_satisfy_an_independent_walk_over_every_state_in_full,
    json_round_trips_and_still_passes => json_round_trips_and_still_passes_in_full,
    check_and_layout_survive_arbitrary_edits => check_and_layout_survive_arbitrary_edits_in_full,
    a_damaged_gate_check_accepts_strands_no_walk_over_every_state => a_damaged_gate_check_accepts_strands_no_walk_over_every_state_in_full,
}
