//! The only writer: artifacts in memory → files, all or nothing. Every file is first written in
//! full to a temporary file named for this run (`.NAME.PID-N.tmp`, so two runs into one folder
//! never share one), and only when all of them are written (and synced) are they renamed into
//! place. On any error every temporary file of the run is removed and no final name is touched. A
//! run killed while writing can leave its hidden `.tmp` files behind; they are never read, and the
//! next run into the folder removes those whose process is gone.
//!
//! A kill between the renames would leave a mixed set (new files beside old ones), so before the
//! first rename the run writes an intent record, `.dungeonsmith.commit` (every rename and removal
//! it is about to make), and syncs it and the folder. The next run into the folder, of any
//! scenario, finds the record and completes that commit first: every file it names was written
//! and synced before the record was. The record goes when its commit is done. A record the
//! program did not write for this folder (planted, copied, cut, a pipe under its name) is never
//! obeyed nor removed: the run refuses in one line naming it ([`Intent`]).
//!
//! No file is opened through a link an attacker placed: the lock, the record and every temporary
//! file are opened with `O_NOFOLLOW`, the temporary files exclusively (`create_new`); a link (or a
//! second hard link) under one of those names is removed, never followed.
//!
//! A scenario's files are a set: a run removes the per-map files of its scenario (same stem,
//! `myk-7-map3.svg`, `myk-7-map3-players.svg`, `myk-7-map3.dd2vtt`) in the formats it writes that
//! it no longer makes (the third map's sheets when the scenario now has two maps), and the
//! booklet's reference written apart (`myk-7-reference.md`) when the run does not write it, after its own
//! files are in place. Every other file of the scenario is replaced by the run itself; formats
//! not asked for and files not named as dungeonsmith names them (a GM's notes) stay. Runs into one folder take turns: each holds an exclusive lock on the folder's
//! `.dungeonsmith.lock` while it writes (the standard library's `File::lock`, an `flock` on
//! Unix, which the fs4 and fd-lock crates wrap), and a run that finds it held says which process
//! holds it and waits.
use std::fs;
use std::io::{Read, Seek, Write};
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
    Error::write_io(file.display(), e)
}

/// Writes every artifact into `dir` (created if missing). Returns the paths written, in order.
/// Nothing is renamed into place until every temporary file is fully written; on error nothing
/// of this run is left behind (not even the folder, if this run created it). No intent record is
/// written: the program writes one file this way (`fix`), whose one rename is whole or not made;
/// several files are renamed in turn, and a kill between two renames leaves both sets mixed.
pub fn write_all(dir: &Path, artifacts: &[Artifact]) -> Result<Vec<PathBuf>> {
    write(dir, None, artifacts)
}

/// Writes a scenario's files, as `write_all`, and removes the files of the same formats an
/// earlier run wrote for this `stem` that this run no longer makes (see the module's doc).
pub fn write_set(dir: &Path, stem: &str, artifacts: &[Artifact]) -> Result<Vec<PathBuf>> {
    write(dir, Some(stem), artifacts)
}

fn write(dir: &Path, stem: Option<&str>, artifacts: &[Artifact]) -> Result<Vec<PathBuf>> {
    if let Some(name) = duplicate(artifacts) {
        return Err(Error::write_refused(
            dir.join(name).display(),
            "the run makes two files of that name (two parts share a number?); nothing written",
        ));
    }
    let created = !dir.exists();
    fs::create_dir_all(dir).map_err(|e| werr(dir, e))?;
    let lock = FolderLock::take(dir);
    let result = lock.and_then(|_lock| write_locked(dir, stem, artifacts));
    if result.is_err() && created {
        let _ = fs::remove_dir(dir); // only if empty
    }
    result
}

