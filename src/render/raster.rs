//! SVG → PNG with resvg, for the exports that carry pictures (Universal VTT, Udonarium).
//!
//! resvg's font database starts empty, and a system font would make the pixels depend on the
//! machine, so the DejaVu Sans faces shipped in `assets/fonts/` are embedded and loaded
//! explicitly: the same SVG gives the same PNG bytes everywhere.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::error::{Error, Result};

static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The largest picture drawn (a 40-area fortress plan is about 28 million pixels).
const MAX_PIXELS: u64 = 80_000_000;

/// The embedded fonts, loaded once.
pub fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(BOLD.to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// Renders an SVG document to PNG bytes, `width` pixels wide (height in proportion), on white.
pub fn png(svg: &str, width: u32, what: &str) -> Result<Vec<u8>> {
    let fail = |message: String| Error::Scenario { file: what.to_string(), message };
    let opt = usvg::Options { fontdb: fonts(), ..Default::default() };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| fail(format!("cannot draw the picture: {e}")))?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).round().max(1.0) as u32;
    // A hand-edited scenario can ask for a huge plan; refuse rather than allocate gigabytes.
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(fail(format!("a {width}x{height} picture is too large to draw")));
    }
    let mut pix = Pixmap::new(width.max(1), height)
        .ok_or_else(|| fail(format!("a {width}x{height} picture is too large to draw")))?;
    pix.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(&tree, Transform::from_scale(scale, scale), &mut pix.as_mut());
    // tiny-skia's own encoder: the png crate, RGBA, 8 bits, adaptive filter, zlib level 6.
    pix.encode_png().map_err(|e| fail(format!("cannot encode the picture: {e}")))
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
}
