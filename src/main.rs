// mimalloc: a run makes many small short-lived allocations (tables, views, SVG and text
// building), which glibc's allocator serves with more instructions; see README "Speed".
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let code = dungeonsmith::cli::run(std::env::args_os(), &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
