//! Universal VTT (`*.dd2vtt`): the JSON map format that Dungeondraft exports and Foundry VTT
//! (Universal Battlemap Importer), Owlbear Rodeo (Dynamic Fog), Fantasy Grounds Unity and
//! Arkenforge import. One file per MYK map sheet and one per fortress, from the grid plan
//! ([`crate::render::plan`]): walls become `line_of_sight`, doors become `portals`, and `image` is
//! the plan's picture as base64 PNG at `pixels_per_grid`. All coordinates are in grid cells.

use base64::Engine;
use serde::Serialize;

use crate::error::Result;
use crate::render::plan::{Door, Plan};

/// Pixels per grid cell of the picture (Udonarium's grid is 50 px too).
pub const PIXELS_PER_GRID: u32 = 50;

#[derive(Serialize)]
struct XY {
    x: f64,
    y: f64,
}

impl XY {
    fn at(p: (u32, u32)) -> XY {
        XY { x: f64::from(p.0), y: f64::from(p.1) }
    }
}

#[derive(Serialize)]
struct Resolution {
    map_origin: XY,
    map_size: XY,
    pixels_per_grid: u32,
}

#[derive(Serialize)]
struct Portal {
    position: XY,
    bounds: [XY; 2],
    /// Radians: 0 for a door in a horizontal wall, π/2 in a vertical one.
    rotation: f64,
    closed: bool,
    freestanding: bool,
    /// Not in Dungeondraft's files: marks a secret door for importers and GMs that read it
    /// (the picture shows wall there).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    secret: bool,
}

#[derive(Serialize)]
struct Environment {
    baked_lighting: bool,
    ambient_light: &'static str,
}

#[derive(Serialize)]
struct Uvtt {
    format: f64,
    resolution: Resolution,
    line_of_sight: Vec<[XY; 2]>,
    objects_line_of_sight: Vec<[XY; 2]>,
    portals: Vec<Portal>,
    environment: Environment,
    lights: Vec<()>,
    image: String,
}

fn portal(d: &Door) -> Portal {
    let horizontal = d.a.1 == d.b.1;
    Portal {
        position: XY { x: f64::from(d.a.0 + d.b.0) / 2.0, y: f64::from(d.a.1 + d.b.1) / 2.0 },
        bounds: [XY::at(d.a), XY::at(d.b)],
        rotation: if horizontal { 0.0 } else { std::f64::consts::FRAC_PI_2 },
        closed: true,
        freestanding: false,
        secret: d.secret,
    }
}

/// The `.dd2vtt` document of a plan, pretty-printed with a final newline.
pub fn uvtt(plan: &Plan, what: &str) -> Result<String> {
    let png = plan.png(PIXELS_PER_GRID, what)?;
    let doc = Uvtt {
        format: 0.3,
        resolution: Resolution {
            map_origin: XY { x: 0.0, y: 0.0 },
            map_size: XY { x: f64::from(plan.w), y: f64::from(plan.h) },
            pixels_per_grid: PIXELS_PER_GRID,
        },
        line_of_sight: plan.walls().iter().map(|s| [XY::at(s.a), XY::at(s.b)]).collect(),
        objects_line_of_sight: Vec::new(),
        portals: plan.doors.iter().map(portal).collect(),
        environment: Environment { baked_lighting: true, ambient_light: "ffffffff" },
        lights: Vec::new(),
        image: base64::engine::general_purpose::STANDARD.encode(png),
    };
    crate::render::json(&doc)
}
