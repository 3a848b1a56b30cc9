//! The render stage and the edit loop: files written, templates overridable, text escaped,
//! a broken edit refused unless forced, JSON → render → JSON lossless.

use std::path::PathBuf;

use crate::run;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-render-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn read(p: PathBuf) -> String {
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn myk_writes_every_format_and_names_each_file_on_stdout() {
    let d = temp("all");
    let (code, out, err) = run(&["myk", "--seed", "42", "--maps", "2", "--out", d.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let names: Vec<String> =
        out.lines().map(|l| PathBuf::from(l).file_name().unwrap().to_string_lossy().into()).collect();
    assert_eq!(
        names,
        [
            "myk-42.json",
            "myk-42-map1.svg",
            "myk-42-map1-players.svg",
            "myk-42-map2.svg",
            "myk-42-map2-players.svg",
            "myk-42.md",
            "myk-42.html"
        ]
    );
    let html = read(d.join("myk-42.html"));
    assert!(html.contains("<svg") && !html.contains("<?xml"), "sheets are inlined without their prolog");
    assert!(!html.contains("src=") && !html.contains("href=\"http"), "nothing is fetched");
    assert!(!html.contains("<link") && !html.contains("<script") && !html.contains("@import"), "self-contained");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn format_chooses_what_is_written() {
    let d = temp("fmt");
    let (code, out, _) = run(&["myk", "--seed", "3", "--format", "md", "--out", d.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1);
    assert!(d.join("myk-3.md").is_file() && !d.join("myk-3.json").exists());
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_markdown_for_seed_42_is_golden() {
    let d = temp("md");
    let (code, _, err) = run(&["myk", "--seed", "42", "--format", "md", "--out", d.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("myk_seed_42_md", read(d.join("myk-42.md")));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn json_render_json_is_lossless() {
    let a = temp("rt-a");
    let b = temp("rt-b");
    assert_eq!(run(&["myk", "--seed", "17", "--maps", "3", "--rooms", "6", "--out", a.to_str().unwrap()]).0, 0);
    let json = a.join("myk-17.json");
    let (code, _, err) = run(&["render", json.to_str().unwrap(), "--out", b.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for f in ["myk-17.json", "myk-17.md", "myk-17.html", "myk-17-map2.svg", "myk-17-map3-players.svg"] {
        assert_eq!(read(a.join(f)), read(b.join(f)), "{f} differs after render");
    }
    std::fs::remove_dir_all(&a).ok();
    std::fs::remove_dir_all(&b).ok();
}

#[test]
fn a_scenario_that_breaks_a_rule_is_refused_unless_forced() {
    let d = temp("force");
    assert_eq!(run(&["myk", "--seed", "5", "--format", "json", "--out", d.to_str().unwrap()]).0, 0);
    let path = d.join("myk-5.json");
    let mut s: serde_json::Value = serde_json::from_str(&read(path.clone())).unwrap();
    s["court"]["levels"] = serde_json::json!([1, 1, 1, 1]);
    std::fs::write(&path, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    let out = d.join("out");
    let (code, stdout, err) = run(&["render", path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty() && !out.exists(), "nothing is written");
    assert!(err.contains("limit") && err.contains("--force"), "{err}");
    let (code, stdout, _) = run(&["render", path.to_str().unwrap(), "--force", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(stdout.lines().count() >= 4);
    let (code, stdout, _) = run(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.lines().last().unwrap().contains(" violation"), "{stdout}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn names_with_markup_are_escaped_in_html_and_svg() {
    let d = temp("esc");
    assert_eq!(run(&["myk", "--seed", "8", "--format", "json", "--out", d.to_str().unwrap()]).0, 0);
    let path = d.join("myk-8.json");
    let mut s: serde_json::Value = serde_json::from_str(&read(path.clone())).unwrap();
    let evil = "<b>Tom & \"Jerry's\"</b>";
    s["maps"][0]["name"] = evil.into();
    s["title"] = evil.into();
    for r in s["maps"][0]["rooms"].as_array_mut().unwrap() {
        if r["used"].as_bool().unwrap() {
            r["name"] = evil.into();
        }
    }
    std::fs::write(&path, serde_json::to_string(&s).unwrap()).unwrap();
    let out = d.join("out");
    let (code, _, err) = run(&["render", path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let html = read(out.join("myk-8.html"));
    assert!(!html.contains("<b>Tom"), "raw markup reached the HTML");
    assert!(html.contains("&lt;b&gt;Tom &amp;"), "escaped text missing");
    for f in ["myk-8-map1.svg", "myk-8-map1-players.svg"] {
        let svg = read(out.join(f));
        assert!(!svg.contains("<b>"), "{f}: raw markup reached the SVG");
        roxmltree_free_parse(&svg);
    }
    std::fs::remove_dir_all(&d).ok();
}

/// The SVG still parses as XML (usvg is resvg's parser).
fn roxmltree_free_parse(svg: &str) {
    resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("valid SVG");
}

#[test]
fn a_gms_template_folder_replaces_the_builtin_file_of_the_same_name() {
    let d = temp("tpl");
    std::fs::write(d.join("myk.md"), "# {{ title }} — house style\n{% for m in maps %}{{ m.name }}\n{% endfor %}")
        .unwrap();
    let out = d.join("out");
    let (code, _, err) = run(&[
        "myk",
        "--seed",
        "4",
        "--format",
        "md,html",
        "--templates",
        d.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(read(out.join("myk-4.md")).contains("— house style"));
    assert!(read(out.join("myk-4.html")).contains("room key"), "html still uses the built-in template");
    std::fs::write(d.join("myk.md"), "{{ no_such_field }}").unwrap();
    let (code, _, err) = run(&[
        "myk",
        "--seed",
        "4",
        "--format",
        "md",
        "--templates",
        d.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("template `myk.md`"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    struct Closed;
    impl std::io::Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut err = Vec::new();
    let code = dungeonsmith::cli::run(["dungeonsmith", "tables", "list"], &mut Closed, &mut err);
    assert_eq!(code, 0);
    assert!(err.is_empty());
}

#[test]
fn fortress_writes_every_format_checks_clean_and_renders_back_identically() {
    let a = temp("fortress-a");
    let b = temp("fortress-b");
    let (code, out, err) =
        run(&["fortress", "--seed", "7", "--areas", "14", "--cl", "6", "--out", a.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let names: Vec<String> =
        out.lines().map(|l| PathBuf::from(l).file_name().unwrap().to_string_lossy().into()).collect();
    assert_eq!(
        names,
        ["fortress-7.json", "fortress-7.svg", "fortress-7-players.svg", "fortress-7.md", "fortress-7.html"]
    );
    let json = a.join("fortress-7.json");
    let (code, out, _) = run(&["check", json.to_str().unwrap()]);
    assert_eq!((code, out.trim_end().ends_with("every rule and limit holds")), (0, true), "{out}");
    let (code, _, err) = run(&["render", json.to_str().unwrap(), "--out", b.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for f in ["fortress-7.json", "fortress-7.md", "fortress-7.html", "fortress-7.svg"] {
        assert_eq!(read(a.join(f)), read(b.join(f)), "{f} differs after render");
    }
    let md = read(a.join("fortress-7.md"));
    for part in
        ["## The Ruler", "## Lunar Casket Logic in force", "Entrance condition", "## Climax", "Appearance difficulty 8"]
    {
        assert!(md.contains(part), "{part} missing from the fortress text");
    }
    std::fs::remove_dir_all(&a).ok();
    std::fs::remove_dir_all(&b).ok();
}

#[test]
fn an_unsolvable_fortress_is_refused_by_check_and_render() {
    let d = temp("fortress-bad");
    assert_eq!(run(&["fortress", "--seed", "3", "--format", "json", "--out", d.to_str().unwrap()]).0, 0);
    let path = d.join("fortress-3.json");
    let mut f: serde_json::Value = serde_json::from_str(&read(path.clone())).unwrap();
    // Cut every gate into the Core: it can no longer be reached.
    let core = f["areas"].as_array().unwrap().iter().find(|a| a["kind"] == "core").unwrap()["id"].clone();
    f["gates"].as_array_mut().unwrap().retain(|g| g["from"] != core && g["to"] != core);
    std::fs::write(&path, serde_json::to_string_pretty(&f).unwrap()).unwrap();
    let (code, out, _) = run(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("solve.core-unreachable"), "{out}");
    let (code, _, err) = run(&["render", path.to_str().unwrap(), "--out", d.join("out").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("--force"));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn fortress_options_out_of_range_are_one_line_errors() {
    for (opt, val) in [("--areas", "2"), ("--areas", "41"), ("--party", "9"), ("--cl", "0")] {
        let (code, out, err) = run(&["fortress", opt, val, "--out", "/nonexistent/never-written"]);
        assert_eq!((code, out.as_str()), (2, ""), "{opt} {val}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(opt), "{err}");
    }
}
