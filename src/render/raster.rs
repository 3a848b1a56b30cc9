//! SVG → PNG with resvg, for the exports that carry pictures (Universal VTT, Udonarium).
//!
//! The PNG is written by the png crate as 8-bit RGB (every picture is drawn opaque on white, so
//! an alpha channel would carry nothing) with its fast deflate: a 30-area fortress plan (7
//! megapixels) encodes in about 12 ms instead of about 80 ms at tiny-skia's default level, for a
//! file about three times as large (115 KB instead of 36 KB; docs/speed.md).
//!
//! resvg's font database starts empty, and a system font would make the pixels depend on the
//! machine, so the DejaVu Sans faces embedded by [`crate::render::fonts`] are loaded
//! explicitly: the same SVG gives the same PNG bytes everywhere.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::error::{Error, Result};

use crate::render::fonts::{BOLD, FAMILY, REGULAR};

/// The largest picture drawn (a 40-area fortress plan is about 28 million pixels).
const MAX_PIXELS: u64 = 80_000_000;

/// The embedded fonts, loaded once.
pub fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(BOLD.to_vec());
        db.set_sans_serif_family(FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// Renders an SVG document to PNG bytes, `width` pixels wide (height in proportion), on white.
pub fn png(svg: &str, width: u32, what: &str) -> Result<Vec<u8>> {
    let opt = usvg::Options { fontdb: fonts(), ..Default::default() };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|source| Error::Draw {
        what: what.into(),
        doing: "the picture",
        source,
    })?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).round().max(1.0) as u32;
    // A hand-edited scenario can ask for a huge plan; refuse rather than allocate gigabytes.
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(Error::PictureTooLarge { what: what.into(), width, height });
    }
    let mut pix =
        Pixmap::new(width.max(1), height).ok_or_else(|| Error::PictureTooLarge { what: what.into(), width, height })?;
    pix.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(&tree, Transform::from_scale(scale, scale), &mut pix.as_mut());
    encode(&pix).map_err(|source| Error::Png { what: what.into(), source })
}

/// An opaque pixmap as 8-bit RGB PNG. Opaque pixels are the same premultiplied or not, so the
/// colour bytes go as they are. (The png crate's whole-image writer: its streaming writer
/// compresses with a slower, weaker path at the same setting.)
fn encode(pix: &Pixmap) -> std::result::Result<Vec<u8>, png::EncodingError> {
    let rgb: Vec<u8> = pix.data().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut out = Vec::with_capacity(rgb.len() / 64);
    let mut encoder = png::Encoder::new(&mut out, pix.width(), pix.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_too_large_to_draw_is_an_error_naming_the_file() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"100000\"/>";
        let e = png(svg, 10_000, "big.dd2vtt").unwrap_err().to_string();
        assert!(e.starts_with("`big.dd2vtt`: a 10000x100000000 picture is too large"), "{e}");
        let small = png("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"5\"/>", 20, "x").unwrap();
        assert!(small.starts_with(b"\x89PNG"));
    }

    #[test]
    fn a_picture_reads_back_pixel_for_pixel_as_it_was_drawn() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"7\" height=\"3\">\
                   <rect x=\"1\" y=\"0.5\" width=\"4.3\" height=\"2\" fill=\"#4a4540\"/>\
                   <text x=\"0\" y=\"3\" font-size=\"3\" font-family=\"DejaVu Sans\">Ab</text></svg>";
        let bytes = png(svg, 70, "x").unwrap();
        let tree = usvg::Tree::from_str(svg, &usvg::Options { fontdb: fonts(), ..Default::default() }).unwrap();
        let mut drawn = Pixmap::new(70, 30).unwrap();
        drawn.fill(resvg::tiny_skia::Color::WHITE);
        resvg::render(&tree, Transform::from_scale(10.0, 10.0), &mut drawn.as_mut());
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
        let mut back = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut back).unwrap();
        assert_eq!((info.width, info.height, info.color_type), (70, 30, png::ColorType::Rgb));
        let rgb: Vec<u8> = drawn.data().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        assert!(drawn.pixels().iter().all(|p| p.alpha() == 255));
        assert_eq!(&back[..info.buffer_size()], &rgb[..]);
        assert!(rgb.iter().any(|&c| c < 100), "something dark was drawn");
    }
}
