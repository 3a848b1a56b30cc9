//! The workbench's routes in-process (no socket): every route, the permalink, downloads equal to
//! the CLI's files, and bad requests answered with a status and one clear line.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::Value;
use tower::ServiceExt;

use dungeonsmith::tables::Tables;

struct Answer {
    status: StatusCode,
    content_type: String,
    body: Vec<u8>,
}

impl Answer {
    fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("utf-8 body")
    }
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.text()))
    }
}

async fn get(uri: &str) -> Answer {
    get_with(uri, &[("host", "127.0.0.1")]).await
}

/// A GET of `uri` with `headers` (a browser's, or none at all).
async fn get_with(uri: &str, headers: &[(&str, &str)]) -> Answer {
    let router = dungeonsmith::serve::router(Tables::load(None).unwrap()).unwrap();
    let mut req = Request::get(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = router.oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let status = res.status();
    let content_type =
        res.headers().get(header::CONTENT_TYPE).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    let body = axum::body::to_bytes(res.into_body(), 64 << 20).await.unwrap().to_vec();
    Answer { status, content_type, body }
}

/// The SVG without the workbench's click targets.
fn without_hooks(svg: &str) -> String {
    let start = svg.find("\n<g class=\"ds-hooks\">").expect("click targets");
    let end = svg[start..].find("</g>").unwrap() + start + "</g>".len();
    format!("{}{}", &svg[..start], &svg[end..])
}

fn cli_files(args: &[&str]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dungeonsmith-serve-{}-{}", std::process::id(), args.join("_")));
    let _ = std::fs::remove_dir_all(&dir);
    let mut all = args.to_vec();
    let out = dir.to_str().unwrap().to_string();
    all.extend(["--out", &out]);
    let (code, _, err) = crate::run(&all);
    assert_eq!(code, 0, "{err}");
    dir
}

#[tokio::test]
async fn the_page_and_its_assets_come_from_the_binary() {
    let page = get("/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.text().contains("<script src=\"/app.js\">"), "{}", page.text());
    assert!(!page.text().contains("http://") && !page.text().contains("https://"), "nothing fetched from elsewhere");
    let js = get("/app.js").await;
    assert_eq!(js.status, StatusCode::OK);
    assert!(js.content_type.starts_with("text/javascript"));
    assert!(js.text().contains("/api/scenario"));
    let css = get("/app.css").await;
    assert_eq!(css.status, StatusCode::OK);
    assert!(css.content_type.starts_with("text/css"));
}

#[tokio::test]
async fn an_unknown_page_is_a_404_with_a_line_saying_where_the_workbench_is() {
    let a = get("/nowhere").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert!(a.text().contains("`/`"), "{}", a.text());
}

