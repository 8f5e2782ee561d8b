//! Lines on standard output, as a pipeline expects them: when the reader
//! has gone (`x402-verdict scan … | head`), the command ends quietly with
//! exit 0, as ripgrep does, instead of panicking as `println!` would.

use std::fmt;
use std::io::{self, Write};
use std::process;

/// Writes `line` and a newline to standard output. A closed pipe ends the
/// command quietly (exit 0); any other failure to write ends it with one
/// line on standard error (exit 1).
pub fn line(line: fmt::Arguments<'_>) {
    let mut stdout = io::stdout().lock();
    let written = stdout
        .write_fmt(line)
        .and_then(|()| stdout.write_all(b"\n"));
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => process::exit(0),
        Err(e) => {
            eprintln!("x402-verdict: standard output: {e}");
            process::exit(1);
        }
    }
}

/// `println!` for the command's results: [`line`] with `format!`'s arguments.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}
pub(crate) use say;
