//! Pictures (Universal VTT maps, Udonarium tables and tokens): every PNG a run writes reads back
//! as an opaque 8-bit RGB picture. (Many more seeds and options:
//! `scale::every_picture_across_the_options_decodes_as_an_opaque_rgb_png`; that the pixels are
//! the ones drawn: `render::raster`'s unit test.)

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

/// Why `png` is not a picture a VTT can show, if it is not: it must decode (the png crate's
/// reader, as image libraries read it) to an opaque 8-bit RGB picture, neither empty nor a
/// single colour.
pub(crate) fn unreadable(name: &str, png: &[u8]) -> Option<String> {
    let mut reader = match png::Decoder::new(std::io::Cursor::new(png)).read_info() {
        Ok(r) => r,
        Err(e) => return Some(format!("{name}: not a PNG: {e}")),
    };
    let Some(size) = reader.output_buffer_size() else { return Some(format!("{name}: too large to read")) };
    let mut buf = vec![0; size];
    let info = match reader.next_frame(&mut buf) {
        Ok(i) => i,
        Err(e) => return Some(format!("{name}: its pixels do not decode: {e}")),
    };
    if (info.color_type, info.bit_depth) != (png::ColorType::Rgb, png::BitDepth::Eight) {
        return Some(format!("{name}: {:?} {:?}, not 8-bit RGB", info.color_type, info.bit_depth));
    }
    let pixels = &buf[..info.buffer_size()];
    if info.width == 0 || pixels.chunks_exact(3).all(|p| p == &pixels[..3]) {
        return Some(format!("{name}: a {}x{} picture of one colour", info.width, info.height));
    }
    None
}

#[test]
fn every_picture_decodes_as_an_opaque_rgb_png() {
    let mut seen = 0;
    for (tag, args) in
        [("png-myk", vec!["myk", "--seed", "1"]), ("png-nw3", vec!["fortress", "--seed", "7", "--paper", "letter"])]
    {
        let pictures = pngs(tag, &args).unwrap_or_else(|e| panic!("{e}"));
        // A plan per map, the Udonarium plan and players' sheet, and tokens.
        assert!(pictures.len() >= 4, "{args:?}: {} pictures", pictures.len());
        for (name, png) in &pictures {
            assert_eq!(unreadable(name, png), None);
        }
        seen += pictures.len();
    }
    assert!(seen >= 8, "{seen} pictures");
}