#[tokio::test]
async fn the_served_gm_sheet_is_the_cli_sheet_plus_click_targets_on_every_room() {
    let a = get("/api/scenario?game=myk&seed=42&maps=2").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(
        v["query"],
        "game=myk&seed=42&court-size=4&level=2&maps=2&rooms=9&layout=mixed&paper=a4&reference=appendix"
    );
    let dir = cli_files(&["myk", "--seed", "42", "--maps", "2", "--format", "svg"]);
    let sheets = v["sheets"].as_array().unwrap();
    assert_eq!(sheets.len(), 4, "a GM and a players' sheet per map");
    for m in 1..=2 {
        let gm = sheets[m - 1]["svg"].as_str().unwrap();
        for room in ["A1", "B2", "C3"] {
            assert!(gm.contains(&format!("data-room=\"map{m}/{room}\"")), "map {m} room {room}");
        }
        let cli = std::fs::read_to_string(dir.join(format!("myk-42-map{m}.svg"))).unwrap();
        assert_eq!(without_hooks(gm), cli, "map {m}: the CLI's sheet, byte for byte, under the targets");
        let players = sheets[m + 1]["svg"].as_str().unwrap();
        let cli = std::fs::read_to_string(dir.join(format!("myk-42-map{m}-players.svg"))).unwrap();
        assert_eq!(players, cli, "the players' copy has no targets");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_served_area_map_is_the_cli_map_plus_click_targets_on_every_area() {
    let v = get("/api/scenario?game=fortress&seed=7&areas=12").await.json();
    assert_eq!(v["game"], "fortress");
    let gm = v["sheets"][0]["svg"].as_str().unwrap();
    for id in 1..=12 {
        assert!(gm.contains(&format!("data-area=\"{id}\"")), "area {id}");
    }
    let dir = cli_files(&["fortress", "--seed", "7", "--areas", "12", "--format", "svg"]);
    let cli = std::fs::read_to_string(dir.join("fortress-7.svg")).unwrap();
    assert_eq!(without_hooks(gm), cli);
    let parts: Vec<&str> = v["parts"].as_array().unwrap().iter().map(|p| p["path"].as_str().unwrap()).collect();
    assert_eq!(parts.first(), Some(&"frame"));
    assert!(parts.contains(&"area12"));
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn an_old_nw3_permalink_opens_the_same_fortress_under_its_one_name() {
    let old = get("/api/scenario?game=nw3&seed=7&areas=12&op=reroll:area3").await.json();
    let new = get("/api/scenario?game=fortress&seed=7&areas=12&op=reroll:area3").await.json();
    assert_eq!(old["game"], "fortress");
    assert!(old["query"].as_str().unwrap().starts_with("game=fortress&seed=7&"), "{}", old["query"]);
    assert_eq!(old, new);
    let refused = get("/api/scenario?game=nw4&seed=7").await;
    assert!(refused.text().contains("use one of: myk, fortress"), "{}", refused.text());
}

#[tokio::test]
async fn limits_usage_and_check_come_with_every_scenario() {
    let v = get("/api/scenario?seed=42").await.json();
    assert_eq!(v["check"].as_array().unwrap().len(), 0, "a generated scenario is legal: {}", v["check"]);
    let limits = v["limits"].as_array().unwrap();
    assert!(limits.iter().any(|l| l["what"].as_str().unwrap().starts_with("Traps, number")), "{limits:?}");
    let v = get("/api/scenario?game=fortress&seed=42").await.json();
    assert_eq!(v["check"].as_array().unwrap().len(), 0);
    assert_eq!(v["limits"][0]["used"], "10");
}

#[tokio::test]
async fn a_permalink_rebuilds_the_same_scenario_byte_for_byte() {
    let q =
        "/api/scenario?game=myk&seed=9&levels=3,2,2,1&layout=junction&op=lock:map1/B2&op=rename:map1/A1:The%20Vault";
    let (a, b) = (get(q).await, get(q).await);
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.body, b.body);
    let v = a.json();
    assert_eq!(
        v["query"],
        "game=myk&seed=9&levels=3,2,2,1&maps=1&rooms=9&layout=junction&paper=a4&reference=appendix&op=lock:map1/B2&op=rename:map1/A1:The%20Vault"
    );
    // The canonical query answers with the same scenario.
    let again = get(&format!("/api/scenario?{}", v["query"].as_str().unwrap())).await;
    assert_eq!(again.body, a.body);
}

#[tokio::test]
async fn a_lock_marks_the_room_and_a_rename_reaches_the_sheet_escaped() {
    let v = get("/api/scenario?seed=42&op=lock:map1/B2&op=rename:map1/B3:%3Cb%3EBold%20%26%20Co").await.json();
    let part = |path: &str| v["parts"].as_array().unwrap().iter().find(|p| p["path"] == path).unwrap().clone();
    assert_eq!(part("map1/B2")["locked"], true);
    assert_eq!(part("map1/B1")["locked"], false);
    assert_eq!(part("map1/B3")["name"], "<b>Bold & Co");
    let gm = v["sheets"][0]["svg"].as_str().unwrap();
    assert!(gm.contains("class=\"ds-hook ds-locked\" data-room=\"map1/B2\""), "locked rooms are marked");
    assert!(gm.contains("&lt;b&gt;Bold &amp; Co"), "the name is on the sheet, escaped");
    assert!(!gm.contains("<b>"), "never as markup");
    assert_eq!(v["check"].as_array().unwrap().len(), 0, "a rename breaks no rule: {}", v["check"]);
    // Unlocking takes the lock off again.
    let v = get("/api/scenario?seed=42&op=lock:map1/B2&op=unlock:map1/B2").await.json();
    assert!(v["parts"].as_array().unwrap().iter().all(|p| p["locked"] == false));
}

#[tokio::test]
async fn an_nw3_area_and_the_frame_can_be_renamed_and_locked() {
    let v = get(
        "/api/scenario?game=fortress&seed=5&op=rename:area2:Moon%20Gate&op=lock:area2&op=rename:frame:Night%20Keep",
    )
    .await
    .json();
    assert_eq!(v["title"], "Night Keep");
    let area = v["parts"].as_array().unwrap().iter().find(|p| p["path"] == "area2").unwrap().clone();
    assert_eq!(area["name"], "Moon Gate");
    assert_eq!(area["locked"], true);
}

#[tokio::test]
async fn downloads_are_the_cli_files_and_the_zip_holds_them_all() {
    let dir = cli_files(&["myk", "--seed", "42"]);
    for name in ["myk-42.json", "myk-42-map1.svg", "myk-42-map1-players.svg", "myk-42.md", "myk-42.html"] {
        let a = get(&format!("/download/{name}?seed=42")).await;
        assert_eq!(a.status, StatusCode::OK, "{name}: {}", a.text());
        assert_eq!(a.body, std::fs::read(dir.join(name)).unwrap(), "{name} as the CLI writes it");
    }
    let json = get("/download/myk-42.json?seed=42").await;
    assert_eq!(json.content_type, "application/json");
    let zip = get("/download/myk-42.zip?seed=42").await;
    assert_eq!(zip.status, StatusCode::OK);
    assert_eq!(zip.content_type, "application/zip");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip.body.clone())).unwrap();
    let mut names: Vec<String> =
        (0..archive.len()).map(|i| archive.by_index(i).unwrap().name().unwrap().to_string()).collect();
    names.sort();
    assert_eq!(names, ["myk-42-map1-players.svg", "myk-42-map1.svg", "myk-42.html", "myk-42.json", "myk-42.md"]);
    assert_eq!(get("/download/myk-42.zip?seed=42").await.body, zip.body, "the same zip, byte for byte");
    let fortress = get("/download/fortress-3.json?game=fortress&seed=3").await;
    assert_eq!(fortress.status, StatusCode::OK);
    assert_eq!(fortress.json()["system"], "nw3");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_download_the_scenario_does_not_have_is_a_404_naming_it() {
    let a = get("/download/myk-41.json?seed=42").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert_eq!(a.text(), "no file `myk-41.json` in this scenario\n");
}

#[tokio::test]
async fn the_booklet_is_served_to_print() {
    let a = get("/booklet?game=fortress&seed=11").await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.content_type.starts_with("text/html"));
    let title = get("/api/scenario?game=fortress&seed=11").await.json()["title"].as_str().unwrap().to_string();
    assert!(a.text().contains(&title));
}

