//! Udonarium room data: the zip's `data.xml` has the element shapes Udonarium's classes read
//! (game-table, character, text-note, data), and every picture it names is in the zip under the
//! SHA-256 of its bytes.

use std::io::Read;

use roxmltree::{Document, Node};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::run;
use crate::vtt::temp;

struct Room {
    xml: String,
    /// (entry name, bytes) in zip order.
    files: Vec<(String, Vec<u8>)>,
}

fn unzip(bytes: &[u8]) -> Room {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    let mut files = Vec::new();
    for i in 0..z.len() {
        let mut f = z.by_index(i).expect("entry");
        let mut b = Vec::new();
        f.read_to_end(&mut b).expect("readable");
        files.push((f.name().expect("entry name").to_string(), b));
    }
    let xml = String::from_utf8(files.iter().find(|f| f.0 == "data.xml").expect("data.xml").1.clone()).expect("utf-8");
    Room { xml, files }
}

fn children<'a>(n: Node<'a, 'a>) -> Vec<Node<'a, 'a>> {
    n.children().filter(|c| c.is_element()).collect()
}

/// The `<data name=NAME>` child of `n`.
fn data<'a>(n: Node<'a, 'a>, name: &str) -> Node<'a, 'a> {
    children(n)
        .into_iter()
        .find(|c| c.has_tag_name("data") && c.attribute("name") == Some(name))
        .unwrap_or_else(|| panic!("no <data name=\"{name}\"> in <{} {:?}>", n.tag_name().name(), n.attribute("name")))
}

fn number(n: Node, attr: &str) -> f64 {
    n.attribute(attr).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{attr} is not a number"))
}

/// Every image identifier the document names: table attributes and `<data type="image">` values.
fn image_ids(doc: &Document) -> Vec<String> {
    let mut ids = Vec::new();
    for n in doc.descendants().filter(|n| n.is_element()) {
        for a in ["imageIdentifier", "backgroundImageIdentifier"] {
            if let Some(v) = n.attribute(a)
                && v != "imageIdentifier"
                && !v.is_empty()
            {
                ids.push(v.to_string());
            }
        }
        if n.has_tag_name("data") && n.attribute("type") == Some("image") {
            let v = n.text().unwrap_or("").trim().to_string();
            if !v.is_empty() {
                ids.push(v);
            }
        }
    }
    ids.sort();
    ids.dedup();
    ids
}

/// Counts of (tables, characters, notes, HP resources) after checking every element's shape.
fn check_room(room: &Room, what: &str) -> (usize, usize, usize, usize) {
    let doc = Document::parse(&room.xml).unwrap_or_else(|e| panic!("{what}: data.xml is not XML: {e}"));
    let root = doc.root_element();
    assert!(root.has_tag_name("room"), "{what}: the root is <room>");
    let (mut tables, mut chars, mut notes, mut hp, mut selected) = (0, 0, 0, 0, 0);
    for n in children(root) {
        match n.tag_name().name() {
            "game-table" => {
                tables += 1;
                assert!(!n.attribute("name").unwrap_or("").is_empty(), "{what}: a table has a name");
                assert!(number(n, "width") >= 1.0 && number(n, "height") >= 1.0, "{what}: table size");
                assert_eq!(number(n, "gridSize"), 50.0, "{what}");
                assert!(["-1", "0"].contains(&n.attribute("gridType").unwrap()), "{what}: gridType");
                let s = n.attribute("selected").unwrap();
                assert!(s == "true" || s == "false", "{what}: selected");
                selected += usize::from(s == "true");
            }
            "character" => {
                chars += 1;
                let place = n.attribute("location.name").unwrap();
                assert!(place == "table" || place == "common", "{what}: location {place}");
                number(n, "location.x");
                number(n, "location.y");
                let root = data(n, "character");
                let image = data(data(root, "image"), "imageIdentifier");
                assert_eq!(image.attribute("type"), Some("image"), "{what}");
                let common = data(root, "common");
                assert!(!data(common, "name").text().unwrap_or("").is_empty(), "{what}: a piece has a name");
                assert_eq!(data(common, "size").text(), Some("1"), "{what}");
                let detail = data(root, "detail");
                for r in detail.descendants().filter(|d| d.attribute("type") == Some("numberResource")) {
                    hp += 1;
                    assert_eq!(r.attribute("name"), Some("HP"), "{what}");
                    let max: f64 = r.text().unwrap().parse().expect("HP is a number");
                    assert_eq!(number(r, "currentValue"), max, "{what}: a fresh piece is at full HP");
                }
                let stats = data(detail, "Stats");
                assert!(!children(stats).is_empty(), "{what}: a piece carries its stats");
            }
            "text-note" => {
                notes += 1;
                let common = data(data(n, "text-note"), "common");
                for k in ["width", "height", "fontsize"] {
                    let v: f64 = data(common, k).text().unwrap().parse().expect("a number");
                    assert!(v >= 1.0, "{what}: {k}");
                }
                assert!(!data(common, "title").text().unwrap_or("").is_empty(), "{what}: a note has a title");
                let text = data(common, "text");
                assert_eq!(text.attribute("type"), Some("note"), "{what}");
                assert_eq!(text.attribute("currentValue"), text.text(), "{what}: note value and text agree");
            }
            other => panic!("{what}: <{other}> is not a room object Udonarium reads here"),
        }
    }
    assert_eq!(selected, 1, "{what}: exactly one table is shown first");
    // Every picture named is in the zip under its SHA-256, and nothing else is.
    let ids = image_ids(&doc);
    let mut pngs: Vec<String> = room.files.iter().filter(|f| f.0 != "data.xml").map(|f| f.0.clone()).collect();
    pngs.sort();
    assert_eq!(
        pngs,
        ids.iter().map(|i| format!("{i}.png")).collect::<Vec<_>>(),
        "{what}: pictures named = pictures zipped"
    );
    for (name, bytes) in room.files.iter().filter(|f| f.0 != "data.xml") {
        let hash: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(format!("{hash}.png"), *name, "{what}: a picture is named by its SHA-256");
        assert!(bytes.starts_with(b"\x89PNG"), "{what}: {name} is a PNG");
        assert!(bytes.len() < 2 * 1024 * 1024, "{what}: {name} is under Udonarium's 2 MB limit");
    }
    (tables, chars, notes, hp)
}

