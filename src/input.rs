//! Reading input files with a size limit: a scenario, table or template file larger than any a GM
//! writes (or a device such as /dev/zero) is refused with one line instead of filling memory.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// Largest scenario JSON read: 20 full map sheets of generated text are under 1 MiB, so 8 MiB
/// leaves room for any hand edit.
pub const SCENARIO_LIMIT: u64 = 8 << 20;
/// Largest table (TOML) or template file read.
pub const TEXT_LIMIT: u64 = 8 << 20;

/// Reads `path` as UTF-8 text, refusing more than `limit` bytes (read through `take`, so the
/// read stops there whatever the file is).
pub fn read_text(path: &Path, limit: u64) -> Result<String> {
    let file = || path.display().to_string();
    let read_err = |e: std::io::Error| Error::ReadFile { file: file(), reason: e.to_string().to_lowercase() };
    let f = std::fs::File::open(path).map_err(read_err)?;
    let mut bytes = Vec::new();
    f.take(limit + 1).read_to_end(&mut bytes).map_err(read_err)?;
    if bytes.len() as u64 > limit {
        return Err(Error::ReadFile {
            file: file(),
            reason: format!("larger than {} MiB, the most dungeonsmith reads", limit >> 20),
        });
    }
    String::from_utf8(bytes)
        .map_err(|_| Error::ReadFile { file: file(), reason: "stream did not contain valid utf-8".into() })
}