#[tokio::test]
async fn bad_requests_get_a_400_and_one_line_naming_the_culprit() {
    let cases = [
        ("/api/scenario?seed=abc", "`seed`: `abc` is not a seed"),
        ("/api/scenario?seed=1&court-size=99", "`court-size` must be 1 to 12, got 99"),
        ("/api/scenario?seed=1&levels=2,x", "`levels`: `x` is not a whole number"),
        ("/api/scenario?seed=1&rooms=1", "rooms"),
        ("/api/scenario?seed=1&layout=spiral", "`layout`: `spiral` is not a layout"),
        ("/api/scenario?seed=1&game=dnd", "`game`: `dnd` is not a game"),
        ("/api/scenario?seed=1&paper=a3", "`paper`: `a3`"),
        ("/api/scenario?seed=1&reference=footnote", "`reference`: `footnote` is not a place for the reference"),
        ("/booklet?seed=1&reference=Appendix", "`reference`: `Appendix`"),
        ("/api/scenario?seed=1&game=fortress&cl=99", "`cl` must be 1 to 20, got 99"),
        ("/api/scenario?seed=1&colour=red", "unknown field `colour`"),
        ("/api/scenario?seed=1&op=explode:map1", "edit `explode:map1`"),
        ("/api/scenario?seed=1&op=lock:map1/Z9", "edit 1 `lock:map1/Z9`: unknown room `map1/Z9`"),
        ("/api/scenario?seed=1&op=lock:map7", "unknown map `map7`"),
        ("/api/scenario?seed=1&game=fortress&op=lock:area99", "unknown area `area99`"),
        ("/api/scenario?seed=1&op=rename:map1/B2:%20", "a name cannot be empty"),
        ("/api/scenario?seed=1&op=rename:map1:%7Bmap%7D", "a name cannot hold `{` or `}`"),
        ("/api/scenario?seed=1&cl=5", "field `cl` is an option of `game=fortress`, not of `game=myk`"),
        (
            "/api/scenario?seed=1&game=fortress&maps=2",
            "field `maps` is an option of `game=myk`, not of `game=fortress`",
        ),
        ("/api/scenario?seed=1&op=regen:-3", "`regen`: `-3` is not a seed"),
        ("/download/myk-1.json?seed=x", "`seed`"),
        ("/booklet?seed=1&maps=0", "maps"),
    ];
    for (uri, expected) in cases {
        let a = get(uri).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}: {}", a.text());
        let text = a.text();
        assert!(text.contains(expected), "{uri}: {text:?} should contain {expected:?}");
        assert_eq!(text.lines().count(), 1, "{uri}: one line: {text:?}");
        assert!(a.content_type.starts_with("text/plain"));
    }
}

