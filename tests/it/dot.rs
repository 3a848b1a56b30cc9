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
type Node = (usize, String);
/// An edge statement's two ids and attributes.
type Link = (usize, usize, String);

/// The node and edge statements of a DOT digraph (one statement per line, as petgraph writes).
fn statements(dot: &str) -> (Vec<Node>, Vec<Link>) {
    assert!(dot.starts_with("digraph {") && dot.trim_end().ends_with('}'), "{dot}");
    let (mut nodes, mut edges) = (Vec::new(), Vec::new());
    for line in dot.lines().skip(1) {
        let Some((head, attrs)) = line.trim().split_once(" [ ") else { continue };
        let attrs = attrs.strip_suffix(']').expect("a closed attribute list").trim_end().to_string();
        match head.split_once(" -> ") {
            Some((a, b)) => edges.push((a.parse().expect("an id"), b.parse().expect("an id"), attrs)),
            None => nodes.push((head.parse().expect("an id"), attrs)),
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
        for (k, (a, (i, attrs))) in f.areas.iter().zip(&nodes).enumerate() {
            assert_eq!(*i, k);
            let label = format!("label = \"{} {}\\n{}\"", a.id, a.name, a.kind.label());
            assert!(attrs.starts_with(&label), "{attrs} / {label}");
        }
        for (g, (from, to, attrs)) in f.gates.iter().zip(&edges) {
            assert_eq!((f.areas[*from].id, f.areas[*to].id), (g.from, g.to));
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
    assert!(nodes.iter().any(|n| n.1 == "label = \"outside\""));
    assert!(edges.iter().any(|e| e.2.contains("entrance")) && edges.iter().any(|e| e.2.contains("corridor")));
    let ids: Vec<usize> = nodes.iter().map(|n| n.0).collect();
    assert!(edges.iter().all(|e| ids.contains(&e.0) && ids.contains(&e.1)), "edges join shown nodes");
}
