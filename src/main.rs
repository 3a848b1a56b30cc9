#[global_allocator]
static GLOBAL: dungeonsmith::alloc::Mimalloc = dungeonsmith::alloc::Mimalloc;

unsafe extern "C" {
    /// The C library's immediate exit: ends the process without running exit handlers.
    fn _exit(status: std::ffi::c_int) -> !;
}

fn main() {
    let mut stdout = std::io::stdout();
    let code = dungeonsmith::cli::run(std::env::args_os(), &mut stdout, &mut std::io::stderr());
    // Every file is written and closed by now; only stdout may hold buffered lines (stderr holds
    // none). Then the process ends without the C library's exit handlers: the one that matters
    // is mimalloc's, which walks the whole heap to give each page back to the system (a dozen
    // `madvise` calls, splitting huge pages) just before the system takes the lot anyway.
    // (As `std::process::exit` did, a failed flush of stdout does not change the exit code.)
    let _ = std::io::Write::flush(&mut stdout);
    // SAFETY: `_exit` only ends the process; nothing is left to run or flush.
    unsafe { _exit(code) }
}
