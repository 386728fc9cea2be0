//! `#[must_use]` fires: tests/must-use is a small crate whose every marked line drops a value
//! the crate marks `#[must_use]`; it is checked with `deny(unused_must_use)`, and each marked
//! line, and no other, must be an error. (A separate crate with its own target directory, built
//! by the cargo that runs this test, so no trybuild and no second toolchain.)

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

#[test]
fn dropping_a_must_use_value_is_an_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crate_dir = root.join("tests/must-use");
    let source = std::fs::read_to_string(crate_dir.join("src/lib.rs")).unwrap();
    let marked: BTreeSet<usize> = source
        .lines()
        .enumerate()
        .filter(|(_, line)| line.ends_with("// MUST_USE"))
        .map(|(i, _)| i + 1)
        .collect();
    assert!(marked.len() >= 15, "{} marked lines", marked.len());
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "check",
            "--quiet",
            "--message-format",
            "short",
            "--manifest-path",
        ])
        .arg(crate_dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(Path::new(env!("CARGO_TARGET_TMPDIR")).join("must-use"))
        // The flags of the build running this test (sanitizers, loom cfgs) are not for it.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "compiled without an error:\n{stderr}"
    );
    // `src/lib.rs:LINE:COLUMN: error: unused ...`, one per dropped value.
    let errors: BTreeSet<usize> = stderr
        .lines()
        .filter(|line| line.contains(": error"))
        .filter_map(|line| {
            line.strip_prefix("src/lib.rs:")?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .collect();
    let unused = stderr
        .lines()
        .filter(|line| line.contains(": error: unused"))
        .count();
    assert_eq!(
        errors, marked,
        "errors on other lines than marked:\n{stderr}"
    );
    assert_eq!(
        unused,
        marked.len(),
        "not every error is an unused value:\n{stderr}"
    );
}
