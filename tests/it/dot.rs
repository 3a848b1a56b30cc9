//! `--format dot`: a Fortress's area/gate graph and a MYK scenario's movement graph as GraphViz
//! DOT, read back statement by statement.

use dungeonsmith::myk::MykParams;
use dungeonsmith::myk::model::Layout;
use dungeonsmith::nw3::{FortressParams, GateKind, generate};
use dungeonsmith::render::dot::{fortress_dot, myk_dot};
use dungeonsmith::tables::Tables;

fn tables() -> Tables {
    Tables::embedded().expect("embedded tables")
}

/// A node statement's id and attributes.
type Node = (String, String);
/// An edge statement's two ids and attributes.
type Link = (String, String, String);

/// The node and edge statements of a DOT digraph (one statement per line, as petgraph writes).
fn statements(dot: &str) -> (Vec<Node>, Vec<Link>) {
    assert!(dot.starts_with("digraph {") && dot.trim_end().ends_with('}'), "{dot}");
    let (mut nodes, mut edges) = (Vec::new(), Vec::new());
    for line in dot.lines().skip(1) {
        let Some((head, attrs)) = line.trim().split_once(" [ ") else { continue };
        let attrs = attrs.strip_suffix(']').expect("a closed attribute list").trim_end().to_string();
        match head.split_once(" -> ") {
            Some((a, b)) => edges.push((a.to_string(), b.to_string(), attrs)),
            None => nodes.push((head.to_string(), attrs)),
        }
    }
    (nodes, edges)
}

#[test]
fn a_fortress_as_dot_has_a_node_per_area_and_an_edge_per_gate_one_way_gates_directed() {
    let t = tables();
    for (seed, areas) in [(1u64, 10u32), (7, 30), (3, 40)] {
        let f = generate(&t, &FortressParams { areas, ..Default::default() }, seed).expect("generates");
        let (nodes, edges) = statements(&fortress_dot(&f));
        assert_eq!((nodes.len(), edges.len()), (f.areas.len(), f.gates.len()), "seed {seed}");
        for (a, (id, attrs)) in f.areas.iter().zip(&nodes) {
            assert_eq!(*id, a.id.to_string(), "node ids are area ids");
            let label = format!("label = \"{} {}\\n{}\"", a.id, a.name, a.kind.label());
            assert!(attrs.starts_with(&label), "{attrs} / {label}");
        }
        for (g, (from, to, attrs)) in f.gates.iter().zip(&edges) {
            assert_eq!((from.clone(), to.clone()), (g.from.to_string(), g.to.to_string()), "edges join area ids");
            assert!(attrs.contains(g.kind.label()), "{attrs}");
            assert_eq!(attrs.contains("dir = none"), g.kind != GateKind::OneWay, "{attrs}");
            if matches!(g.kind, GateKind::Closed | GateKind::Secret) {
                assert!(attrs.contains(": "), "what opens gate {}-{} is said: {attrs}", g.from, g.to);
            }
        }
    }
}

#[test]
fn user_text_in_dot_is_escaped() {
    let t = tables();
    let mut f = generate(&t, &FortressParams::default(), 5).expect("generates");
    f.areas[1].name = "The \"Quoted\" \\ Hall".into();
    let dot = fortress_dot(&f);
    assert!(dot.contains("The \\\"Quoted\\\" \\\\ Hall"), "{dot}");
    assert_eq!(statements(&dot).0.len(), f.areas.len());
}

#[test]
fn a_myk_scenario_as_dot_is_its_movement_graph() {
    let t = tables();
    let s = dungeonsmith::myk::generate(
        &t,
        &MykParams { levels: vec![2; 4], maps: 2, rooms: 6, layout: Layout::Mixed, objective: None },
        1,
    )
    .expect("generates");
    let (nodes, edges) = statements(&myk_dot(&s, &t));
    let used: usize = s.maps.iter().map(|m| m.used_rooms().count()).sum();
    assert_eq!(nodes.len(), used + 1, "a node per room in use, and outside");
    assert!(nodes.iter().any(|n| n.0 == "\"outside\"" && n.1 == "label = \"outside\""));
    for m in &s.maps {
        for r in m.used_rooms() {
            assert!(
                nodes.iter().any(|n| n.0 == format!("\"map{}/{}\"", m.index, r.id)),
                "room ids as --reroll names them"
            );
        }
    }
    assert!(edges.iter().any(|e| e.2.contains("entrance")) && edges.iter().any(|e| e.2.contains("corridor")));
    let ids: Vec<String> = nodes.iter().map(|n| n.0.clone()).collect();
    assert!(edges.iter().all(|e| ids.contains(&e.0) && ids.contains(&e.1)), "edges join shown nodes");
}

