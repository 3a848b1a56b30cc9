//! Time `fix` takes to fill in every derived field (then `check`, as the command does), on a
//! default MYK scenario (court of 4 at level 2, one 9-room mixed map) and a 10-area Fortress.
//! `cargo bench --bench fix`.

use criterion::{Criterion, criterion_group, criterion_main};
use dungeonsmith::myk::model::Layout;
use dungeonsmith::myk::{self, MykParams};
use dungeonsmith::nw3::{self, FortressParams};
use dungeonsmith::tables::Tables;

fn bench(c: &mut Criterion) {
    let tables = Tables::embedded().expect("embedded tables load");
    let p = MykParams {
        levels: vec![2; 4],
        maps: 1,
        rooms: 9,
        layout: Layout::Mixed,
        objective: None,
        ..Default::default()
    };
    let s = myk::generate(&tables, &p, 42).expect("generates");
    c.bench_function("myk fix, one 9-room map", |b| {
        b.iter(|| {
            let mut s = s.clone();
            dungeonsmith::fix::myk::fix(&mut s, &tables).expect("fixes");
            std::hint::black_box(s)
        })
    });
    c.bench_function("myk fix+check, one 9-room map", |b| {
        b.iter(|| {
            let mut s = s.clone();
            dungeonsmith::fix::myk::fix(&mut s, &tables).expect("fixes");
            std::hint::black_box(myk::check(&s, &tables))
        })
    });
    let f = nw3::generate(&tables, &FortressParams::default(), 42).expect("generates");
    c.bench_function("nw3 fix, 10 areas", |b| {
        b.iter(|| {
            let mut f = f.clone();
            dungeonsmith::fix::nw3::fix(&mut f, &tables).expect("fixes");
            std::hint::black_box(f)
        })
    });
    c.bench_function("nw3 fix+check, 10 areas", |b| {
        b.iter(|| {
            let mut f = f.clone();
            dungeonsmith::fix::nw3::fix(&mut f, &tables).expect("fixes");
            std::hint::black_box(nw3::check(&f, &tables))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
