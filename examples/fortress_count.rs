//! Generates and checks COUNT fortresses of AREAS areas (seeds 1..=COUNT), for counting
//! instructions with callgrind: run it with COUNT and with 0, and divide the difference by COUNT.
//!
//! `valgrind --tool=callgrind target/release/examples/fortress_count 40 200`

use dungeonsmith::nw3::{FortressParams, check, generate};
use dungeonsmith::tables::Tables;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u32>());
    let (Some(Ok(areas)), Some(Ok(count))) = (args.next(), args.next()) else {
        eprintln!("usage: fortress_count AREAS COUNT");
        std::process::exit(2);
    };
    let tables = Tables::embedded().expect("embedded tables load");
    let params = FortressParams { areas, ..FortressParams::default() };
    let mut gates = 0;
    for seed in 1..=u64::from(count) {
        let f = generate(&tables, &params, seed).expect("generates");
        gates += f.gates.len() + check(&f, &tables).len();
    }
    println!("{gates}");
}
