//! The PDF booklet read as a GM reads it (issue 33 item 2): each map sheet is followed by its own
//! key, a small table is never split over two pages, a heading never ends a page, a list number
//! stands apart from its item, no page before a sheet holds only a line or two. The PDFs are read with poppler's `pdftotext -raw` (ignored: run by
//! .ci/run, as the other poppler tests); one short test reads a few with pdf-extract on every run.

use std::path::Path;

use dungeonsmith::render::typeset::markdown::{Block, Rich, blocks};
use dungeonsmith::render::typeset::{MIN_LINES_BEFORE_BREAK, SMALL_TABLE};

use crate::run;
use crate::vtt::temp;

/// The text without any whitespace (a wrapped line or a glyph-spaced sheet reads the same).
pub(crate) fn bare(s: &str) -> String {
    s.split_whitespace().collect()
}

/// What the booklet's Markdown says its headings, table captions (the paragraph right before a
/// table: "**Lifestyle Items Table (D66)**", "Camp step, Rest action...") and small tables
/// are, as bare text.
pub(crate) struct Expected {
    pub(crate) headings: Vec<String>,
    pub(crate) captions: Vec<String>,
    pub(crate) small_tables: Vec<String>,
}

impl Expected {
    /// The heading or caption a page's body lines end with, if any (a wrapped one over its last
    /// lines: up to six).
    pub(crate) fn stranded(&self, lines: &[impl AsRef<str>]) -> Option<String> {
        (1..=6.min(lines.len())).find_map(|k| {
            let tail: String = lines[lines.len() - k..].iter().map(|l| bare(l.as_ref())).collect();
            (self.headings.contains(&tail) || self.captions.contains(&tail)).then_some(tail)
        })
    }
}

pub(crate) fn expected(md: &str) -> Expected {
    let cells = |row: &[Rich]| row.iter().map(|c| bare(&c.text)).collect::<String>();
    let mut e = Expected { headings: Vec::new(), captions: Vec::new(), small_tables: Vec::new() };
    let all = blocks(md);
    for (i, b) in all.iter().enumerate() {
        if let Block::Para { depth: 0, text, .. } = b
            && matches!(all.get(i + 1), Some(Block::Table { .. }))
        {
            e.captions.push(bare(&text.text));
        }
    }
    for b in all {
        match b {
            Block::Heading(level, r) if level >= 2 => e.headings.push(bare(&r.text)),
            Block::Table { head, rows, .. } if rows.len() <= SMALL_TABLE => {
                e.small_tables.push(cells(&head) + &rows.iter().map(|r| cells(r)).collect::<String>());
            }
            _ => {}
        }
    }
    e
}

/// A page of the PDF: a text page's body lines (without its running header and footer), or a
/// sheet's text.
enum Page {
    Text(Vec<String>),
    Sheet(String),
}

/// Splits the pages' texts into text pages (the last line is the footer "page n of N", the one
/// before it the running header) and sheets.
fn pages(texts: &[String]) -> Vec<Page> {
    let n = texts.len();
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let lines: Vec<String> = t.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
            let footer = format!("page {} of {n}", i + 1);
            match lines.last() {
                Some(last) if last.contains(&footer) => Page::Text(lines[..lines.len().saturating_sub(2)].to_vec()),
                _ => Page::Sheet(bare(t)),
            }
        })
        .collect()
}

/// The rules of a well-read booklet, checked on one PDF's pages; `keys` are the bare starts of
/// the key headings, one per GM sheet in order. Returns the number of small tables checked.
fn reads_in_order(what: &str, texts: &[String], md: &str, keys: &[String]) -> usize {
    let e = expected(md);
    let pages = pages(texts);
    // Each GM sheet is followed by the page that starts its own key.
    let gm: Vec<usize> =
        (0..pages.len()).filter(|&i| matches!(&pages[i], Page::Sheet(t) if t.contains("GMcopy"))).collect();
    assert_eq!(gm.len(), keys.len(), "{what}: one GM sheet per map");
    for (sheet, key) in gm.iter().zip(keys) {
        let Some(Page::Text(next)) = pages.get(sheet + 1) else {
            panic!("{what}: page {} follows the sheet", sheet + 2)
        };
        let first = next.first().map(|l| bare(l)).unwrap_or_default();
        assert!(
            first.starts_with(key.as_str()),
            "{what}: the page after the sheet (p.{}) starts `{first}`, not `{key}`",
            sheet + 1
        );
    }
    let texts: Vec<(usize, &Vec<String>)> =
        pages.iter().enumerate().filter_map(|(i, p)| if let Page::Text(l) = p { Some((i, l)) } else { None }).collect();
    // A text page right before a sheet reads as a page, not a stray line or two (the last text
    // page, before the players' sheets, may be short).
    let last_text = texts.last().map(|(i, _)| *i);
    for (i, lines) in &texts {
        if Some(*i) != last_text && matches!(pages.get(i + 1), Some(Page::Sheet(_))) {
            assert!(
                lines.len() >= MIN_LINES_BEFORE_BREAK,
                "{what}: page {} before a sheet holds only {} lines: {lines:?}",
                i + 1,
                lines.len()
            );
        }
    }
    for (i, lines) in &texts {
        // The last body line (or the last few: a wrapped one) is no heading or table caption.
        if let Some(tail) = e.stranded(lines) {
            panic!("{what}: page {} ends with the heading or caption `{tail}`", i + 1);
        }
        for l in lines.iter() {
            let digits = l.chars().take_while(char::is_ascii_digit).count();
            let after = l[digits..].strip_prefix('.').and_then(|r| r.chars().next());
            assert!(
                digits == 0 || !after.is_some_and(char::is_alphabetic),
                "{what}: page {}: a list number runs into its item: `{l}`",
                i + 1
            );
        }
    }
    let bodies: Vec<String> = texts.iter().map(|(_, l)| l.iter().map(|x| bare(x)).collect()).collect();
    for t in &e.small_tables {
        assert!(bodies.iter().any(|b| b.contains(t.as_str())), "{what}: a small table is split over pages: {t}");
    }
    e.small_tables.len()
}

