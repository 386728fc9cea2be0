//! The machine a run is on, for the header every report starts with.

use crate::memory;

/// The trimmed standard output of `sh -c command`, or "" when it cannot run.
pub fn shell(command: &str) -> String {
    std::process::Command::new("sh")
        .args(["-c", command])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The three load averages (1, 5, 15 minutes), as `/proc/loadavg` gives them.
pub fn load_average() -> String {
    shell("cut -d' ' -f1-3 /proc/loadavg")
}

/// `date …; CPU …; N cores; THP …; load average at start …`: what a reader needs to judge a
/// recorded run.
pub fn machine() -> String {
    format!(
        "date {}; CPU{}; {} cores; THP {}; load average at start {}",
        shell("date -u '+%Y-%m-%d %H:%M UTC'"),
        shell("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-"),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        memory::thp_mode(),
        load_average(),
    )
}
