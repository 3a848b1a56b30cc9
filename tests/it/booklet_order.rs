//! The booklet in the order of play (issue 48): part one is the scenario as it is run (for MYK
//! the story's sections, each map's room key, the Epilogue; for NW3 the five phases with the
//! areas), part two the reference behind its divider; each room's entry prints its clues, cast
//! and mini events in full; `--reference separate|none` moves part two to a file of its own or
//! leaves it out; the NW3 handouts are cut-out cards four to a page.

use dungeonsmith::model::Format;
use dungeonsmith::myk::model::{Layout, ObjectiveKind, Place, Scenario};
use dungeonsmith::nw3::FortressParams;
use dungeonsmith::nw3::model::Fortress;
use dungeonsmith::render::booklet::{Reference, room_key};
use dungeonsmith::render::myk_story::{events_in, sections};
use dungeonsmith::render::text::{Templates, markdown_escape};
use dungeonsmith::render::{RenderOptions, render_fortress, render_myk};

use crate::myk::{params, tables};
use crate::pdf::page_texts;
use crate::run;
use crate::vtt::temp;

/// The divider that opens part two.
const DIVIDER: &str = "\n## Part two: Reference\n";

fn templates() -> &'static Templates {
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    T.get_or_init(|| Templates::load(None).expect("built-in templates"))
}

/// The booklet Markdown files of a render in `reference`'s way, by name.
fn markdown(files: Vec<dungeonsmith::output::Artifact>) -> Vec<(String, String)> {
    files.into_iter().map(|a| (a.name, String::from_utf8(a.bytes).expect("UTF-8"))).collect()
}

fn myk_md(s: &Scenario, reference: Reference) -> Vec<(String, String)> {
    let opts = RenderOptions { formats: &[Format::Md], templates: templates(), reference };
    markdown(render_myk(s, tables(), &opts).expect("renders"))
}

fn nw3_md(f: &Fortress, reference: Reference) -> Vec<(String, String)> {
    let opts = RenderOptions { formats: &[Format::Md], templates: templates(), reference };
    markdown(render_fortress(f, tables(), &opts).expect("renders"))
}

/// (part one, part two) of a booklet with its reference in an appendix; the players' handouts
/// after part two belong to neither.
fn parts(md: &str) -> (&str, &str) {
    let at = md.find(DIVIDER).expect("the divider heading");
    let two = &md[at..];
    let end = two.find("\n## Handouts for the players\n").unwrap_or(two.len());
    (&md[..at], &two[..end])
}

/// Where `needle` is in `hay`, or a failure naming `what`.
fn at(hay: &str, needle: &str, what: &str) -> usize {
    hay.find(needle).unwrap_or_else(|| panic!("{what}: no `{needle}` in part one"))
}

/// 24 MYK scenarios of 1-3 maps, every objective kind, both layouts of corridors.
fn myk_scenarios() -> impl Iterator<Item = (u64, Scenario)> {
    (0..24u64).map(|seed| {
        let mut p = params(vec![2 + (seed % 3) as u32; 4], 1 + (seed % 3) as u32, 5 + (seed % 5) as u32, Layout::Mixed);
        p.objective = Some(ObjectiveKind::ALL[seed as usize % ObjectiveKind::ALL.len()]);
        let s = dungeonsmith::myk::generate(tables(), &p, 4800 + seed).expect("generates");
        (seed, s)
    })
}

/// Each room's section of the Markdown: from its heading to the next heading of its level or above.
fn room_section<'a>(md: &'a str, heading: &str) -> &'a str {
    let start = md.find(heading).unwrap_or_else(|| panic!("no room heading `{heading}`"));
    let rest = &md[start + heading.len()..];
    let end = ["\n### ", "\n## "].iter().filter_map(|h| rest.find(h)).min().unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn part_one_holds_every_myk_story_section_and_room_in_the_order_of_play_and_part_two_none() {
    for (seed, s) in myk_scenarios() {
        let files = myk_md(&s, Reference::Appendix);
        assert_eq!(files.len(), 1, "seed {seed}: one booklet file");
        let (one, two) = parts(&files[0].1);
        let mut last = 0;
        let what = format!("seed {seed}");
        // The story before the maps in the book's order, then each map's key, then the Epilogue.
        for sec in sections(&s, tables()) {
            let h = format!("\n## {}\n", sec.heading);
            assert!(!two.contains(&h), "{what}: `{}` in part two", sec.heading);
            // The Epilogue and End Phase close part one after the maps.
            if ["Epilogue", "End Phase"].contains(&sec.heading.as_str()) {
                continue;
            }
            let p = at(one, &h, &what);
            assert!(p > last, "{what}: `{}` out of the book's order", sec.heading);
            last = p;
        }
        assert!(at(one, "\n## Play time\n", &what) > last, "{what}: the play time follows the story");
        for m in &s.maps {
            let key = format!("\n## Map {} of {}: {}\n", m.index, s.maps.len(), markdown_escape(&m.name));
            let p = at(one, &key, &what);
            assert!(p > last, "{what}: map {} out of order", m.index);
            last = p;
            for r in m.used_rooms() {
                let h = format!("\n### {} — {}\n", r.id, markdown_escape(&r.name));
                assert!(at(one, &h, &what) > p, "{what}: room {} before its map", r.id);
                assert!(!two.contains(&h), "{what}: room {} in part two", r.id);
            }
        }
        assert!(at(one, "\n## Epilogue\n", &what) > last, "{what}: the Epilogue ends part one");
        for reference in ["\n### Treasure\n", "\n### Skills in this scenario\n", "\n## Glossary\n"] {
            assert!(two.contains(reference), "{what}: part two has no `{}`", reference.trim());
            assert!(!one.contains(reference), "{what}: `{}` in part one", reference.trim());
        }
    }
}

