//! Embeds every file under tables/ and templates/ so the binary runs anywhere.
//! The lists are sorted by path, so the embedded order (and the tables version) never depends on
//! the file system.
//!
//! The tables are also parsed here, once, and embedded as JSON beside their TOML text, with their
//! version digest: at run time the built-in tables are read from JSON, several times faster than
//! TOML (a `--tables` folder is still TOML). A syntax error in a built-in table fails the build.

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

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The built-in tables as JSON, in the same order, and their version: the same digest as
/// `Tables::from_files` (FNV-1a over each path and text, NUL after each; a test holds them equal).
fn embed_tables_json() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("tables");
    let mut files = Vec::new();
    collect(&root, &["toml"], &mut files);
    files.sort();
    let mut hash = FNV_OFFSET;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
    };
    let mut code = String::from("/// The built-in tables parsed at build time, as JSON, in `EMBEDDED_TABLES` order.\n");
    code.push_str("pub const EMBEDDED_TABLES_JSON: &[(&str, &str)] = &[\n");
    for f in &files {
        let rel = f.strip_prefix(&root).expect("collected under root").to_string_lossy().replace('\\', "/");
        let text = fs::read_to_string(f).expect("read a table file");
        feed(rel.as_bytes());
        feed(&[0]);
        feed(text.as_bytes());
        feed(&[0]);
        let value: toml::Value =
            toml::from_str(&text).unwrap_or_else(|e| panic!("tables/{rel} is not valid TOML: {e}"));
        let json = serde_json::to_string(&value).expect("TOML values convert to JSON");
        code.push_str(&format!("    ({rel:?}, {json:?}),\n"));
    }
    code.push_str("];\n");
    code.push_str(&format!(
        "/// The built-in tables' version digest.\npub const EMBEDDED_TABLES_VERSION: &str = \"{:012x}\";\n",
        hash >> 16
    ));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("embedded_tables_json.rs"), code).expect("write embedded JSON tables");
}

fn main() {
    embed("EMBEDDED_TABLES", "tables", &["toml"]);
    embed_tables_json();
    embed("EMBEDDED_TEMPLATES", "templates", &["md", "html", "j2", "jinja", "css", "svg"]);
}
