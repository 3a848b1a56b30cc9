//! The size of the fortress plans the VTT exports draw: for each number of areas and seeds
//! 1..=SEEDS, the plan's cells, its picture in megapixels at 50 px a cell, and the gates drawn as
//! stubs instead of corridors. docs/speed.md quotes it.
//!
//! `cargo run --release --example plan_sizes -- [SEEDS] [AREAS...]` (default 6 seeds; 10 20 30 40)

use dungeonsmith::nw3::{FortressParams, generate};
use dungeonsmith::render::plan::fortress_plan;
use dungeonsmith::render::uvtt::PIXELS_PER_GRID;
use dungeonsmith::tables::Tables;

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let seeds = args.first().copied().unwrap_or(6);
    let sizes = if args.len() > 1 { args[1..].to_vec() } else { vec![10, 20, 30, 40] };
    let tables = Tables::embedded().expect("embedded tables load");
    println!("areas | megapixels min / median / max | cells of the largest | stubbed gates (fortresses with any)");
    for areas in sizes {
        let params = FortressParams { areas, ..FortressParams::default() };
        let mut mp = Vec::new();
        let (mut largest, mut stubs, mut with) = ((0, 0), 0, 0);
        for seed in 1..=u64::from(seeds) {
            let f = generate(&tables, &params, seed).expect("generates");
            let p = fortress_plan(&f);
            let px = f64::from(p.w * p.h) * f64::from(PIXELS_PER_GRID * PIXELS_PER_GRID) / 1e6;
            if mp.iter().all(|&m| m < px) {
                largest = (p.w, p.h);
            }
            mp.push(px);
            stubs += p.stubbed;
            with += usize::from(p.stubbed > 0);
        }
        mp.sort_by(f64::total_cmp);
        println!(
            "{areas} | {:.1} / {:.1} / {:.1} | {}x{} | {stubs} ({with})",
            mp[0],
            mp[mp.len() / 2],
            mp[mp.len() - 1],
            largest.0,
            largest.1
        );
    }
}
