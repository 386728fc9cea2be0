//! The `chess` binary: a UCI engine on stdin and stdout (see `examples/chess/README.md`).
//!
//! A reader thread turns stdin into lines; the main thread answers them, and each search runs on
//! threads of its own, so `stop`, `isready` and `quit` are answered while the engine thinks.

use chess::uci;

use std::io::BufRead;
use std::sync::mpsc;

fn main() {
    let mut engine = match uci::Engine::new() {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("error: cannot start the engine: {e}");
            std::process::exit(1);
        }
    };
    let (lines, input) = mpsc::channel::<String>();
    // Reads raw bytes, so a line of invalid UTF-8 becomes an error answer rather than the end.
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match stdin.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if lines
                        .send(String::from_utf8_lossy(&buffer).into_owned())
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
    for line in input {
        if !engine.handle(&line) {
            return;
        }
    }
    engine.end_of_input();
}
