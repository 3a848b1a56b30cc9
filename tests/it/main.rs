//! One integration-test binary (links once): the modules below test the program end to end.

mod area_map;
mod binary;
mod booklet;
mod browser;
mod cli;
mod dot;
mod episode;
mod fix;
mod fuzz;
mod glance;
mod limits;
mod myk;
mod myk_clues;
mod myk_goal;
mod myk_items;
mod myk_ruler;
mod myk_rules;
mod myk_skills;
mod myk_story;
mod notes;
mod nw3;
mod nw3_combat;
mod nw3_judges;
mod nw3_rules;
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