/// The pages' texts as poppler's `pdftotext -raw` reads them (in the order they are drawn).
fn pdftotext_pages(pdf: &Path) -> Vec<String> {
    let out = std::process::Command::new("pdftotext")
        .args(["-raw", pdf.to_str().expect("a UTF-8 path"), "-"])
        .output()
        .unwrap_or_else(|e| panic!("pdftotext runs (poppler-utils): {e}"));
    assert!(out.status.success(), "pdftotext: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut pages: Vec<String> = text.split('\u{c}').map(String::from).collect();
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    pages
}

/// One scenario: the command's arguments, its file stem, and its key headings' starts.
pub(crate) struct Case {
    pub(crate) args: Vec<String>,
    pub(crate) stem: String,
    pub(crate) keys: Vec<String>,
}

/// 40 held-out scenarios: 20 MYK (1-3 maps, 6-9 rooms a map) and 20 fortresses (10-40 areas),
/// half on A4 and half on letter paper.
pub(crate) fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for n in 0..20u32 {
        let seed = 9100 + n;
        let maps = 1 + n % 3;
        let paper = if n % 2 == 0 { "a4" } else { "letter" };
        let args =
            ["myk", "--seed", &seed.to_string(), "--maps", &maps.to_string(), "--rooms", &(6 + n % 4).to_string()]
                .iter()
                .map(|s| s.to_string())
                .chain(["--level".into(), (1 + n % 7).to_string(), "--paper".into(), paper.into()])
                .collect();
        let keys = (1..=maps).map(|m| format!("Map{m}of{maps}:")).collect();
        out.push(Case { args, stem: format!("myk-{seed}"), keys });
    }
    for n in 0..20u32 {
        let seed = 9200 + n;
        let areas = 10 + (n * 17) % 31;
        let paper = if n % 2 == 0 { "letter" } else { "a4" };
        let args = ["fortress", "--seed", &seed.to_string(), "--areas", &areas.to_string(), "--paper", paper]
            .iter()
            .map(|s| s.to_string())
            .collect();
        out.push(Case { args, stem: format!("fortress-{seed}"), keys: vec!["Areas".into()] });
    }
    out
}

