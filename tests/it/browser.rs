//! The HTML booklet in a real browser: headless Chromium prints it to PDF; the PDF has the pages
//! and the map text a GM expects. The tests need chromium and poppler-utils, so plain `cargo test`
//! lists them as ignored; `.ci/run` installs both and runs them
//! (`cargo test --locked --test it -- --ignored browser::`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::run;

fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).flat_map(|d| names.iter().map(move |n| d.join(n))).find(|p| p.is_file())
}

/// Chromium, pdfinfo and pdftotext; a test asked to run without them fails saying so.
fn tools() -> (PathBuf, PathBuf, PathBuf) {
    let found = (find(&["chromium", "chromium-browser", "google-chrome"]), find(&["pdfinfo"]), find(&["pdftotext"]));
    match found {
        (Some(c), Some(i), Some(t)) => (c, i, t),
        _ => panic!("this test needs chromium and poppler-utils (apt-get install chromium poppler-utils)"),
    }
}

fn print_to_pdf(chromium: &Path, html: &Path, pdf: &Path, profile: &Path) {
    let status = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .expect("chromium runs");
    assert!(pdf.is_file(), "chromium wrote no PDF: {}", String::from_utf8_lossy(&status.stderr));
}

#[test]
#[ignore = "needs chromium and poppler-utils: run by .ci/run"]
fn the_html_booklet_prints_to_pdf_with_a_page_per_sheet_and_the_map_text() {
    let (chromium, pdfinfo, pdftotext) = tools();
    let dir = std::env::temp_dir().join(format!("dungeonsmith-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("out");
    let (code, _, err) =
        run(&["myk", "--seed", "42", "--maps", "2", "--out", out.to_str().unwrap(), "--format", "html,json"]);
    assert_eq!(code, 0, "{err}");
    let pdf = dir.join("booklet.pdf");
    print_to_pdf(&chromium, &out.join("myk-42.html"), &pdf, &dir.join("profile"));

    let info = String::from_utf8(Command::new(pdfinfo).arg(&pdf).output().unwrap().stdout).unwrap();
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("pdfinfo reports pages");
    assert!(info.contains("(A4)"), "A4 pages: {info}");
    // cover + (sheet + room key) per map + appendix + a players' sheet per map, and then the item
    // and word tables the results reach (up to six tables, the Rare ones 36 rows each), the play
    // tables the texts cite (the four Happening and four Rest Tables with those their rows cite)
    // and the glossary: 40 pages for this seed.
    assert!((1 + 2 * 2 + 1 + 2..=48).contains(&pages), "{pages} pages");

    let text = String::from_utf8(Command::new(pdftotext).args(["-layout"]).arg(&pdf).arg("-").output().unwrap().stdout)
        .unwrap();
    let scenario: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("myk-42.json")).unwrap()).unwrap();
    // The file keeps the title's slots; the booklet prints it filled.
    let typed: dungeonsmith::myk::model::Scenario = serde_json::from_value(scenario.clone()).expect("a scenario");
    let title = dungeonsmith::myk::frame::shown_title(&typed);
    assert!(text.contains(&title), "title {title:?} missing");
    for m in scenario["maps"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        assert!(text.matches(name).count() >= 2, "map name {name:?} should be on its sheet and in its key");
        for r in m["rooms"].as_array().unwrap().iter().filter(|r| r["used"].as_bool().unwrap()) {
            let room = r["name"].as_str().unwrap();
            assert!(text.contains(room), "room name {room:?} missing from the PDF");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A word of a PDF page, in points: page number, page width, left, top, right.
type WordBox = (usize, f64, f64, f64, f64);

/// Every word of `pdf` (pdftotext -bbox).
fn word_boxes(pdftotext: &Path, pdf: &Path) -> Vec<WordBox> {
    let xml =
        String::from_utf8(Command::new(pdftotext).arg("-bbox").arg(pdf).arg("-").output().unwrap().stdout).unwrap();
    let attr = |line: &str, name: &str| -> f64 {
        let Some(at) = line.find(&format!("{name}=\"")) else { return 0.0 };
        line[at + name.len() + 2..].split('"').next().and_then(|v| v.parse().ok()).unwrap_or(0.0)
    };
    let (mut page, mut width) = (0, 0.0);
    let mut out = Vec::new();
    for line in xml.lines().map(str::trim_start) {
        if line.starts_with("<page") {
            page += 1;
            width = attr(line, "width");
        } else if line.starts_with("<word") {
            out.push((page, width, attr(line, "xMin"), attr(line, "yMin"), attr(line, "xMax")));
        }
    }
    out
}

#[test]
#[ignore = "needs chromium and poppler-utils: run by .ci/run"]
fn the_letter_booklet_keeps_every_word_inside_the_right_margin() {
    let (chromium, _, pdftotext) = tools();
    let dir = std::env::temp_dir().join(format!("dungeonsmith-letter-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("out");
    let (code, _, err) =
        run(&["myk", "--seed", "42", "--paper", "letter", "--out", out.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    // A hand-edited room with names no line can hold.
    let file = out.join("myk-42.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    v["maps"][0]["rooms"][1]["name"] = "Y".repeat(150).into();
    v["maps"][0]["rooms"][1]["environment"] = "Z".repeat(150).into();
    std::fs::write(&file, v.to_string()).unwrap();
    let (code, _, err) = run(&["render", file.to_str().unwrap(), "--format", "html", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let pdf = dir.join("letter.pdf");
    print_to_pdf(&chromium, &out.join("myk-42.html"), &pdf, &dir.join("profile"));
    let words = word_boxes(&pdftotext, &pdf);
    std::fs::remove_dir_all(&dir).ok();
    assert!(words.len() > 500 && words.iter().all(|w| (w.1 - 612.0).abs() < 1.0), "Letter pages with the text");
    // Text pages have 14 mm margins; the map sheets are drawn edge to edge (their text starts
    // above that margin), so they are left out.
    let margin = 14.0 / 25.4 * 72.0;
    let sheets: Vec<usize> = words.iter().filter(|w| w.3 < margin - 1.0).map(|w| w.0).collect();
    assert!(!sheets.is_empty(), "the map sheets are there");
    // One point of slack: a glyph's ink may overhang its advance by a fraction of a point at the
    // end of a justified line (seen: 0.05 pt), which is no word past the margin.
    let over: Vec<&WordBox> = words.iter().filter(|w| !sheets.contains(&w.0) && w.4 > w.1 - margin + 1.0).collect();
    assert!(over.is_empty(), "words past the right margin: {over:?}");
}

/// The words of the HTML's table headers (letters and digits only: "Formula", "2D6").
fn header_words(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for cell in html.split("<th").skip(1) {
        let Some(body) = cell.split_once('>').and_then(|(_, rest)| rest.split_once("</th>")).map(|(b, _)| b) else {
            continue;
        };
        // Tags inside a header cell (<b>, <br>) are dropped.
        let text: String = body
            .split('<')
            .enumerate()
            .map(|(i, p)| if i == 0 { p } else { p.split_once('>').map_or("", |x| x.1) })
            .collect::<Vec<_>>()
            .join(" ");
        out.extend(
            text.split_whitespace().filter(|w| w.len() >= 2 && w.chars().all(char::is_alphanumeric)).map(String::from),
        );
    }
    out
}

/// Printed from Chromium (both games, both papers, 1-3 maps, up to 40 areas): no table header
/// breaks inside a word ("Formul a", "2D6" a letter a line), and no page before a map sheet
/// holds only a line or two (the sheet's page break leaves no near-empty page behind).
#[test]
#[ignore = "needs chromium and poppler-utils: run by .ci/run"]
fn the_printed_html_keeps_header_words_whole_and_no_near_empty_page_before_a_map() {
    let (chromium, _, pdftotext) = tools();
    let dir = std::env::temp_dir().join(format!("dungeonsmith-print-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["myk", "--seed", "99", "--level", "8", "--maps", "2"], "myk-99"),
        (&["myk", "--seed", "808", "--maps", "3", "--paper", "letter"], "myk-808"),
        (&["fortress", "--seed", "55", "--areas", "40"], "fortress-55"),
        (&["fortress", "--seed", "321", "--areas", "30", "--paper", "letter"], "fortress-321"),
    ];
    let mut checked = 0;
    for (args, stem) in cases {
        let mut all = args.to_vec();
        all.extend(["--format", "html", "--out", o]);
        let (code, _, err) = run(&all);
        assert_eq!(code, 0, "{err}");
        let html = std::fs::read_to_string(out.join(format!("{stem}.html"))).unwrap();
        let pdf = dir.join(format!("{stem}.pdf"));
        print_to_pdf(&chromium, &out.join(format!("{stem}.html")), &pdf, &dir.join("profile"));
        let raw = String::from_utf8(Command::new(&pdftotext).arg("-raw").arg(&pdf).arg("-").output().unwrap().stdout)
            .unwrap();
        let tokens: std::collections::BTreeSet<&str> =
            raw.split_whitespace().map(|t| t.trim_matches(|c: char| !c.is_alphanumeric())).collect();
        for w in header_words(&html) {
            assert!(tokens.contains(w.as_str()), "{stem}: the header word `{w}` is broken in print");
            checked += 1;
        }
        let pages: Vec<&str> = raw.split('\u{c}').collect();
        let sheet = |p: &str| p.contains("GM copy") || p.contains("players' copy") || p.contains("handout");
        for i in 1..pages.len() {
            if sheet(pages[i]) && !sheet(pages[i - 1]) {
                let lines = pages[i - 1].lines().filter(|l| !l.trim().is_empty()).count();
                assert!(lines >= 4, "{stem}: page {} before a map holds {lines} line(s)", i);
            }
        }
    }
    assert!(checked > 50, "header words checked: {checked}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The print rules, read on the HTML booklets of the 40 held-out scenarios of
/// [`crate::reading`] (both games, both papers, 1-3 maps, 10-40 areas) as Chromium prints them:
/// each GM map sheet is followed by the page that starts its own key; no table of 12 rows or
/// fewer is split over two pages; no heading is the last line of a page; no table header word
/// is broken; no page before a sheet holds only a line or two.
#[test]
#[ignore = "needs chromium and poppler-utils: run by .ci/run"]
fn the_printed_html_of_40_held_out_scenarios_reads_in_order() {
    let (chromium, _, pdftotext) = tools();
    let dir = std::env::temp_dir().join(format!("dungeonsmith-print40-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("out");
    let o = out.to_str().expect("a UTF-8 path");
    let mut tables = 0;
    for case in crate::reading::cases() {
        let mut args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        args.extend(["--format", "html,md", "--out", o]);
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let read = |ext: &str| std::fs::read_to_string(out.join(format!("{}.{ext}", case.stem))).expect("written");
        let pdf = dir.join(format!("{}.pdf", case.stem));
        print_to_pdf(&chromium, &out.join(format!("{}.html", case.stem)), &pdf, &dir.join("profile"));
        let raw = String::from_utf8(Command::new(&pdftotext).arg("-raw").arg(&pdf).arg("-").output().unwrap().stdout)
            .unwrap();
        tables += printed_reads_in_order(&case.args.join(" "), &raw, &read("html"), &read("md"), &case.keys);
    }
    assert!(tables >= 80, "the booklets hold small tables to check ({tables})");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The print rules on one printed booklet (`raw`: pdftotext -raw), its HTML and Markdown;
/// `keys` are the bare starts of the key headings, one per GM sheet. Returns the small tables
/// checked.
fn printed_reads_in_order(what: &str, raw: &str, html: &str, md: &str, keys: &[String]) -> usize {
    use crate::reading::{bare, expected};
    let e = expected(md);
    let mut pages: Vec<Vec<&str>> =
        raw.split('\u{c}').map(|p| p.lines().map(str::trim).filter(|l| !l.is_empty()).collect()).collect();
    if pages.last().is_some_and(Vec::is_empty) {
        pages.pop();
    }
    let has = |p: &[&str], what: &str| p.iter().any(|l| l.contains(what));
    let sheet = |p: &[&str]| has(p, "GM copy") || has(p, "players' copy") || has(p, "handout");
    let gm: Vec<usize> = (0..pages.len()).filter(|&i| has(&pages[i], "GM copy")).collect();
    assert_eq!(gm.len(), keys.len(), "{what}: one GM sheet per map (pages {gm:?})");
    for (&s, key) in gm.iter().zip(keys) {
        let first = pages.get(s + 1).and_then(|p| p.first()).map(|l| bare(l)).unwrap_or_default();
        assert!(first.starts_with(key.as_str()), "{what}: the page after the sheet (p.{}) starts `{first}`", s + 1);
    }
    let texts: Vec<usize> = (0..pages.len()).filter(|&i| !sheet(&pages[i])).collect();
    for &i in &texts {
        let lines = &pages[i];
        if let Some(tail) = e.stranded(lines) {
            panic!("{what}: page {} ends with the heading or caption `{tail}`", i + 1);
        }
        if Some(&i) != texts.last() && pages.get(i + 1).is_some_and(|p| sheet(p)) {
            assert!(lines.len() >= 4, "{what}: page {} before a sheet holds {} line(s)", i + 1, lines.len());
        }
    }
    // A small table is whole on one page: some page holds every word of its body rows, as
    // often as the table does (cells wrap, so the words' order on the page is not the table's).
    let page_words: Vec<Counts> = texts.iter().map(|&i| counts(&pages[i].join(" "))).collect();
    let small = small_tables(html);
    for t in &small {
        let need = counts(t);
        let whole = page_words.iter().any(|have| need.iter().all(|(w, n)| have.get(w).is_some_and(|h| h >= n)));
        assert!(whole, "{what}: a small table is split over pages: {t}");
    }
    let tokens: std::collections::BTreeSet<&str> =
        raw.split_whitespace().map(|t| t.trim_matches(|c: char| !c.is_alphanumeric())).collect();
    for w in header_words(html) {
        assert!(tokens.contains(w.as_str()), "{what}: the header word `{w}` is broken in print");
    }
    small.len()
}

/// Words (letters and digits, trimmed of punctuation) and how often each occurs. A line may
/// break after a hyphen or a slash ("21-" / "30"), so those part words too.
type Counts = std::collections::BTreeMap<String, usize>;

fn counts(text: &str) -> Counts {
    let mut out = Counts::new();
    let words = text.split(|c: char| c.is_whitespace() || matches!(c, '-' | '\u{2013}' | '/'));
    for w in words.map(|t| t.trim_matches(|c: char| !c.is_alphanumeric())).filter(|w| !w.is_empty()) {
        *out.entry(w.to_string()).or_default() += 1;
    }
    out
}

/// The text of an HTML fragment: tags dropped (each a space), the entities the booklet writes
/// decoded.
fn html_text(fragment: &str) -> String {
    let mut out = String::new();
    for (i, part) in fragment.split('<').enumerate() {
        out.push(' ');
        out.push_str(if i == 0 { part } else { part.split_once('>').map_or("", |x| x.1) });
    }
    out.replace("&#x27;", "'")
        .replace("&#x2f;", "/")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The body text of every table in the booklet's HTML with at most [`SMALL_TABLE`] body rows.
fn small_tables(html: &str) -> Vec<String> {
    use dungeonsmith::render::typeset::SMALL_TABLE;
    let mut out = Vec::new();
    for t in html.split("<table").skip(1) {
        let table = t.split("</table>").next().unwrap_or_default();
        let rows: Vec<&str> = table.split("<tr").skip(1).filter(|r| !r.contains("<th")).collect();
        if !rows.is_empty() && rows.len() <= SMALL_TABLE {
            out.push(rows.iter().map(|r| html_text(&format!("<tr{r}"))).collect::<Vec<_>>().join(" "));
        }
    }
    out
}
