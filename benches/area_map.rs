//! Time to draw NW3 area maps, ordinary and pathological: the GM's map of a 40-area fortress, and
//! hand-edited files with a 10,000-character area name or 2,000 doubled gates between 3 areas
//! (text fitting and routing are linear, so each stays far under a second).
//! `cargo bench --bench area_map`.

use criterion::{Criterion, criterion_group, criterion_main};
use dungeonsmith::model::Paper;
use dungeonsmith::nw3::{FortressParams, generate};
use dungeonsmith::render::Audience;
use dungeonsmith::render::area_map::fortress_map;
use dungeonsmith::tables::Tables;

fn bench(c: &mut Criterion) {
    let tables = Tables::embedded().expect("embedded tables load");
    let big =
        generate(&tables, &FortressParams { party: 6, cl: 12, areas: 40, ..Default::default() }, 1).expect("generates");
    c.bench_function("nw3 GM area map, 40 areas", |b| {
        b.iter(|| std::hint::black_box(fortress_map(&big, &tables, Paper::A4, Audience::Gm)))
    });
    let mut long = generate(&tables, &FortressParams::default(), 9).expect("generates");
    long.areas[1].name = "x".repeat(10_000);
    c.bench_function("nw3 GM area map, a 10,000-character name", |b| {
        b.iter(|| std::hint::black_box(fortress_map(&long, &tables, Paper::A4, Audience::Gm)))
    });
    let mut doubled =
        generate(&tables, &FortressParams { areas: 3, ..FortressParams::default() }, 9).expect("generates");
    doubled.gates = vec![doubled.gates[0].clone(); 2000];
    c.bench_function("nw3 GM area map, 2,000 doubled gates", |b| {
        b.iter(|| std::hint::black_box(fortress_map(&doubled, &tables, Paper::A4, Audience::Gm)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
