//! Writes a map sheet or area map as SVG and PNG for looking at (what the ignored preview tests
//! once did):
//!
//! ```sh
//! cargo run --example preview -- myk [SEED] [letter]      # myk-gm.svg/.png, myk-players.svg/.png
//! cargo run --example preview -- fortress [SEED] [AREAS] [CL] [letter]
//! cargo run --example preview -- svg FILE.svg...           # FILE.png beside each SVG file
//! ```
//!
//! Files go to the temp folder (or `PREVIEW_DIR`); pictures are 5 pixels per millimetre, or
//! `PREVIEW_PX_PER_MM`. A MYK preview of several maps or other levels: generate a scenario with
//! `dungeonsmith myk ... --format svg` and preview its SVG files.

use std::path::PathBuf;

use dungeonsmith::model::Paper;
use dungeonsmith::myk::model::Layout;
use dungeonsmith::myk::{MykParams, generate};
use dungeonsmith::nw3::FortressParams;
use dungeonsmith::render::Audience;
use dungeonsmith::render::area_map::fortress_map;
use dungeonsmith::render::raster::png;
use dungeonsmith::render::sheet::myk_sheet;
use dungeonsmith::tables::Tables;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::env::var_os("PREVIEW_DIR").map_or_else(std::env::temp_dir, PathBuf::from);
    let per_mm: f64 = std::env::var("PREVIEW_PX_PER_MM").ok().and_then(|v| v.parse().ok()).unwrap_or(5.0);
    let paper = if args.iter().any(|a| a == "letter") { Paper::Letter } else { Paper::A4 };
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let write = |name: &str, svg: &str, paper: Paper| -> Result<(), Box<dyn std::error::Error>> {
        let width = (paper.size_mm().0 * per_mm).round() as u32;
        std::fs::write(dir.join(format!("{name}.svg")), svg)?;
        std::fs::write(dir.join(format!("{name}.png")), png(svg, width, name)?)?;
        println!("{}", dir.join(format!("{name}.png")).display());
        Ok(())
    };
    let tables = Tables::embedded()?;
    match args.first().map(String::as_str) {
        Some("myk") => {
            let params = MykParams {
                levels: vec![2; 4],
                maps: 1,
                rooms: 9,
                layout: Layout::Mixed,
                objective: None,
                ..Default::default()
            };
            let s = generate(&tables, &params, number(1, 42))?;
            for (copy, name) in [(Audience::Gm, "myk-gm"), (Audience::Players, "myk-players")] {
                write(name, &myk_sheet(&s, &s.maps[0], &tables, paper, copy), paper)?;
            }
        }
        Some("fortress") => {
            let params = FortressParams { areas: number(2, 10) as u32, cl: number(3, 3) as u32, ..Default::default() };
            let f = dungeonsmith::nw3::generate(&tables, &params, number(1, 7))?;
            for (copy, name) in [(Audience::Gm, "area-gm"), (Audience::Players, "area-players")] {
                write(name, &fortress_map(&f, &tables, paper, copy), paper)?;
            }
        }
        Some("svg") => {
            for file in &args[1..] {
                let svg = std::fs::read_to_string(file)?;
                let paper = if svg.contains("width=\"215.9mm\"") { Paper::Letter } else { Paper::A4 };
                let width = (paper.size_mm().0 * per_mm).round() as u32;
                let out = PathBuf::from(file).with_extension("png");
                std::fs::write(&out, png(&svg, width, file)?)?;
                println!("{}", out.display());
            }
        }
        _ => {
            return Err(
                "usage: preview myk [SEED] [letter] | fortress [SEED] [AREAS] [CL] [letter] | svg FILE...".into()
            );
        }
    }
    Ok(())
}