/// The first name two artifacts share, if any.
fn duplicate(artifacts: &[Artifact]) -> Option<&str> {
    let mut names: Vec<&str> = artifacts.iter().map(|a| a.name.as_str()).collect();
    names.sort_unstable();
    names.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

fn write_locked(dir: &Path, stem: Option<&str>, artifacts: &[Artifact]) -> Result<Vec<PathBuf>> {
    // Before the sweep in `scan`, which would take a killed commit's temporary files for litter.
    Intent::complete_pending(dir)?;
    let in_the_way = scan(dir, artifacts);
    let run = format!("{}-{}", std::process::id(), RUNS.fetch_add(1, Ordering::Relaxed));
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let stale = match stem {
        Some(stem) => stale(dir, stem, artifacts),
        None => Vec::new(),
    };
    let result = match in_the_way {
        // Refused before any file is written, so a run fails whole rather than half renamed.
        Some(name) => Err(Error::write_refused(dir.join(name).display(), "a folder has that name")),
        None => stage(dir, artifacts, &run, &mut staged).and_then(|()| {
            // A scenario's set needs the record (a kill between renames would mix two sets); a
            // single file without a stem (`fix`) is one rename, whole or not made.
            let intent = match stem {
                Some(stem) => Some(Intent::write(dir, stem, &run, &staged, &stale)?),
                None => None,
            };
            match commit(&mut staged) {
                Ok(done) => {
                    // Every new file is in place: the old set's leftovers go (best effort: one
                    // that cannot be removed stays, as before the run).
                    stale.iter().for_each(|name| drop(fs::remove_file(dir.join(name))));
                    intent.map_or(Ok(()), |i| i.finish(dir))?;
                    Ok(done)
                }
                // A rename that failed (not a kill): the files not yet renamed go below, so
                // the record would promise the next run nothing but the removals.
                Err(e) => {
                    if let Some(intent) = intent {
                        let _ = fs::remove_file(&intent.path);
                    }
                    Err(e)
                }
            }
        }),
    };
    if result.is_err() {
        staged.iter().for_each(|(tmp, _)| drop(fs::remove_file(tmp)));
    }
    result
}

/// The per-map files of `stem` in `dir` (`STEM-mapN.EXT`, `STEM-mapN-players.EXT`) in a format
/// this run writes (told by the extension) that this run does not make.
fn stale(dir: &Path, stem: &str, artifacts: &[Artifact]) -> Vec<String> {
    let ext = |n: &str| n.rsplit_once('.').map(|(_, e)| e.to_string());
    let formats: Vec<Option<String>> = artifacts.iter().map(|a| ext(&a.name)).collect();
    let Ok(entries) = fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| (per_map(stem, n) || reference_part(stem, n)) && formats.contains(&ext(n)))
        .filter(|n| !artifacts.iter().any(|a| &a.name == n))
        .collect();
    out.sort();
    out
}

/// The end of part two's own file name: `myk-7-reference.pdf`.
pub const REFERENCE_SUFFIX: &str = "-reference";

/// Whether `name` is the booklet's reference written apart (`STEM-reference.md`, `.html`,
/// `.pdf`): a run that puts it back in the booklet (or leaves it out) removes the old one.
fn reference_part(stem: &str, name: &str) -> bool {
    let suffix = REFERENCE_SUFFIX;
    name.strip_prefix(stem)
        .and_then(|r| r.strip_prefix(suffix))
        .is_some_and(|ext| matches!(ext, ".md" | ".html" | ".pdf"))
}

/// Whether `name` is a per-map file of `stem` (`STEM-mapN.EXT`, `STEM-mapN-players.EXT`).
fn per_map(stem: &str, name: &str) -> bool {
    let Some(rest) = name.strip_prefix(stem).and_then(|r| r.strip_prefix("-map")) else { return false };
    let Some((base, ext)) = rest.rsplit_once('.') else { return false };
    let n = base.strip_suffix("-players").unwrap_or(base);
    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !ext.is_empty() && !ext.contains(['/', '\\', '\0'])
}

/// The folder's lock, held while a run writes into it; released (and its file removed) on drop.
struct FolderLock {
    file: fs::File,
    path: PathBuf,
}

impl FolderLock {
    const NAME: &str = ".dungeonsmith.lock";

