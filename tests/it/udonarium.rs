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
                // Udonarium's cells are 50 px; a table past 100 of them takes a coarser grid.
                assert!(number(n, "gridSize") >= 50.0 && number(n, "gridSize") % 50.0 == 0.0, "{what}");
                assert!(["-1", "0"].contains(&n.attribute("gridType").unwrap()), "{what}: gridType");
                let s = n.attribute("selected").unwrap();
                assert!(s == "true" || s == "false", "{what}: selected");
                selected += usize::from(s == "true");
            }
            "character" => {
                chars += 1;
                let place = n.attribute("location.name").unwrap();
                assert!(place == "table" || place == "common", "{what}: location {place}");
                // The chat palette, as Udonarium reads it: a <chat-palette> child naming a BCDice
                // system, one command per line.
                let palette = children(n).into_iter().find(|c| c.has_tag_name("chat-palette")).expect("a chat palette");
                let bot = palette.attribute("dicebot").unwrap_or("");
                assert!(["MeikyuKingdom", "NightWizard3rd"].contains(&bot), "{what}: dicebot {bot:?}");
                let lines: Vec<&str> = palette.text().unwrap_or("").lines().collect();
                assert!(!lines.is_empty(), "{what}: an empty palette");
                let command = |l: &&str| {
                    let c = l.split(' ').next().unwrap_or("");
                    c.contains("MK") || c.contains("NW") || c.contains('D') || c == "NT"
                };
                let monster = n.descendants().any(|d| d.attribute("type") == Some("numberResource"));
                assert!(!monster || lines.iter().any(command), "{what}: no dice command in {lines:?}");
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

/// Strings only the GM may read, from a scenario's JSON: trap names, rulers, monsters, weak
/// points and the like, and the word "secret".
fn gm_only(v: &Value) -> Vec<String> {
    let mut out = vec!["Secret".to_string(), "secret".to_string()];
    let mut walk = vec![v];
    while let Some(x) = walk.pop() {
        match x {
            Value::Object(o) => {
                for (k, val) in o {
                    if let (Some(t), true) = (
                        val.as_str(),
                        ["traps", "trap", "ruler", "members", "monsters", "adjustments"].contains(&k.as_str())
                            || k == "name" && o.contains_key("stats"),
                    ) {
                        out.push(t.to_string());
                    }
                    if ["traps", "trap", "ruler", "members", "monsters", "adjustments", "logic", "core"]
                        .contains(&k.as_str())
                    {
                        collect_names(val, &mut out);
                    }
                    walk.push(val);
                }
            }
            Value::Array(a) => walk.extend(a),
            _ => {}
        }
    }
    out.retain(|s| s.len() > 3 && !["warfare", "range", "damage", "defense"].contains(&s.as_str()));
    out.sort();
    out.dedup();
    out
}

/// Every `name`, `what` and `weaknesses` string under `v`.
fn collect_names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, val) in o {
                if ["name", "what"].contains(&k.as_str()) {
                    out.extend(val.as_str().map(str::to_string));
                }
                if k == "weaknesses" {
                    out.extend(val.as_array().into_iter().flatten().filter_map(|w| w.as_str().map(str::to_string)));
                }
                collect_names(val, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_names(x, out)),
        _ => {}
    }
}

/// The players' zip: tables and notes only, none of `secrets` anywhere in it.
fn assert_players_room_keeps_secrets(room: &Room, secrets: &[String], what: &str) {
    let (_, chars, _, _) = check_room(room, what);
    assert_eq!(chars, 0, "{what}: no piece in the players' room");
    for s in secrets {
        assert!(!room.xml.contains(s.as_str()), "{what}: the players' room names GM-only {s:?}");
    }
}

/// Pieces on the table (name, cell) from a room.
fn table_pieces(room: &Room) -> Vec<(String, f64, f64)> {
    let doc = Document::parse(&room.xml).unwrap();
    children(doc.root_element())
        .into_iter()
        .filter(|n| n.has_tag_name("character") && n.attribute("location.name") == Some("table"))
        .map(|n| {
            let name = data(data(data(n, "character"), "common"), "name").text().unwrap_or("").to_string();
            (name, number(n, "location.x"), number(n, "location.y"))
        })
        .collect()
}

/// Each piece inside a room of `plan`; its body and name tag clear of every other piece's and of
/// every room's label.
fn assert_pieces_stand_clear(room: &Room, plan: &dungeonsmith::render::plan::Plan, what: &str) -> usize {
    use dungeonsmith::render::udonarium::{name_tag, room_label};
    let overlap = |a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)| a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
    let pieces = table_pieces(room);
    let boxes: Vec<[(f64, f64, f64, f64); 2]> =
        pieces.iter().map(|(n, x, y)| [(*x, *y, x + 50.0, y + 50.0), name_tag(n, *x, *y)]).collect();
    for (i, (name, x, y)) in pieces.iter().enumerate() {
        let inside = plan.rooms.iter().any(|r| {
            let (rx, ry) = (f64::from(r.x) * 50.0, f64::from(r.y) * 50.0);
            *x >= rx && *y >= ry && x + 50.0 <= rx + f64::from(r.w) * 50.0 && y + 50.0 <= ry + f64::from(r.h) * 50.0
        });
        assert!(inside, "{what}: {name} stands outside every room");
        for r in &plan.rooms {
            for b in boxes[i] {
                assert!(!overlap(b, room_label(r)), "{what}: {name} or its tag touches room {}'s label", r.key);
            }
        }
        for (j, other) in boxes.iter().enumerate().skip(i + 1) {
            for a in boxes[i] {
                for b in other {
                    assert!(!overlap(a, *b), "{what}: {name} and {} touch", pieces[j].0);
                }
            }
        }
    }
    pieces.len()
}