#[test]
fn every_myk_room_entry_prints_its_clues_cast_and_mini_events_in_full() {
    let (mut clues, mut people, mut events) = (0, 0, 0);
    for (seed, s) in myk_scenarios() {
        let files = myk_md(&s, Reference::Appendix);
        let (one, _) = parts(&files[0].1);
        for m in &s.maps {
            let map = room_section(one, &format!("\n## Map {} of {}: ", m.index, s.maps.len()));
            let map_at = one.find(map).expect("the map's section");
            for r in m.used_rooms() {
                let here = Place { map: m.index, room: r.id };
                let entry = room_section(&one[map_at..], &format!("\n### {} — {}\n", r.id, markdown_escape(&r.name)));
                let what = format!("seed {seed}, map {} room {}", m.index, r.id);
                assert!(!entry.contains("is found here") && !entry.contains("(see *Cast*)"), "{what}: a pointer");
                for (i, c) in s.clues.iter().enumerate().filter(|(_, c)| c.at == here) {
                    let text = markdown_escape(&dungeonsmith::myk::clues::text::clue_text(&s, c));
                    assert!(entry.contains(&format!("**Clue {}:** {text}", i + 1)), "{what}: clue {}", i + 1);
                    clues += 1;
                }
                for n in s.cast.iter().filter(|n| n.place == Some(here)) {
                    assert!(entry.contains(&format!("**Here: {} —**", markdown_escape(&n.name))), "{what}: {}", n.name);
                    if !n.wants.is_empty() {
                        assert!(entry.contains("  - Wants "), "{what}: what {} wants", n.name);
                    }
                    if !n.line.is_empty() {
                        assert!(entry.contains("  - Says: "), "{what}: what {} says", n.name);
                    }
                    people += 1;
                }
                for title in events_in(&s, here) {
                    assert!(
                        entry.contains(&format!("**Mini event — {}:**", markdown_escape(&title))),
                        "{what}: {title}"
                    );
                    events += 1;
                }
                // Each entry whole, as the story's own sections print it, with every line under it.
                for e in room_key(&s, tables(), here) {
                    let line = format!("- **{}** {}", markdown_escape(&e.label), markdown_escape(&e.text));
                    assert!(entry.contains(&line), "{what}: `{line}`");
                    for l in &e.sub {
                        assert!(entry.contains(&format!("  - {}", markdown_escape(l))), "{what}: `{l}`");
                    }
                }
            }
        }
    }
    assert!(
        clues > 40 && people > 10 && events > 20,
        "room entries checked: {clues} clues, {people} NPCs, {events} events"
    );
}

/// 24 fortresses of 4-40 areas and parties of 1-8.
fn fortresses() -> impl Iterator<Item = (u64, Fortress)> {
    (0..24u64).map(|seed| {
        let p = FortressParams {
            party: 1 + (seed % 8) as u32,
            cl: 1 + (seed % 10) as u32,
            areas: 4 + (seed * 7 % 37) as u32,
            ..FortressParams::default()
        };
        (seed, dungeonsmith::nw3::generate(tables(), &p, 900 + seed).expect("generates"))
    })
}

#[test]
fn part_one_holds_every_nw3_phase_and_area_in_the_order_of_play_and_part_two_none() {
    for (seed, f) in fortresses() {
        let files = nw3_md(&f, Reference::Appendix);
        let (one, two) = parts(&files[0].1);
        let what = format!("seed {seed}");
        let mut last = 0;
        for phase in ["## Preplay", "## Opening Phase", "## Middle Phase", "### Areas"] {
            let h = format!("\n{phase}\n");
            let p = at(one, &h, &what);
            assert!(p > last && !two.contains(&h), "{what}: `{phase}` out of order or in part two");
            last = p;
        }
        let read = dungeonsmith::nw3::text::filled(&f);
        for a in &read.areas {
            let h = format!("\n### {}. {} — ", a.id, markdown_escape(&a.name));
            assert!(at(one, &h, &what) > last, "{what}: area {} before the Areas", a.id);
            assert!(!two.contains(&h), "{what}: area {} in part two", a.id);
        }
        for phase in ["## Climax Phase", "## After Phase"] {
            let h = format!("\n{phase}\n");
            let p = at(one, &h, &what);
            assert!(p > last && !two.contains(&h), "{what}: `{phase}` out of order or in part two");
            last = p;
        }
        for reference in [
            "\n### Judges and difficulties\n",
            "\n### Fortress rules for the GM\n",
            "\n### After the Dive\n",
            "\n## Glossary\n",
        ] {
            assert!(two.contains(reference), "{what}: part two has no `{}`", reference.trim());
            assert!(!one.contains(reference), "{what}: `{}` in part one", reference.trim());
        }
        assert!(one.contains("\n### Play time\n\n**About "), "{what}: no play time");
    }
}

