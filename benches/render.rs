//! Rendering hand-edited text at sizes no generator writes: a room name of 10,000 characters
//! (one word, and as words) through every format. Text fitting reads running widths, so this
//! stays linear in the name's length. `cargo bench --bench render`.

use criterion::{Criterion, criterion_group, criterion_main};
use dungeonsmith::model::Format;
use dungeonsmith::myk::model::Layout;
use dungeonsmith::myk::{MykParams, generate};
use dungeonsmith::render::{self, RenderOptions, text::Templates};
use dungeonsmith::tables::Tables;

fn bench(c: &mut Criterion) {
    let tables = Tables::embedded().expect("embedded tables load");
    let templates = Templates::load(None).expect("built-in templates");
    let params = MykParams {
        levels: vec![2; 4],
        maps: 1,
        rooms: 9,
        layout: Layout::Mixed,
        objective: None,
        ..Default::default()
    };
    let formats = [Format::Json, Format::Svg, Format::Md, Format::Html];
    let opts = RenderOptions { formats: &formats, templates: &templates, reference: Default::default() };
    for (what, name) in [("one word", "x".repeat(10_000)), ("words", "wide ".repeat(2_000))] {
        let mut s = generate(&tables, &params, 42).expect("generates");
        s.maps[0].rooms[0].name = name.into();
        c.bench_function(&format!("myk render, 10,000-character room name ({what})"), |b| {
            b.iter(|| std::hint::black_box(render::render_myk(&s, &tables, &opts)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
