//! The only writer: artifacts in memory → files, each through a temporary file and a rename, so an
//! interrupted run never leaves a half-written file under the final name.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A rendered file: its name inside the output folder and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Artifact {
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Artifact {
        Artifact { name: name.into(), bytes: bytes.into() }
    }
}

/// Writes every artifact into `dir` (created if missing). Returns the paths written, in order.
/// Nothing is renamed into place until every temporary file is fully written.
pub fn write_all(dir: &Path, artifacts: &[Artifact]) -> Result<Vec<PathBuf>> {
    let werr = |file: &Path, e: std::io::Error| Error::Write {
        file: file.display().to_string(),
        reason: e.to_string().to_lowercase(),
    };
    fs::create_dir_all(dir).map_err(|e| werr(dir, e))?;
    let mut staged = Vec::new();
    for a in artifacts {
        let path = dir.join(&a.name);
        let tmp = dir.join(format!(".{}.tmp", a.name));
        let written = fs::File::create(&tmp).and_then(|mut f| {
            f.write_all(&a.bytes)?;
            f.sync_all()
        });
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            for (t, _) in &staged {
                let _ = fs::remove_file(t);
            }
            return Err(werr(&path, e));
        }
        staged.push((tmp, path));
    }
    let mut done = Vec::new();
    for (tmp, path) in staged {
        fs::rename(&tmp, &path).map_err(|e| werr(&path, e))?;
        done.push(path);
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_appear_whole_and_no_temporary_file_remains() {
        let dir = std::env::temp_dir().join(format!("dungeonsmith-out-{}", std::process::id()));
        let written = write_all(&dir, &[Artifact::new("a.txt", "hello"), Artifact::new("b.txt", "world")]).unwrap();
        assert_eq!(written.len(), 2);
        assert_eq!(fs::read_to_string(dir.join("a.txt")).unwrap(), "hello");
        let names: Vec<String> =
            fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn an_unwritable_folder_is_an_error_naming_it() {
        let e = write_all(Path::new("/proc/no-such/dir"), &[Artifact::new("a", "x")]).unwrap_err();
        assert!(e.to_string().starts_with("cannot write `/proc/no-such/dir`"), "{e}");
    }
}