    /// Takes the lock of `dir`, waiting for the run that holds it (said once on stderr, with its
    /// process id). The lock file is removed by its holder, so after taking the lock the file
    /// must still be the one under the name; otherwise it is taken again.
    fn take(dir: &Path) -> Result<FolderLock> {
        let path = dir.join(Self::NAME);
        let mut said = false;
        loop {
            let file = open_own(&path, true).map_err(|e| werr(&path, e))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    if !said {
                        let mut holder = String::new();
                        let _ = (&file).rewind().and_then(|()| (&file).take(64).read_to_string(&mut holder));
                        let holder = holder.trim();
                        let who = if holder.is_empty() { "another run".to_string() } else { format!("run {holder}") };
                        eprintln!("waiting: {who} is writing into `{}`", dir.display());
                        said = true;
                    }
                    file.lock().map_err(|e| werr(&path, e))?;
                }
                Err(fs::TryLockError::Error(e)) => return Err(werr(&path, e)),
            }
            if same_file(&file, &path) {
                let mut f = &file;
                let _ = f
                    .set_len(0)
                    .and_then(|()| f.rewind())
                    .and_then(|()| writeln!(f, "{} (process id)", std::process::id()));
                return Ok(FolderLock { file, path });
            }
        }
    }
}

/// Whether `path` names the open `file` still (the holder before us may have removed it).
fn same_file(file: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while held, so no waiting run can lock a file no longer in the folder unseen
        // (it checks the name after locking).
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Writes each artifact to its temporary file, created afresh (never through a link) and synced:
/// the intent record promises the next run whole files to rename, even after a power cut.
fn stage(dir: &Path, artifacts: &[Artifact], run: &str, staged: &mut Vec<(PathBuf, PathBuf)>) -> Result<()> {
    for a in artifacts {
        let path = dir.join(&a.name);
        let tmp = dir.join(temp_name(&a.name, run));
        staged.push((tmp.clone(), path.clone()));
        create_fresh(&tmp)
            .and_then(|mut f| f.write_all(&a.bytes).and_then(|()| f.sync_data()))
            .map_err(|e| werr(&path, e))?;
    }
    Ok(())
}

/// The temporary name of file `name` for run `run` (`PID-N`).
fn temp_name(name: &str, run: &str) -> String {
    format!(".{name}.{run}.tmp")
}

/// The open options every file of ours is opened with: on Unix never through a link
/// (`O_NOFOLLOW`: opening a link fails instead).
fn no_follow() -> fs::OpenOptions {
    let mut o = fs::OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW);
    }
    o
}

/// Creates `path` as a new file: a name already there (a link planted for this run's name) is
/// removed, never followed, and the file created once more; `create_new` fails on any entry.
fn create_fresh(path: &Path) -> std::io::Result<fs::File> {
    let create = || no_follow().write(true).create_new(true).open(path);
    match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            fs::remove_file(path)?;
            create()
        }
        r => r,
    }
}

/// Opens our own file `path` (the lock, the intent record), created when `create` and missing:
/// a link, a second hard link or anything but a plain file under the name is removed (the name,
/// never what it points at) and the open tried again.
fn open_own(path: &Path, create: bool) -> std::io::Result<fs::File> {
    for _ in 0..3 {
        let opened = no_follow().read(true).write(create).create(create).truncate(false).open(path);
        let foreign = match &opened {
            Ok(f) => !f.metadata().is_ok_and(|m| m.is_file() && single_link(&m)),
            Err(_) => fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()),
        };
        if !foreign {
            return opened;
        }
        drop(opened);
        fs::remove_file(path)?;
    }
    Err(std::io::Error::other("something keeps replacing it with a link"))
}

/// Whether `m` is a file's only name (a second hard link may be another's file).
fn single_link(m: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        m.nlink() == 1
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        true
    }
}

