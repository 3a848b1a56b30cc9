use dungeonsmith::myk::model::Layout;
use dungeonsmith::myk::{MykParams, check, generate};
use dungeonsmith::tables::Tables;
fn main() {
    let t = Tables::embedded().unwrap();
    let p = MykParams { levels: vec![2; 4], maps: 1, rooms: 9, layout: Layout::Mixed };
    let mut n = 0;
    for seed in 0..20000 {
        let s = generate(&t, &p, seed).unwrap();
        n += check(&s, &t).len();
    }
    println!("{n}");
}
