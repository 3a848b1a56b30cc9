//! The PDF export, read back in Rust (lopdf for the file's structure, pdf-extract for its text
//! layer), so plain `cargo test` needs no poppler: page count and size, the scenario's text,
//! the running footer's page count, embedded fonts, vector maps, the outline, and every character
//! the GM typed. One test reads the PDFs with poppler's `pdftotext -layout` (ignored: run by
//! .ci/run) to see tables as aligned columns and no Markdown syntax.

use std::path::Path;

use lopdf::{Document, Object};
use serde_json::Value;

use crate::run;
use crate::vtt::temp;

/// The PDF's text, page by page.
pub fn page_texts(pdf: &Path) -> Vec<String> {
    let bytes = std::fs::read(pdf).expect("the PDF is written");
    pdf_extract::extract_text_from_mem_by_pages(&bytes).expect("the PDF's text reads back")
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// (pages, width x height in points of the first page).
fn info(doc: &Document) -> (usize, (f32, f32)) {
    let pages = doc.get_pages();
    let first = *pages.values().next().expect("a page");
    let page = doc.get_dictionary(first).expect("a page dictionary");
    let mb = page.get(b"MediaBox").and_then(Object::as_array).expect("a MediaBox");
    let n = |o: &Object| o.as_float().or_else(|_| o.as_i64().map(|i| i as f32)).expect("a number");
    (pages.len(), (n(&mb[2]) - n(&mb[0]), n(&mb[3]) - n(&mb[1])))
}

/// Every font embedded (each font descriptor carries its font file) and no raster picture
/// (the maps are vector).
fn embedded_and_vector(doc: &Document) {
    let dicts: Vec<&lopdf::Dictionary> = doc
        .objects
        .values()
        .filter_map(|o| match o {
            Object::Dictionary(d) => Some(d),
            Object::Stream(s) => Some(&s.dict),
            _ => None,
        })
        .collect();
    let is =
        |d: &lopdf::Dictionary, key: &[u8], name: &[u8]| d.get(key).and_then(Object::as_name).is_ok_and(|n| n == name);
    let descriptors: Vec<_> = dicts.iter().filter(|d| is(d, b"Type", b"FontDescriptor")).collect();
    assert!(!descriptors.is_empty(), "the PDF uses fonts");
    for d in descriptors {
        assert!(d.has(b"FontFile2") || d.has(b"FontFile3") || d.has(b"FontFile"), "every font is embedded: {d:?}");
    }
    assert!(!dicts.iter().any(|d| is(d, b"Subtype", b"Image")), "no raster pictures, only vector drawing");
}

/// A PDF text string: UTF-16 after its byte-order mark, else one byte a character.
fn pdf_text(bytes: &[u8]) -> String {
    if bytes.starts_with(&[0xfe, 0xff]) {
        let units: Vec<u16> = bytes[2..].chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
        String::from_utf16_lossy(&units)
    } else {
        bytes.iter().map(|&b| b as char).collect()
    }
}

/// The outline's entry titles, in file order.
fn outline_titles(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    for o in doc.objects.values() {
        if let Object::Dictionary(d) = o
            && let Ok(Object::String(bytes, _)) = d.get(b"Title")
            && (d.has(b"Parent") || d.has(b"Dest"))
        {
            out.push(pdf_text(bytes));
        }
    }
    out
}

/// Every text page's footer says "page n of N" with N the file's page count.
fn footers_count_the_file(texts: &[String], pages: usize, text_pages: std::ops::Range<usize>) {
    for i in text_pages {
        let want = format!("page {} of {pages}", i + 1);
        assert!(flat(&texts[i]).contains(&want), "page {} has its footer `{want}`:\n{}", i + 1, texts[i]);
    }
}

#[test]
fn myk_pdf_has_gm_sheets_text_and_players_sheets_with_embedded_fonts() {
    let dir = temp("pdf-myk");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["myk", "--seed", "42", "--maps", "2", "--format", "json,pdf", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let pdf = dir.join("myk-42.pdf");
    let doc = Document::load(&pdf).expect("a PDF lopdf reads");
    let (pages, (w, h)) = info(&doc);
    assert!((w - 595.3).abs() < 0.5 && (h - 841.9).abs() < 0.5, "A4: {w} x {h}");
    let texts = page_texts(&pdf);
    assert_eq!(texts.len(), pages);
    assert!(pages >= 2 + 1 + 2, "two GM sheets, the text, two players' sheets: {pages} pages");
    let s: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("myk-42.json")).unwrap()).unwrap();
    let all = flat(&texts.join(" "));
    // Each GM sheet before its key (tests/it/reading.rs), players' sheets last (a sheet's text is
    // placed glyph by glyph, so the extractor spaces its letters out).
    let bare = |t: &str| t.split_whitespace().collect::<String>();
    let gm: Vec<usize> = (0..pages).filter(|&i| bare(&texts[i]).contains("GMcopy")).collect();
    assert_eq!(gm.len(), 2, "two GM sheets");
    assert!(gm[0] > 0, "the title page comes before the first map");
    for (i, m) in s["maps"].as_array().unwrap().iter().enumerate() {
        assert!(bare(&texts[pages - 2 + i]).contains("players"), "page {} is a players' sheet", pages - 1 + i);
        for r in m["rooms"].as_array().unwrap().iter().filter(|r| r["used"] == true) {
            let name = r["name"].as_str().unwrap();
            assert!(all.contains(name), "room {name} appears in the PDF");
        }
    }
    // The objective is data (format 3): what it names is in the text pages.
    let target = flat(s["objective"]["target"].as_str().unwrap());
    assert!(!target.is_empty() && all.contains(&target), "the objective's target is in the text pages");
    assert!(!all.contains("**") && !all.contains("| ---") && !all.contains("##"), "no Markdown syntax");
    let text_pages: Vec<usize> = (0..pages - 2).filter(|i| !gm.contains(i)).collect();
    for i in text_pages {
        footers_count_the_file(&texts, pages, i..i + 1);
    }
    embedded_and_vector(&doc);
    let titles = outline_titles(&doc);
    for want in ["Maps (GM sheets)", "Map 1: ", "Clues", "Random encounter table", "Glossary", "Players' sheets"] {
        assert!(titles.iter().any(|t| t.starts_with(want)), "the outline has `{want}`: {titles:?}");
    }
    let first_room = s["maps"][0]["rooms"].as_array().unwrap().iter().find(|r| r["used"] == true).unwrap();
    let room = format!("{} — {}", first_room["id"].as_str().unwrap(), first_room["name"].as_str().unwrap());
    assert!(titles.contains(&room), "rooms are bookmarked: {room} in {titles:?}");

    let (code, _, err) = run(&["myk", "--seed", "42", "--paper", "letter", "--format", "pdf", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let (_, (w, h)) = info(&Document::load(&pdf).unwrap());
    assert!((w - 612.0).abs() < 0.5 && (h - 792.0).abs() < 0.5, "letter paper: {w} x {h}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fortress_pdf_has_the_area_map_area_text_and_handout() {
    let dir = temp("pdf-nw3");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["fortress", "--seed", "7", "--format", "json,pdf", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let pdf = dir.join("fortress-7.pdf");
    let doc = Document::load(&pdf).expect("a PDF lopdf reads");
    let (pages, _) = info(&doc);
    assert!(pages >= 3, "{pages} pages");
    let texts = page_texts(&pdf);
    let all = flat(&texts.join(" "));
    let f: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("fortress-7.json")).unwrap()).unwrap();
    for a in f["areas"].as_array().unwrap() {
        let name = a["name"].as_str().unwrap();
        assert!(all.contains(name), "area {name} appears in the PDF");
    }
    // The file keeps the trailer's slots; the PDF prints it filled from the fortress.
    let stored: dungeonsmith::nw3::model::Fortress = serde_json::from_value(f.clone()).expect("a fortress");
    let trailer = dungeonsmith::nw3::text::filled(&stored).trailer;
    assert!(all.contains(&flat(&trailer)), "the trailer, as text");
    // Every page but the two sheets (the GM's before the areas, the players' after the text) and
    // the handout cards (four to a page, last) is text.
    let cards = (f["party"]["size"].as_u64().unwrap() as usize).div_ceil(4);
    let text_pages = (0..pages).filter(|&i| flat(&texts[i]).contains(&format!("page {} of {pages}", i + 1))).count();
    assert_eq!(text_pages, pages - 2 - cards, "two sheet pages, {cards} card pages and the text");
    embedded_and_vector(&doc);
    let titles = outline_titles(&doc);
    for want in [
        "Maps (GM sheets)",
        "Preplay",
        "Opening Phase",
        "Middle Phase",
        "Areas",
        "Judges and difficulties",
        "Climax Phase",
        "After Phase",
        "Glossary",
        "Handouts for the players",
        "Players' sheets",
    ] {
        assert!(titles.iter().any(|t| t.starts_with(want)), "the outline has `{want}`: {titles:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_pdf_keeps_every_character_the_gm_typed() {
    let dir = temp("pdf-typed");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["myk", "--seed", "5", "--format", "json", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let file = dir.join("myk-5.json");
    let mut s: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let typed = "Vault *of* `the` \\ King | <Two> & _Three_ # [four]";
    let room = s["maps"][0]["rooms"].as_array_mut().unwrap().iter_mut().find(|r| r["used"] == true).unwrap();
    room["name"] = Value::from(typed);
    std::fs::write(&file, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    let (code, _, err) = run(&["render", file.to_str().unwrap(), "--format", "pdf,md", "--out", d, "--force"]);
    assert_eq!(code, 0, "{err}");
    let all = flat(&page_texts(&dir.join("myk-5.pdf")).join(" "));
    assert!(all.contains(typed), "the PDF prints `{typed}` as typed");
    // The Markdown's room-key heading reads back as the same characters.
    let md = std::fs::read_to_string(dir.join("myk-5.md")).unwrap();
    let blocks = dungeonsmith::render::typeset::markdown::blocks(&md);
    assert!(
        blocks.iter().any(
            |b| matches!(b, dungeonsmith::render::typeset::markdown::Block::Heading(3, r) if r.text.ends_with(typed))
        ),
        "the Markdown heading reads back as typed"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// What `pdftotext -layout` shows of a PDF (poppler).
fn pdftotext_layout(pdf: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .args(["-layout", pdf.to_str().unwrap(), "-"])
        .output()
        .unwrap_or_else(|e| panic!("pdftotext runs (poppler-utils): {e}"));
    assert!(out.status.success(), "pdftotext: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The column where the second cell of each of the first `rows` rows of the table under
/// `header` starts (a row's wrapped continuation lines, which hold one column only, are skipped).
fn second_column_starts(text: &str, header: &str, rows: usize) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    // The header row's first cell is `header` itself (a sentence that opens on the same word,
    // "Judges and difficulties: see …", is no header).
    let at = lines
        .iter()
        .position(|l| l.trim_start().split("  ").next() == Some(header))
        .unwrap_or_else(|| panic!("a `{header}` table"));
    let lead = |l: &str| l.len() - l.trim_start().len();
    let first = lead(lines[at]);
    lines[at + 1..]
        .iter()
        .filter(|l| lead(l) == first)
        .filter_map(|l| {
            let t = l.trim_start();
            t.find("  ").map(|g| lead(l) + g + t[g..].len() - t[g..].trim_start().len())
        })
        .take(rows)
        .collect()
}

#[test]
#[ignore = "needs poppler-utils (pdftotext): run by .ci/run"]
fn pdftotext_shows_tables_as_aligned_columns_and_no_markdown() {
    let dir = temp("pdf-poppler");
    let d = dir.to_str().unwrap();
    for seed in ["1", "2", "3"] {
        let (code, _, err) = run(&["myk", "--seed", seed, "--maps", "2", "--format", "pdf", "--out", d]);
        assert_eq!(code, 0, "{err}");
        let text = pdftotext_layout(&dir.join(format!("myk-{seed}.pdf")));
        let starts = second_column_starts(&text, "Check", 4);
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "seed {seed}: the difficulty column lines up: {starts:?}");
        let (code, _, err) = run(&["fortress", "--seed", seed, "--format", "pdf", "--out", d]);
        assert_eq!(code, 0, "{err}");
        let nw3 = pdftotext_layout(&dir.join(format!("fortress-{seed}.pdf")));
        let starts = second_column_starts(&nw3, "Judge", 4);
        assert!(
            starts.windows(2).all(|w| w[0] == w[1]),
            "seed {seed}: the judges' difficulty column lines up: {starts:?}"
        );
        for (what, t) in [("myk", &text), ("fortress", &nw3)] {
            let pages = t.split('\u{c}').filter(|p| !p.trim().is_empty()).count();
            assert!(t.contains(&format!("of {pages}")), "{what} {seed}: footers count the file's {pages} pages");
            for line in t.lines() {
                let l = line.trim_start();
                assert!(
                    !l.starts_with('#') && !l.starts_with("| ") && !l.starts_with("> ") && !l.contains("**"),
                    "{what} {seed}: Markdown syntax in `{line}`"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_gm_overrides_the_pdf_page_style_with_templates_and_a_broken_one_is_one_line() {
    let dir = temp("pdf-style");
    let tpl = dir.join("tpl");
    std::fs::create_dir_all(&tpl).unwrap();
    let style = std::fs::read_to_string("templates/pdf.toml")
        .unwrap()
        .replace("page {page} of {pages}", "sheet {page}/{pages}");
    std::fs::write(tpl.join("pdf.toml"), style).unwrap();
    let d = dir.to_str().unwrap();
    let t = tpl.to_str().unwrap();
    let (code, _, err) = run(&["fortress", "--seed", "3", "--format", "pdf", "--templates", t, "--out", d]);
    assert_eq!(code, 0, "{err}");
    let texts = page_texts(&dir.join("fortress-3.pdf"));
    assert!(flat(&texts[1]).contains(&format!("sheet 2/{}", texts.len())), "{}", texts[1]);
    std::fs::write(tpl.join("pdf.toml"), "body_pt = \"big\"\n").unwrap();
    let (code, _, err) = run(&["fortress", "--seed", "3", "--format", "pdf", "--templates", t, "--out", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`pdf.toml`") && err.lines().count() == 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every table of the booklet that the PDF runs on over pages shows its header row on each of
/// them (seed 42 with two maps has long item tables), as read back from the PDF's text layer.
#[test]
fn a_table_split_over_pages_repeats_its_header_row_on_each_page() {
    use dungeonsmith::render::typeset::markdown::{Block, blocks};
    let dir = temp("pdf-table-head");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["myk", "--seed", "42", "--maps", "2", "--format", "md,pdf", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let pages: Vec<String> = page_texts(&dir.join("myk-42.pdf")).iter().map(|p| flat(p)).collect();
    let md = std::fs::read_to_string(dir.join("myk-42.md")).unwrap();
    let cells = |row: &[dungeonsmith::render::typeset::markdown::Rich]| {
        flat(&row.iter().map(|c| c.text.as_str()).collect::<Vec<_>>().join(" "))
    };
    let mut split = 0;
    for b in blocks(&md) {
        let Block::Table { head, rows, .. } = b else { continue };
        let header = cells(&head);
        // The pages that show one of the table's rows (a row is never split); only rows long
        // enough to name one page count (a short "1 Iron" may stand anywhere).
        let mut on: Vec<usize> = Vec::new();
        for row in rows.iter().map(|r| cells(r)).filter(|r| r.len() >= 20) {
            let found: Vec<usize> = (0..pages.len()).filter(|&p| pages[p].contains(&row)).collect();
            if let [p] = found[..] {
                on.push(p);
            }
        }
        on.dedup();
        if on.len() < 2 {
            continue;
        }
        split += 1;
        for p in on {
            assert!(pages[p].contains(&header), "page {} shows rows of the `{header}` table but not its header", p + 1);
        }
    }
    assert!(split >= 1, "seed 42 with two maps has a table run on over pages");
    std::fs::remove_dir_all(&dir).ok();
}

/// The outline as (depth, title) in reading order, walked from the catalog's /Outlines.
fn outline_tree(doc: &Document) -> Vec<(usize, String)> {
    fn title(d: &lopdf::Dictionary) -> String {
        match d.get(b"Title") {
            Ok(Object::String(bytes, _)) => pdf_text(bytes),
            _ => String::new(),
        }
    }
    fn walk(doc: &Document, first: Option<&Object>, depth: usize, out: &mut Vec<(usize, String)>) {
        let mut at = first.and_then(|o| o.as_reference().ok());
        while let Some(id) = at {
            let d = doc.get_dictionary(id).expect("an outline item");
            out.push((depth, title(d)));
            walk(doc, d.get(b"First").ok(), depth + 1, out);
            at = d.get(b"Next").ok().and_then(|o| o.as_reference().ok());
        }
    }
    let root = doc.catalog().expect("a catalog").get(b"Outlines").and_then(Object::as_reference).expect("an outline");
    let mut out = Vec::new();
    walk(doc, doc.get_dictionary(root).expect("the outline root").get(b"First").ok(), 0, &mut out);
    out
}

/// The outline reads as the booklet: the title alone at the top, its parts (each map's key, the
/// sheets' groups) under it, and each room under its own map's part.
#[test]
fn the_pdf_outline_nests_title_parts_and_rooms() {
    let dir = temp("pdf-outline");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["myk", "--seed", "808", "--maps", "3", "--format", "json,pdf", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let s: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("myk-808.json")).unwrap()).unwrap();
    let tree = outline_tree(&Document::load(dir.join("myk-808.pdf")).unwrap());
    let top: Vec<&String> = tree.iter().filter(|e| e.0 == 0).map(|e| &e.1).collect();
    // The file keeps the title's slots; the PDF prints it filled.
    let scenario: dungeonsmith::myk::model::Scenario = serde_json::from_value(s.clone()).expect("a scenario");
    let title = dungeonsmith::myk::frame::shown_title(&scenario);
    assert_eq!(top, [&title], "the title alone at the top: {tree:?}");
    for want in ["Maps (GM sheets)", "Players' sheets", "For play"] {
        assert!(tree.contains(&(1, want.to_string())), "`{want}` is a part under the title: {tree:?}");
    }
    for (i, m) in s["maps"].as_array().unwrap().iter().enumerate() {
        let part = format!("Map {} of 3: {}", i + 1, m["name"].as_str().unwrap());
        let at = tree.iter().position(|e| *e == (1, part.clone())).unwrap_or_else(|| panic!("{part}: {tree:?}"));
        let rooms: Vec<&String> = tree[at + 1..].iter().take_while(|e| e.0 > 1).map(|e| &e.1).collect();
        for r in m["rooms"].as_array().unwrap().iter().filter(|r| r["used"] == true) {
            let room = format!("{} — {}", r["id"].as_str().unwrap(), r["name"].as_str().unwrap());
            assert!(rooms.contains(&&room), "{room} is under {part}: {rooms:?}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
