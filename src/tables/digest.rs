//! The tables version: a digest (FNV-1a, 64 bits, top 48 as 12 hex digits) of every table file's
//! path and text, in path order, printed on every output so a GM can tell which tables made it.
//! It needs nothing of the crate, so build.rs includes this file to stamp the built-in tables.

use std::hash::Hasher;

/// The version of the table files `files` (relative path, text), given in path order.
pub fn version<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut h = fnv::FnvHasher::default();
    for (path, text) in files {
        h.write(path.as_bytes());
        h.write(&[0]);
        h.write(text.as_bytes());
        h.write(&[0]);
    }
    format!("{:012x}", h.finish() >> 16)
}