#[test]
fn myk_udonarium_rooms_split_the_players_map_from_the_gms_pieces_and_notes() {
    let dir = temp("udon-myk");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["myk", "--seed", "42", "--maps", "2", "--format", "json,udonarium", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let players = unzip(&std::fs::read(dir.join("myk-42-udonarium.zip")).unwrap());
    let gm = unzip(&std::fs::read(dir.join("myk-42-udonarium-gm.zip")).unwrap());
    let text = std::fs::read_to_string(dir.join("myk-42.json")).unwrap();
    let s: Value = serde_json::from_str(&text).unwrap();
    let maps = s["maps"].as_array().unwrap();
    let (tables, _, notes, _) = check_room(&players, "myk 42 players");
    assert_eq!((tables, notes), (2 * maps.len(), 1), "a plan and a players' sheet per map, a title note");
    assert_players_room_keeps_secrets(&players, &gm_only(&s), "myk 42 players");
    let (tables, chars, notes, hp) = check_room(&gm, "myk 42 gm");
    assert_eq!(tables, maps.len(), "the GM's plan per map");
    let rooms: Vec<&Value> =
        maps.iter().flat_map(|m| m["rooms"].as_array().unwrap()).filter(|r| r["used"] == true).collect();
    let monsters: u64 = rooms
        .iter()
        .map(|r| {
            r["monsters"].as_array().unwrap().iter().map(|m| m["count"].as_u64().unwrap()).sum::<u64>()
                + u64::from(!r["ruler"].is_null())
        })
        .sum();
    // A room's marker holds its traps and those of the corridors the booklet lists under it.
    let corridor_trap = |m: &Value, id: &Value| {
        m["corridors"].as_array().unwrap().iter().any(|c| c["a"] == *id && !c["trap"].is_null())
    };
    let markers: usize = maps
        .iter()
        .flat_map(|m| m["rooms"].as_array().unwrap().iter().map(move |r| (m, r)))
        .filter(|(m, r)| {
            r["used"] == true && (!r["traps"].as_array().unwrap().is_empty() || corridor_trap(m, &r["id"]))
        })
        .count();
    let cast = s["cast"].as_array().unwrap();
    let fighters = cast.iter().filter(|n| !n["fights"].is_null()).count();
    assert_eq!(
        chars,
        monsters as usize + markers + cast.len(),
        "one piece per monster and ruler, a marker per trapped room, a piece per cast NPC"
    );
    assert_eq!(hp, monsters as usize + fighters, "every monster and fighting NPC has its own HP");
    assert!(notes >= rooms.len() + 2, "a note (or more) per used room, the scenario's and the colours' legend");
    let titles: Vec<String> = notes_with_footprints(&gm).into_iter().map(|n| n.0).collect();
    for (m, r) in maps.iter().flat_map(|m| m["rooms"].as_array().unwrap().iter().map(move |r| (m, r))) {
        let head = format!("Map {} {}", m["index"], r["id"].as_str().unwrap());
        assert!(r["used"] != true || titles.iter().any(|t| t.starts_with(&head)), "a note for {head}: {titles:?}");
    }
    let back: dungeonsmith::myk::Scenario = serde_json::from_str(&text).unwrap();
    let plan = dungeonsmith::render::plan::myk_plan(&back.maps[0]);
    assert!(assert_pieces_stand_clear(&gm, &plan, "myk 42 gm") > 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn myk_seed_1_pieces_stand_apart_and_the_players_room_keeps_the_secret_corridor() {
    let dir = temp("udon-myk-1");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["myk", "--seed", "1", "--format", "json,udonarium", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("myk-1.json")).unwrap();
    let s: Value = serde_json::from_str(&text).unwrap();
    let players = unzip(&std::fs::read(dir.join("myk-1-udonarium.zip")).unwrap());
    assert_players_room_keeps_secrets(&players, &gm_only(&s), "myk 1 players");
    let gm = unzip(&std::fs::read(dir.join("myk-1-udonarium-gm.zip")).unwrap());
    check_room(&gm, "myk 1 gm");
    let back: dungeonsmith::myk::Scenario = serde_json::from_str(&text).unwrap();
    let plan = dungeonsmith::render::plan::myk_plan(&back.maps[0]);
    let n = assert_pieces_stand_clear(&gm, &plan, "myk 1 gm");
    // Seed 1's four skeletons are four pieces.
    let names: Vec<String> = table_pieces(&gm).into_iter().map(|p| p.0).collect();
    assert!(n >= 4 && names.iter().any(|n| n.ends_with(" 2")), "{names:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fortress_udonarium_rooms_split_the_players_map_from_the_gms_pieces_and_notes() {
    for seed in ["7", "1", "3"] {
        let dir = temp(&format!("udon-nw3-{seed}"));
        let d = dir.to_str().unwrap();
        let (code, _, err) = run(&["fortress", "--seed", seed, "--format", "json,udonarium", "--out", d]);
        assert_eq!(code, 0, "{err}");
        let what = format!("fortress {seed}");
        let players = unzip(&std::fs::read(dir.join(format!("fortress-{seed}-udonarium.zip"))).unwrap());
        let gm = unzip(&std::fs::read(dir.join(format!("fortress-{seed}-udonarium-gm.zip"))).unwrap());
        let text = std::fs::read_to_string(dir.join(format!("fortress-{seed}.json"))).unwrap();
        let f: Value = serde_json::from_str(&text).unwrap();
        let (tables, _, notes, _) = check_room(&players, &what);
        let pcs = f["episode"]["handouts"].as_array().map_or(0, Vec::len);
        assert_eq!((tables, notes), (2, 1 + pcs), "the plan and the players' handout, a title note, a note per PC");
        assert_players_room_keeps_secrets(&players, &gm_only(&f), &what);
        let (tables, chars, notes, hp) = check_room(&gm, &what);
        let areas = f["areas"].as_array().unwrap();
        assert_eq!(tables, 1, "the GM's plan");
        let enemies: u64 = areas
            .iter()
            .flat_map(|a| a["enemies"].as_array().unwrap())
            .flat_map(|g| g["members"].as_array().unwrap())
            .map(|m| m["count"].as_u64().unwrap())
            .sum();
        assert_eq!(hp, enemies as usize + 1, "one piece per enemy, and the Ruler, each with its Body");
        assert!(chars >= hp, "and the GM's markers");
        assert!(notes >= areas.len() + 2 + pcs, "a note per area, the fortress's, the colours' legend, the handouts");
        let loose = all_pieces(&gm).into_iter().filter(|p| p.1 == "common").count();
        let back: dungeonsmith::nw3::Fortress = serde_json::from_str(&text).unwrap();
        let plan = dungeonsmith::render::udonarium::fortress_gm_plan(&back);
        assert_eq!(assert_pieces_stand_clear(&gm, &plan, &what), chars - loose, "every piece stands in its area");
        assert!(loose <= pcs, "only the Connections wait in the inventory");
        std::fs::remove_dir_all(&dir).ok();
    }
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
    s["maps"][0]["name"] = evil.into();
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
    let room = unzip(&std::fs::read(out.join("myk-8-udonarium-gm.zip")).unwrap());
    check_room(&room, "escaped");
    check_room(&unzip(&std::fs::read(out.join("myk-8-udonarium.zip")).unwrap()), "escaped players");
    let doc = Document::parse(&room.xml).unwrap();
    let titles: Vec<&str> =
        doc.descendants().filter(|n| n.attribute("name") == Some("title")).filter_map(|n| n.text()).collect();
    // The scenario's note may be split in parts ("(1/3)"): its title opens with the title.
    assert!(titles.iter().any(|t| t.starts_with(evil)), "the title reads back unchanged: {titles:?}");
    // In an attribute too (a table's name), line break and all; and nowhere as markup.
    let table = format!("Map 1: {evil}");
    let tables: Vec<&str> =
        doc.descendants().filter(|n| n.has_tag_name("game-table")).filter_map(|n| n.attribute("name")).collect();
    assert!(tables.contains(&table.as_str()), "the map's name reads back from its table: {tables:?}");
    let players = unzip(&std::fs::read(out.join("myk-8-udonarium.zip")).unwrap());
    for xml in [&room.xml, &players.xml] {
        assert!(!xml.contains("<b>") && !xml.contains("Jerry's"), "user text is escaped, not markup");
        assert!(
            xml.contains("&lt;b&gt;Tom &amp; &quot;Jerry&apos;s&quot;&lt;/b&gt;&#10;line"),
            "escaped in an attribute"
        );
    }
    let pdf = std::fs::read(out.join("myk-8.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every piece on the table: (name, cell x, cell y, token image, chat palette lines).
fn table_sheets(room: &Room) -> Vec<(String, f64, f64, String, Vec<String>)> {
    let doc = Document::parse(&room.xml).unwrap();
    children(doc.root_element())
        .into_iter()
        .filter(|n| n.has_tag_name("character") && n.attribute("location.name") == Some("table"))
        .map(|n| {
            let root = data(n, "character");
            let name = data(data(root, "common"), "name").text().unwrap_or("").to_string();
            let image = data(data(root, "image"), "imageIdentifier").text().unwrap_or("").to_string();
            let palette = children(n).into_iter().find(|c| c.has_tag_name("chat-palette")).unwrap();
            let lines = palette.text().unwrap_or("").lines().map(str::to_string).collect();
            (name, number(n, "location.x"), number(n, "location.y"), image, lines)
        })
        .collect()
}

#[test]
fn pieces_of_one_room_have_tokens_that_tell_them_apart() {
    // Udonarium draws a piece as its picture: the four skeletons of myk seed 1 or the four
    // cranes of fortress seed 7 each need their own (their number on it), and the markers of
    // A1 and A2 (or of areas 1 and 10) theirs.
    let dir = temp("udon-tokens");
    let d = dir.to_str().unwrap();
    assert_eq!(run(&["myk", "--seed", "1", "--format", "json,udonarium", "--out", d]).0, 0);
    assert_eq!(run(&["fortress", "--seed", "7", "--areas", "30", "--format", "json,udonarium", "--out", d]).0, 0);
    let myk: dungeonsmith::myk::Scenario =
        serde_json::from_str(&std::fs::read_to_string(dir.join("myk-1.json")).unwrap()).unwrap();
    let nw3: dungeonsmith::nw3::Fortress =
        serde_json::from_str(&std::fs::read_to_string(dir.join("fortress-7.json")).unwrap()).unwrap();
    let rooms = [
        ("myk-1-udonarium-gm.zip", dungeonsmith::render::plan::myk_plan(&myk.maps[0])),
        ("fortress-7-udonarium-gm.zip", dungeonsmith::render::udonarium::fortress_gm_plan(&nw3)),
    ];
    for (zip, plan) in rooms {
        let pieces = table_sheets(&unzip(&std::fs::read(dir.join(zip)).unwrap()));
        let mut crowded = 0;
        for r in &plan.rooms {
            let (x0, y0) = (f64::from(r.x) * 50.0, f64::from(r.y) * 50.0);
            let (x1, y1) = (x0 + f64::from(r.w) * 50.0, y0 + f64::from(r.h) * 50.0);
            let here: Vec<_> = pieces.iter().filter(|p| p.1 >= x0 && p.1 < x1 && p.2 >= y0 && p.2 < y1).collect();
            crowded += usize::from(here.len() >= 4);
            for (i, a) in here.iter().enumerate() {
                for b in &here[i + 1..] {
                    assert_ne!(a.3, b.3, "{zip} room {}: {} and {} look alike", r.key, a.0, b.0);
                }
            }
        }
        assert!(crowded > 0, "{zip}: a room with four pieces or more was tried");
        let markers: Vec<&String> = pieces.iter().filter(|p| p.0.starts_with("GM ")).map(|p| &p.3).collect();
        let mut distinct = markers.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), markers.len(), "{zip}: every GM marker shows its own room");
    }
    assert_eq!(dungeonsmith::render::udonarium::token_label("Crane Swarm 3"), "CS3");
    assert_eq!(dungeonsmith::render::udonarium::token_label("Hollow Commuter Mob 12"), "HC12");
    assert_eq!(dungeonsmith::render::udonarium::token_label("Demonic Steel"), "DS");
    std::fs::remove_dir_all(&dir).ok();
}

/// Whether a chat-palette line starts with a command BCDice's `MeikyuKingdom` rolls (as the
/// system reads it: `nMK+m` with an optional `>=N`, `xDy+m`, a table such as `NT`), and the
/// command's target when it has one.
fn myk_command(line: &str) -> Option<Option<u32>> {
    let c = line.split(' ').next().unwrap_or("");
    let (roll, target) = match c.split_once(">=") {
        Some((r, t)) => (r, Some(t.parse::<u32>().ok()?)),
        None => (c, None),
    };
    let dice = |s: &str, sep: &str| {
        let (n, rest) = s.split_once(sep)?;
        let (sides, plus) = rest.split_once('+').unwrap_or((rest, "0"));
        (n.parse::<u32>().is_ok() && (sep == "MK" || sides.parse::<u32>().is_ok()) && plus.parse::<u32>().is_ok())
            .then_some(())
    };
    let mk = roll.strip_suffix("MK").map(|n| n.parse::<u32>().is_ok()).unwrap_or(false)
        || roll.contains("MK+") && dice(roll, "MK").is_some();
    (mk || dice(roll, "D").is_some() || roll == "NT").then_some(target)
}

#[test]
fn myk_trap_judges_roll_in_the_gms_palettes_with_the_scenarios_difficulties() {
    // Seed 003 l.1929: a Search (Wit or Quest) finds a room's, a corridor's or an object's traps
    // against court + 7; l.5599: a Check trap is disarmed against its listed difficulty (+ its
    // level where the book says so). Both are `2MK>=N` lines on the trapped room's marker.
    let (mut found, mut disarmed) = (0, 0);
    for (seed, court) in [("1", 4u32), ("42", 4), ("5", 6)] {
        let dir = temp(&format!("udon-traps-{seed}"));
        let d = dir.to_str().unwrap();
        let (code, _, err) = run(&[
            "myk",
            "--seed",
            seed,
            "--maps",
            "2",
            "--court-size",
            &court.to_string(),
            "--format",
            "json,udonarium",
            "--out",
            d,
        ]);
        assert_eq!(code, 0, "{err}");
        let s: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("myk-{seed}.json"))).unwrap()).unwrap();
        let gm = unzip(&std::fs::read(dir.join(format!("myk-{seed}-udonarium-gm.zip"))).unwrap());
        let doc = Document::parse(&gm.xml).unwrap();
        // Every piece's palette as Udonarium sends it, pieces on the table and in the inventory alike.
        let lines: Vec<String> = evaluated_palettes(&doc).into_iter().flatten().collect();
        let mut traps: Vec<&Value> = Vec::new();
        for m in s["maps"].as_array().unwrap() {
            for r in m["rooms"].as_array().unwrap().iter().filter(|r| r["used"] == true) {
                traps.extend(r["traps"].as_array().unwrap());
            }
            traps
                .extend(m["corridors"].as_array().unwrap().iter().filter(|c| !c["trap"].is_null()).map(|c| &c["trap"]));
        }
        assert!(traps.len() >= 4, "seed {seed}: traps to judge");
        for t in traps {
            let name = t["name"].as_str().unwrap();
            let mine: Vec<&String> = lines
                .iter()
                .filter(|l| l.contains(&format!(" {name}: ")) || l.starts_with(&format!("{name}: ")))
                .collect();
            let find = mine.iter().find(|l| l.contains("find it"));
            if t["placement"] == "area" {
                assert!(find.is_none(), "seed {seed}: no Search finds the combat trap {name}");
            } else {
                let find = find.unwrap_or_else(|| panic!("seed {seed}: no Search line for {name}: {mine:?}"));
                assert_eq!(myk_command(find), Some(Some(court + 7)), "seed {seed}: {find}");
                found += 1;
            }
            let disarm = t["disarm"].as_str().unwrap();
            let check = disarm.split_once(" / ").filter(|(a, _)| ["Wit", "Quest", "Charisma", "Warfare"].contains(a));
            let line =
                mine.iter().find(|l| l.contains("disarm")).unwrap_or_else(|| panic!("no disarm line for {name}"));
            match check {
                Some((_, n)) if !n.contains('(') => {
                    let base: u32 = n.split(' ').next().unwrap().parse().unwrap();
                    let level = t["level"].as_u64().unwrap() as u32 - if t["converted"] == true { 3 } else { 0 };
                    let want = base + if n.ends_with("+ trap level") { level } else { 0 };
                    assert_eq!(myk_command(line), Some(Some(want)), "seed {seed}: {line} for {disarm}");
                    disarmed += 1;
                }
                // Discovery, Impossible, a described removal or a number the scenario cannot know:
                // a line of text that BCDice leaves alone.
                _ => assert_eq!(myk_command(line), None, "seed {seed}: {line} is no roll for {disarm}"),
            }
            // And when it goes off, in words with the book's name of its activation after them.
            let activation = t["activation"].as_str().unwrap();
            let when = format!("({})", activation[..1].to_uppercase() + &activation[1..]);
            assert!(
                mine.iter().any(|l| l.starts_with(&format!("{name}: ")) && l.ends_with(&when)),
                "seed {seed}: no line says when {name} goes off ({activation}): {mine:?}"
            );
        }
        for l in &lines {
            let c = l.split(' ').next().unwrap_or("");
            if c.contains("MK") || c.contains(">=") {
                assert!(myk_command(l).is_some(), "seed {seed}: {l:?} is not a command MeikyuKingdom reads");
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
    assert!(found >= 10 && disarmed >= 2, "{found} searches, {disarmed} disarm checks tried");
}

/// Each piece's chat-palette lines as Udonarium sends them: every `{name}` replaced by the value
/// of the piece's data element of that name (ChatPalette.evaluate; an unknown name panics here,
/// where Udonarium would send an empty string).
fn evaluated_palettes(doc: &Document) -> Vec<Vec<String>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("character"))
        .map(|c| {
            let palette = children(c).into_iter().find(|p| p.has_tag_name("chat-palette")).expect("a palette");
            palette
                .text()
                .unwrap_or("")
                .lines()
                .map(|line| {
                    let mut out = String::new();
                    let mut rest = line;
                    while let Some(i) = rest.find('{') {
                        let j = rest[i..].find('}').map(|j| i + j).unwrap_or_else(|| panic!("unclosed {{ in {line:?}"));
                        let name = rest[i + 1..j].trim();
                        let field = c
                            .descendants()
                            .find(|d| d.has_tag_name("data") && d.attribute("name") == Some(name))
                            .unwrap_or_else(|| panic!("{line:?} reads {name:?}, which the piece's sheet lacks"));
                        out.push_str(&rest[..i]);
                        out.push_str(field.text().unwrap_or("").trim());
                        rest = &rest[j + 1..];
                    }
                    out + rest
                })
                .collect()
        })
        .collect()
}

#[test]
fn judges_read_the_rollers_score_from_the_pieces_own_sheet() {
    // A judge a PC rolls (Search, disarm, trap detection and removal, Danger Sense) names the
    // roller's score by a sheet field (`{PC Perception}NW>=12`), so that the line rolls with the
    // score the GM types there, not with none; every field a line reads is on its piece's sheet.
    let dir = temp("udon-judges");
    let d = dir.to_str().unwrap();
    assert_eq!(run(&["myk", "--seed", "1", "--format", "udonarium", "--out", d]).0, 0);
    assert_eq!(run(&["fortress", "--seed", "1", "--areas", "10", "--format", "udonarium", "--out", d]).0, 0);
    for (zip, judge) in [("myk-1-udonarium-gm.zip", ">="), ("fortress-1-udonarium-gm.zip", "NW>=")] {
        let room = unzip(&std::fs::read(dir.join(zip)).unwrap());
        let doc = Document::parse(&room.xml).unwrap();
        let raw: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("chat-palette"))
            .flat_map(|n| n.text().unwrap_or("").lines())
            .collect();
        let judges: Vec<&&str> = raw.iter().filter(|l| l.contains(judge)).collect();
        assert!(judges.len() >= 3, "{zip}: judges {judges:?}");
        for l in &judges {
            let c = l.split(' ').next().unwrap();
            assert!(l.starts_with('{') || c.contains("+{"), "{zip}: {l:?} rolls without the roller's score");
        }
        let evaluated: Vec<String> = evaluated_palettes(&doc).into_iter().flatten().collect();
        for l in evaluated.iter().filter(|l| l.contains(">=")) {
            let c = l.split(' ').next().unwrap();
            let (roll, target) = c.split_once(">=").unwrap();
            assert!(target.parse::<u32>().is_ok(), "{zip}: {l:?}");
            let ok = match roll.split_once("NW") {
                Some((base, "")) => base.parse::<u32>().is_ok(),
                _ => roll.strip_prefix("2MK+").is_some_and(|n| n.parse::<u32>().is_ok()),
            };
            assert!(ok, "{zip}: {l:?} is not a judge its BCDice system reads");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The notes of a room: (title, text, footprint in pixels), the footprint centred on the note's
/// position as Udonarium places it.
fn notes_with_footprints(room: &Room) -> Vec<(String, String, dungeonsmith::render::udonarium::Box2)> {
    let doc = Document::parse(&room.xml).unwrap();
    children(doc.root_element())
        .into_iter()
        .filter(|n| n.has_tag_name("text-note"))
        .map(|n| {
            let common = data(data(n, "text-note"), "common");
            let cells = |k: &str| -> f64 { data(common, k).text().unwrap().parse().expect("a number") };
            let at = (number(n, "location.x"), number(n, "location.y"));
            let foot = dungeonsmith::render::udonarium::note_footprint(at.0, at.1, cells("width"), cells("height"));
            let title = data(common, "title").text().unwrap_or("").to_string();
            (title, data(common, "text").text().unwrap_or("").to_string(), foot)
        })
        .collect()
}

/// Udonarium centres a note on its position: in every GM room (MYK with one to three maps,
/// fortresses of 10 to 40 areas) no note's footprint reaches over a piece, its name tag or the
/// plan of the map shown first.
#[test]
fn no_note_footprint_covers_a_piece_or_the_map_in_a_gm_room() {
    use dungeonsmith::render::udonarium::name_tag;
    let overlap = |a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)| a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
    let dir = temp("udon-notes");
    let d = dir.to_str().unwrap();
    let mut checked = (0, 0);
    for seed in 1..=6u64 {
        let (s, maps, areas) = (seed.to_string(), (seed % 3 + 1).to_string(), (10 + seed * 5).to_string());
        let runs = [
            (vec!["myk", "--seed", &s, "--maps", &maps], format!("myk-{seed}")),
            (vec!["fortress", "--seed", &s, "--areas", &areas], format!("fortress-{seed}")),
        ];
        for (args, stem) in runs {
            let mut args = args.clone();
            args.extend(["--format", "json,udonarium", "--out", d]);
            let (code, _, err) = run(&args);
            assert_eq!(code, 0, "{err}");
            let gm = unzip(&std::fs::read(dir.join(format!("{stem}-udonarium-gm.zip"))).unwrap());
            let text = std::fs::read_to_string(dir.join(format!("{stem}.json"))).unwrap();
            let plan = if stem.starts_with("myk") {
                let back: dungeonsmith::myk::Scenario = serde_json::from_str(&text).unwrap();
                dungeonsmith::render::plan::myk_plan(&back.maps[0])
            } else {
                let back: dungeonsmith::nw3::Fortress = serde_json::from_str(&text).unwrap();
                dungeonsmith::render::udonarium::fortress_gm_plan(&back)
            };
            let map = (0.0, 0.0, f64::from(plan.w) * 50.0, f64::from(plan.h) * 50.0);
            let pieces = table_pieces(&gm);
            for (title, _, foot) in notes_with_footprints(&gm) {
                checked.0 += 1;
                assert!(!overlap(foot, map), "{stem}: the note {title:?} reaches over the map");
                for (name, x, y) in &pieces {
                    checked.1 += 1;
                    let body = (*x, *y, x + 50.0, y + 50.0);
                    assert!(!overlap(foot, body), "{stem}: the note {title:?} covers {name}");
                    assert!(!overlap(foot, name_tag(name, *x, *y)), "{stem}: the note {title:?} covers {name}'s tag");
                }
            }
        }
    }
    assert!(checked.0 > 100 && checked.1 > 1000, "notes and pieces were compared: {checked:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The colour of a token picture: the pixel inside its circle, above its label.
fn token_colour(room: &Room, image: &str) -> String {
    let bytes = &room.files.iter().find(|f| f.0 == format!("{image}.png")).expect("the token's picture").1;
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes.as_slice())).read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    let at = (14 * info.width as usize + 50) * channels;
    format!("#{:02x}{:02x}{:02x}", buf[at], buf[at + 1], buf[at + 2])
}

/// A MYK monster's token is coloured by its reaction (hostile, neutral, friendly), a ruler's and
/// a GM marker's by what it is, and the GM room's legend note names every colour a token shows.
#[test]
fn myk_tokens_are_coloured_by_reaction_and_the_legend_names_each_colour() {
    use dungeonsmith::render::udonarium::colour;
    let dir = temp("udon-colours");
    let d = dir.to_str().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..=12u64 {
        let s = seed.to_string();
        let (code, _, err) = run(&["myk", "--seed", &s, "--maps", "2", "--format", "udonarium", "--out", d]);
        assert_eq!(code, 0, "{err}");
        let gm = unzip(&std::fs::read(dir.join(format!("myk-{seed}-udonarium-gm.zip"))).unwrap());
        let legend = notes_with_footprints(&gm).into_iter().find(|n| n.0 == "Token colours").expect("a legend note").1;
        let doc = Document::parse(&gm.xml).unwrap();
        for n in children(doc.root_element()).into_iter().filter(|n| n.has_tag_name("character")) {
            let root = data(n, "character");
            let image = data(data(root, "image"), "imageIdentifier").text().unwrap_or("").to_string();
            let stats = data(data(root, "detail"), "Stats");
            let stat =
                |k: &str| children(stats).into_iter().find(|c| c.attribute("name") == Some(k)).and_then(|c| c.text());
            let name = data(data(root, "common"), "name").text().unwrap_or("").to_string();
            let want = match (stat("Reaction"), stat("Traps"), stat("Role")) {
                (Some("hostile"), _, _) => colour::HOSTILE,
                (Some("neutral"), _, _) => colour::NEUTRAL,
                (Some("friendly"), _, _) => colour::FRIENDLY,
                (None, Some(_), _) => colour::MARKER,
                (None, None, Some(_)) => colour::CAST,
                _ => colour::RULER,
            };
            assert_eq!(token_colour(&gm, &image), want, "seed {seed}: {name}");
            assert!(legend.contains(want), "seed {seed}: the legend names {want}");
            seen.insert(want);
        }
    }
    assert!(seen.len() >= 5, "hostile, neutral or friendly monsters, rulers, markers and cast were seen: {seen:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every piece of a room, on the table or in the inventory: (name, place).
fn all_pieces(room: &Room) -> Vec<(String, String)> {
    let doc = Document::parse(&room.xml).unwrap();
    children(doc.root_element())
        .into_iter()
        .filter(|n| n.has_tag_name("character"))
        .map(|n| {
            let name = data(data(data(n, "character"), "common"), "name").text().unwrap_or("").to_string();
            (name, n.attribute("location.name").unwrap_or("").to_string())
        })
        .collect()
}

/// Every table of a room: (name, width, height, gridSize, picture identifier).
fn tables_of(room: &Room) -> Vec<(String, f64, f64, f64, String)> {
    let doc = Document::parse(&room.xml).unwrap();
    children(doc.root_element())
        .into_iter()
        .filter(|n| n.has_tag_name("game-table"))
        .map(|n| {
            let image = n.attribute("imageIdentifier").unwrap_or("").to_string();
            (
                n.attribute("name").unwrap_or("").to_string(),
                number(n, "width"),
                number(n, "height"),
                number(n, "gridSize"),
                image,
            )
        })
        .collect()
}

/// The notes of a room as Udonarium stands them, whole: each note's declared height holds its
/// text ([`note_height`]), no note is taller than [`NOTE_MAX_H`], no two notes' footprints
/// (seen from the opening view) meet, and none covers a piece on the table or its name tag.
fn assert_notes_stand_apart(room: &Room, what: &str) -> usize {
    use dungeonsmith::render::udonarium::{NOTE_MAX_H, name_tag, note_height};
    let overlap = |a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)| a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
    let doc = Document::parse(&room.xml).unwrap();
    let notes: Vec<(String, f64, f64, dungeonsmith::render::udonarium::Box2)> = children(doc.root_element())
        .into_iter()
        .filter(|n| n.has_tag_name("text-note"))
        .map(|n| {
            let common = data(data(n, "text-note"), "common");
            let cells = |k: &str| -> f64 { data(common, k).text().unwrap().parse().expect("a number") };
            let text = data(common, "text").text().unwrap_or("");
            let title = data(common, "title").text().unwrap_or("").to_string();
            let (w, h) = (cells("width"), cells("height"));
            assert!(f64::from(note_height(text, w as u32)) <= h, "{what}: {title:?} is taller than its {h} cells");
            let at = (number(n, "location.x"), number(n, "location.y"));
            (title, w, h, dungeonsmith::render::udonarium::note_footprint(at.0, at.1, w, h))
        })
        .collect();
    let pieces = table_pieces(room);
    for (i, (title, _, h, foot)) in notes.iter().enumerate() {
        assert!(*h <= f64::from(NOTE_MAX_H), "{what}: {title:?} is {h} cells tall");
        for (other, _, _, b) in &notes[i + 1..] {
            assert!(!overlap(*foot, *b), "{what}: the notes {title:?} and {other:?} overlap");
        }
        for (name, x, y) in &pieces {
            assert!(!overlap(*foot, (*x, *y, x + 50.0, y + 50.0)), "{what}: {title:?} covers {name}");
            assert!(!overlap(*foot, name_tag(name, *x, *y)), "{what}: {title:?} covers {name}'s tag");
        }
    }
    notes.len()
}

/// Every table within Udonarium's size limit (1 to 100 cells a side), its grid a whole number of
/// Udonarium's 50 px cells.
fn assert_tables_within_limits(room: &Room, what: &str) {
    for (name, w, h, grid, _) in tables_of(room) {
        assert!((1.0..=100.0).contains(&w) && (1.0..=100.0).contains(&h), "{what}: table {name:?} is {w} x {h}");
        assert!(grid >= 50.0 && grid % 50.0 == 0.0, "{what}: table {name:?} has a grid of {grid} px");
    }
}

/// The picture `image` of a room decoded: (width, samples per pixel, pixels).
fn decoded(room: &Room, image: &str) -> (usize, usize, Vec<u8>) {
    let bytes = &room.files.iter().find(|f| f.0 == format!("{image}.png")).expect("the table's picture").1;
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes.as_slice())).read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    (info.width as usize, info.color_type.samples(), buf)
}

/// The RGB of a decoded picture at our cell (x, y) of a table `cells_w` of ours wide.
fn cell_colour(pic: &(usize, usize, Vec<u8>), cells_w: f64, (x, y): (u32, u32)) -> (u8, u8, u8) {
    let (width, samples, buf) = pic;
    let ppg = *width as f64 / cells_w;
    let (px, py) = (((f64::from(x) + 0.5) * ppg) as usize, ((f64::from(y) + 0.5) * ppg) as usize);
    let at = (py * width + px) * samples;
    (buf[at], buf[at + 1], buf[at + 2])
}

fn rgb(hex: &str) -> (u8, u8, u8) {
    let v = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    (v(1), v(3), v(5))
}

/// The players' plan table draws what their printed sheet shows and no more: the entrance (the
/// floor from the plan's edge to the first door; in a fortress, the Entrance area) drawn as
/// floor; every other room, area and corridor unexplored paper. Returns the cells checked.
fn assert_players_plan_shows_only_the_entrance(
    room: &Room,
    table: &str,
    plan: &dungeonsmith::render::plan::Plan,
    entrance_area: Option<&str>,
    what: &str,
) -> usize {
    use dungeonsmith::render::plan::{FLOOR, UNEXPLORED};
    let (_, w, _, grid, image) = tables_of(room).into_iter().find(|t| t.0 == table).expect("the plan's table");
    let cells_w = w * grid / 50.0;
    let pic = decoded(room, &image);
    let in_room = |x: u32, y: u32| plan.rooms.iter().find(|r| x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h);
    // The entrance corridors: floor outside every room reached from the plan's edge without
    // passing a room (a corridor between rooms never reaches the edge).
    let mut entrance = std::collections::BTreeSet::new();
    let mut stack: Vec<(u32, u32)> = (0..plan.w)
        .flat_map(|x| [(x, 0), (x, plan.h - 1)])
        .chain((0..plan.h).flat_map(|y| [(0, y), (plan.w - 1, y)]))
        .filter(|&(x, y)| {
            entrance_area.is_none() && plan.is_floor(i64::from(x), i64::from(y)) && in_room(x, y).is_none()
        })
        .collect();
    while let Some((x, y)) = stack.pop() {
        if !entrance.insert((x, y)) {
            continue;
        }
        for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
            if plan.is_floor(nx, ny) && in_room(nx as u32, ny as u32).is_none() {
                stack.push((nx as u32, ny as u32));
            }
        }
    }
    let mut checked = 0;
    for y in 0..plan.h {
        for x in 0..plan.w {
            if !plan.is_floor(i64::from(x), i64::from(y)) {
                continue;
            }
            let room_key = in_room(x, y).map(|r| r.key.as_str());
            // Away from the room's label and the walls: its middle cells.
            if let Some(r) = in_room(x, y)
                && (x != r.x + r.w / 2 || y != r.y + r.h / 2)
            {
                continue;
            }
            let shown = entrance.contains(&(x, y)) || (room_key.is_some() && room_key == entrance_area);
            let want = if shown { rgb(FLOOR) } else { rgb(UNEXPLORED) };
            let got = cell_colour(&pic, cells_w, (x, y));
            let what_cell = room_key.map_or_else(|| "a corridor".to_string(), |k| format!("room {k}"));
            assert_eq!(got, want, "{what}: {what_cell} at ({x}, {y}) drawn {}", if shown { "not" } else { "" });
            checked += 1;
        }
    }
    checked
}

/// The GM's and the players' Udonarium rooms of multi-map MYK scenarios (2 and 3 maps) and of
/// fortresses up to 40 areas, read as Udonarium reads them: no two notes meet and none covers a
/// piece, no two pieces share a name, every piece of a later map is named by its map and room,
/// every table is within Udonarium's limits, an episode's handouts are a note per PC, and the
/// players' plan shows the entrance and nothing beyond it.
#[test]
fn udonarium_rooms_stand_every_note_apart_name_every_piece_apart_and_show_players_only_the_entrance() {
    let dir = temp("udon-ready");
    let d = dir.to_str().unwrap();
    let mut seen = (0, 0, 0);
    for (seed, maps) in [(3u64, 2u32), (11, 3), (42, 3), (7, 2)] {
        let s = seed.to_string();
        let m = maps.to_string();
        let (code, _, err) = run(&["myk", "--seed", &s, "--maps", &m, "--format", "json,udonarium", "--out", d]);
        assert_eq!(code, 0, "{err}");
        let what = format!("myk {seed} x{maps}");
        let text = std::fs::read_to_string(dir.join(format!("myk-{seed}.json"))).unwrap();
        let sc: dungeonsmith::myk::Scenario = serde_json::from_str(&text).unwrap();
        let gm = unzip(&std::fs::read(dir.join(format!("myk-{seed}-udonarium-gm.zip"))).unwrap());
        let players = unzip(&std::fs::read(dir.join(format!("myk-{seed}-udonarium.zip"))).unwrap());
        for (room, who) in [(&gm, "gm"), (&players, "players")] {
            seen.0 += assert_notes_stand_apart(room, &format!("{what} {who}"));
            assert_tables_within_limits(room, &format!("{what} {who}"));
        }
        let pieces = all_pieces(&gm);
        let mut names: Vec<&String> = pieces.iter().map(|p| &p.0).collect();
        names.sort();
        for pair in names.windows(2) {
            assert_ne!(pair[0], pair[1], "{what}: two pieces named {:?}", pair[0]);
        }
        for m in sc.maps.iter().skip(1) {
            let want: usize = m
                .rooms
                .iter()
                .filter(|r| r.used)
                .map(|r| {
                    let trapped = !r.traps.is_empty() || m.corridors.iter().any(|c| c.a == r.id && c.trap.is_some());
                    let cast = sc.cast.iter().filter(|n| n.place.is_some_and(|p| p.map == m.index && p.room == r.id));
                    r.monsters.iter().map(|g| g.count as usize).sum::<usize>()
                        + usize::from(r.ruler.is_some())
                        + usize::from(trapped)
                        + cast.count()
                })
                .sum();
            let named = pieces
                .iter()
                .filter(|(n, _)| {
                    let mut w = n.split(' ');
                    w.next() == Some(&format!("M{}", m.index))
                        && w.next().is_some_and(|r| m.rooms.iter().any(|room| room.used && room.id.to_string() == r))
                })
                .count();
            assert_eq!(named, want, "{what}: map {}'s pieces are named by map and room", m.index);
            seen.1 += named;
        }
        for (m, i) in sc.maps.iter().zip(1..) {
            let plan = dungeonsmith::render::plan::myk_plan(m);
            let table = format!("Map {}: {}", m.index, m.name);
            assert_players_plan_shows_only_the_entrance(&players, &table, &plan, None, &format!("{what} map {i}"));
        }
    }
    for (seed, areas) in [(5u64, 40u32), (9, 40), (2, 20)] {
        let (s, a) = (seed.to_string(), areas.to_string());
        let args = ["fortress", "--seed", &s, "--areas", &a, "--format", "json,udonarium", "--out", d];
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let what = format!("fortress {seed} ({areas} areas)");
        let text = std::fs::read_to_string(dir.join(format!("fortress-{seed}.json"))).unwrap();
        let f: dungeonsmith::nw3::Fortress = serde_json::from_str(&text).unwrap();
        // The file keeps the texts' slots; the room's tables are named as the fortress reads.
        let f = dungeonsmith::nw3::text::filled(&f);
        let gm = unzip(&std::fs::read(dir.join(format!("fortress-{seed}-udonarium-gm.zip"))).unwrap());
        let players = unzip(&std::fs::read(dir.join(format!("fortress-{seed}-udonarium.zip"))).unwrap());
        for (room, who) in [(&gm, "gm"), (&players, "players")] {
            seen.0 += assert_notes_stand_apart(room, &format!("{what} {who}"));
            assert_tables_within_limits(room, &format!("{what} {who}"));
            let handouts = notes_with_footprints(room).into_iter().filter(|n| n.0.ends_with(" handout")).count();
            let pcs = f.episode.as_ref().map_or(0, |e| e.handouts.len());
            assert_eq!(handouts, pcs, "{what} {who}: a handout note per PC");
            seen.2 += handouts;
        }
        let mut names: Vec<String> = all_pieces(&gm).into_iter().map(|p| p.0).collect();
        names.sort();
        for pair in names.windows(2) {
            assert_ne!(pair[0], pair[1], "{what}: two pieces named {:?}", pair[0]);
        }
        let plan = dungeonsmith::render::udonarium::fortress_gm_plan(&f);
        let entrance = f.entrance().map(|a| a.id.to_string());
        let n = assert_players_plan_shows_only_the_entrance(&players, &f.title, &plan, entrance.as_deref(), &what);
        assert!(n > areas as usize, "{what}: the areas and corridors were looked at");
    }
    assert!(seen.0 > 150 && seen.1 > 10 && seen.2 >= 6, "notes, later maps' pieces and handouts were seen: {seen:?}");
    std::fs::remove_dir_all(&dir).ok();
}
