//! The fonts: the DejaVu Sans faces shipped in `assets/fonts/`, embedded here once, and the one
//! measure of text the SVG sheets lay out with.
//!
//! Every part that draws or lays out text reads these bytes: resvg draws the pictures with them
//! ([`crate::render::raster`]; its font database starts empty, and a system font would make the
//! pixels depend on the machine), and parley shapes the PDF's text with them while krilla embeds
//! them ([`crate::render::typeset`]).
//!
//! The SVG sheets are measured from the same faces, through [`advance`]: each character's advance
//! width, in the faces' own units (2048 to the em), read from a table of the regular and bold
//! faces' printable ASCII. A table and not a shaper, because a sheet fits hundreds of labels, each
//! tried at several lengths, and a lookup costs nothing where shaping a string with parley costs
//! microseconds (and the first shaping loads the faces, milliseconds a run that draws no PDF would
//! pay); a sheet's text is set without kerning or ligatures, so the sum of advances is the width a
//! browser draws. The table is the faces' own numbers: the test
//! `the_sheet_measure_is_the_embedded_faces_advances` shapes every character with parley from the
//! bytes here and compares. Characters beyond ASCII that labels use count at a width no narrower
//! than either face draws them; anything else counts as a full em, so a measured box never comes
//! out narrower than its text.

/// DejaVu Sans, the regular face.
pub static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// The bold face.
pub static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");
/// The oblique (italic) face, for the PDF's text.
pub static ITALIC: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Oblique.ttf");
/// The bold oblique face, for the PDF's text.
pub static BOLD_ITALIC: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-BoldOblique.ttf");
/// Every face, in the order above.
pub const FACES: [&[u8]; 4] = [REGULAR, BOLD, ITALIC, BOLD_ITALIC];
/// The family name the faces carry, which every drawing asks for.
pub const FAMILY: &str = "DejaVu Sans";
/// Font units to the em.
pub const UNITS_PER_EM: u32 = 2048;

/// Advance widths of printable ASCII (32..=126) in the regular face, in font units.
#[rustfmt::skip]
const REGULAR_ADVANCES: [u16; 95] = [
    651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303, 1303, 1303,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577,
    1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401,
    2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298,
    569, 569, 1186, 569, 1995, 1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075,
    1303, 690, 1303, 1716,
];
/// The same in the bold face.
#[rustfmt::skip]
const BOLD_ADVANCES: [u16; 95] = [
    713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748, 1425, 1425, 1425,
    1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503, 1700,
    1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663, 1585,
    2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458,
    702, 702, 1362, 702, 2134, 1458, 1407, 1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192,
    1458, 748, 1458, 1716,
];

/// The characters beyond ASCII the sheets write, each at a width no face draws wider.
pub const WIDE_ENOUGH: [(char, u32); 6] = [
    ('\u{2026}', 2048),
    ('\u{2014}', 2048),
    ('\u{2192}', 1716),
    ('\u{00d7}', 1716),
    ('\u{00b7}', 778),
    ('\u{2013}', 1024),
];

/// Advance width of one character in font units (1/2048 em) for the SVG sheets' layout;
/// anything unknown counts as a full em (wide).
pub fn advance(c: char, bold: bool) -> u32 {
    let table = if bold { &BOLD_ADVANCES } else { &REGULAR_ADVANCES };
    match c {
        ' '..='~' => u32::from(table[c as usize - 32]),
        _ => WIDE_ENOUGH.iter().find(|(w, _)| *w == c).map_or(UNITS_PER_EM, |&(_, units)| units),
    }
}
