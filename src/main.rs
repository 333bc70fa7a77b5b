//! The `ludotrace` binary: parses the command line, runs it, and is the one place that turns
//! errors into messages and exit codes (0 ok, 1 a check found problems, 2 usage or input error).

fn main() {
    let cli = ludotrace::cli::Cli::from_args();
    let code = match ludotrace::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            anstream::eprintln!("ludotrace: error: {e}");
            e.exit_code()
        }
    };
    std::process::exit(code);
}
