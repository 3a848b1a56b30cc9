//! PNG encoding of a drawn picture with the very bytes tiny-skia's `Pixmap::encode_png` writes,
//! without its copies.
//!
//! `encode_png` copies the whole pixmap to demultiply it (a second picture-sized buffer), lets the
//! png crate compress into a growing vector (flate2's writer zeroes its 32 KB output buffer on
//! every call, 7,600 calls for a 1900x1900 plan), then copies the stream once more into IDAT.
//! Here each row is demultiplied into one reused row, filtered and handed to the same compressor
//! at the same level, and the compressed bytes go straight into the file. The bytes are those of
//! png 0.18 with tiny-skia's settings (RGBA, 8 bits, `Compression::Balanced`: the adaptive filter
//! and zlib level 6 by flate2 on miniz_oxide): signature, IHDR, one IDAT, IEND. A deflate stream
//! without flushes depends only on its input, not on how the input or the output space is cut
//! into calls; the tests compare against `encode_png` picture by picture.

use flate2::{Compress, Compression, FlushCompress, Status};
use resvg::tiny_skia::PixmapRef;

/// flate2's default level, which png's `Compression::Balanced` uses.
const LEVEL: u32 = 6;
/// png writes the stream in IDAT chunks of at most this many bytes; a picture we draw (at most
/// 80 million pixels) compresses to fewer, so the file has one.
const MAX_IDAT: usize = (u32::MAX >> 1) as usize;
/// Bytes per pixel (RGBA, 8 bits each), the distance the Sub, Average and Paeth filters look back.
const BPP: usize = 4;