#[test]
fn reference_separate_writes_part_two_beside_each_booklet_and_none_leaves_it_out() {
    let dir = temp("booklet-reference");
    let d = dir.to_str().expect("a UTF-8 path");
    for (game, stem) in [("myk", "myk-3"), ("fortress", "fortress-3")] {
        let args = [game, "--seed", "3", "--format", "md,html", "--out", d, "--reference", "separate"];
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        for ext in ["md", "html"] {
            let reference = dir.join(format!("{stem}-reference.{ext}"));
            assert!(out.contains(&reference.display().to_string()), "{game}: {out}");
            let part_two = std::fs::read_to_string(&reference).expect("part two is written");
            let booklet = std::fs::read_to_string(dir.join(format!("{stem}.{ext}"))).expect("the booklet");
            let glossary = if ext == "md" { "## Glossary" } else { "<h2>Glossary</h2>" };
            assert!(part_two.contains(glossary) && !booklet.contains(glossary), "{game} {ext}: the glossary apart");
            assert!(
                booklet.contains(&format!("{stem}-reference.{ext}")),
                "{game} {ext}: the booklet names part two's file"
            );
            let phase = if game == "myk" { "Prologue" } else { "Opening Phase" };
            let story = if ext == "md" { format!("## {phase}\n") } else { format!("<h2>{phase}</h2>") };
            assert!(
                booklet.contains(&story) && !part_two.contains(&story),
                "{game} {ext}: the story stays in part one"
            );
        }
        let (code, _, err) = run(&[game, "--seed", "3", "--format", "md,html", "--out", d, "--reference", "none"]);
        assert_eq!(code, 0, "{err}");
        for ext in ["md", "html"] {
            assert!(!dir.join(format!("{stem}-reference.{ext}")).exists(), "{game}: the old part two is removed");
            let booklet = std::fs::read_to_string(dir.join(format!("{stem}.{ext}"))).expect("the booklet");
            let headings: [&str; 2] =
                if ext == "md" { ["## Glossary", "## Part two"] } else { ["<h2>Glossary</h2>", "<h2>Part two"] };
            assert!(headings.iter().all(|h| !booklet.contains(h)), "{game} {ext}: no reference");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_reference_value_is_one_line_naming_the_option_and_exit_2() {
    for game in ["myk", "fortress", "render"] {
        let mut args = vec![game];
        if game == "render" {
            args.push("some.json");
        }
        args.extend(["--reference", "sideways"]);
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{game}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{game}: {err}");
        assert!(err.contains("--reference") && err.contains("appendix, separate, none"), "{game}: {err}");
    }
}

/// The PDF prints the handouts as cut-out cards: every PC's once, at most four a page, on as
/// few pages as that takes; and part one cites part two's page, which is where the divider is.
#[test]
fn the_pdfs_handouts_fit_four_to_a_page_and_the_divider_is_on_the_page_cited() {
    let dir = temp("booklet-cards");
    let d = dir.to_str().expect("a UTF-8 path");
    for party in [3u32, 6, 8] {
        let seed = 40 + u64::from(party);
        let args = ["fortress", "--seed", &seed.to_string(), "--party", &party.to_string()].map(str::to_string);
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.extend(["--format", "pdf", "--out", d]);
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let texts = page_texts(&dir.join(format!("fortress-{seed}.pdf")));
        let bare: Vec<String> = texts.iter().map(|t| t.split_whitespace().collect()).collect();
        let per_page: Vec<usize> = bare.iter().map(|t| t.matches("EpisodeHandoutforPC").count()).collect();
        let pages = per_page.iter().filter(|&&n| n > 0).count();
        assert_eq!(per_page.iter().sum::<usize>(), party as usize, "party {party}: every handout once: {per_page:?}");
        assert!(per_page.iter().all(|&n| n <= 4), "party {party}: {per_page:?}");
        assert_eq!(pages, (party as usize).div_ceil(4), "party {party}: {per_page:?}");
        for pc in 1..=party {
            let on = bare.iter().filter(|t| t.contains(&format!("EpisodeHandoutforPC{pc}"))).count();
            assert_eq!(on, 1, "party {party}: PC {pc}'s card");
        }
        // "(Part two: Reference, p. N)" on the first page; page N opens part two.
        let cited = bare[0].split("Parttwo:Reference,p.").nth(1).expect("the divider's page is cited");
        let n: usize = cited.split(|c: char| !c.is_ascii_digit()).next().and_then(|x| x.parse().ok()).expect("a page");
        assert!(texts[n - 1].contains("Part two: Reference"), "party {party}: page {n} is not the divider's");
    }
    std::fs::remove_dir_all(&dir).ok();
}
