//! Time to generate and check one NW3 Fortress of 10 areas (party of 4 at CL 3): the target is
//! under 20 µs. `generate` already runs the full check before returning; the "generate+check"
//! figure adds the second check a caller such as `fortress --format json` + `check` would make.
//! `cargo bench --bench fortress`.

use criterion::{Criterion, criterion_group, criterion_main};
use dungeonsmith::edit::nw3::{AreaPart, Nw3Part, reroll};
use dungeonsmith::nw3::generate::derive_paths;
use dungeonsmith::nw3::{AreaKind, Fortress, FortressParams, Gate, GateKind, check, generate, layout};
use dungeonsmith::tables::Tables;

/// A hand-made fortress of 500 areas: a generated one of 40 with 460 more plain areas hung in a
/// binary tree under its Entrance (what `check` of a giant hand-edited file must analyse).
fn five_hundred(tables: &Tables) -> Fortress {
    let mut f = generate(tables, &FortressParams { areas: 40, ..FortressParams::default() }, 42).expect("generates");
    let plain = f.areas.iter().find(|a| a.kind == AreaKind::Normal).expect("a normal area").clone();
    let entrance = f.entrance().expect("an entrance").id;
    for i in 0..460u32 {
        let id = 41 + i;
        let from = if i == 0 { entrance } else { 41 + (i - 1) / 2 };
        f.gates.push(Gate { from, to: id, kind: GateKind::Normal, opened_by: None, uses: None });
        f.areas.push(dungeonsmith::nw3::Area { id, name: format!("Hall {id}"), ..plain.clone() });
    }
    f.params.areas = 500;
    derive_paths(&mut f);
    f
}

fn bench(c: &mut Criterion) {
    let tables = Tables::embedded().expect("embedded tables load");
    let params = FortressParams::default();
    let mut seed = 0u64;
    c.bench_function("nw3 generate+check, 10 areas", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            let f = generate(&tables, &params, seed).expect("generates");
            std::hint::black_box(check(&f, &tables));
        })
    });
    c.bench_function("nw3 generate (with its built-in check), 10 areas", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            std::hint::black_box(generate(&tables, &params, seed).expect("generates"))
        })
    });
    c.bench_function("nw3 check only, 10 areas", |b| {
        let f = generate(&tables, &params, 42).expect("generates");
        b.iter(|| std::hint::black_box(check(&f, &tables)))
    });
    c.bench_function("nw3 check only, 500 hand-made areas", |b| {
        let f = five_hundred(&tables);
        b.iter(|| std::hint::black_box(check(&f, &tables)))
    });
    c.bench_function("nw3 layout, 10 areas", |b| {
        let f = generate(&tables, &params, 42).expect("generates");
        b.iter(|| std::hint::black_box(layout(&f)))
    });
    // The workbench: reroll one whole area (kind, name, contents; checked before it is kept), and
    // the same from the JSON text to the JSON text, as the CLI and the server do it.
    c.bench_function("nw3 reroll one area, 10 areas", |b| {
        let f = generate(&tables, &params, 42).expect("generates");
        let part = Nw3Part::Area { id: 5, what: AreaPart::All };
        b.iter(|| {
            let mut g = f.clone();
            reroll(&tables, &mut g, &part).expect("rerolls");
            std::hint::black_box(g)
        })
    });
    c.bench_function("nw3 reroll one area from JSON to JSON, 40 areas", |b| {
        let json = generate(&tables, &FortressParams { areas: 40, ..params }, 42).expect("generates").to_json();
        let part = Nw3Part::Area { id: 20, what: AreaPart::All };
        b.iter(|| {
            let mut g = Fortress::from_json(&json).expect("reads");
            reroll(&tables, &mut g, &part).expect("rerolls");
            std::hint::black_box(g.to_json())
        })
    });
    let big = FortressParams { areas: 40, ..params };
    c.bench_function("nw3 generate+check, 40 areas", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            let f = generate(&tables, &big, seed).expect("generates");
            std::hint::black_box(check(&f, &tables));
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