/// A two-way corridor is one undirected edge, a one-way corridor one arrow, and the label says what
/// stands in the corridor: the hiding, locking or moving trap by name, a redirect with where it
/// leads.
#[test]
fn a_myk_corridor_is_one_edge_that_names_its_kind() {
    let t = tables();
    let (mut named, mut one_way) = (0, 0);
    for seed in 0..30u64 {
        let p = MykParams { levels: vec![2; 4], maps: 2, rooms: 9, layout: Layout::Mixed, objective: None };
        let s = dungeonsmith::myk::generate(&t, &p, seed).expect("generates");
        let (_, edges) = statements(&myk_dot(&s, &t));
        for m in &s.maps {
            for k in &m.corridors {
                let (a, b) = (format!("\"map{}/{}\"", m.index, k.a), format!("\"map{}/{}\"", m.index, k.b));
                let between: Vec<&Link> = edges
                    .iter()
                    .filter(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a))
                    .filter(|e| !e.2.contains("\"teleport\""))
                    .collect();
                let route = k.trap.as_ref().and_then(|x| t.myk.trap(&x.name)).and_then(|x| x.route);
                if route == Some(dungeonsmith::tables::myk::Route::Closed) {
                    assert!(between.is_empty(), "seed {seed}: an impassable corridor is no way");
                    continue;
                }
                assert_eq!(
                    between.len(),
                    1,
                    "seed {seed} map {} {}: one edge per corridor: {between:?}",
                    m.index,
                    k.id()
                );
                let attrs = &between[0].2;
                assert_eq!(attrs.contains("dir = none"), k.one_way.is_none(), "seed {seed}: {attrs}");
                if let Some(d) = k.one_way {
                    one_way += 1;
                    assert_eq!(between[0].0, format!("\"map{}/{}\"", m.index, d.from), "the arrow points the way");
                }
                let hiders = m.rooms.iter().flat_map(|r| &r.traps).filter(|x| x.corridor == Some(k.id()));
                for name in hiders.map(|x| x.name.to_string()).chain(k.trap.iter().map(|x| x.name.to_string())) {
                    named += 1;
                    assert!(attrs.contains(&name), "seed {seed}: the edge names {name}: {attrs}");
                }
                assert!(!attrs.contains("hidden, locked or redirected"), "{attrs}");
            }
        }
        for e in edges.iter().filter(|e| e.2.contains("towards")) {
            assert!(
                e.2.contains("style = dashed") && !e.2.contains("dir = none"),
                "a redirect is a dashed arrow: {e:?}"
            );
        }
    }
    assert!(named > 10 && one_way > 3, "the seeds hold named corridors ({named}) and one-way ones ({one_way})");
}

/// An Illusion Road whose destination is one of its own rooms (myk seed 9061, `--maps 2`: the
/// C1-C2 road leads to C2) sends the court from that room back into it, a way that moves it
/// nowhere: the corridor is one undirected edge, and no loop is drawn beside it. The road is
/// pointed at each of its own rooms in turn.
#[test]
fn an_illusion_road_back_into_its_own_room_is_one_undirected_edge_and_no_loop() {
    use dungeonsmith::myk::model::Place;
    use dungeonsmith::tables::myk::Route;
    let t = tables();
    let redirects = |s: &dungeonsmith::myk::Scenario| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, m) in s.maps.iter().enumerate() {
            for (j, k) in m.corridors.iter().enumerate() {
                let route = k.trap.as_ref().and_then(|x| t.myk.trap(&x.name)).and_then(|x| x.route);
                if route == Some(Route::Redirect) && k.one_way.is_none() {
                    out.push((i, j));
                }
            }
        }
        out
    };
    let mut tried = 0;
    for seed in 0..200u64 {
        let p = MykParams { levels: vec![2; 4], maps: 2, rooms: 9, layout: Layout::Mixed, objective: None };
        let s = dungeonsmith::myk::generate(&t, &p, seed).expect("generates");
        for (i, j) in redirects(&s) {
            let k = &s.maps[i].corridors[j];
            for end in [k.a, k.b] {
                let mut edited = s.clone();
                let index = edited.maps[i].index;
                let trap = edited.maps[i].corridors[j].trap.as_mut().expect("the road");
                trap.destination = Some(Place { map: index, room: end });
                let (_, edges) = statements(&myk_dot(&edited, &t));
                assert!(edges.iter().all(|e| e.0 != e.1), "seed {seed}: a loop is drawn: {edges:?}");
                let (a, b) = (format!("\"map{index}/{}\"", k.a), format!("\"map{index}/{}\"", k.b));
                let between: Vec<&Link> = edges
                    .iter()
                    .filter(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a))
                    .filter(|e| !e.2.contains("\"teleport\""))
                    .collect();
                assert_eq!(between.len(), 1, "seed {seed} {}: one edge: {between:?}", k.id());
                assert!(between[0].2.contains("dir = none"), "seed {seed}: undirected: {:?}", between[0]);
                tried += 1;
            }
        }
        if tried >= 6 {
            break;
        }
    }
    assert!(tried >= 6, "Illusion Roads were pointed home: {tried}");
}
