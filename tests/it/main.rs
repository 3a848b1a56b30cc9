//! One integration-test binary (links once): the modules below test the program end to end.

mod area_map;
mod binary;
mod booklet;
mod booklet_order;
mod browser;
mod cli;
mod dot;
mod episode;
mod fix;
mod fuzz;
mod glance;
mod limits;
mod myk;
mod myk_clue_text;
mod myk_clues;
mod myk_court;
mod myk_goal;
mod myk_items;
mod myk_movement;
mod myk_room_movement;
mod myk_ruler;
mod myk_rules;
mod myk_skills;
mod myk_story;
mod myk_story_plan;
mod notes;
mod nw3;
mod nw3_combat;
mod nw3_core;
mod nw3_facts;
mod nw3_finale;
mod nw3_judges;
mod nw3_ruler_story;
mod nw3_rules;
mod nw3_scenes;
mod pdf;
mod pictures;
mod png;
mod reading;
mod readme;
mod regen;
mod render;
mod reroll;
mod reroll_nw3;
mod robust;
mod scale;
mod serve;
mod serve_guard;
mod serve_memory;
mod sheet;
mod structure;
mod tables;
mod text_layer;
mod trust;
mod udonarium;
mod usage;
mod vtt;
mod vtt_flood;
mod workbench;

/// The workbench's requests in these tests count their memory as the binary's do (`serve_memory`).
#[global_allocator]
static ALLOCATOR: dungeonsmith::meter::Counting<std::alloc::System> = dungeonsmith::meter::Counting(std::alloc::System);

/// Runs the program in-process: (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut full = vec!["dungeonsmith"];
    full.extend_from_slice(args);
    let code = dungeonsmith::cli::run(full, &mut out, &mut err);
    (code, String::from_utf8(out).expect("utf-8 stdout"), String::from_utf8(err).expect("utf-8 stderr"))
}

/// The command printed in a sheet's footer (from `program` to the end of its SVG text element).
pub fn footer_command(svg: &str, program: &str) -> String {
    let start = svg.find(program).expect("the footer names the command");
    let end = start + svg[start..].find('<').expect("the command ends its text element");
    svg[start..end].to_string()
}

/// The seeds a many-seed suite runs in a contributor's `cargo test`: the first few of its range.
/// Its ignored twin (`..._in_full`, which `.ci/run` runs on every submission) runs every one.
const QUICK_SEEDS: usize = 20;
/// The cases a property test runs in a contributor's `cargo test`; its twin runs all it declares.
const QUICK_CASES: u32 = 24;

thread_local! {
    /// Set on the thread of an `..._in_full` twin (a test runs on one thread).
    static FULL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The seeds of a many-seed test: `all` of them in its `_in_full` twin, else the first
/// [`QUICK_SEEDS`]. One helper, so each suite's full range is written once.
pub fn seeds<I: IntoIterator>(all: I) -> std::iter::Take<I::IntoIter> {
    all.into_iter().take(if FULL.get() { usize::MAX } else { QUICK_SEEDS })
}

/// A property test's case count: `all` in its `_in_full` twin, else at most [`QUICK_CASES`].
pub fn cases(all: u32) -> u32 {
    if FULL.get() { all } else { all.min(QUICK_CASES) }
}

/// Runs `test` with every seed and case it declares: the body of an ignored `_in_full` twin.
pub fn in_full(test: fn()) {
    FULL.set(true);
    test();
}

/// The ignored twin of a many-seed test, named `<test>_in_full`: `.ci/run` runs every one of
/// them (`--ignored _in_full`) in the optimised bench profile.
#[macro_export]
macro_rules! in_full {
    ($($test:ident => $twin:ident),+ $(,)?) => {$(
        #[test]
        #[ignore = "every seed: .ci/run runs it (`--ignored _in_full`)"]
        fn $twin() {
            $crate::in_full($test);
        }
    )+};
}

/// Whether this thread runs an `_in_full` twin: a suite whose "comes up at least once" checks
/// need all its seeds asserts them only then.
pub fn full() -> bool {
    FULL.get()
}
