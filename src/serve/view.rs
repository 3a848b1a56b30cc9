//! What the page draws for one scenario: the sheets as SVG (the CLI's own renderers, click targets
//! added to the GM's copy), the parts a GM can click, the limits and their use, and `check`.

use serde::Serialize;

use crate::myk::Scenario;
use crate::nw3::Fortress;
use crate::render::{Audience, area_map, sheet};
use crate::tables::Tables;

use super::hooks;
use super::query::Request;
use crate::document::Document;

#[derive(Serialize)]
pub struct PageView {
    /// The canonical permalink query (without `?`).
    pub query: String,
    pub game: &'static str,
    pub seed: u64,
    pub title: String,
    pub sheets: Vec<Sheet>,
    pub parts: Vec<Part>,
    pub limits: Vec<Limit>,
    /// One line per rule violation (`check`); empty: every rule and limit holds.
    pub check: Vec<String>,
    /// The files a download offers (the CLI's names), then the zip of them all.
    pub files: Vec<String>,
    pub zip: String,
    /// The edit history, one line each, as in the query.
    pub ops: Vec<String>,
}

#[derive(Serialize)]
pub struct Sheet {
    pub label: String,
    /// `gm` (clickable) or `players`.
    pub copy: &'static str,
    pub svg: String,
}

/// Something a GM can click: the frame, a map, a room or an area.
#[derive(Serialize)]
pub struct Part {
    pub path: String,
    pub kind: &'static str,
    pub label: String,
    pub name: String,
    pub locked: bool,
    /// False for a room the map does not use.
    pub used: bool,
    /// The parts that can be rerolled on their own (`monsters`, `trap`, ...).
    pub rerolls: Vec<&'static str>,
    /// What is in it, one short line each.
    pub lines: Vec<String>,
}

#[derive(Serialize)]
pub struct Limit {
    pub what: String,
    pub limit: String,
    pub used: String,
}

fn word<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// Which parts of an area the page offers to reroll: those its kind holds (a hint for the
/// buttons; `crate::edit::nw3` decides, and refuses the rest with a line that says why).
fn area_parts(f: &crate::nw3::Fortress, a: &crate::nw3::model::Area) -> Vec<&'static str> {
    use crate::nw3::model::{AreaKind, EventKind};
    let ruler_event = a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler) && f.ruler.area == a.id;
    let mut parts = Vec::new();
    if matches!(a.kind, AreaKind::Enemy | AreaKind::Core) {
        parts.push("enemies");
    }
    if a.kind == AreaKind::Trap {
        parts.push("trap");
    }
    if matches!(a.kind, AreaKind::Normal | AreaKind::Object) || (a.kind == AreaKind::Event && !ruler_event) {
        parts.push("event");
    }
    if matches!(a.kind, AreaKind::Object | AreaKind::Core) {
        parts.push("objects");
    }
    parts
}

/// The page's view of `doc` (made from `req`); `files` are the downloadable artifacts' names.
pub fn page(tables: &Tables, req: &Request, doc: &Document, files: Vec<String>, zip: String) -> PageView {
    match doc {
        Document::Myk(s) => myk_page(tables, req, s, files, zip),
        Document::Nw3(f) => nw3_page(tables, req, f, files, zip),
    }
}

fn myk_page(tables: &Tables, req: &Request, s: &Scenario, files: Vec<String>, zip: String) -> PageView {
    let ops = req.ops.iter().map(ToString::to_string).collect();
    let paper = s.params.paper;
    let sheets = myk_sheets(s, tables);
    let parts = myk_parts(s);
    let v = crate::render::view::myk_view(s, tables, paper, &[]);
    let limits = v
        .limits
        .iter()
        .map(|l| Limit {
            what: format!("{} ({}, {})", l.what, l.formula, l.scope),
            limit: l.limit.to_string(),
            used: l.used.clone(),
        })
        .collect();
    let check = crate::myk::check(s, tables).iter().map(ToString::to_string).collect();
    PageView {
        query: req.query(),
        game: "myk",
        seed: s.seed,
        title: s.title.clone(),
        sheets,
        parts,
        limits,
        check,
        files,
        zip,
        ops,
    }
}

/// Every map's GM sheet (with its click targets), then every players' sheet.
fn myk_sheets(s: &Scenario, tables: &Tables) -> Vec<Sheet> {
    let paper = s.params.paper;
    let mut sheets = Vec::new();
    for m in &s.maps {
        let gm = sheet::myk_sheet(s, m, tables, paper, Audience::Gm);
        sheets.push(Sheet {
            label: format!("Map {}: GM sheet", m.index),
            copy: "gm",
            svg: hooks::myk_sheet(&gm, s, m, paper),
        });
    }
    for m in &s.maps {
        sheets.push(Sheet {
            label: format!("Map {}: players' sheet", m.index),
            copy: "players",
            svg: sheet::myk_sheet(s, m, tables, paper, Audience::Players),
        });
    }
    sheets
}

