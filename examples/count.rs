//! Repeats one piece of work COUNT times, for counting instructions with callgrind (deterministic,
//! unlike wall time on a shared machine): run it with COUNT and with 0, and divide the difference
//! by COUNT. The README's instruction figures come from here.
//!
//! - `count myk COUNT`: generate (with its one check) the default MYK scenario, seeds 1..=COUNT;
//! - `count fortress AREAS COUNT`: generate and check fortresses of AREAS areas, seeds 1..=COUNT;
//! - `count tables COUNT`: load the built-in tables and drop them.
//!
//! `cargo build --release --example count`, then
//! `valgrind --tool=callgrind target/release/examples/count fortress 40 200`

use dungeonsmith::myk::MykParams;
use dungeonsmith::myk::model::Layout;
use dungeonsmith::nw3::{FortressParams, check, generate};
use dungeonsmith::tables::Tables;

fn usage() -> ! {
    eprintln!("usage: count myk COUNT | count fortress AREAS COUNT | count tables COUNT");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| args.get(i).and_then(|a| a.parse::<u32>().ok()).unwrap_or_else(|| usage());
    let what = args.first().map(String::as_str).unwrap_or_else(|| usage());
    if what == "tables" {
        let mut records = 0;
        for _ in 0..num(1) {
            records += std::hint::black_box(Tables::embedded().expect("embedded tables load")).version.len();
        }
        println!("{records}");
        return;
    }
    let tables = Tables::embedded().expect("embedded tables load");
    let mut made = 0;
    match what {
        "myk" => {
            let params = MykParams {
                levels: vec![2; 4],
                maps: 1,
                rooms: 9,
                layout: Layout::Mixed,
                objective: None,
                ..Default::default()
            };
            for seed in 1..=u64::from(num(1)) {
                let s = dungeonsmith::myk::generate(&tables, &params, seed).expect("generates");
                made += s.maps.len();
            }
        }
        "fortress" => {
            let params = FortressParams { areas: num(1), ..FortressParams::default() };
            for seed in 1..=u64::from(num(2)) {
                let f = generate(&tables, &params, seed).expect("generates");
                made += f.gates.len() + check(&f, &tables).len();
            }
        }
        _ => usage(),
    }
    println!("{made}");
}
