//! Checkpoint paths are regular files: checked from their metadata before a file is opened,
//! because opening a FIFO waits for a writer that may never come, and a checkpoint cannot be
//! renamed over a directory.

use std::path::Path;

/// `Err` with what `path` is (a directory, a FIFO, a device or socket) when it exists and is
/// not a regular file, following symbolic links; `Ok` for a regular file and for a path that
/// does not exist or cannot be looked at (opening it then says why). Never opens `path`.
pub fn refuse_other_kinds(path: &Path) -> Result<(), String> {
    let Ok(metadata) = std::fs::metadata(path) else {
        return Ok(());
    };
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else if is_fifo(&kind) {
        "a FIFO"
    } else {
        "not a regular file"
    };
    Err(format!("{} is {what}", path.display()))
}

#[cfg(unix)]
fn is_fifo(kind: &std::fs::FileType) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(kind)
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::FileType) -> bool {
    false
}
