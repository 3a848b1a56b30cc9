//! A memory bound for renders through a GM's own templates (`--templates`).
//!
//! minijinja's fuel bounds a template's steps and our `Capped` writer its output, but neither
//! bounds a string a template builds in memory: `{% set ns.s = ns.s ~ ns.s %}` in a 40-turn loop
//! is 40 steps and asks for a terabyte. No crate bounds one render's heap without failing the
//! allocation (which aborts the process), so while such a render runs a watcher thread reads the
//! process's resident size every few milliseconds and, past [`LIMIT`], ends the run the way any
//! refusal ends it: one line, exit 2, nothing written (the files are written only after every
//! render is done). Only the binary arms it (`enable`, from `main`): a test calling `cli::run`
//! in process must never see its process end. Linux only (`/proc/self/statm`); elsewhere the
//! fuel and output limits still hold.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The most resident memory a run through a GM's templates may reach: above the largest
/// accepted scenario's peak in every format (589 MB, docs/speed.md) and inside the 1 GiB that
/// issue 37 allows any accepted file.
pub const LIMIT: u64 = 1 << 30;

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Lets [`Watch::start`] watch: called by the binary's `main`, never by tests in process.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// The watcher of one render; dropping it stops the thread.
pub struct Watch {
    stop: Arc<AtomicBool>,
}

impl Watch {
    /// Watches the process while templates from `folder` render (when the binary enabled it).
    pub fn start(folder: &Path) -> Option<Watch> {
        if !ENABLED.load(Ordering::Relaxed) || resident().is_none() {
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::clone(&stop);
        let line = format!(
            "error: templates `{}`: a render passed {} MiB of memory (a string or list built without end?); nothing written",
            folder.display(),
            LIMIT >> 20
        );
        std::thread::spawn(move || {
            while !seen.load(Ordering::Relaxed) {
                if resident().is_some_and(|bytes| bytes > LIMIT) {
                    eprintln!("{}", crate::error::cut_quotes(&line));
                    std::process::exit(2);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        Some(Watch { stop })
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The process's resident size in bytes (Linux), read from `/proc/self/statm`.
#[cfg(target_os = "linux")]
fn resident() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * u64::try_from(page).ok()?)
}

#[cfg(not(target_os = "linux"))]
fn resident() -> Option<u64> {
    None
}
