//! Click targets laid over the served copy of a GM sheet or area map: one transparent shape per
//! room (`data-room="map1/B2"`) or area (`data-area="5"`), placed with the renderer's own geometry
//! and added just before `</svg>`. The CLI's files never get them, so their bytes stay as they are.

use crate::model::Paper;
use crate::myk::Scenario;
use crate::myk::model::Map;
use crate::nw3::Fortress;
use crate::tables::Tables;

use crate::render::svgkit::xml_escape as escape;

fn insert(svg: &str, overlay: &str) -> String {
    match svg.rfind("</svg>") {
        Some(at) => format!("{}{overlay}{}", &svg[..at], &svg[at..]),
        None => svg.to_string(),
    }
}

fn class(locked: bool, extra: &str) -> String {
    let mut c = String::from("ds-hook");
    if locked {
        c.push_str(" ds-locked");
    }
    c.push_str(extra);
    c
}

/// The GM sheet of `map` with a click target on every room.
pub fn myk_sheet(svg: &str, s: &Scenario, map: &Map, tables: &Tables, paper: Paper) -> String {
    let mut g = String::from("<g class=\"ds-hooks\">");
    for (id, x, y, side) in crate::render::sheet::room_boxes(s, map, tables, paper) {
        let room = map.room(id);
        let path = format!("map{}/{}", map.index, id.name());
        let label = if room.used { format!("{} {}", id.name(), room.name) } else { format!("{} (unused)", id.name()) };
        let lock = if room.locked { " (locked)" } else { "" };
        g.push_str(&format!(
            "<rect class=\"{}\" data-room=\"{path}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{side:.1}\" height=\"{side:.1}\" \
             fill=\"transparent\"><title>{}{lock}</title></rect>",
            class(room.locked || map.locked, if room.used { "" } else { " ds-unused" }),
            escape(&label),
        ));
    }
    g.push_str("</g>");
    insert(svg, &g)
}

/// The GM's area map with a click target on every area circle.
pub fn fortress_map(svg: &str, f: &Fortress, tables: &Tables, paper: Paper) -> String {
    let mut g = String::from("<g class=\"ds-hooks\">");
    for ((id, cx, cy, r), a) in crate::render::area_map::area_discs(f, tables, paper).into_iter().zip(&f.areas) {
        let lock = if a.locked { " (locked)" } else { "" };
        g.push_str(&format!(
            "<circle class=\"{}\" data-area=\"{id}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"transparent\">\
             <title>area {id} {}{lock}</title></circle>",
            class(a.locked, ""),
            r + 0.8,
            escape(&a.name),
        ));
    }
    g.push_str("</g>");
    insert(svg, &g)
}