#[tokio::test]
async fn a_room_the_map_does_not_use_cannot_be_locked_or_renamed() {
    let v = get("/api/scenario?seed=3&rooms=4").await.json();
    let unused = v["parts"].as_array().unwrap().iter().find(|p| p["used"] == false).unwrap()["path"]
        .as_str()
        .unwrap()
        .to_string();
    let a = get(&format!("/api/scenario?seed=3&rooms=4&op=lock:{unused}")).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text());
    assert!(a.text().contains("is not used on its map"), "{}", a.text());
    let a = get(&format!("/api/scenario?seed=3&rooms=4&op=rename:{unused}:Hall")).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text());
}

/// The scenario JSON a query downloads.
async fn scenario_file(query: &str) -> Value {
    let seed = get(&format!("/api/scenario?{query}")).await.json()["seed"].as_u64().unwrap();
    let a = get(&format!("/download/myk-{seed}.json?{query}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    a.json()
}

fn rooms_but(s: &Value, id: &str) -> Vec<Value> {
    s["maps"][0]["rooms"].as_array().unwrap().iter().filter(|r| r["id"] != id).cloned().collect()
}

fn room_of(s: &Value, id: &str) -> Value {
    s["maps"][0]["rooms"].as_array().unwrap().iter().find(|r| r["id"] == id).unwrap().clone()
}

#[tokio::test]
async fn a_reroll_in_the_query_changes_that_room_only_and_is_recorded() {
    let before = scenario_file("seed=42").await;
    let after = scenario_file("seed=42&op=reroll:map1/B1").await;
    assert_ne!(room_of(&after, "B1"), room_of(&before, "B1"));
    assert_eq!(rooms_but(&after, "B1"), rooms_but(&before, "B1"));
    assert_eq!(after["rerolls"], serde_json::json!([{"part": "map1/B1", "n": 1}]));
    let v = get("/api/scenario?seed=42&op=reroll:map1/B1/monsters").await.json();
    assert_eq!(v["check"].as_array().unwrap().len(), 0, "{}", v["check"]);
}

#[tokio::test]
async fn rerolling_a_locked_room_is_refused_with_a_409_naming_it() {
    let a = get("/api/scenario?seed=42&op=lock:map1/B1&op=reroll:map1/B1/traps").await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text());
    assert!(a.text().starts_with("edit 2 `reroll:map1/B1/traps`: "), "{}", a.text());
    assert!(a.text().contains("lock"), "{}", a.text());
}

#[tokio::test]
async fn a_reroll_of_a_part_the_scenario_lacks_is_a_400() {
    for (uri, expected) in [
        ("/api/scenario?seed=42&op=reroll:map3/B1", "unknown map `map3`"),
        ("/api/scenario?seed=42&op=reroll:map1/Q7", "unknown room `map1/Q7`"),
        ("/api/scenario?seed=42&op=reroll:map1/B1/dragons", "part `map1/B1/dragons`"),
    ] {
        let a = get(uri).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}: {}", a.text());
        assert!(a.text().contains(expected), "{uri}: {}", a.text());
    }
}

