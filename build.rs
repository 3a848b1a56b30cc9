//! Embeds every file under tables/ and templates/ so the binary runs anywhere.
//! The lists are sorted by path, so the embedded order (and the tables version) never depends on
//! the file system.

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

fn main() {
    embed("EMBEDDED_TABLES", "tables", &["toml"]);
    embed("EMBEDDED_TEMPLATES", "templates", &["md", "html", "j2", "jinja", "css", "svg"]);
}
