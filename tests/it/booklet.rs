//! The booklet reads as finished text: over many seeds of both games, no output (Markdown, HTML,
//! the PDF's text layer, the JSON's text fields) holds a brace, a `####`, a line opening with `>` or a
//! "not legible" that would read as an unfilled placeholder or a note to ourselves. Generated
//! scenarios carry no GM text, so everything checked here is the program's own.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::run;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-booklet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What a finished booklet never shows, in `text` (one output's reader-visible text).
pub fn unfilled(text: &str) -> Option<String> {
    for (n, line) in text.lines().enumerate() {
        let bad = if line.contains('{') || line.contains('}') {
            Some("a brace")
        } else if line.contains("####") {
            Some("`####`")
        } else if line.trim_start().starts_with('>') {
            Some("a leading `>`")
        } else if line.to_lowercase().contains("not legible") {
            Some("\"not legible\"")
        } else {
            None
        };
        if let Some(what) = bad {
            return Some(format!("{what} on line {}: {line}", n + 1));
        }
    }
    None
}

/// Markdown without its code spans (the regenerate command is code, shown as typed).
fn markdown_prose(md: &str) -> String {
    md.split('`').step_by(2).collect::<Vec<_>>().join("")
}

/// `s` without every stretch from `open` to the next `close`.
fn drop_between(s: &str, open: &str, close: &str) -> String {
    let mut kept = String::new();
    let mut rest = s;
    while let Some(i) = rest.find(open) {
        kept.push_str(&rest[..i]);
        rest = rest[i..].find(close).map_or("", |e| &rest[i + e + close.len()..]);
    }
    kept.push_str(rest);
    kept
}

/// The text an HTML page shows: outside tags, without the stylesheet, the inline sheets
/// (their text is tested with the SVG) and code.
fn html_text(html: &str) -> String {
    let mut rest = html.to_string();
    for (open, close) in [("<style>", "</style>"), ("<svg", "</svg>"), ("<code>", "</code>")] {
        rest = drop_between(&rest, open, close);
    }
    let mut text = String::new();
    let mut in_tag = false;
    for c in rest.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

/// `s` without the scenario file's own slots (`{map}`, `{ruler|poss}`, `{area:7}`: the one text
/// layer's rule, `dungeonsmith::text::slots`), which the file keeps so an edit of a name reaches
/// every text, and which every render fills (the Markdown and HTML checks hold that).
fn without_fill_fields(s: &str) -> String {
    let mut out = String::new();
    let mut written = 0;
    for slot in dungeonsmith::text::slots(s) {
        out.push_str(&s[written..slot.start]);
        written = slot.end;
    }
    out.push_str(&s[written..]);
    out
}

/// Every string in a JSON document, one a line, without its fill fields.
fn json_strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(&without_fill_fields(s));
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| json_strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| json_strings(x, out)),
        _ => {}
    }
}

fn assert_finished(dir: &Path, stem: &str, pdf: bool) {
    let read = |ext: &str| std::fs::read_to_string(dir.join(format!("{stem}.{ext}"))).expect("written");
    let pdf_text =
        if pdf { crate::pdf::page_texts(&dir.join(format!("{stem}.pdf"))).join("\n") } else { String::new() };
    let checks = [
        ("pdf", pdf_text),
        ("md", markdown_prose(&read("md"))),
        ("html", html_text(&read("html"))),
        ("json", {
            let mut s = String::new();
            json_strings(&serde_json::from_str(&read("json")).expect("JSON"), &mut s);
            s
        }),
    ];
    for (what, text) in checks {
        if let Some(bad) = unfilled(&text) {
            panic!("{stem}.{what} holds {bad}");
        }
    }
}

#[test]
fn no_output_of_either_game_reads_as_unfilled_over_many_seeds() {
    let dir = temp("unfilled");
    let d = dir.to_str().unwrap();
    for seed in 0..24u64 {
        let s = seed.to_string();
        // The PDF's text for one seed in four (typesetting is the slow part).
        let pdf = seed % 4 == 0;
        let formats = if pdf { "json,md,html,pdf" } else { "json,md,html" };
        let (code, _, err) = run(&["myk", "--seed", &s, "--maps", "2", "--format", formats, "--out", d]);
        assert_eq!(code, 0, "{err}");
        assert_finished(&dir, &format!("myk-{seed}"), pdf);
        let (code, _, err) = run(&["fortress", "--seed", &s, "--format", formats, "--out", d]);
        assert_eq!(code, 0, "{err}");
        assert_finished(&dir, &format!("fortress-{seed}"), pdf);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_placeholder_check_finds_what_it_looks_for() {
    assert!(unfilled("gains {BS: Rigor}").is_some());
    assert!(unfilled("#### Treasure").is_some());
    assert!(unfilled("  > a trailer").is_some());
    assert!(unfilled("disarm: not legible in the book").is_some());
    assert!(unfilled("A -> B, 2D6 > 7").is_none());
    assert_eq!(markdown_prose("run `a {b}` now"), "run  now");
    assert_eq!(without_fill_fields("{ruler} gains {BS: Rigor} in {room_name}"), " gains {BS: Rigor} in ");
    assert_eq!(without_fill_fields("{ruler|poss} lair in {area:7}, told by {npc:2}"), " lair in , told by ");
    assert_eq!(html_text("<style>p{}</style><p>x &gt; y</p><svg><text>{</text></svg>").trim(), "x &gt; y");
}
