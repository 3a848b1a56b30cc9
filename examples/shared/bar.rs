// The body of `examples/bar.rs` and `examples/bar_mimalloc.rs`: the same measurement under the
// allocator each of them names in `ALLOCATOR` (and, for mimalloc, installs).

use dungeonsmith::myk::MykParams;
use dungeonsmith::myk::model::Layout;
use dungeonsmith::tables::Tables;
use std::time::Instant;

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse().unwrap_or(0)).collect();
    let arg = |i: usize, default: u32| args.get(i).copied().filter(|&n| n > 0).unwrap_or(default);
    let (per_batch, batches, warmup) = (arg(0, 2000), arg(1, 15), arg(2, 5000));
    let tables = Tables::embedded().expect("embedded tables load");
    // The bench's default scenario: a court of 4 at level 2, one mixed map of 9 rooms.
    let params = MykParams { levels: vec![2; 4], maps: 1, rooms: 9, layout: Layout::Mixed, objective: None, ..Default::default() };
    // Each scenario its own seed, as the criterion bench does: the layouts differ, as rot-js's do.
    let mut seed = 0u64;
    let mut one = || {
        seed += 1;
        let s = dungeonsmith::myk::generate(&tables, &params, seed).expect("generates");
        std::hint::black_box(s);
    };
    for _ in 0..warmup {
        one();
    }
    let mut means: Vec<f64> = (0..batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_batch {
                one();
            }
            start.elapsed().as_secs_f64() * 1e6 / f64::from(per_batch)
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let median = means[means.len() / 2];
    println!("MYK generate+check, default scenario, {ALLOCATOR}: {median:.2} us (median of {batches} batches of {per_batch})");
    println!("us {median:.3}");
}
