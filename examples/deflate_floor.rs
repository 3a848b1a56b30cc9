//! The deflate work a run's files cannot do without: every zlib stream in the files of a run
//! (each PNG's IDAT data inside `.dd2vtt` images and Udonarium zips, each FlateDecode stream of
//! a PDF) is inflated, compressed again at the level that wrote it (6, flate2 on miniz_oxide) and
//! compared with the original, then that compression alone is timed, on one thread and split
//! over two. Byte-identical files must do at least this much work, however the rest is arranged.
//!
//! ```sh
//! dungeonsmith myk --seed 1 --out /tmp/all --format json,svg,md,html,uvtt,udonarium,pdf
//! cargo run --profile bench --example deflate_floor -- /tmp/all
//! ```

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use flate2::Compression;
use flate2::write::ZlibEncoder;

// The same reading of a run's pictures as the PNG tests (`tests/it/png.rs`).
#[path = "../tests/it/pictures.rs"]
mod pictures;

/// One zlib stream: where it is, its raw bytes, its compressed bytes.
struct Stream {
    name: String,
    raw: Vec<u8>,
    zlib: Vec<u8>,
}

fn inflate(zlib: &[u8]) -> Vec<u8> {
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(zlib).read_to_end(&mut raw).expect("a zlib stream");
    raw
}

fn deflate(raw: &[u8]) -> Vec<u8> {
    let mut z = ZlibEncoder::new(Vec::new(), Compression::new(6));
    z.write_all(raw).expect("compresses");
    z.finish().expect("compresses")
}

/// The zlib stream of a PNG (its IDAT chunks' data, in order).
fn png_stream(png: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 8;
    while i + 8 <= png.len() {
        let len = u32::from_be_bytes(png[i..i + 4].try_into().expect("4 bytes")) as usize;
        if &png[i + 4..i + 8] == b"IDAT" {
            out.extend_from_slice(&png[i + 8..i + 8 + len]);
        }
        i += 12 + len;
    }
    out
}

/// The FlateDecode streams of a PDF, by their `/Length`.
fn pdf_streams(pdf: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = find(&pdf[from..], b">>\nstream\n").map(|k| from + k) {
        from = at + 10;
        let Some(open) = rfind(&pdf[..at], b"<<") else { continue };
        let dict = String::from_utf8_lossy(&pdf[open..at]);
        if !dict.contains("/FlateDecode") {
            continue;
        }
        let digits = |r: &str| r.trim_start().chars().take_while(char::is_ascii_digit).collect::<String>();
        let Some(len) = dict.split("/Length").nth(1).and_then(|r| digits(r).parse::<usize>().ok()) else {
            continue;
        };
        out.push(pdf[from..from + len].to_vec());
        from += len;
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn streams(dir: &std::path::Path) -> Vec<Stream> {
    let mut out = Vec::new();
    let mut push = |name: String, zlib: Vec<u8>| out.push(Stream { name, raw: inflate(&zlib), zlib });
    for (name, png) in pictures::pictures_in(dir) {
        push(name, png_stream(&png));
    }
    let mut pdfs: Vec<_> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .collect();
    pdfs.sort();
    for p in pdfs {
        let name = p.file_name().expect("a name").to_string_lossy().to_string();
        for (k, s) in pdf_streams(&std::fs::read(&p).expect("readable")).into_iter().enumerate() {
            push(format!("{name} stream {k}"), s);
        }
    }
    out
}

/// The fastest of `runs` timings of compressing `set`, one after another.
fn time(set: &[&Stream], runs: usize) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            for s in set {
                std::hint::black_box(deflate(std::hint::black_box(&s.raw)));
            }
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: deflate_floor DIR (the files of one run)");
        std::process::exit(2);
    });
    let runs: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(10);
    let all = streams(std::path::Path::new(&dir));
    let (mut raw, mut zipped) = (0, 0);
    for s in &all {
        assert!(deflate(&s.raw) == s.zlib, "{}: level 6 does not give the file's stream", s.name);
        raw += s.raw.len();
        zipped += s.zlib.len();
    }
    println!("{} streams, {raw} bytes in, {zipped} out, each the file's own bytes again at level 6", all.len());
    let mut big: Vec<&Stream> = all.iter().collect();
    big.sort_by_key(|s| std::cmp::Reverse(s.raw.len()));
    for s in big.iter().take(6) {
        println!("  {:>9} bytes in: {:>8.2} ms  {}", s.raw.len(), time(&[s], runs).as_secs_f64() * 1e3, s.name);
    }
    let one = time(&big, runs);
    // Two cores: the largest stream first to the less loaded thread (each stream is one
    // sequential compression; no split changes the bytes).
    let mut halves: [Vec<&Stream>; 2] = [Vec::new(), Vec::new()];
    let mut load = [0usize; 2];
    for s in &big {
        let k = if load[0] <= load[1] { 0 } else { 1 };
        load[k] += s.raw.len();
        halves[k].push(s);
    }
    let two = (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::thread::scope(|sc| {
                for h in &halves {
                    sc.spawn(move || time(h, 1));
                }
            });
            t.elapsed()
        })
        .min()
        .unwrap_or_default();
    let longest = big.first().map(|s| time(&[s], runs)).unwrap_or_default();
    println!("one thread: {:.2} ms", one.as_secs_f64() * 1e3);
    println!(
        "two threads: {:.2} ms (the longest stream alone: {:.2} ms)",
        two.as_secs_f64() * 1e3,
        longest.as_secs_f64() * 1e3
    );
}
