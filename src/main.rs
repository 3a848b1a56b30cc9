//! The `dungeonsmith` binary: the command line (`cli::run`) on the mimalloc allocator.

/// mimalloc: a run makes many small short-lived allocations (tables, views, SVG and text
/// building), which it serves with fewer instructions than glibc's allocator (docs/speed.md).
/// `Counting` around it charges a workbench request's allocations to that request's meter, for
/// its memory budget (`dungeonsmith::meter`); outside a request it counts nothing.
#[global_allocator]
static GLOBAL: dungeonsmith::meter::Counting<mimalloc::MiMalloc> = dungeonsmith::meter::Counting(mimalloc::MiMalloc);

fn main() -> std::process::ExitCode {
    // A GM's templates render under a memory bound that ends the process (see the module).
    dungeonsmith::cli::memory::enable();
    let code = dungeonsmith::cli::run(std::env::args_os(), &mut std::io::stdout(), &mut std::io::stderr());
    // `run` answers 0, 1 or 2; anything else would be a bug, and still a failure.
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(1))
}
