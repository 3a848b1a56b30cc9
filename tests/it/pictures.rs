//! The PNG pictures in a folder of written files, read as a VTT or Udonarium would: the `image`
//! of each `.dd2vtt` (base64 in JSON) and each `.png` in a `.zip`, named by file (and zip entry),
//! in file-name order.

use std::io::Read;
use std::path::Path;

use base64::Engine;

/// Every picture in `dir`, as `(name, PNG bytes)`.
pub fn pictures_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut paths: Vec<_> =
        std::fs::read_dir(dir).expect("the output folder").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    for p in paths {
        let name = p.file_name().expect("a name").to_string_lossy().to_string();
        if name.ends_with(".dd2vtt") {
            let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).expect("readable")).expect("JSON");
            let image = v["image"].as_str().expect("an image");
            out.push((name, base64::engine::general_purpose::STANDARD.decode(image).expect("base64")));
        } else if name.ends_with(".zip") {
            let file = std::fs::File::open(&p).expect("readable");
            let mut z = zip::ZipArchive::new(file).expect("a zip");
            for i in 0..z.len() {
                let mut f = z.by_index(i).expect("entry");
                let entry = f.name().expect("entry name").to_string();
                if entry.ends_with(".png") {
                    let mut b = Vec::new();
                    f.read_to_end(&mut b).expect("readable");
                    out.push((format!("{name}/{entry}"), b));
                }
            }
        }
    }
    out
}
