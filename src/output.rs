//! The only writer: artifacts in memory → files, all or nothing. Every file is first written in
//! full to a temporary file named for this run (`.NAME.PID-N.tmp`, so two runs into one folder
//! never share one), and only when all of them are written are they renamed into place. On any
//! error every temporary file of the run is removed and no final name is touched. A run killed
//! mid-write can leave its hidden `.tmp` files behind; they are never read, and the next run into
//! the folder removes those whose process is gone.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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

/// Runs within this process (threads, in-process tests) told apart in temporary names.
static RUNS: AtomicU64 = AtomicU64::new(0);

fn werr(file: &Path, e: std::io::Error) -> Error {
    Error::Write { file: file.display().to_string(), reason: e.to_string().to_lowercase() }
}

/// Writes every artifact into `dir` (created if missing). Returns the paths written, in order.
/// Nothing is renamed into place until every temporary file is fully written; on error nothing
/// of this run is left behind (not even the folder, if this run created it).
pub fn write_all(dir: &Path, artifacts: &[Artifact]) -> Result<Vec<PathBuf>> {
    let created = !dir.exists();
    fs::create_dir_all(dir).map_err(|e| werr(dir, e))?;
    remove_stale_temps(dir);
    let run = format!("{}-{}", std::process::id(), RUNS.fetch_add(1, Ordering::Relaxed));
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let result = stage(dir, artifacts, &run, &mut staged).and_then(|()| commit(&mut staged));
    if result.is_err() {
        for (tmp, _) in &staged {
            let _ = fs::remove_file(tmp);
        }
        if created {
            let _ = fs::remove_dir(dir); // only if empty
        }
    }
    result
}

/// Writes each artifact to its temporary file; refuses a final name held by a folder before any
/// rename, so a run fails whole rather than half renamed.
fn stage(dir: &Path, artifacts: &[Artifact], run: &str, staged: &mut Vec<(PathBuf, PathBuf)>) -> Result<()> {
    for a in artifacts {
        let path = dir.join(&a.name);
        if path.is_dir() {
            return Err(Error::Write { file: path.display().to_string(), reason: "a folder has that name".into() });
        }
        let tmp = dir.join(format!(".{}.{run}.tmp", a.name));
        staged.push((tmp.clone(), path.clone()));
        // No fsync: the rename below already keeps a crashed or failed run from leaving a half
        // written file under a final name, and every file can be made again from its seed; a
        // sync per file cost more than the whole run (several ms each on a busy disk).
        fs::File::create(&tmp).and_then(|mut f| f.write_all(&a.bytes)).map_err(|e| werr(&path, e))?;
    }
    Ok(())
}

/// Renames every staged file into place; what is renamed leaves `staged`.
fn commit(staged: &mut Vec<(PathBuf, PathBuf)>) -> Result<Vec<PathBuf>> {
    let mut done = Vec::new();
    while !staged.is_empty() {
        let (tmp, path) = staged.remove(0);
        if let Err(e) = fs::rename(&tmp, &path) {
            staged.insert(0, (tmp, path.clone()));
            return Err(werr(&path, e));
        }
        done.push(path);
    }
    Ok(done)
}

/// Removes `.NAME.PID-N.tmp` files left by runs whose process is gone (killed mid-write). Only
/// where running processes can be seen (/proc); elsewhere they stay, hidden and never read.
fn remove_stale_temps(dir: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else { return };
    let me = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(pid) = temp_pid(&name) else { continue };
        if pid != me && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The process id in a temporary name `.NAME.PID-N.tmp`, if `name` is one.
fn temp_pid(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, run) = inner.rsplit_once('.')?;
    let (pid, n) = run.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
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
