//! Embeds every file under tables/ and templates/ so the binary runs anywhere.
//! The lists are sorted by path, so the embedded order (and the tables version) never depends on
//! the file system.
//!
//! The tables are also embedded as a blob of their value trees beside their TOML text
//! (`src/tables/blob.rs`, included here by path with the version digest, `src/tables/digest.rs`),
//! so at run time the built-in tables are neither parsed nor checked, only indexed. They are
//! checked by the crate's own loader in the test `the_built_in_tables_pass_every_check_a_tables_folder_gets`.

#[path = "src/tables/blob.rs"]
#[allow(dead_code)] // the reading half is the crate's
mod blob;
#[path = "src/tables/digest.rs"]
mod digest;

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

/// Embeds the built-in tables' value trees as a blob and a string pool (`src/tables/blob.rs`),
/// with their version digest. A file that is not TOML fails the build; what the TOML says is
/// checked by the tests.
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
    let mut encoder = blob::Encoder::default();
    encoder.files(files.len());
    for (rel, text) in &files {
        let table = toml::de::DeTable::parse(text).unwrap_or_else(|e| {
            eprintln!("error: the built-in table file `{rel}` is not TOML: {e}");
            std::process::exit(1);
        });
        if let Err(e) = encoder.file(rel, &table) {
            eprintln!("error: the built-in tables cannot be embedded: {e}");
            std::process::exit(1);
        }
    }
    let (blob, pool) = encoder.finish();
    let version = digest::version(files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("embedded_tables.blob"), &blob).expect("write the tables blob");
    fs::write(out.join("embedded_tables_pool.txt"), &pool).expect("write the tables string pool");
    let code = format!(
        "/// The built-in tables' value trees (`blob.rs` layout).\n\
         pub const EMBEDDED_TABLES_BLOB: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/embedded_tables.blob\"));\n\
         /// Every string of the blob, once.\n\
         pub const EMBEDDED_TABLES_POOL: &str = include_str!(concat!(env!(\"OUT_DIR\"), \"/embedded_tables_pool.txt\"));\n\
         /// The built-in tables' version digest.\n\
         pub const EMBEDDED_TABLES_VERSION: &str = {version:?};\n"
    );
    fs::write(out.join("embedded_tables_blob.rs"), code).expect("write the embedded tables");
}

fn main() {
    embed("EMBEDDED_TABLES", "tables", &["toml"]);
    embed_tables_blob();
    embed("EMBEDDED_TEMPLATES", "templates", &["md", "html", "j2", "jinja", "css", "svg", "toml"]);
}
