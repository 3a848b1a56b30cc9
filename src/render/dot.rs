//! The area/gate graph of a Fortress as GraphViz DOT (`--format dot`), for GMs who restyle or
//! rearrange it: one node per area, its DOT id the area's own number (area 5 is node 5), labelled
//! with its id, name and kind, and one edge per gate (its kind, and what opens it in the words the
//! map and the booklet use). One-way gates are arrows from where they may be passed; the other
//! gates carry `dir=none`. A MYK scenario gives its movement graph instead, nodes named as the
//! scenario names rooms (`"map1/B2"`, as `--reroll` does) and each corridor one edge saying what
//! stands in it. User text is escaped for DOT's quoted strings. The statements are written here,
//! one per line, so the ids are the scenario's and the order is the scenario's.

use std::fmt::Write as _;

use crate::myk::model::{CorridorId, Scenario};
use crate::myk::reach::{Reach, Way};
use crate::nw3::model::{Fortress, GateKind};
use crate::nw3::opener::opener_words;
use crate::tables::Tables;
use crate::tables::myk::Route;

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
    let mut out = format!("digraph {{\n    label = \"{}\"\n    node [shape = ellipse]\n", quoted(&f.title));
    for a in &f.areas {
        let style = if a.optional { " style = dashed" } else { "" };
        let _ = writeln!(out, "    {} [ label = \"{} {}\\n{}\"{style}]", a.id, a.id, quoted(&a.name), a.kind.label());
    }
    let known = |id: u32| f.areas.iter().any(|a| a.id == id);
    for gate in f.gates.iter().filter(|g| known(g.from) && known(g.to)) {
        let style = match gate.kind {
            GateKind::OneWay => "",
            GateKind::Secret => " dir = none style = dashed",
            GateKind::Damaged => " dir = none style = dotted",
            GateKind::Normal | GateKind::Closed => " dir = none",
        };
        let label = quoted(&gate_label(f, gate));
        let _ = writeln!(out, "    {} -> {} [ label = \"{label}\"{style}]", gate.from, gate.to);
    }
    out.push_str("}\n");
    out
}

/// A MYK scenario's movement graph as a DOT digraph: a node per room in use (`"map1/B2"`, labelled
/// with its map, room and name) and `outside`; an edge per way the court can move (see
/// [`Reach`]) but one that ends where it starts, a corridor or entrance passable both ways written
/// once with `dir = none`; solid for
/// plain ways, dashed for those found or worked first, each corridor labelled with what stands
/// in it (secret door, lock, moving floor towards C3...).
pub fn myk_dot(s: &Scenario, tables: &Tables) -> String {
    let reach = Reach::new(s, tables);
    let node = |x: usize| match reach.place(x) {
        None => Some("\"outside\"".to_string()),
        Some((p, r)) => {
            let m = s.maps.get(p)?;
            m.rooms.iter().any(|room| room.id == r && room.used).then(|| format!("\"map{}/{r}\"", m.index))
        }
    };
    let mut out = format!("digraph {{\n    label = \"{}\"\n    node [shape = box]\n", quoted(&s.title));
    for x in 0..reach.nodes() {
        let Some(id) = node(x) else { continue };
        let label = match reach.place(x).and_then(|(p, r)| s.maps.get(p).map(|m| (m, m.room(r)))) {
            None => "outside".to_string(),
            Some((m, r)) if r.name.is_empty() => format!("map {} {}", m.index, r.id),
            Some((m, r)) => format!("map {} {}\\n{}", m.index, r.id, quoted(&r.name)),
        };
        let _ = writeln!(out, "    {id} [ label = \"{label}\"]");
    }
    let ways = reach.ways();
    for (i, &(a, b, via, plain)) in ways.iter().enumerate() {
        let (Some(from), Some(to)) = (node(a), node(b)) else { continue };
        // An Illusion Road whose destination is one of its own rooms sends the court from that
        // room back into it: a way that moves it nowhere, which would draw the corridor twice
        // (its undirected edge and a loop). The corridor's own edge names the trap.
        if a == b {
            continue;
        }
        let back = |w: &Way| w.0 == b && w.1 == a && w.2 == via;
        // A way back along the same corridor (or entrance) makes one undirected edge, written once.
        if ways[..i].iter().any(back) {
            continue;
        }
        let both = ways[i + 1..].iter().any(back);
        let what = match via {
            None if plain => "entrance".to_string(),
            None => "teleport".to_string(),
            Some((p, k)) => corridor_words(s, tables, p, k, b),
        };
        let dir = if both { " dir = none" } else { "" };
        let style = if plain { "" } else { " style = dashed" };
        let _ = writeln!(out, "    {from} -> {to} [ label = \"{}\"{dir}{style}]", quoted(&what));
    }
    out.push_str("}\n");
    out
}

/// What stands in corridor `k` of the map at position `p`, for the way that ends at node `to`:
/// "corridor", or the traps that hide, lock, turn or redirect it ("Secret Door", "Lock", "Moving
/// Floor, one-way", "Illusion Road towards C3").
fn corridor_words(s: &Scenario, tables: &Tables, p: usize, k: CorridorId, to: usize) -> String {
    let Some(m) = s.maps.get(p) else { return "corridor".into() };
    let mut parts: Vec<String> =
        m.rooms.iter().flat_map(|r| &r.traps).filter(|t| t.corridor == Some(k)).map(|t| t.name.to_string()).collect();
    if let Some(c) = m.corridors.iter().find(|c| c.id() == k)
        && let Some(t) = &c.trap
    {
        let route = tables.myk.trap(&t.name).and_then(|r| r.route);
        // A redirect's extra ways end away from the corridor's own rooms.
        let away = ![k.0, k.1].iter().any(|r| Reach::node(p, *r) == to);
        parts.push(match (route, t.destination) {
            (Some(Route::OneWay), _) => format!("{}, one-way", t.name),
            (Some(Route::Redirect), Some(d)) if away => {
                let at = if d.map == m.index { d.room.to_string() } else { format!("map {} {}", d.map, d.room) };
                format!("{} towards {at}", t.name)
            }
            _ => t.name.to_string(),
        });
    }
    if parts.is_empty() { "corridor".into() } else { parts.join(", ") }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_strings_escape_quotes_backslashes_and_breaks() {
        assert_eq!(quoted("a \"b\" \\ c\nd"), "a \\\"b\\\" \\\\ c\\nd");
    }
}