/// Renders `case` as Markdown and PDF into `dir`: (the Markdown, the PDF's path).
fn render(case: &Case, dir: &Path) -> (String, std::path::PathBuf) {
    let mut args: Vec<&str> = case.args.iter().map(String::as_str).collect();
    args.extend(["--format", "md,pdf", "--out", dir.to_str().expect("a UTF-8 path")]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    let md = std::fs::read_to_string(dir.join(format!("{}.md", case.stem))).expect("the Markdown");
    (md, dir.join(format!("{}.pdf", case.stem)))
}

#[test]
#[ignore = "needs poppler-utils (pdftotext): run by .ci/run"]
fn every_map_is_followed_by_its_key_and_no_small_table_or_heading_is_split_in_40_pdfs() {
    let dir = temp("reading-40");
    let mut tables = 0;
    for case in cases() {
        let (md, pdf) = render(&case, &dir);
        tables += reads_in_order(&case.args.join(" "), &pdftotext_pages(&pdf), &md, &case.keys);
    }
    assert!(tables >= 80, "the booklets hold small tables to check ({tables})");
    std::fs::remove_dir_all(&dir).ok();
}

/// 60 more held-out MYK scenarios (1-3 maps, courts of levels 1-12, every objective kind, both
/// papers) beside the 40 above: in none of the PDFs does a heading or a table's caption stand at
/// a page's foot with what it introduces overleaf.
#[test]
#[ignore = "needs poppler-utils (pdftotext): run by .ci/run"]
fn no_heading_or_table_caption_ends_a_page_in_60_more_pdfs() {
    let dir = temp("reading-60");
    let d = dir.to_str().expect("a UTF-8 path");
    let kinds = ["defeat", "rescue", "acquire", "search", "deliver", "win_over", "race"];
    let mut checked = 0;
    for n in 0..60u32 {
        let seed = (9400 + n).to_string();
        let (maps, level) = ((1 + n % 3).to_string(), (1 + n % 12).to_string());
        let paper = if n % 2 == 0 { "a4" } else { "letter" };
        let kind = kinds[n as usize % kinds.len()];
        let args = ["myk", "--seed", &seed, "--maps", &maps, "--level", &level, "--objective", kind, "--paper", paper];
        let mut all = args.to_vec();
        all.extend(["--format", "md,pdf", "--out", d]);
        let (code, _, err) = run(&all);
        assert_eq!(code, 0, "{all:?}: {err}");
        let md = std::fs::read_to_string(dir.join(format!("myk-{seed}.md"))).expect("the Markdown");
        let e = expected(&md);
        checked += e.headings.len() + e.captions.len();
        for (i, page) in pages(&pdftotext_pages(&dir.join(format!("myk-{seed}.pdf")))).iter().enumerate() {
            if let Page::Text(lines) = page
                && let Some(tail) = e.stranded(lines)
            {
                panic!("{}: page {} ends with the heading or caption `{tail}`", args.join(" "), i + 1);
            }
        }
    }
    assert!(checked > 3000, "the booklets hold headings and captions ({checked})");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_three_map_pdf_puts_each_map_sheet_before_its_own_room_key() {
    let dir = temp("reading-3maps");
    for case in cases().into_iter().filter(|c| c.keys.len() == 3 || c.stem == "fortress-9201").take(2) {
        let (md, pdf) = render(&case, &dir);
        let texts = crate::pdf::page_texts(&pdf);
        reads_in_order(&case.args.join(" "), &texts, &md, &case.keys);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Bold marks a name or a label ("Trap: Moving Floor", "Object — Prana Spring:"), never a
/// whole description: no bold run in 16 booklets holds a sentence's end followed by more text,
/// or more than 14 words.
#[test]
fn bold_marks_names_and_labels_never_whole_sentences() {
    let dir = temp("reading-bold");
    let d = dir.to_str().expect("a UTF-8 path");
    let mut runs = 0;
    for seed in 1..=8u32 {
        let (s, lv) = (seed.to_string(), (seed * 2).to_string());
        for (args, stem) in [
            (vec!["myk", "--seed", &s, "--maps", "2", "--level", &lv], format!("myk-{seed}")),
            (vec!["fortress", "--seed", &s, "--areas", "30"], format!("fortress-{seed}")),
        ] {
            let mut all = args.clone();
            all.extend(["--format", "md", "--out", d]);
            let (code, _, err) = run(&all);
            assert_eq!(code, 0, "{err}");
            let md = std::fs::read_to_string(dir.join(format!("{stem}.md"))).expect("the Markdown");
            for b in blocks(&md) {
                let Block::Para { text, .. } = b else { continue };
                for r in &text.bold {
                    let bold = text.text[r.clone()].trim();
                    runs += 1;
                    let words = bold.split_whitespace().count();
                    let inner = bold.trim_end_matches(['.', ':']);
                    assert!(
                        words <= 14 && !inner.contains(". "),
                        "{stem}: a description set in bold ({words} words): `{bold}`"
                    );
                }
            }
        }
    }
    assert!(runs > 500, "the booklets hold bold names ({runs})");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every personality a MYK booklet names is defined in it: a monster's (the last word of a stat
/// line, "/ Strange") in the glossary's Monster personalities, which holds no other but the
/// Foolish its Bad Status names; a cast NPC's ("Personality: Strange") with its meaning.
#[test]
fn every_personality_a_booklet_names_is_defined_in_it() {
    let dir = temp("reading-personalities");
    let d = dir.to_str().expect("a UTF-8 path");
    let names = ["Foolish", "Steady", "Strange", "Cunning"];
    for seed in 1..=12u32 {
        let (s, maps, lv) = (seed.to_string(), (1 + seed % 3).to_string(), (1 + seed % 9).to_string());
        let (code, _, err) = run(&["myk", "--seed", &s, "--maps", &maps, "--level", &lv, "--format", "md", "--out", d]);
        assert_eq!(code, 0, "{err}");
        let md = std::fs::read_to_string(dir.join(format!("myk-{seed}.md"))).expect("the Markdown");
        let (body, glossary) = md.split_once("### Monster personalities").expect("the glossary's personalities");
        let glossary = glossary.split("### Bad Statuses").next().unwrap_or_default();
        let defined: Vec<&str> = names.into_iter().filter(|n| glossary.contains(&format!("- **{n}**:"))).collect();
        for n in names {
            let in_stats = body.contains(&format!("/ {n}"));
            assert!(!in_stats || defined.contains(&n), "seed {seed}: a stat line names {n}, the glossary lacks it");
            let named = body.split(|c: char| !c.is_alphanumeric()).any(|w| w == n);
            assert_eq!(
                defined.contains(&n),
                named || n == "Foolish",
                "seed {seed}: the glossary defines {n} iff named"
            );
        }
        for line in body.lines().filter_map(|l| l.trim_start().strip_prefix("- Personality: ")) {
            assert!(line.contains(" (") && line.ends_with(')'), "seed {seed}: `{line}` has no meaning");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
