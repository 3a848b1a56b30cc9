//! Reading input files: regular files only, with a size limit. A scenario, table or template file
//! larger than any a GM writes is refused with one line instead of filling memory, and a named
//! pipe, device or socket is refused by what it is before it is read (a FIFO opened for reading
//! would wait for a writer for ever; a device may never end).

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// Largest scenario JSON read: 20 full map sheets of generated text are under 1 MiB, so 8 MiB
/// leaves room for any hand edit.
pub const SCENARIO_LIMIT: u64 = 8 << 20;
/// Largest table (TOML) or template file read.
pub const TEXT_LIMIT: u64 = 8 << 20;

/// What `meta` is, when it is not a regular file ("a named pipe (FIFO)", "a folder"...).
fn not_a_file(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// Opens `path` for reading without waiting: a FIFO swapped in after the type check opens at once
/// (no writer needed) and is refused by the check on the open file.
fn open(path: &Path) -> std::io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    o.open(path)
}

/// Reads `path` as UTF-8 text, refusing anything but a regular file and more than `limit` bytes
/// (read through `take`, so the read stops there whatever the file is).
pub fn read_text(path: &Path, limit: u64) -> Result<String> {
    let file = || path.display().to_string();
    let read_err = |e: std::io::Error| Error::read_io(file(), e);
    let refuse =
        |what: &str| Error::read_refused(file(), format!("{what}, not a file; dungeonsmith reads regular files only"));
    // The type first, from the path: a FIFO is never opened.
    if let Some(what) = not_a_file(&std::fs::metadata(path).map_err(read_err)?) {
        return Err(refuse(what));
    }
    let f = open(path).map_err(read_err)?;
    if let Some(what) = not_a_file(&f.metadata().map_err(read_err)?) {
        return Err(refuse(what));
    }
    let mut bytes = Vec::new();
    f.take(limit + 1).read_to_end(&mut bytes).map_err(read_err)?;
    if bytes.len() as u64 > limit {
        return Err(Error::read_refused(
            file(),
            format!("larger than {} MiB, the most dungeonsmith reads", limit >> 20),
        ));
    }
    String::from_utf8(bytes).map_err(|_| Error::read_refused(file(), "stream did not contain valid utf-8"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_named_pipe_is_refused_by_name_without_waiting_for_a_writer() {
        let dir = std::env::temp_dir().join(format!("dungeonsmith-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("scenario.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path only.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_text(&fifo, SCENARIO_LIMIT).unwrap_err().to_string();
        assert!(
            e.ends_with("scenario.json`: a named pipe (FIFO), not a file; dungeonsmith reads regular files only"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_device_and_a_folder_are_refused_by_what_they_are() {
        let e = read_text(Path::new("/dev/zero"), SCENARIO_LIMIT).unwrap_err().to_string();
        assert_eq!(e, "cannot read `/dev/zero`: a device, not a file; dungeonsmith reads regular files only");
        let e = read_text(Path::new("/"), SCENARIO_LIMIT).unwrap_err().to_string();
        assert!(e.contains("a folder, not a file"), "{e}");
    }
}