#[test]
fn myk_udonarium_room_has_every_map_piece_and_room_note() {
    let dir = temp("udon-myk");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["myk", "--seed", "42", "--maps", "2", "--format", "json,udonarium", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let room = unzip(&std::fs::read(dir.join("myk-42-udonarium.zip")).unwrap());
    let (tables, chars, notes, hp) = check_room(&room, "myk 42");
    let s: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("myk-42.json")).unwrap()).unwrap();
    let maps = s["maps"].as_array().unwrap();
    assert_eq!(tables, 2 * maps.len(), "a plan and a players' sheet per map");
    let rooms: Vec<&Value> =
        maps.iter().flat_map(|m| m["rooms"].as_array().unwrap()).filter(|r| r["used"] == true).collect();
    let groups: usize =
        rooms.iter().map(|r| r["monsters"].as_array().unwrap().len() + usize::from(!r["ruler"].is_null())).sum();
    assert_eq!(chars, groups, "one piece per monster group and ruler");
    assert_eq!(hp, groups, "every stocked monster has known HP, so every piece has an HP resource");
    assert_eq!(notes, rooms.len() + 1, "a note per used room and one for the scenario");
    // The scenario's title reads back as text (escaped on the way in).
    let doc = Document::parse(&room.xml).unwrap();
    let titles: Vec<&str> =
        doc.descendants().filter(|n| n.attribute("name") == Some("title")).filter_map(|n| n.text()).collect();
    assert!(titles.contains(&s["title"].as_str().unwrap()), "{titles:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fortress_udonarium_room_has_every_enemy_and_area_note() {
    let dir = temp("udon-nw3");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["fortress", "--seed", "7", "--format", "json,udonarium", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let room = unzip(&std::fs::read(dir.join("fortress-7-udonarium.zip")).unwrap());
    let (tables, chars, notes, hp) = check_room(&room, "fortress 7");
    let f: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("fortress-7.json")).unwrap()).unwrap();
    let areas = f["areas"].as_array().unwrap();
    assert_eq!(tables, 2, "the plan and the players' handout");
    let enemies: usize = areas
        .iter()
        .flat_map(|a| a["enemies"].as_array().unwrap())
        .map(|g| g["members"].as_array().unwrap().len())
        .sum();
    assert!(enemies > 0, "seed 7 has enemies");
    assert_eq!(chars, enemies + 1, "one piece per enemy line, and the Ruler");
    assert_eq!(hp, chars, "every enemy and the Ruler has Body, so every piece has an HP resource");
    assert_eq!(notes, areas.len() + 1, "a note per area and one for the fortress");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn names_with_markup_are_escaped_in_udonarium_and_pdf() {
    let dir = temp("udon-esc");
    let d = dir.to_str().unwrap();
    assert_eq!(run(&["myk", "--seed", "8", "--format", "json", "--out", d]).0, 0);
    let path = dir.join("myk-8.json");
    let mut s: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let evil = "<b>Tom & \"Jerry's\"</b>\nline";
    s["title"] = evil.into();
    for r in s["maps"][0]["rooms"].as_array_mut().unwrap() {
        if r["used"] == true {
            r["name"] = evil.into();
        }
    }
    std::fs::write(&path, serde_json::to_string(&s).unwrap()).unwrap();
    let out = dir.join("out");
    let (code, _, err) =
        run(&["render", path.to_str().unwrap(), "--format", "udonarium,pdf", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let room = unzip(&std::fs::read(out.join("myk-8-udonarium.zip")).unwrap());
    check_room(&room, "escaped");
    let doc = Document::parse(&room.xml).unwrap();
    let titles: Vec<&str> =
        doc.descendants().filter(|n| n.attribute("name") == Some("title")).filter_map(|n| n.text()).collect();
    assert!(titles.contains(&evil), "the title reads back unchanged: {titles:?}");
    let pdf = std::fs::read(out.join("myk-8.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    std::fs::remove_dir_all(&dir).ok();
}