#[tokio::test]
async fn regenerating_the_rest_keeps_the_locked_room_exactly() {
    let locked = scenario_file("seed=42&op=lock:map1/B1").await;
    let regen = scenario_file("seed=42&op=lock:map1/B1&op=regen:777").await;
    assert_eq!(room_of(&regen, "B1"), room_of(&locked, "B1"));
    assert_ne!(rooms_but(&regen, "B1"), rooms_but(&locked, "B1"));
    let v = get("/api/scenario?seed=42&op=lock:map1/B1&op=regen:777").await.json();
    assert_eq!(v["check"].as_array().unwrap().len(), 0, "{}", v["check"]);
}

#[test]
fn serve_refuses_a_host_that_is_not_an_address_in_one_line() {
    let (code, _, err) = crate::run(&["serve", "--host", "example.org"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: option `--host`: `example.org` is not an IP address (e.g. 127.0.0.1, or 0.0.0.0 for every interface)\n"
    );
}

#[test]
fn serve_on_a_port_already_taken_says_so_in_one_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, out, err) = crate::run(&["serve", "--port", &port]);
    assert_eq!(code, 2, "{out}");
    assert!(err.starts_with(&format!("error: option `--port`: cannot listen on 127.0.0.1:{port}: ")), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[tokio::test]
async fn every_area_part_the_page_offers_can_be_rerolled_and_a_locked_area_refuses() {
    // Every part the page offers for an area can be rerolled.
    let v = get("/api/scenario?game=fortress&seed=5").await.json();
    for p in v["parts"].as_array().unwrap().iter().filter(|p| p["kind"] == "area") {
        for what in p["rerolls"].as_array().unwrap() {
            let uri = format!(
                "/api/scenario?game=fortress&seed=5&op=reroll:{}/{}",
                p["path"].as_str().unwrap(),
                what.as_str().unwrap()
            );
            let ok = get(&uri).await;
            assert_eq!(ok.status, StatusCode::OK, "{uri}: {}", ok.text());
            assert_eq!(ok.json()["check"].as_array().unwrap().len(), 0, "{uri}");
        }
    }
    let a = get("/api/scenario?game=fortress&seed=5&op=lock:area4&op=reroll:area4").await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text());
    assert!(a.text().starts_with("edit 2 `reroll:area4`: "), "{}", a.text());
    let a = get("/api/scenario?game=fortress&seed=5&op=reroll:area4/dragons").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
}

#[tokio::test]
async fn a_permalink_with_more_edits_than_the_server_replays_is_refused() {
    let uri = format!("/api/scenario?seed=1{}", "&op=lock:frame".repeat(1001));
    let a = get(&uri).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(a.text(), "1001 edits in one permalink; at most 1000 (download the JSON and go on from it)\n");
}

#[tokio::test]
async fn the_workbench_takes_the_partys_own_numbers_and_keeps_them_in_the_file_and_the_booklet() {
    let q = "game=fortress&seed=3&cl=1&party-attack=3&party-defence=2&party-hp=15";
    let fortress = get(&format!("/download/fortress-3.json?{q}")).await;
    assert_eq!(fortress.status, StatusCode::OK, "{}", fortress.text());
    let params = &fortress.json()["params"];
    assert_eq!((params["party_attack"].as_u64(), params["party_hp"].as_u64()), (Some(3), Some(15)));
    let booklet = get(&format!("/booklet?{q}")).await;
    assert!(booklet.text().contains("a PC with attack 3, defence 2, HP 15"), "{}", booklet.text());
    let bad = get("/api/scenario?game=fortress&seed=3&party-hp=0").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.text(), "`party-hp` must be 1 to 999, got 0\n");
}

