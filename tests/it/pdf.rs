//! The PDF export, read back with poppler (`pdfinfo`, `pdftotext`, `pdffonts`, `pdfimages`): page
//! count and size, the scenario's text, embedded fonts and vector maps.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::run;
use crate::vtt::temp;

fn poppler(tool: &str, args: &[&str]) -> String {
    let out = Command::new(tool).args(args).output().unwrap_or_else(|e| panic!("{tool} runs (poppler-utils): {e}"));
    assert!(out.status.success(), "{tool} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// (pages, page size line) from pdfinfo.
fn info(pdf: &Path) -> (usize, String) {
    let text = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    let field =
        |k: &str| text.lines().find(|l| l.starts_with(k)).map(|l| l[k.len()..].trim().to_string()).unwrap_or_default();
    (field("Pages:").parse().expect("a page count"), field("Page size:"))
}

/// Checks fonts are embedded and no page carries a raster picture (the maps are vector).
fn embedded_and_vector(pdf: &Path) {
    let fonts = poppler("pdffonts", &[pdf.to_str().unwrap()]);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "the PDF uses fonts:\n{fonts}");
    for r in &rows {
        let cols: Vec<&str> = r.split_whitespace().collect();
        // name type [encoding...] emb sub uni object ID: `emb` is 5 columns from the end.
        assert_eq!(cols[cols.len() - 5], "yes", "every font is embedded:\n{fonts}");
    }
    let images = poppler("pdfimages", &["-list", pdf.to_str().unwrap()]);
    assert_eq!(images.lines().count(), 2, "no raster pictures, only vector drawing:\n{images}");
}

#[test]
fn myk_pdf_has_gm_sheets_text_and_players_sheets_with_embedded_fonts() {
    let dir = temp("pdf-myk");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["myk", "--seed", "42", "--maps", "2", "--format", "json,pdf", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let pdf = dir.join("myk-42.pdf");
    let (pages, size) = info(&pdf);
    assert!(size.contains("595.") && size.contains("841.") && size.contains("A4"), "{size}");
    let text = poppler("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"]);
    let per_page: Vec<&str> = text.split('\u{c}').filter(|p| !p.trim().is_empty()).collect();
    assert_eq!(per_page.len(), pages, "every page has text");
    assert!(pages >= 2 + 1 + 2, "two GM sheets, the text, two players' sheets: {pages} pages");
    let s: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("myk-42.json")).unwrap()).unwrap();
    // GM sheets first, players' sheets last.
    for (i, m) in s["maps"].as_array().unwrap().iter().enumerate() {
        assert!(per_page[i].contains("GM copy"), "page {} is map {}'s GM sheet", i + 1, i + 1);
        assert!(per_page[pages - 2 + i].contains("players"), "page {} is a players' sheet", pages - 1 + i);
        for r in m["rooms"].as_array().unwrap().iter().filter(|r| r["used"] == true) {
            let name = r["name"].as_str().unwrap();
            assert!(text.contains(name), "room {name} appears in the PDF");
        }
    }
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let objective = s["objective"].as_str().unwrap();
    assert!(
        flat.contains(&objective.split_whitespace().take(6).collect::<Vec<_>>().join(" ")),
        "the objective is in the text pages"
    );
    embedded_and_vector(&pdf);

    let (code, _, err) = run(&["myk", "--seed", "42", "--paper", "letter", "--format", "pdf", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let (_, size) = info(&pdf);
    assert!(size.starts_with("612 x 792"), "letter paper: {size}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fortress_pdf_has_the_area_map_area_text_and_handout() {
    let dir = temp("pdf-nw3");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["fortress", "--seed", "7", "--format", "json,pdf", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let pdf = dir.join("fortress-7.pdf");
    let (pages, _) = info(&pdf);
    assert!(pages >= 3, "{pages} pages");
    let text = poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    let f: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("fortress-7.json")).unwrap()).unwrap();
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for a in f["areas"].as_array().unwrap() {
        let name = a["name"].as_str().unwrap();
        assert!(flat.contains(name), "area {name} appears in the PDF");
    }
    embedded_and_vector(&pdf);
    std::fs::remove_dir_all(&dir).ok();
}
