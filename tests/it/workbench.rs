//! The workbench in a real browser: `serve` in-process on a free port, Debian's chromium driven
//! through chromedriver (WebDriver, fantoccini). A GM's session: generate a seed, reroll a room
//! and see only that room change, lock it and regenerate the rest, reload the permalink and get
//! the same sheet, download the JSON and `check` it; then a fortress area. CI installs chromium
//! and chromium-driver (.ci/run) and runs it (`--ignored workbench::`); plain `cargo test` lists it
//! as ignored.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use dungeonsmith::tables::Tables;

fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).flat_map(|d| names.iter().map(move |n| d.join(n))).find(|p| p.is_file())
}

/// Chromium and chromedriver; the test asked to run without them fails saying so.
fn tools() -> (PathBuf, PathBuf) {
    match (find(&["chromium", "chromium-browser"]), find(&["chromedriver"])) {
        (Some(c), Some(d)) => (c, d),
        _ => panic!("this test needs chromium and chromedriver (apt-get install chromium chromium-driver)"),
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The chromedriver process this test started, ended when the test ends (even by a panic).
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until the page has drawn the answer to a query that satisfies `ready`.
async fn wait_query(c: &Client, ready: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let q = c
            .execute(
                "return document.body.dataset.state === 'ready' ? (document.body.dataset.query || '') : '';",
                vec![],
            )
            .await
            .unwrap();
        let q = q.as_str().unwrap_or_default().to_string();
        if !q.is_empty() && ready(&q) {
            return q;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let message = c.find(Locator::Id("message-text")).await.unwrap().text().await.unwrap_or_default();
            panic!("the page never showed the expected scenario (last: {q:?}; message: {message:?})");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the page is idle after a request (drawn or refused).
async fn wait_idle(c: &Client) {
    let start = Instant::now();
    while c.execute("return document.body.dataset.state;", vec![]).await.unwrap() != "ready" {
        assert!(start.elapsed() < Duration::from_secs(20), "the page stayed busy");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// GETs `url` from inside the page (the way a download link does) and returns the text.
async fn fetch(c: &Client, url: &str) -> String {
    let script = "const done = arguments[arguments.length - 1];\
                  fetch(arguments[0]).then(r => r.text()).then(done, e => done('fetch failed: ' + e));";
    c.execute_async(script, vec![json!(url)]).await.unwrap().as_str().unwrap().to_string()
}

async fn scenario_json(c: &Client) -> Value {
    let href = c.find(Locator::Css("#download-json")).await.unwrap().attr("href").await.unwrap().unwrap();
    serde_json::from_str(&fetch(c, &href).await).unwrap()
}

async fn click(c: &Client, css: &str) {
    c.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css(css)).await.unwrap().click().await.unwrap();
}

fn room(s: &Value, id: &str) -> Value {
    s["maps"][0]["rooms"].as_array().unwrap().iter().find(|r| r["id"] == id).unwrap().clone()
}

fn other_rooms(s: &Value, id: &str) -> Vec<Value> {
    s["maps"][0]["rooms"].as_array().unwrap().iter().filter(|r| r["id"] != id).cloned().collect()
}

/// Saves what the browser shows into the folder `WORKBENCH_SCREENSHOTS` names, if it does (to look at).
async fn screenshot(c: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("WORKBENCH_SCREENSHOTS") {
        std::fs::write(PathBuf::from(dir).join(name), c.screenshot().await.unwrap()).unwrap();
    }
}

/// The sheet as drawn, without the page's own selection mark.
async fn gm_sheet(c: &Client) -> String {
    c.find(Locator::Css("#sheet")).await.unwrap().html(true).await.unwrap().replace(" ds-selected", "")
}

/// The objective picker: a kind picked goes into the permalink and shapes the scenario; the
/// permalink reopened shows it picked; "any" leaves it out again.
async fn objective_picker(c: &Client) {
    let picker = c.find(Locator::Id("objective")).await.unwrap();
    picker.select_by_value("rescue").await.unwrap();
    click(c, "#generate").await;
    let q = wait_query(c, |q| q.contains("&objective=rescue&")).await;
    assert_eq!(scenario_json(c).await["objective"]["kind"], "rescue");
    let url = c.current_url().await.unwrap().to_string();
    c.goto("about:blank").await.unwrap();
    c.goto(&url).await.unwrap();
    wait_query(c, |x| x == q).await;
    let shown = c.execute("return document.getElementById('objective').value;", vec![]).await.unwrap();
    assert_eq!(shown, "rescue", "the reopened permalink shows the kind picked");
    c.find(Locator::Id("objective")).await.unwrap().select_by_value("").await.unwrap();
    click(c, "#generate").await;
    wait_query(c, |q| !q.contains("objective=")).await;
}

/// The reference picker: where the booklet's part two goes, chosen in the form, goes into the
/// permalink and changes the booklet the page prints; `separate` offers part two on its own.
async fn reference_picker(c: &Client) {
    for (choice, part_two, apart) in [("none", false, false), ("separate", false, true), ("appendix", true, false)] {
        c.find(Locator::Id("reference")).await.unwrap().select_by_value(choice).await.unwrap();
        click(c, "#generate").await;
        let q = wait_query(c, |q| q.contains(&format!("&reference={choice}"))).await;
        let booklet = fetch(c, &format!("/booklet?{q}")).await;
        assert!(booklet.contains("<h1>"), "{choice}: a booklet: {}", &booklet[..booklet.len().min(200)]);
        assert_eq!(booklet.contains("Part two: Reference"), part_two, "{choice}: part two in the printed booklet");
        let print = c.find(Locator::Id("print-reference")).await.unwrap();
        assert_eq!(print.is_displayed().await.unwrap(), apart, "{choice}: the button printing part two");
        let offered = c.find_all(Locator::Css("#downloads a[href*='-reference.html']")).await.unwrap();
        assert_eq!(offered.len(), usize::from(apart), "{choice}: part two among the downloads");
    }
}

/// The MYK session, then a fortress area rerolled.
async fn session(c: Client, base: String, dir: PathBuf) {
    // Generate: type a seed into the form.
    c.goto(&format!("{base}/")).await.unwrap();
    wait_query(&c, |_| true).await;
    let seed = c.find(Locator::Id("seed")).await.unwrap();
    seed.clear().await.unwrap();
    seed.send_keys("42").await.unwrap();
    click(&c, "#generate").await;
    let q = wait_query(&c, |q| q.starts_with("game=myk&seed=42&")).await;
    assert!(!q.contains("op="), "a fresh scenario has no edits: {q}");
    assert_eq!(
        c.find(Locator::Css("#check .ok")).await.unwrap().text().await.unwrap(),
        "ok: every rule and limit holds"
    );
    let before = scenario_json(&c).await;

    // Reroll one room: only that room changes.
    click(&c, "[data-room=\"map1/B1\"]").await;
    click(&c, "#reroll-all").await;
    wait_query(&c, |q| q.ends_with("op=reroll:map1/B1")).await;
    let rerolled = scenario_json(&c).await;
    assert_ne!(room(&rerolled, "B1"), room(&before, "B1"), "the rerolled room changed");
    assert_eq!(other_rooms(&rerolled, "B1"), other_rooms(&before, "B1"), "every other room is as it was");
    assert!(c.find(Locator::Css("#check .ok")).await.is_ok(), "still legal");

    // Lock it and regenerate the rest with another seed: the locked room stays exactly.
    click(&c, "[data-room=\"map1/B1\"]").await;
    click(&c, "#lock").await;
    wait_query(&c, |q| q.ends_with("op=lock:map1/B1")).await;
    let box_ = c.find(Locator::Id("regen-seed")).await.unwrap();
    box_.clear().await.unwrap();
    box_.send_keys("777").await.unwrap();
    click(&c, "#regenerate").await;
    let q = wait_query(&c, |q| q.ends_with("op=regen:777")).await;
    let regenerated = scenario_json(&c).await;
    let mut kept = room(&rerolled, "B1");
    kept["locked"] = json!(true);
    assert_eq!(room(&regenerated, "B1"), kept, "the locked room is kept exactly");
    assert_ne!(other_rooms(&regenerated, "B1"), other_rooms(&rerolled, "B1"), "the rest is rolled anew");
    screenshot(&c, "myk.png").await;

    // A refused edit: rerolling the locked room says why in the page and changes nothing.
    click(&c, "[data-room=\"map1/B1\"]").await;
    click(&c, "#reroll-all").await;
    wait_idle(&c).await;
    let message = c.find(Locator::Id("message")).await.unwrap();
    assert!(message.is_displayed().await.unwrap(), "the refusal is shown");
    let text = message.text().await.unwrap();
    assert!(text.contains("map1/B1"), "the message names the part: {text}");
    assert_eq!(wait_query(&c, |_| true).await, q, "the scenario is unchanged");

    // The permalink: opened again, the same sheet.
    let url = c.current_url().await.unwrap().to_string();
    assert!(url.ends_with(&q), "{url}");
    let sheet = gm_sheet(&c).await;
    c.goto("about:blank").await.unwrap();
    c.goto(&url).await.unwrap();
    wait_query(&c, |x| x == q).await;
    assert!(gm_sheet(&c).await == sheet, "the permalink rebuilds the same sheet");

    // Download the JSON and check it with the CLI.
    let href = c.find(Locator::Css("#download-json")).await.unwrap().attr("href").await.unwrap().unwrap();
    let file = dir.join("downloaded.json");
    std::fs::write(&file, fetch(&c, &href).await).unwrap();
    let (code, out, _) = crate::run(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 0, "the downloaded scenario passes check: {out}");

    objective_picker(&c).await;
    reference_picker(&c).await;

    // A fortress: reroll one area, only that area changes.
    c.goto(&format!("{base}/?game=nw3&seed=7")).await.unwrap();
    wait_query(&c, |q| q.starts_with("game=fortress&seed=7&")).await;
    let before = scenario_json(&c).await;
    click(&c, "[data-area=\"3\"]").await;
    click(&c, "#reroll-all").await;
    wait_query(&c, |q| q.ends_with("op=reroll:area3")).await;
    let after = scenario_json(&c).await;
    let areas = |f: &Value| f["areas"].as_array().unwrap().clone();
    let (a, b) = (areas(&before), areas(&after));
    assert_ne!(a[2], b[2], "area 3 changed");
    for i in (0..a.len()).filter(|&i| i != 2) {
        assert_eq!(a[i], b[i], "area {} is as it was", i + 1);
    }
    screenshot(&c, "nw3.png").await;
}

/// chromedriver on a free port and a WebDriver session in headless chromium, its profile in `dir`.
async fn browser(
    chromium: &std::path::Path,
    chromedriver: &std::path::Path,
    dir: &std::path::Path,
) -> (Driver, Client) {
    let port = free_port();
    let driver = Driver(
        Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(15), "chromedriver did not listen");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let profile = dir.join("profile");
    let caps = json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1500,1000", format!("--user-data-dir={}", profile.display()),
            ]
        }
    });
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps.as_object().unwrap().clone())
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session in chromium");
    (driver, client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run by .ci/run"]
async fn a_gm_rerolls_locks_regenerates_and_reopens_the_permalink_in_chromium() {
    let (chromium, chromedriver) = tools();
    let dir = std::env::temp_dir().join(format!("dungeonsmith-workbench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = dungeonsmith::serve::router(Tables::load(None).unwrap()).unwrap();
    let server = tokio::spawn(dungeonsmith::serve::serve_on(listener, router, std::future::pending()));

    let (driver, client) = browser(&chromium, &chromedriver, &dir).await;

    // The session runs in a task of its own so that a failed assertion still closes the browser.
    let outcome = tokio::spawn(session(client.clone(), base, dir.clone())).await;
    let _ = client.close().await;
    drop(driver);
    server.abort();
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// Another site's page, as an attacker would serve it: it makes the browser ask the workbench at
/// `target` for a build every way a page can without the workbench's leave (an image, a script, a
/// stylesheet, fetch, a form POST into a frame), and marks the title `sent` when it has tried
/// them all (the test then has its script navigate to a permalink).
fn attacker_page(target: &str) -> String {
    format!(
        r#"<!doctype html><html><head><title>attacker</title>
<link rel="stylesheet" href="{target}/booklet?seed=11">
<script src="{target}/api/scenario?seed=12"></script>
</head><body>
<img src="{target}/download/myk-13.zip?seed=13&maps=2">
<iframe name="sink"></iframe>
<form id="f" method="POST" action="{target}/api/scenario?seed=14" target="sink"><input name="op" value="lock:frame"></form>
<script>
const tries = [
  fetch("{target}/api/scenario?seed=15", {{ mode: "no-cors" }}).catch(() => {{}}),
  fetch("{target}/booklet?seed=16").catch(() => {{}}),
  fetch("{target}/api/scenario?seed=17", {{ method: "POST", mode: "no-cors", body: "x" }}).catch(() => {{}}),
];
document.getElementById("f").submit();
Promise.all(tries).then(() => setTimeout(() => {{ document.title = "sent"; }}, 1500));
</script></body></html>"#
    )
}

/// A tiny HTTP server on `listener` that answers every request with `page` (the attacker's
/// site), on a thread of its own for the test's life.
fn serve_page(listener: std::net::TcpListener, page: String) {
    use std::io::{Read, Write};
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut head = [0u8; 4096];
            let _ = stream.read(&mut head);
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = stream.write_all(answer.as_bytes());
        }
    });
}

/// Opens the attacker's page at `from` and waits until it has sent every request (and its
/// navigation has been answered).
async fn visit(c: &Client, from: &str, target: &str) {
    c.goto(from).await.unwrap();
    let start = Instant::now();
    loop {
        let title = c.title().await.unwrap_or_default();
        if title == "sent" {
            break;
        }
        let url = c.current_url().await.map(|u| u.to_string()).unwrap_or_default();
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the attacker's page never finished at {from} ({title:?} at {url})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Then the page's own script navigates to a permalink (as a link clicked there would).
    let _ = c.execute("location.href = arguments[0];", vec![json!(format!("{target}/booklet?seed=18"))]).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
}

async fn cross_site_session(c: Client, workbench: String, attackers: Vec<String>, builds: Arc<AtomicU64>) {
    for from in &attackers {
        visit(&c, from, &workbench).await;
        let url = c.current_url().await.unwrap();
        assert!(url.as_str().starts_with(&workbench), "the page navigated to the permalink: {url}");
        let refused = c.find(Locator::Css("body")).await.unwrap().text().await.unwrap();
        assert!(refused.contains("another site") && refused.contains("refused"), "{from}: {refused:?}");
        assert_eq!(builds.load(Ordering::Relaxed), 0, "a page at {from} made the workbench build");
    }
    // The workbench's own page, in the same browser, builds (so the count above could move).
    c.goto(&format!("{workbench}/?seed=1")).await.unwrap();
    wait_query(&c, |q| q.contains("seed=1")).await;
    assert!(builds.load(Ordering::Relaxed) > 0, "the workbench's own page builds");
}

/// A page of another origin cannot make the workbench build anything: neither a page of another
/// site (`localhost` against `127.0.0.1`: `Sec-Fetch-Site: cross-site`) nor one of the same host
/// on another port (`same-site`, another `Origin`). The workbench counts the requests whose work
/// began; it stays at 0 until the workbench's own page asks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run by .ci/run"]
async fn a_page_of_another_origin_cannot_make_the_workbench_build_anything_in_chromium() {
    let (chromium, chromedriver) = tools();
    let dir = std::env::temp_dir().join(format!("dungeonsmith-workbench-xsite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bound = listener.local_addr().unwrap();
    let workbench = format!("http://{bound}");
    let builds = Arc::new(AtomicU64::new(0));
    let router = dungeonsmith::serve::router_counting(Tables::load(None).unwrap(), bound, builds.clone()).unwrap();
    let server = tokio::spawn(dungeonsmith::serve::serve_on(listener, router, std::future::pending()));

    let attacker = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = attacker.local_addr().unwrap().port();
    serve_page(attacker, attacker_page(&workbench));
    let attackers = vec![format!("http://localhost:{port}/"), format!("http://127.0.0.1:{port}/")];

    let (driver, client) = browser(&chromium, &chromedriver, &dir).await;
    let outcome = tokio::spawn(cross_site_session(client.clone(), workbench, attackers, builds)).await;
    let _ = client.close().await;
    drop(driver);
    server.abort();
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}
