//! Time to reroll one room of the default MYK scenario (court of 4 at level 2, one mixed map of 9
//! rooms): the reroll alone (with its `check`), the reroll and every default format rendered in
//! memory (what the web workbench answers), and the whole `reroll FILE.json` command (tables load,
//! read, reroll, render, write). The issue asks for under 50 ms end to end. `cargo bench --bench
//! reroll`; the figures are recorded in the README.

use criterion::{Criterion, criterion_group, criterion_main};
use dungeonsmith::edit::myk::{MykPart, RoomPart, reroll};
use dungeonsmith::model::Format;
use dungeonsmith::myk::generate;
use dungeonsmith::myk::model::{Layout, RoomId};
use dungeonsmith::myk::{MykParams, Scenario};
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
    let s = generate(&tables, &params, 42).expect("generates");
    let room: RoomId = "B2".parse().expect("a room");
    let part = MykPart::Room { map: 1, room, what: RoomPart::All };
    // Each iteration rerolls a fresh copy, so every one is the first reroll of the part.
    c.bench_function("myk reroll one room (all), with check", |b| {
        b.iter(|| {
            let mut t: Scenario = s.clone();
            reroll(&tables, &mut t, &part).expect("rerolls");
            std::hint::black_box(t)
        })
    });
    let formats = [Format::Json, Format::Svg, Format::Md, Format::Html];
    let opts = RenderOptions { formats: &formats, templates: &templates, reference: Default::default() };
    c.bench_function("myk reroll one room + render json,svg,md,html in memory", |b| {
        b.iter(|| {
            let mut t: Scenario = s.clone();
            reroll(&tables, &mut t, &part).expect("rerolls");
            std::hint::black_box(render::render_myk(&t, &tables, &opts).expect("renders"))
        })
    });
    let dir = std::env::temp_dir().join(format!("dungeonsmith-bench-reroll-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("in.json");
    std::fs::write(&file, serde_json::to_string_pretty(&s).expect("serialises")).expect("writes");
    let (file, out) = (file.display().to_string(), dir.join("out").display().to_string());
    c.bench_function("`dungeonsmith reroll FILE --map 1 --room B2` end to end (in-process)", |b| {
        b.iter(|| {
            let args = ["dungeonsmith", "reroll", &file, "--map", "1", "--room", "B2", "--out", &out];
            let code = dungeonsmith::cli::run(args, &mut std::io::sink(), &mut std::io::sink());
            assert_eq!(code, 0);
        })
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
