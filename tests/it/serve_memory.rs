//! The workbench's memory budget per request, on a real socket (127.0.0.1 only): a request whose
//! work holds more than its budget is answered 413 in one line and the server answers the next
//! one; the largest legal requests stay well under `REQUEST_MEMORY`. The budget is counted by the
//! allocator this test binary installs (`main.rs`), as the program's binary does.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use dungeonsmith::serve::{REQUEST_MEMORY, router_metered, serve_on};
use dungeonsmith::tables::Tables;

/// Starts a workbench on 127.0.0.1 whose requests may each hold `budget` bytes; gives its
/// address and the most memory any one of its requests has held.
fn server(budget: usize) -> (SocketAddr, Arc<AtomicUsize>) {
    let peak = Arc::new(AtomicUsize::new(0));
    let seen = peak.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let router = router_metered(Tables::load(None).unwrap(), addr, budget, seen).unwrap();
            tx.send(addr).unwrap();
            serve_on(listener, router, std::future::pending()).await.unwrap();
        });
    });
    (rx.recv_timeout(Duration::from_secs(30)).expect("the server starts"), peak)
}

/// One GET: (status, body).
fn get(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(300))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).unwrap();
    let end = all.windows(4).position(|w| w == b"\r\n\r\n").expect("a whole head") + 4;
    let status = String::from_utf8_lossy(&all[9..12]).parse().unwrap();
    (status, all[end..].to_vec())
}

/// The largest scenario of each game the workbench builds, as the zip of every file (which
/// renders them all and then copies them into the zip: the most a request holds).
const LARGEST: [&str; 2] = [
    "/download/myk-1.zip?game=myk&seed=1&maps=20&rooms=9&court-size=12&level=30",
    "/download/fortress-1.zip?game=fortress&seed=1&areas=40&party=8&cl=20",
];

/// The largest MYK zip renamed as much as a permalink can carry: 280 names of 200 characters
/// (the workbench's name limit) make a 61 KB query, under the 64 KiB an address may have.
fn renamed() -> String {
    let mut path = LARGEST[0].to_string();
    let name = "N".repeat(197);
    for i in 0..280 {
        let room = format!("{}{}", ["A", "B", "C"][i / 20 % 3], i / 60 % 3 + 1);
        path.push_str(&format!("&op=rename:map{}/{room}:{name}{i:03}", i % 20 + 1));
    }
    path
}

#[test]
fn a_request_past_its_memory_budget_is_answered_413_in_one_line_and_the_server_answers_the_next() {
    assert!(dungeonsmith::meter::counting(), "this test binary counts memory (tests/it/main.rs)");
    // The largest MYK zip holds 5.7 MiB, a one-map scenario 0.34 MiB (docs/speed.md).
    let budget = 2 << 20;
    let (addr, peak) = server(budget);
    let (status, body) = get(addr, LARGEST[0]);
    let line = String::from_utf8(body).unwrap();
    assert_eq!(status, 413, "{line}");
    assert_eq!(
        line,
        "the request needed over 2 MiB of memory and was stopped; ask for fewer maps or areas, or fewer edits\n"
    );
    assert!(peak.load(Ordering::Relaxed) > budget, "the refused request held more than its budget");
    // The next requests: a light one, and a scenario within the budget.
    assert_eq!(get(addr, "/app.css").0, 200);
    let (status, body) = get(addr, "/api/scenario?game=myk&seed=1&maps=1");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
}

#[test]
fn a_permalink_past_its_memory_budget_stops_at_the_checkpoint_before_its_first_edit() {
    // Generating 20 maps holds more than 16 KiB; the first edit, were it replayed, would be
    // refused in a line of its own (a map the scenario lacks, 400).
    let (addr, peak) = server(16 << 10);
    let (status, body) = get(addr, "/api/scenario?game=myk&seed=1&maps=20&op=reroll:map99/B2&op=reroll:map1/B2");
    let line = String::from_utf8(body).unwrap();
    assert_eq!(status, 413, "{line}");
    assert!(line.starts_with("the request needed over 16 KiB of memory and was stopped;"), "{line}");
    assert!(peak.load(Ordering::Relaxed) > 16 << 10);
}

#[test]
fn the_largest_legal_requests_stay_under_half_the_memory_budget() {
    assert!(dungeonsmith::meter::counting(), "this test binary counts memory (tests/it/main.rs)");
    for path in [LARGEST[0].to_string(), LARGEST[1].to_string(), renamed()] {
        let (addr, peak) = server(REQUEST_MEMORY);
        let (status, body) = get(addr, &path);
        let path = &path[..path.len().min(120)];
        assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&body));
        let held = peak.load(Ordering::Relaxed);
        eprintln!("{path}: {:.1} MiB held at most, {} bytes answered", held as f64 / 1048576.0, body.len());
        // The meter counted the work (the answer alone is this large)...
        assert!(held > body.len(), "{path}: {held} bytes counted for an answer of {}", body.len());
        // ...and the largest legal request leaves the budget twice its size.
        assert!(held < REQUEST_MEMORY / 2, "{path}: {held} bytes of {REQUEST_MEMORY}");
    }
}
