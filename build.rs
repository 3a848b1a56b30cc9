//! Embeds every file under tables/ and templates/ so the binary runs anywhere.
//! The lists are sorted by path, so the embedded order (and the tables version) never depends on
//! the file system.
//!
//! The tables are also checked here with the crate's own loader, included by path with the few
//! modules it uses (dice, error, input): one implementation of every table rule, run at build time
//! for the built-in tables, at run time for a `--tables` folder. A workspace crate would have
//! meant moving `src/tables` and splitting the error type; including the files moves nothing.
//! They are embedded as a blob beside their TOML text (`src/tables/blob.rs`), so at run time the
//! built-in tables are neither parsed nor checked again, only indexed.

// The loader's modules are compiled here for `Tables::from_files` and the blob encoder alone.
#![allow(dead_code, unused_imports)]

#[path = "src/dice.rs"]
mod dice;
#[path = "src/error.rs"]
mod error;
#[path = "src/input.rs"]
mod input;
#[path = "src/tables/mod.rs"]
mod tables;

use std::fs;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, ext: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, ext, out);
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| ext.contains(&e)) {
            out.push(path);
        }
    }
}

fn embed(name: &str, folder: &str, ext: &[&str]) {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join(folder);
    println!("cargo:rerun-if-changed={folder}");
    let mut files = Vec::new();
    collect(&root, ext, &mut files);
    files.sort();
    let mut code =
        format!("/// Files embedded from `{folder}/`, sorted by path.\npub const {name}: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let rel = f.strip_prefix(&root).expect("collected under root").to_string_lossy().replace('\\', "/");
        code.push_str(&format!("    ({rel:?}, include_str!({:?})),\n", f.display().to_string()));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join(format!("{}.rs", name.to_lowercase())), code).expect("write embedded list");
}

/// Checks the built-in tables with the crate's own loader (a broken table fails the build with
/// the one-line error `--tables tables` would print) and embeds their value trees as a blob and a
/// string pool (`src/tables/blob.rs`), with the version digest the loader computed.
fn embed_tables_blob() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("tables");
    let mut paths = Vec::new();
    collect(&root, &["toml"], &mut paths);
    paths.sort();
    let mut files = Vec::new();
    for f in &paths {
        let rel = f.strip_prefix(&root).expect("collected under root").to_string_lossy().replace('\\', "/");
        files.push((rel, fs::read_to_string(f).expect("read a table file")));
    }
    let checked = match tables::Tables::from_files("embedded".into(), &files) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: the built-in tables are broken: {e}");
            std::process::exit(1);
        }
    };
    let mut encoder = tables::blob::Encoder::default();
    for (rel, text) in &files {
        encoder.file(rel, toml::from_str(text).expect("the loader read it"));
    }
    let (blob, pool) = encoder.finish().unwrap_or_else(|e| {
        eprintln!("error: the built-in tables cannot be embedded: {e}");
        std::process::exit(1);
    });
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("embedded_tables.blob"), &blob).expect("write the tables blob");
    fs::write(out.join("embedded_tables_pool.txt"), &pool).expect("write the tables string pool");
    let code = format!(
        "/// The built-in tables' value trees (`blob.rs` layout), checked at build time.\n\
         pub const EMBEDDED_TABLES_BLOB: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/embedded_tables.blob\"));\n\
         /// Every string of the blob, once.\n\
         pub const EMBEDDED_TABLES_POOL: &str = include_str!(concat!(env!(\"OUT_DIR\"), \"/embedded_tables_pool.txt\"));\n\
         /// The built-in tables' version digest.\n\
         pub const EMBEDDED_TABLES_VERSION: &str = {:?};\n",
        checked.version
    );
    fs::write(out.join("embedded_tables_blob.rs"), code).expect("write the embedded tables");
}

fn main() {
    embed("EMBEDDED_TABLES", "tables", &["toml"]);
    embed_tables_blob();
    // Tells the crate it has the embedded files (build.rs compiles src/tables without them).
    println!("cargo::rustc-cfg=tables_built");
    embed("EMBEDDED_TEMPLATES", "templates", &["md", "html", "j2", "jinja", "css", "svg"]);
}