/// The PNG file of a premultiplied RGBA picture.
pub fn encode(pix: PixmapRef) -> std::io::Result<Vec<u8>> {
    let (width, height) = (pix.width(), pix.height());
    let row_len = width as usize * BPP;
    // A plan is mostly flat colour and compresses to a few percent; room for that and the chunks
    // keeps the file from being copied as it grows.
    let mut out = Vec::with_capacity(64 * 1024 + row_len * height as usize / 32);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&width.to_be_bytes());
    ihdr[4..8].copy_from_slice(&height.to_be_bytes());
    // Bit depth 8, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
    ihdr[8..].copy_from_slice(&[8, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);

    // The IDAT chunk's length is known once the stream is written.
    let idat = out.len();
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(b"IDAT");
    let mut z = Zlib::new();
    // The row above, as filtered against: a row of the pixmap itself when it was opaque (our
    // pictures are drawn on white, and an opaque pixel demultiplies to itself, so most rows are
    // filtered where they lie), else the demultiplied copy.
    let data = pix.data();
    let mut above: Option<usize> = None;
    let mut prev = vec![0u8; row_len];
    let mut cur = vec![0u8; row_len];
    let mut filtered = vec![0u8; row_len];
    let zeros = vec![0u8; row_len];
    for (y, bytes) in data.chunks_exact(row_len).enumerate() {
        let opaque = opaque(bytes);
        if !opaque {
            let row = &pix.pixels()[y * width as usize..][..width as usize];
            for (px, o) in row.iter().zip(cur.chunks_exact_mut(BPP)) {
                let c = px.demultiply();
                o.copy_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
            }
        }
        let this: &[u8] = if opaque { bytes } else { &cur };
        let up: &[u8] = match above {
            Some(a) => &data[a * row_len..][..row_len],
            None => &prev,
        };
        // A row like the one above (most rows of a plan) filters to zeros under Up, which scores
        // 0 and is chosen at once.
        let (kind, row) = if up == this { (UP, &zeros) } else { (filter(up, this, &mut filtered), &filtered) };
        // The filter type and the row as two writes, as png hands them to the compressor.
        z.write(&[kind], &mut out)?;
        z.write(row, &mut out)?;
        if opaque {
            above = Some(y);
        } else {
            std::mem::swap(&mut prev, &mut cur);
            above = None;
        }
    }
    z.finish(&mut out)?;
    let len = out.len() - idat - 8;
    if len > MAX_IDAT {
        return Err(std::io::Error::other("the compressed picture does not fit one IDAT chunk"));
    }
    out[idat..idat + 4].copy_from_slice(&(len as u32).to_be_bytes());
    let crc = crc32fast::hash(&out[idat + 4..]);
    out.extend_from_slice(&crc.to_be_bytes());
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

/// Whether every pixel of an RGBA row has alpha 255: the row's words ANDed together, eight bytes
/// (two pixels) at a time.
fn opaque(row: &[u8]) -> bool {
    const ALPHA: u64 = 0xff00_0000_ff00_0000;
    let words = row.chunks_exact(8);
    let rest = words.remainder().iter().skip(3).step_by(BPP).all(|&a| a == u8::MAX);
    let all = words.fold(u64::MAX, |m, w| m & u64::from_le_bytes(w.try_into().expect("8 bytes")));
    rest && all & ALPHA == ALPHA
}

/// A PNG chunk: length, type, data, CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A zlib stream written into the file through one reused output buffer (flate2's own writer
/// zeroes its buffer before every call).
struct Zlib {
    c: Compress,
    buf: Vec<u8>,
}

impl Zlib {
    fn new() -> Zlib {
        Zlib { c: Compress::new(Compression::new(LEVEL), true), buf: vec![0; 64 * 1024] }
    }

    /// Compresses all of `input`, appending what the compressor gives out.
    fn write(&mut self, mut input: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
        while !input.is_empty() {
            let (before_in, before_out) = (self.c.total_in(), self.c.total_out());
            self.c.compress(input, &mut self.buf, FlushCompress::None).map_err(std::io::Error::other)?;
            let used = (self.c.total_in() - before_in) as usize;
            let made = (self.c.total_out() - before_out) as usize;
            out.extend_from_slice(&self.buf[..made]);
            if used == 0 && made == 0 {
                return Err(std::io::Error::other("the compressor made no progress"));
            }
            input = &input[used..];
        }
        Ok(())
    }

    /// Ends the stream (the final block and the Adler-32 checksum).
    fn finish(&mut self, out: &mut Vec<u8>) -> std::io::Result<()> {
        loop {
            let before_out = self.c.total_out();
            let status = self.c.compress(&[], &mut self.buf, FlushCompress::Finish).map_err(std::io::Error::other)?;
            let made = (self.c.total_out() - before_out) as usize;
            out.extend_from_slice(&self.buf[..made]);
            match status {
                Status::StreamEnd => return Ok(()),
                _ if made == 0 => return Err(std::io::Error::other("the compressor made no progress")),
                _ => {}
            }
        }
    }
}

/// PNG row filter types.
const SUB: u8 = 1;
const UP: u8 = 2;
const AVG: u8 = 3;
const PAETH: u8 = 4;

/// png's adaptive filter: Up, Sub, Average and Paeth in that order, each scored by the sum of
/// its bytes read as signed magnitudes; the lowest score wins, a later filter on a tie, and a
/// score of 0 ends the search at once (the unfiltered row is never chosen). Leaves the chosen
/// filtering of `cur` in `out` and returns its type.
fn filter(prev: &[u8], cur: &[u8], out: &mut [u8]) -> u8 {
    let mut best = (u64::MAX, UP);
    for kind in [UP, SUB, AVG, PAETH] {
        let cost = apply(kind, prev, cur, out);
        if cost <= best.0 {
            best = (cost, kind);
            if cost == 0 {
                return kind;
            }
        }
    }
    if best.1 != PAETH {
        apply(best.1, prev, cur, out);
    }
    best.1
}

/// A filtered byte's score: its magnitude read as signed.
#[inline(always)]
fn score(b: u8) -> u32 {
    u32::from((b as i8).unsigned_abs())
}

/// Filters `cur` (the row above is `prev`) with filter `kind` into `out`; returns the score.
fn apply(kind: u8, prev: &[u8], cur: &[u8], out: &mut [u8]) -> u64 {
    let n = cur.len();
    let (prev, out) = (&prev[..n], &mut out[..n]);
    if kind == UP {
        return scored(out, |i| cur[i].wrapping_sub(prev[i]));
    }
    // The first pixel has nothing to its left (a = c = 0).
    let mut first = 0;
    for i in 0..BPP.min(n) {
        out[i] = match kind {
            SUB => cur[i],
            AVG => cur[i].wrapping_sub(prev[i] / 2),
            _ => cur[i].wrapping_sub(paeth(0, prev[i], 0)),
        };
        first += u64::from(score(out[i]));
    }
    if n <= BPP {
        return first;
    }
    let (x, a, b, c) = (&cur[BPP..], &cur[..n - BPP], &prev[BPP..], &prev[..n - BPP]);
    let out = &mut out[BPP..];
    first
        + match kind {
            SUB => scored(out, |i| x[i].wrapping_sub(a[i])),
            // floor((a + b) / 2) without leaving 8 bits.
            AVG => scored(out, |i| x[i].wrapping_sub((a[i] & b[i]) + ((a[i] ^ b[i]) >> 1))),
            _ => scored(out, |i| x[i].wrapping_sub(paeth(a[i], b[i], c[i]))),
        }
}

/// Fills `out[i]` with `f(i)` and returns the sum of their scores; indexed over slices of one
/// length with 32-bit sums per block, so the loop vectorises.
#[inline(always)]
fn scored(out: &mut [u8], f: impl Fn(usize) -> u8) -> u64 {
    let mut total = 0u64;
    for start in (0..out.len()).step_by(1 << 20) {
        let end = out.len().min(start + (1 << 20));
        let mut sum = 0u32;
        for (k, o) in out[start..end].iter_mut().enumerate() {
            let v = f(start + k);
            *o = v;
            sum += score(v);
        }
        total += u64::from(sum);
    }
    total
}

/// The Paeth predictor of the PNG specification: of left `a`, above `b` and above-left `c`, the
/// one nearest to p = a + b - c, preferring a, then b. In 8 bits, so it vectorises: |p - a| is
/// |b - c|, |p - b| is |a - c|, and |p - c| = |(a - c) + (b - c)| is the difference of the
/// other two when c lies between a and b, and larger than both when it does not.
#[inline(always)]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let pa = b.abs_diff(c);
    let pb = a.abs_diff(c);
    let pc = if (a < c) == (c < b) { pa.abs_diff(pb) } else { u8::MAX };
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::{Color, Paint, PathBuilder, Pixmap, Transform};

    /// A picture with every kind of row: flat, repeated, gradients, translucent colour over a
    /// transparent background (so demultiplying rounds), and noise.
    fn sample(w: u32, h: u32) -> Pixmap {
        let mut pix = Pixmap::new(w, h).expect("a pixmap");
        let mut state = 0x2545_f491_u32;
        for (i, px) in pix.data_mut().chunks_exact_mut(4).enumerate() {
            let (x, y) = (i as u32 % w, i as u32 / w);
            if y % 7 == 3 {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let a = (state >> 24) as u8;
                let p = |v: u32| ((v & 0xff) * u32::from(a) / 255) as u8;
                px.copy_from_slice(&[p(state), p(state >> 8), p(state >> 16), a]);
            } else if y % 5 == 1 {
                let v = (x * 255 / w) as u8;
                px.copy_from_slice(&[v, v / 2, 255 - v, 255]);
            }
        }
        let mut paint = Paint::default();
        paint.set_color(Color::from_rgba(0.2, 0.5, 0.8, 0.6).expect("a colour"));
        let circle = PathBuilder::from_circle(w as f32 / 2.0, h as f32 / 2.0, w.min(h) as f32 / 3.0).expect("a path");
        pix.fill_path(&circle, &paint, resvg::tiny_skia::FillRule::Winding, Transform::identity(), None);
        pix
    }

    #[test]
    fn the_streamed_png_has_the_bytes_of_tiny_skias_encoder() {
        for (w, h) in [(1, 1), (2, 3), (17, 9), (64, 64), (333, 41), (1000, 120)] {
            let pix = sample(w, h);
            let ours = encode(pix.as_ref()).expect("encodes");
            assert_eq!(ours, pix.encode_png().expect("tiny-skia encodes"), "{w}x{h}");
        }
    }

    #[test]
    fn the_adaptive_filter_takes_the_last_of_equal_scores_and_stops_at_zero() {
        // Identical rows: Up scores 0 and wins at once.
        let row = [10u8, 20, 30, 40, 10, 20, 30, 40];
        let mut out = [0u8; 8];
        assert_eq!(filter(&row, &row, &mut out), UP);
        assert_eq!(out, [0; 8]);
        // Below a row of zeros Paeth predicts from the left as Sub does: the same score, and the
        // later filter wins.
        assert_eq!(filter(&[0; 8], &row, &mut out), PAETH);
        assert_eq!(out, [10, 20, 30, 40, 0, 0, 0, 0]);
    }
}