#[tokio::test]
async fn the_objective_picker_offers_any_then_every_kind_labelled_from_the_tables() {
    let tables = Tables::load(None).unwrap();
    let page = get("/").await.text();
    let start = page.find("<select id=\"objective\" name=\"objective\">").expect("an objective picker");
    let select = &page[start..start + page[start..].find("</select>").unwrap()];
    let values: Vec<&str> = select.split("<option value=\"").skip(1).map(|o| &o[..o.find('"').unwrap()]).collect();
    let mut expected = vec![""];
    expected.extend(dungeonsmith::myk::model::ObjectiveKind::ALL.iter().map(|k| k.name()));
    assert_eq!(values, expected, "\"any\" first (the default), then each kind once");
    assert!(select.contains("<option value=\"\">any</option>"), "{select}");
    for k in dungeonsmith::myk::model::ObjectiveKind::ALL {
        let label = tables.story.kind_label(k.name());
        assert_ne!(label, k.name().replace('_', " "), "the tables label `{}`", k.name());
        let option = format!("<option value=\"{}\">{}</option>", k.name(), label.replace('\'', "&apos;"));
        assert!(select.contains(&option), "{option} in {select}");
    }
}

#[tokio::test]
async fn an_objective_kind_in_the_query_shapes_the_scenario_and_stays_in_the_permalink() {
    for kind in ["rescue", "race"] {
        let a = get(&format!("/api/scenario?seed=42&objective={kind}")).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        let v = a.json();
        let query = v["query"].as_str().unwrap().to_string();
        assert!(query.contains(&format!("&objective={kind}&")), "{query}");
        assert!(v["check"].as_array().unwrap().is_empty(), "{}", v["check"]);
        let json = get(&format!("/download/myk-42.json?{query}")).await.json();
        assert_eq!(json["objective"]["kind"], kind);
        // The permalink, opened again, is the same scenario.
        assert_eq!(get(&format!("/api/scenario?{query}")).await.body, a.body);
    }
    // "any": no objective in the permalink, and the generator's own pick.
    let any = get("/api/scenario?seed=42&objective=").await.json();
    assert!(!any["query"].as_str().unwrap().contains("objective"), "{}", any["query"]);
    let refused = get("/api/scenario?seed=42&objective=conquer").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let line = refused.text();
    assert!(line.contains("`objective`") && line.contains("conquer") && line.contains("win_over"), "{line}");
}

#[tokio::test]
async fn a_request_without_a_host_header_is_refused_with_400() {
    let a = get_with("/api/scenario?seed=1", &[]).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    assert_eq!(a.text(), "the request has no `Host` header; send `Host: 127.0.0.1:0` (HTTP/1.1)\n");
}

/// What a browser says of a request another site's page made it send: refused with one line,
/// before any work (the guard answers before the routes).
#[tokio::test]
async fn a_request_another_sites_page_sent_is_refused_with_403_and_one_line() {
    let host = ("host", "127.0.0.1:8470");
    let cases: [&[(&str, &str)]; 5] = [
        &[host, ("origin", "http://evil.example")],
        &[host, ("origin", "http://127.0.0.1:9999")],
        &[host, ("origin", "null")],
        &[host, ("sec-fetch-site", "cross-site")],
        &[host, ("sec-fetch-site", "same-site")],
    ];
    for headers in cases {
        for uri in ["/api/scenario?seed=1", "/download/myk-1.zip?seed=1", "/booklet?seed=1", "/"] {
            let a = get_with(uri, headers).await;
            assert_eq!(a.status, StatusCode::FORBIDDEN, "{uri} {headers:?}: {}", a.text());
            let text = a.text();
            assert_eq!(text.lines().count(), 1, "{text}");
            assert!(text.contains("another site") && text.contains("refused"), "{text}");
        }
    }
}

