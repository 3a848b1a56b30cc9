fn main() {
    let code = dungeonsmith::cli::run(std::env::args_os(), &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
