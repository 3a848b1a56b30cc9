//! What the web workbench shows of a scenario, game by game: the sheets (the GM's with click
//! targets the renderer places), the parts a GM can click, the limits and their use, and `check`.
//! The workbench takes it through one [`crate::document::Document::workbench`] call and adds only
//! what is its own (the permalink, the downloads), so it holds no game-specific logic.

use serde::Serialize;

use crate::myk::Scenario;
use crate::nw3::Fortress;
use crate::nw3::model::{Area, AreaKind, EventKind};
use crate::render::{Audience, area_map, sheet};
use crate::tables::Tables;

/// One scenario as the page draws it.
#[derive(Serialize)]
pub struct View {
    pub seed: u64,
    pub title: String,
    pub sheets: Vec<Sheet>,
    pub parts: Vec<Part>,
    pub limits: Vec<Limit>,
    /// One line per rule violation (`check`); empty: every rule and limit holds.
    pub check: Vec<String>,
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

/// The workbench's view of a MYK scenario.
pub fn myk(s: &Scenario, tables: &Tables) -> View {
    // Read as every renderer reads it: the stored title filled.
    let read = crate::myk::frame::filled(s);
    let s: &Scenario = &read;
    let v = crate::render::view::myk_view(s, tables, s.params.paper, &[]);
    let limits = v
        .limits
        .iter()
        .map(|l| Limit {
            what: format!("{} ({}, {})", l.what, l.formula, l.scope),
            limit: l.limit.to_string(),
            used: l.used.clone(),
        })
        .collect();
    View {
        seed: s.seed,
        title: s.title.clone(),
        sheets: myk_sheets(s, tables),
        parts: myk_parts(s, tables),
        limits,
        check: crate::myk::check(s, tables).iter().map(ToString::to_string).collect(),
    }
}

/// Every map's GM sheet (with its click targets), then every players' sheet.
fn myk_sheets(s: &Scenario, tables: &Tables) -> Vec<Sheet> {
    let paper = s.params.paper;
    let gm = s.maps.iter().map(|m| Sheet {
        label: format!("Map {}: GM sheet", m.index),
        copy: "gm",
        svg: sheet::myk_workbench_sheet(s, m, tables, paper),
    });
    let players = s.maps.iter().map(|m| Sheet {
        label: format!("Map {}: players' sheet", m.index),
        copy: "players",
        svg: sheet::myk_sheet(s, m, tables, paper, Audience::Players),
    });
    gm.chain(players).collect()
}

/// The parts a GM can lock, rename or reroll: the frame, each map and each of its rooms.
fn myk_parts(s: &Scenario, tables: &Tables) -> Vec<Part> {
    let mut parts = vec![Part {
        path: "frame".into(),
        kind: "frame",
        label: "Scenario".into(),
        name: s.title.clone(),
        locked: s.frame_locked,
        used: true,
        rerolls: Vec::new(),
        // The objective and the cast, as the booklet names them (issue 31).
        lines: std::iter::once(crate::myk::frame::objective(s))
            .chain(
                s.cast
                    .iter()
                    .map(|n| format!("{} ({}): {}", n.name, n.role, crate::render::myk_story::where_is(s, n.place))),
            )
            .collect(),
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
        parts.extend(m.rooms.iter().map(|r| {
            Part {
                path: format!("map{}/{}", m.index, r.id.name()),
                kind: "room",
                label: r.id.name().to_string(),
                name: r.name.to_string(),
                locked: r.locked,
                used: r.used,
                rerolls: vec!["monsters", "traps", "bases", "name"],
                // The objective's room says what it has to do with the objective, as the booklet does.
                lines: room_lines(r)
                    .into_iter()
                    .chain(
                        crate::render::myk_goal::room_line(
                            s,
                            tables,
                            crate::myk::model::Place { map: m.index, room: r.id },
                        )
                        .map(|t| ["Objective: ", &t].concat()),
                    )
                    .collect(),
            }
        }));
    }
    parts
}

/// What is in a room, one short line per threat.
fn room_lines(r: &crate::myk::model::Room) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(ru) = &r.ruler {
        lines.push(format!("Ruler: {} (level {})", ru.name, ru.effective_level));
    }
    for g in &r.monsters {
        let named = crate::text::count(g.count.into(), &g.name);
        lines.push(format!("{named} (level {}, {})", g.effective_level, word(&g.reaction)));
    }
    for t in &r.traps {
        lines.push(format!("Trap: {} (level {})", t.name, t.level));
    }
    for b in &r.bases {
        lines.push(format!("Base: {} (level {})", b.name, b.level));
    }
    lines
}

/// The workbench's view of a Fortress.
pub fn fortress(f: &Fortress, tables: &Tables) -> View {
    // The texts read as they stand: filled from the fortress's facts.
    let read = crate::nw3::text::filled(f);
    let f = &read;
    let paper = f.paper;
    let sheets = vec![
        Sheet {
            label: "Area map: GM copy".into(),
            copy: "gm",
            svg: area_map::fortress_workbench_map(f, tables, paper),
        },
        Sheet {
            label: "Players' handout".into(),
            copy: "players",
            svg: area_map::fortress_map(f, tables, paper, Audience::Players),
        },
    ];
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
    View {
        seed: f.seed,
        title: f.title.clone(),
        sheets,
        parts: fortress_parts(f),
        limits,
        check: crate::nw3::check(f, tables).iter().map(ToString::to_string).collect(),
    }
}

/// The parts a GM can lock, rename or reroll: the frame and each area.
fn fortress_parts(f: &Fortress) -> Vec<Part> {
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
        lines.extend(a.enemies.iter().map(|g| format!("Enemies: {}", g.name)));
        lines.extend(a.objects.iter().map(|o| format!("Object: {}", o.name)));
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

/// Which parts of an area the page offers to reroll: those its kind holds (a hint for the
/// buttons; `crate::edit::nw3` decides, and refuses the rest with a line that says why).
fn area_parts(f: &Fortress, a: &Area) -> Vec<&'static str> {
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

/// The choices of the page's objective picker, as (value, label): one per objective kind the MYK
/// generator knows, labelled from the story tables (so a kind's label added there shows), in the
/// generator's order. The page puts "any" first.
pub fn objective_choices(tables: &Tables) -> Vec<(&'static str, String)> {
    crate::myk::model::ObjectiveKind::ALL.iter().map(|k| (k.name(), tables.story.kind_label(k.name()))).collect()
}