/// Makes the folder's entries (renames, removals) durable.
fn sync_dir(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    fs::File::open(dir).and_then(|d| d.sync_all()).map_err(|e| werr(dir, e))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// A commit in progress: the renames and removals a run is about to make in a folder, on disk as
/// `.dungeonsmith.commit` until every one is made: a first line naming the format, the scenario's
/// stem and the run's nonce, a line `rename TMP NAME` or `remove NAME` each (tab-separated), and
/// a last line `check HASH`.
///
/// The next run obeys a record only when this program wrote it for this folder: a planted one (a
/// folder unpacked from a zip, synced from another machine) could otherwise remove or replace any
/// file. So the record names only files of its scenario's own pattern (`STEM.EXT`, `STEM-...`;
/// removals only the per-map files a run removes), its temporary names are its run's, and its
/// check is the SHA-256 of [`folder_key`] and every line before it, nonce included: the key holds
/// this machine's id and the folder's inode, which a record made elsewhere cannot know. It is
/// read only when it is a plain file under [`Intent::MAX`] (a named pipe would make the read
/// wait for ever). Anything else under its name is left as it is, never removed, never obeyed,
/// and the run refuses in one line naming it.
struct Intent {
    path: PathBuf,
}

impl Intent {
    const NAME: &str = ".dungeonsmith.commit";
    const HEAD: &str = "dungeonsmith commit 2";
    /// The largest record a run writes is a few hundred bytes a file; a record past this is not
    /// one of ours.
    const MAX: u64 = 1 << 20;

    /// Writes and syncs the record of `staged` renames and `stale` removals of the scenario
    /// `stem`; it takes its name by a rename (so it is whole or absent), and the folder is synced
    /// after.
    fn write(dir: &Path, stem: &str, run: &str, staged: &[(PathBuf, PathBuf)], stale: &[String]) -> Result<Intent> {
        let path = dir.join(Self::NAME);
        // Fresh per run (the record's check then differs for two runs of one scenario).
        let nonce = format!("{:012x}{:012x}", crate::dice::fresh_seed(), crate::dice::fresh_seed());
        let mut text = format!("{}\t{stem}\t{nonce}\n", Self::HEAD);
        let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        for (tmp, path) in staged {
            text.push_str(&format!("rename\t{}\t{}\n", name(tmp), name(path)));
        }
        for n in stale {
            text.push_str(&format!("remove\t{n}\n"));
        }
        let key = folder_key(dir).map_err(|e| werr(&path, e))?;
        text.push_str(&format!("check\t{}\n", check_of(&key, &text)));
        let tmp = dir.join(temp_name(Self::NAME.trim_start_matches('.'), run));
        let written = create_fresh(&tmp)
            .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()))
            .and_then(|()| fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(werr(&path, e));
        }
        sync_dir(dir)?;
        Ok(Intent { path })
    }

    /// The commit is whole: the renames are made durable, then the record removed.
    fn finish(self, dir: &Path) -> Result<()> {
        sync_dir(dir)?;
        fs::remove_file(&self.path).map_err(|e| werr(&self.path, e))?;
        sync_dir(dir)
    }

    /// Completes the commit a killed run left in `dir`, if any: renames every temporary file its
    /// record names that is still there and makes its removals. Said once on stderr. A record
    /// this program did not write for this folder is refused, and left where it is.
    fn complete_pending(dir: &Path) -> Result<()> {
        let path = dir.join(Self::NAME);
        let refuse = |why: &str| {
            Error::write_refused(
                path.display(),
                format!(
                    "{why}: not a commit record dungeonsmith wrote for this folder; left as it is, nothing written \
                     (look at the folder's files, then remove it)"
                ),
            )
        };
        let text = match Self::read(&path) {
            Ok(None) => return Ok(()),
            Ok(Some(text)) => text,
            Err(why) => return Err(refuse(why)),
        };
        let key = folder_key(dir).map_err(|e| werr(&path, e))?;
        let steps = Self::parse(&text, &key).ok_or_else(|| refuse("no valid check, or a name not of its scenario"))?;
        // Every step is checked before any is made, so a record that cannot be carried out whole
        // changes nothing.
        for step in &steps {
            let (target, source) = match step {
                Step::Rename(tmp, name) => (name, Some(tmp)),
                Step::Remove(name) => (name, None),
            };
            if fs::symlink_metadata(dir.join(target)).is_ok_and(|m| !m.is_file()) {
                return Err(refuse(&format!("it would replace `{target}`, which is not a plain file")));
            }
            if source.is_some_and(|tmp| fs::symlink_metadata(dir.join(tmp)).is_ok_and(|m| !m.is_file())) {
                return Err(refuse(&format!("the file it would rename to `{target}` is not a plain file")));
            }
        }
        for step in &steps {
            match step {
                Step::Rename(tmp, name) if fs::symlink_metadata(dir.join(tmp)).is_ok() => {
                    fs::rename(dir.join(tmp), dir.join(name)).map_err(|e| werr(&dir.join(name), e))?
                }
                Step::Rename(..) => {} // renamed before the kill
                Step::Remove(name) => drop(fs::remove_file(dir.join(name))),
            }
        }
        eprintln!("note: completed the interrupted write of an earlier run into `{}` first", dir.display());
        Intent { path }.finish(dir)
    }

    /// The record's text, `None` when there is none; what is under its name is looked at before
    /// it is opened, and opened without waiting or following a link, so a named pipe, a folder,
    /// a link or a file larger than any record is named (`Err`), never read or waited on.
    fn read(path: &Path) -> std::result::Result<Option<String>, &'static str> {
        let meta = match fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(_) => return Err("it cannot be read"),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            return Err("it is a link");
        }
        if kind.is_dir() {
            return Err("it is a folder");
        }
        if !kind.is_file() {
            return Err("it is not a plain file (a named pipe or a device?)");
        }
        if !single_link(&meta) {
            return Err("it has a second name (a hard link)");
        }
        if meta.len() > Self::MAX {
            return Err("it is larger than any record dungeonsmith writes");
        }
        let mut opts = no_follow();
        opts.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // Replaced by a pipe since the look above: the open must not wait for a writer.
            opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        let file = opts.open(path).map_err(|_| "it cannot be read")?;
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return Err("it is not a plain file (a named pipe or a device?)");
        }
        let mut bytes = Vec::new();
        file.take(Self::MAX + 1).read_to_end(&mut bytes).map_err(|_| "it cannot be read")?;
        if bytes.len() as u64 > Self::MAX {
            return Err("it is larger than any record dungeonsmith writes");
        }
        String::from_utf8(bytes).map(Some).map_err(|_| "it is not text")
    }

    /// The steps of a record, or `None` when it is not one this program wrote for the folder of
    /// `key`: its check holds, every name is a file of its stem's scenario, every temporary name
    /// the temporary name of its file for one run, every removal a per-map file.
    fn parse(text: &str, key: &[u8]) -> Option<Vec<Step>> {
        let body_end = text.trim_end_matches('\n').rfind('\n')? + 1;
        let (body, last) = text.split_at(body_end);
        (last.strip_prefix("check\t")?.strip_suffix('\n')? == check_of(key, body)).then_some(())?;
        let mut lines = body.lines();
        let head: Vec<&str> = lines.next()?.split('\t').collect();
        let [Self::HEAD, stem, _nonce] = head[..] else { return None };
        own_stem(stem).then_some(())?;
        let mut run: Option<&str> = None;
        lines
            .map(|line| match line.split('\t').collect::<Vec<_>>()[..] {
                ["rename", tmp, name] if of_stem(stem, name) => {
                    let this = tmp.strip_prefix(&format!(".{name}."))?.strip_suffix(".tmp")?;
                    (temp_name(name, this) == tmp && temp_pid(tmp).is_some() && *run.get_or_insert(this) == this)
                        .then(|| Step::Rename(tmp.to_string(), name.to_string()))
                }
                ["remove", name] if per_map(stem, name) => Some(Step::Remove(name.to_string())),
                _ => None,
            })
            .collect()
    }
}

