//! Pictures (Universal VTT maps, Udonarium tables and tokens): dungeonsmith encodes its PNGs row
//! by row itself, to save the copies tiny-skia's encoder makes (issue #13), and every PNG it
//! writes must be byte for byte what tiny-skia's `encode_png` writes for the same pixels. (Many
//! more seeds and options: `scale::every_picture_across_the_options_is_the_png_tiny_skias_encoder_writes`.)

use resvg::tiny_skia::Pixmap;

use crate::pictures::pictures_in;
use crate::run;
use crate::vtt::temp;

/// Every PNG a run writes, named by file (and zip entry): the `image` of each `.dd2vtt` and each
/// picture in the Udonarium zip.
pub(crate) fn pngs(tag: &str, args: &[&str]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let dir = temp(tag);
    let d = dir.to_string_lossy().to_string();
    let mut full = args.to_vec();
    full.extend(["--format", "uvtt,udonarium", "--out", &d]);
    let (code, _, err) = run(&full);
    if code != 0 {
        std::fs::remove_dir_all(&dir).ok();
        return Err(format!("{args:?}: exit {code}: {err}"));
    }
    let out = pictures_in(&dir);
    std::fs::remove_dir_all(&dir).ok();
    Ok(out)
}

/// Why `png` is not what tiny-skia's encoder makes of its own pixels, if it is not. Every
/// picture is drawn on white, so decoding (which premultiplies) loses nothing.
pub(crate) fn differs_from_tiny_skia(name: &str, png: &[u8]) -> Option<String> {
    let pix = match Pixmap::decode_png(png) {
        Ok(p) => p,
        Err(e) => return Some(format!("{name}: not a PNG: {e}")),
    };
    if let Some(i) = pix.pixels().iter().position(|p| p.alpha() != 255) {
        return Some(format!("{name}: pixel {i} is not opaque"));
    }
    let theirs = pix.encode_png().expect("tiny-skia encodes");
    (theirs != png).then(|| format!("{name}: {} bytes, tiny-skia writes {} other bytes", png.len(), theirs.len()))
}

#[test]
fn every_picture_is_the_png_tiny_skias_encoder_writes() {
    let mut seen = 0;
    for (tag, args) in
        [("png-myk", vec!["myk", "--seed", "1"]), ("png-nw3", vec!["fortress", "--seed", "7", "--paper", "letter"])]
    {
        let pictures = pngs(tag, &args).unwrap_or_else(|e| panic!("{e}"));
        // A plan per map, the Udonarium plan and players' sheet, and tokens.
        assert!(pictures.len() >= 4, "{args:?}: {} pictures", pictures.len());
        for (name, png) in &pictures {
            assert_eq!(differs_from_tiny_skia(name, png), None);
        }
        seen += pictures.len();
    }
    assert!(seen >= 8, "{seen} pictures");
}
