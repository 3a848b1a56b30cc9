//! The area/gate graph of a Fortress as GraphViz DOT (`--format dot`), for GMs who restyle or
//! rearrange it: petgraph's DOT writer over a graph with one node per area (labelled with its id,
//! name and kind) and one edge per gate (its kind, and what opens it in the words the map and the
//! booklet use). One-way gates are arrows from where they may be passed; the other gates carry
//! `dir=none`. A MYK scenario gives its movement graph instead. User text is escaped for DOT's
//! quoted strings.

use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};

use crate::nw3::model::{Fortress, GateKind};
use crate::nw3::opener::opener_words;

/// A DOT quoted string's inside: backslashes and quotes escaped, line breaks as `\n`.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// A gate's label: its kind, and what opens it or how often it may be used.
fn gate_label(f: &Fortress, g: &crate::nw3::model::Gate) -> String {
    let kind = g.kind.label();
    let how = match g.kind {
        GateKind::Closed | GateKind::Secret => g.opened_by.map(|o| opener_words(f, o).deed),
        GateKind::Damaged => Some(match g.uses {
            Some(n) => format!("{n} use{}", if n == 1 { "" } else { "s" }),
            None => "unusable".into(),
        }),
        GateKind::Normal | GateKind::OneWay => None,
    };
    match how {
        Some(h) => format!("{kind}: {h}"),
        None => kind.to_string(),
    }
}

/// The fortress as a DOT digraph, nodes in area order and edges in gate order (a gate naming a
/// missing area is left out).
pub fn fortress_dot(f: &Fortress) -> String {
    // Node and edge weights are the attribute lists petgraph's writer prints after each.
    let mut g: DiGraph<String, String> = DiGraph::with_capacity(f.areas.len(), f.gates.len());
    let mut by_id: Vec<(u32, NodeIndex)> = Vec::with_capacity(f.areas.len());
    for a in &f.areas {
        let label = format!("{} {}\\n{}", a.id, quoted(&a.name), a.kind.label());
        let mut attrs = format!("label = \"{label}\"");
        if a.optional {
            attrs.push_str(" style = dashed");
        }
        by_id.push((a.id, g.add_node(attrs)));
    }
    by_id.sort_by_key(|p| p.0);
    let node = |id: u32| by_id.binary_search_by_key(&id, |p| p.0).ok().map(|i| by_id[i].1);
    for gate in &f.gates {
        let (Some(a), Some(b)) = (node(gate.from), node(gate.to)) else { continue };
        let mut attrs = format!("label = \"{}\"", quoted(&gate_label(f, gate)));
        match gate.kind {
            GateKind::OneWay => {}
            GateKind::Secret => attrs.push_str(" dir = none style = dashed"),
            GateKind::Damaged => attrs.push_str(" dir = none style = dotted"),
            GateKind::Normal | GateKind::Closed => attrs.push_str(" dir = none"),
        }
        g.add_edge(a, b, attrs);
    }
    let dot =
        Dot::with_attr_getters(&g, &[Config::NodeNoLabel, Config::EdgeNoLabel], &|_, e| e.weight().clone(), &|_, n| {
            n.1.clone()
        });
    let title = quoted(&f.title);
    let body = format!("{dot}");
    // The graph's own attributes go right after the opening brace.
    match body.split_once('{') {
        Some((head, rest)) => format!("{head}{{\n    label = \"{title}\"\n    node [shape = ellipse]{rest}"),
        None => body,
    }
}

/// A MYK scenario's movement graph as a DOT digraph: a node per room in use (its map and room,
/// and its name) and one for outside; an edge per way the court can move (see
/// [`crate::myk::reach::Reach`]), solid for plain ways, dashed for those found or worked first.
pub fn myk_dot(s: &crate::myk::model::Scenario, tables: &crate::tables::Tables) -> String {
    crate::myk::reach::Reach::new(s, tables).dot(s, &quoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_strings_escape_quotes_backslashes_and_breaks() {
        assert_eq!(quoted("a \"b\" \\ c\nd"), "a \\\"b\\\" \\\\ c\\nd");
    }
}