/// The workbench's own page (same origin), a typed or bookmarked address (`none`) and clients
/// that send neither header (curl) are served.
#[tokio::test]
async fn the_workbenchs_own_page_and_plain_clients_are_served() {
    let host = ("host", "127.0.0.1:8470");
    let cases: [&[(&str, &str)]; 5] = [
        &[host],
        &[host, ("origin", "http://127.0.0.1:8470")],
        &[host, ("sec-fetch-site", "same-origin"), ("origin", "http://127.0.0.1:8470")],
        &[host, ("sec-fetch-site", "none")],
        &[("host", "LOCALHOST:8470"), ("origin", "http://localhost:8470")],
    ];
    for headers in cases {
        let a = get_with("/api/scenario?seed=1", headers).await;
        assert_eq!(a.status, StatusCode::OK, "{headers:?}: {}", a.text());
    }
}

/// The permalink carries where the booklet's reference goes, and reopened gives the same query.
#[tokio::test]
async fn the_permalink_carries_the_reference_choice_and_round_trips_it() {
    for (choice, own_file) in [("appendix", false), ("separate", true), ("none", false)] {
        let v = get(&format!("/api/scenario?seed=21&reference={choice}")).await.json();
        let q = v["query"].as_str().unwrap().to_string();
        assert!(q.contains(&format!("&reference={choice}")), "{choice}: {q}");
        assert_eq!(get(&format!("/api/scenario?{q}")).await.json()["query"], q.as_str(), "{choice}: round trip");
        let files: Vec<&str> = v["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        let apart = ["myk-21-reference.md", "myk-21-reference.html"];
        assert_eq!(apart.iter().all(|f| files.contains(f)), own_file, "{choice}: downloads {files:?}");
        assert_eq!(apart.iter().any(|f| files.contains(f)), own_file, "{choice}: downloads {files:?}");
    }
    let blank = get("/api/scenario?seed=21&reference=").await.json();
    assert!(blank["query"].as_str().unwrap().ends_with("&reference=appendix"), "blank is the default");
}

/// The booklet the workbench shows follows the choice: part two behind its divider (`appendix`),
/// none at all (`none`), or part one linking to part two at an address of its own (`separate`),
/// which is offered as a download too.
#[tokio::test]
async fn the_served_booklet_has_part_two_only_as_the_permalink_chooses() {
    const DIVIDER: &str = "Part two: Reference";
    let appendix = get("/booklet?seed=21&reference=appendix").await.text();
    assert!(appendix.contains(DIVIDER) && appendix.contains("<h2>Glossary</h2>"), "appendix: part two in the booklet");
    let none = get("/booklet?seed=21&reference=none").await;
    assert_eq!(none.status, StatusCode::OK);
    assert!(!none.text().contains(DIVIDER) && !none.text().contains("<h2>Glossary</h2>"), "none: no part two");
    let one = get("/booklet?seed=21&reference=separate").await.text();
    assert!(!one.contains(DIVIDER), "separate: part one alone");
    let q = get("/api/scenario?seed=21&reference=separate").await.json()["query"].as_str().unwrap().to_string();
    let link = format!("href=\"/reference?{}", q.replace('&', "&amp;"));
    assert!(one.contains(&link), "separate: part one links to part two's page: {link}");
    assert!(!one.contains("href=\"myk-21-reference.html"), "no link to a file the workbench does not serve");
    let two = get(&format!("/reference?{q}")).await;
    assert_eq!(two.status, StatusCode::OK, "{}", two.text());
    assert!(two.content_type.starts_with("text/html") && two.text().contains("<h2>Glossary</h2>"), "part two's page");
    let download = get(&format!("/download/myk-21-reference.html?{q}")).await;
    assert_eq!(download.body, two.body, "the page is the downloaded file");
    let not_apart = get("/reference?seed=21&reference=appendix").await;
    assert_eq!(not_apart.status, StatusCode::NOT_FOUND);
    assert!(not_apart.text().contains("`reference=separate` makes it one"), "{}", not_apart.text());
}