/// What a record's check is keyed with: this machine's id, this user and the folder's inode
/// (kept while the folder is, across a kill or a power cut; another for a copy or another
/// machine), so a record made anywhere else lacks the check its folder asks for.
fn folder_key(dir: &Path) -> std::io::Result<Vec<u8>> {
    let mut key = b"dungeonsmith commit key\n".to_vec();
    for id in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
        if let Ok(text) = fs::read_to_string(id) {
            key.extend_from_slice(text.trim().as_bytes());
            break;
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = fs::metadata(dir)?;
        // SAFETY: getuid only reads the process's user id.
        let uid = unsafe { libc::getuid() };
        key.extend_from_slice(format!("\n{uid}\n{}\n", meta.ino()).as_bytes());
    }
    #[cfg(not(unix))]
    key.extend_from_slice(fs::canonicalize(dir)?.to_string_lossy().as_bytes());
    Ok(key)
}

/// The check of a record's `body` (every line before the check) under `key`, in hex.
fn check_of(key: &[u8], body: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update((key.len() as u64).to_le_bytes());
    hash.update(key);
    hash.update(body.as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `stem` is a scenario's stem as the program names it: a game's word and a seed
/// (`myk-7`, `fortress-42`).
fn own_stem(stem: &str) -> bool {
    stem.split_once('-').is_some_and(|(game, seed)| {
        !game.is_empty()
            && game.bytes().all(|b| b.is_ascii_lowercase())
            && !seed.is_empty()
            && seed.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Whether `name` is one of the files of scenario `stem` (`STEM.EXT` or `STEM-...`), a plain
/// name in the folder.
fn of_stem(stem: &str, name: &str) -> bool {
    let rest = name.strip_prefix(stem).unwrap_or("");
    (rest.starts_with('.') || rest.starts_with('-')) && !name.contains(['/', '\\', '\0'])
}

/// One step of a recorded commit.
enum Step {
    Rename(String, String),
    Remove(String),
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

/// One pass over the folder's entries (their types come with the listing, no `stat` each):
/// removes `.NAME.PID-N.tmp` files left by runs whose process is gone (killed mid-write), and
/// gives the first artifact name held by a folder (or a link to one), if any. Stale files are
/// removed only where running processes can be seen (/proc); elsewhere they stay, hidden and
/// never read.
fn scan<'a>(dir: &Path, artifacts: &'a [Artifact]) -> Option<&'a str> {
    let Ok(entries) = fs::read_dir(dir) else { return None };
    let me = std::process::id();
    let mut procs_visible = None;
    let mut in_the_way: Option<usize> = None;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if let Some(i) = artifacts.iter().position(|a| name == a.name.as_str()) {
            let folder = match entry.file_type() {
                Ok(t) if t.is_symlink() => entry.path().is_dir(),
                Ok(t) => t.is_dir(),
                Err(_) => entry.path().is_dir(),
            };
            if folder && in_the_way.is_none_or(|j| i < j) {
                in_the_way = Some(i);
            }
            continue;
        }
        let Some(pid) = name.to_str().and_then(temp_pid) else { continue };
        if pid != me
            && *procs_visible.get_or_insert_with(|| Path::new("/proc/self").exists())
            && !Path::new(&format!("/proc/{pid}")).exists()
        {
            let _ = fs::remove_file(entry.path());
        }
    }
    in_the_way.map(|i| artifacts[i].name.as_str())
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

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_folder_under_a_files_name_is_refused_as_a_folder_is() {
        let dir = std::env::temp_dir().join(format!("dungeonsmith-link-{}", std::process::id()));
        fs::create_dir_all(dir.join("real")).unwrap();
        std::os::unix::fs::symlink(dir.join("real"), dir.join("b.txt")).unwrap();
        let e = write_all(&dir, &[Artifact::new("a.txt", "x"), Artifact::new("b.txt", "y")]).unwrap_err();
        assert!(e.to_string().contains("b.txt`: a folder has that name"), "{e}");
        assert!(!dir.join("a.txt").exists(), "nothing is written when one name is in the way");
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_second_run_into_a_locked_folder_waits_for_the_first_to_finish() {
        let dir = std::env::temp_dir().join(format!("dungeonsmith-lock-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let held = FolderLock::take(&dir).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let d = dir.clone();
        let second = std::thread::spawn(move || tx.send(write_all(&d, &[Artifact::new("a.txt", "x")]).is_ok()));
        let wait = std::time::Duration::from_millis(300);
        assert!(rx.recv_timeout(wait).is_err(), "the second run waits while the folder is held");
        assert!(!dir.join("a.txt").exists());
        drop(held);
        assert_eq!(rx.recv_timeout(std::time::Duration::from_secs(20)), Ok(true));
        second.join().unwrap().unwrap();
        assert!(!dir.join(FolderLock::NAME).exists(), "the lock file goes with its last holder");
        fs::remove_dir_all(&dir).ok();
    }

    /// A fresh folder for one test.
    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dungeonsmith-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        names.sort();
        names
    }

    /// As a run of scenario `s-1` killed after its record leaves the folder (no process has
    /// this run's id): `s-1.json` renamed already, `s-1.md` staged, `s-1-map3.svg` to remove.
    fn killed_commit(dir: &Path) {
        let run = "99999999-0";
        fs::write(dir.join("s-1.json"), "new").unwrap();
        fs::write(dir.join("s-1.md"), "old").unwrap();
        fs::write(dir.join(temp_name("s-1.md", run)), "new").unwrap();
        fs::write(dir.join("s-1-map3.svg"), "old").unwrap();
        let staged =
            [("s-1.json", dir.join(temp_name("s-1.json", run))), ("s-1.md", dir.join(temp_name("s-1.md", run)))]
                .map(|(n, tmp)| (tmp, dir.join(n)));
        Intent::write(dir, "s-1", run, &staged, &["s-1-map3.svg".to_string()]).unwrap();
    }

    #[test]
    fn a_commit_recorded_but_not_finished_is_completed_by_the_next_run_of_any_scenario() {
        let dir = folder("intent");
        killed_commit(&dir);
        write_all(&dir, &[Artifact::new("other.txt", "x")]).unwrap();
        assert_eq!(listing(&dir), ["other.txt", "s-1.json", "s-1.md"], "one whole set, no record, no temporary file");
        assert_eq!(fs::read_to_string(dir.join("s-1.md")).unwrap(), "new");
        fs::remove_dir_all(&dir).ok();
    }

    /// The run into `dir` refuses in one line naming the record, writes nothing, and leaves the
    /// folder as it was.
    fn refused_and_left_alone(dir: &Path) -> String {
        let before = listing(dir);
        let e = write_all(dir, &[Artifact::new("a.txt", "x")]).unwrap_err().to_string();
        assert!(e.contains(".dungeonsmith.commit`") && e.contains("not a commit record dungeonsmith wrote"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert_eq!(listing(dir), before, "nothing written, nothing removed");
        e
    }

    #[test]
    fn a_commit_record_naming_a_file_outside_the_folder_is_refused_and_nothing_is_written() {
        let dir = folder("intent-outside");
        let record = format!("{}\ts-1\t00\nrename\t.x.1-0.tmp\t../x\n", Intent::HEAD);
        fs::write(dir.join(Intent::NAME), record).unwrap();
        refused_and_left_alone(&dir);
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_record_whose_check_is_lost_when_a_line_is_changed_is_refused() {
        let dir = folder("intent-edited");
        killed_commit(&dir);
        let record = fs::read_to_string(dir.join(Intent::NAME)).unwrap();
        fs::write(dir.join(Intent::NAME), record.replace("remove\ts-1-map3.svg", "remove\ts-1-map2.svg")).unwrap();
        fs::write(dir.join("s-1-map2.svg"), "the GM's").unwrap();
        refused_and_left_alone(&dir);
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_record_moved_to_another_folder_is_refused_there() {
        let (from, to) = (folder("intent-from"), folder("intent-to"));
        killed_commit(&from);
        for f in listing(&from) {
            fs::copy(from.join(&f), to.join(&f)).unwrap();
        }
        refused_and_left_alone(&to);
        fs::remove_dir_all(&from).ok();
        fs::remove_dir_all(&to).ok();
    }

    #[test]
    fn a_record_that_would_rename_onto_a_folder_is_refused_naming_the_record() {
        let dir = folder("intent-folder");
        killed_commit(&dir);
        fs::remove_file(dir.join("s-1.md")).unwrap();
        fs::create_dir(dir.join("s-1.md")).unwrap();
        let e = refused_and_left_alone(&dir);
        assert!(e.contains("`s-1.md`, which is not a plain file"), "{e}");
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_records_names_are_its_scenarios_own() {
        assert!(own_stem("myk-7") && own_stem("fortress-42"));
        assert!(!own_stem("notes") && !own_stem("myk-") && !own_stem("-7") && !own_stem("../myk-7"));
        assert!(of_stem("myk-7", "myk-7.json") && of_stem("myk-7", "myk-7-map2-players.svg"));
        assert!(!of_stem("myk-7", "notes.txt") && !of_stem("myk-7", "myk-70.json") && !of_stem("myk-7", "myk-7"));
        assert!(per_map("myk-7", "myk-7-map3.svg") && per_map("myk-7", "myk-7-map3-players.svg"));
        assert!(
            !per_map("myk-7", "myk-7.json") && !per_map("myk-7", "myk-7-map3") && !per_map("myk-7", "myk-7-notes.svg")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_as_this_runs_temporary_file_is_removed_not_followed() {
        let dir = std::env::temp_dir().join(format!("dungeonsmith-tmplink-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        fs::write(&victim, "keep").unwrap();
        let tmp = dir.join(temp_name("a.txt", "1-0"));
        std::os::unix::fs::symlink(&victim, &tmp).unwrap();
        create_fresh(&tmp).unwrap().write_all(b"ours").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert!(fs::symlink_metadata(&tmp).unwrap().is_file(), "a new file, not the link");
        fs::remove_dir_all(&dir).ok();
    }
}