/// The parts a GM can lock, rename or reroll: the frame, each map and each of its rooms.
fn myk_parts(s: &Scenario) -> Vec<Part> {
    let mut parts = vec![Part {
        path: "frame".into(),
        kind: "frame",
        label: "Scenario".into(),
        name: s.title.clone(),
        locked: s.frame_locked,
        used: true,
        rerolls: Vec::new(),
        lines: vec![s.objective.clone()],
    }];
    for m in &s.maps {
        parts.push(Part {
            path: format!("map{}", m.index),
            kind: "map",
            label: format!("Map {}", m.index),
            name: m.name.to_string(),
            locked: m.locked,
            used: true,
            rerolls: Vec::new(),
            lines: Vec::new(),
        });
        for r in &m.rooms {
            let mut lines = Vec::new();
            if let Some(ru) = &r.ruler {
                lines.push(format!("Ruler: {} (level {})", ru.name, ru.effective_level));
            }
            for g in &r.monsters {
                lines.push(format!(
                    "{} \u{00d7}{} (level {}, {})",
                    g.name,
                    g.count,
                    g.effective_level,
                    word(&g.reaction)
                ));
            }
            for t in &r.traps {
                lines.push(format!("Trap: {} (level {})", t.name, t.level));
            }
            for b in &r.bases {
                lines.push(format!("Base: {} (level {})", b.name, b.level));
            }
            parts.push(Part {
                path: format!("map{}/{}", m.index, r.id.name()),
                kind: "room",
                label: r.id.name().to_string(),
                name: r.name.to_string(),
                locked: r.locked,
                used: r.used,
                rerolls: vec!["monsters", "traps", "bases", "name"],
                lines,
            });
        }
    }
    parts
}

fn nw3_page(tables: &Tables, req: &Request, f: &Fortress, files: Vec<String>, zip: String) -> PageView {
    let ops = req.ops.iter().map(ToString::to_string).collect();
    let paper = f.paper;
    let gm = area_map::fortress_map(f, tables, paper, Audience::Gm);
    let sheets = vec![
        Sheet { label: "Area map: GM copy".into(), copy: "gm", svg: hooks::fortress_map(&gm, f, paper) },
        Sheet {
            label: "Players' handout".into(),
            copy: "players",
            svg: area_map::fortress_map(f, tables, paper, Audience::Players),
        },
    ];
    let parts = nw3_parts(f);
    let count = |k: &str| f.areas.iter().filter(|a| word(&a.kind) == k).count();
    let limits = vec![
        Limit {
            what: "areas (entrance to core)".into(),
            limit: f.params.areas.to_string(),
            used: f.areas.len().to_string(),
        },
        Limit { what: "gates".into(), limit: "-".into(), used: f.gates.len().to_string() },
        Limit { what: "enemy areas".into(), limit: "-".into(), used: count("enemy").to_string() },
        Limit { what: "trap areas".into(), limit: "-".into(), used: count("trap").to_string() },
        Limit { what: "event areas".into(), limit: "-".into(), used: count("event").to_string() },
        Limit { what: "object areas".into(), limit: "-".into(), used: count("object").to_string() },
    ];
    let check = crate::nw3::check(f, tables).iter().map(ToString::to_string).collect();
    PageView {
        query: req.query(),
        game: "nw3",
        seed: f.seed,
        title: f.title.clone(),
        sheets,
        parts,
        limits,
        check,
        files,
        zip,
        ops,
    }
}

/// The parts a GM can lock, rename or reroll: the frame and each area.
fn nw3_parts(f: &Fortress) -> Vec<Part> {
    let mut parts = vec![Part {
        path: "frame".into(),
        kind: "frame",
        label: "Fortress".into(),
        name: f.title.clone(),
        locked: f.frame_locked,
        used: true,
        rerolls: Vec::new(),
        lines: vec![f.trailer.clone(), format!("Ruler: {}", f.ruler.name)],
    }];
    for a in &f.areas {
        let mut lines = vec![format!("{} area, appearance {}", word(&a.kind), a.appearance_difficulty)];
        if let Some(e) = &a.event {
            lines.push(format!("Event: {}", e.name));
        }
        if let Some(t) = &a.trap {
            lines.push(format!("Trap: {} (detect {}, remove {})", t.name, t.detection, t.removal));
        }
        for g in &a.enemies {
            lines.push(format!("Enemies: {}", g.name));
        }
        for o in &a.objects {
            lines.push(format!("Object: {}", o.name));
        }
        parts.push(Part {
            path: format!("area{}", a.id),
            kind: "area",
            label: format!("Area {}", a.id),
            name: a.name.clone(),
            locked: a.locked,
            used: true,
            rerolls: area_parts(f, a),
            lines,
        });
    }
    parts
}
