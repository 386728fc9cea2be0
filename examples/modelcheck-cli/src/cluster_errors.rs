//! The library's cluster errors in the binary's words: the flags they are about
//! (`--processes`, `--process`, `--workers`, `--sent-filter`, `--peer-timeout`).

use modelcheck::distributed::{ClusterError, Misconfiguration};

/// `error` as the binary says it: a misconfiguration or a silent peer names the flag behind
/// its numbers; every other error is the library's own text.
pub fn cluster_error_text(error: &ClusterError) -> String {
    match error {
        ClusterError::Misconfigured(why) => misconfiguration_text(why),
        ClusterError::Silent {
            process,
            address,
            silent,
            timeout,
        } => format!(
            "process {process} ({address}) sent nothing for {:.1} s (--peer-timeout {} s): it is \
             stopped or hung; this process stopped",
            silent.as_secs_f64(),
            timeout.as_secs_f64()
        ),
        other => other.to_string(),
    }
}

/// A misconfiguration, with the flag that sets what is wrong.
fn misconfiguration_text(why: &Misconfiguration) -> String {
    match why {
        Misconfiguration::HostfileCount {
            path,
            listed,
            processes,
        } => format!(
            "the hostfile {} lists {listed} addresses; --processes is {processes}",
            path.display()
        ),
        Misconfiguration::ProcessOutOfRange { process, processes } => format!(
            "--process {process} is out of range: the processes are 0 to {}",
            processes.saturating_sub(1)
        ),
        Misconfiguration::SentFilterTooLarge { slots, max } => {
            format!("--sent-filter {slots}: at most {max} slots")
        }
        Misconfiguration::ProcessCount { peer, theirs, ours } => {
            format!("process {peer} was started with --processes {theirs}, this one with {ours}")
        }
        Misconfiguration::Workers { peer, theirs, ours } => format!(
            "process {peer} runs {theirs} workers, this one {ours}: pass the same --workers"
        ),
        Misconfiguration::SameProcess { peer } => {
            format!("two processes say they are process {peer}: check the --process of each")
        }
        // A kind added later: the library's words.
        other => other.to_string(),
    }
}
