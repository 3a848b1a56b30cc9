// The body of `benches/myk.rs` and `benches/myk_mimalloc.rs`: the same measurements, under the
// system allocator and under the one the `dungeonsmith` binary uses.

use criterion::{Criterion, criterion_group, criterion_main};
use dungeonsmith::myk::model::Layout;
use dungeonsmith::myk::{MykParams, check, generate};
use dungeonsmith::tables::Tables;

fn bench(c: &mut Criterion) {
    let tables = Tables::embedded().expect("embedded tables load");
    let params = MykParams { levels: vec![2; 4], maps: 1, rooms: 9, layout: Layout::Mixed, objective: None, ..Default::default() };
    let mut seed = 0u64;
    // `generate` runs `check` once on what it makes (and refuses a scenario that breaks a rule), so
    // this is generate + one check: what `dungeonsmith myk` does. (Checking its result again
    // would count the check twice.)
    c.bench_function("myk generate+check (generate runs its one check), default scenario", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            std::hint::black_box(generate(&tables, &params, seed).expect("generates"));
        })
    });
    c.bench_function("myk check only, default scenario", |b| {
        let s = generate(&tables, &params, 42).expect("generates");
        b.iter(|| std::hint::black_box(check(&s, &tables)))
    });
    // The built-in tables were validated when the binary was built: this reads their blob and
    // builds the indexes (the name is kept so figures compare across versions).
    c.bench_function("tables load+validate (embedded)", |b| b.iter(|| std::hint::black_box(Tables::embedded())));
    c.bench_function("tables load+validate (embedded TOML, as a --tables folder)", |b| {
        b.iter(|| std::hint::black_box(Tables::embedded_from_toml()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
