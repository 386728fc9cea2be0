//! A cluster's own checks of its bounds (the command line checks them first; a library user
//! building a `Cluster` by hand meets these), and the library's cluster errors in numbers that
//! name no flag of the binary.

use modelcheck::distributed::MAX_SENT_FILTER_SLOTS as MAX_SLOTS;
use modelcheck::distributed::{Cluster, ClusterError, Misconfiguration, MAX_WORKERS};
use std::path::PathBuf;
use std::time::Duration;

#[test]
fn a_cluster_validates_its_workers_and_filter_bounds() {
    let cluster = |workers, sent_filter| Cluster {
        addresses: vec!["127.0.0.1:1".into(), "127.0.0.1:2".into()],
        process: 0,
        workers,
        connect_timeout: Duration::from_secs(1),
        sent_filter,
        peer_timeout: Duration::from_secs(1),
    };
    assert_eq!(cluster(1, MAX_SLOTS).validate(), Ok(()));
    for (workers, sent_filter) in [(0, 0), (MAX_WORKERS / 2 + 1, 0)] {
        match cluster(workers, sent_filter).validate() {
            Err(ClusterError::Usage(message)) => {
                assert!(message.contains("workers must number"), "{message}");
            }
            other => panic!("{workers} workers, {sent_filter} slots: {other:?}"),
        }
    }
    assert_eq!(
        cluster(1, MAX_SLOTS + 1).validate(),
        Err(ClusterError::Misconfigured(
            Misconfiguration::SentFilterTooLarge {
                slots: MAX_SLOTS + 1,
                max: MAX_SLOTS
            }
        ))
    );
}

/// A hostfile that lists another number of addresses than processes is a misconfiguration
/// with both numbers.
#[test]
fn a_hostfile_of_another_count_is_a_misconfiguration() {
    let path = std::env::temp_dir().join(format!("modelcheck-bounds-{}.txt", std::process::id()));
    std::fs::write(&path, "127.0.0.1:1\n127.0.0.1:2\n").unwrap();
    let error = Cluster::from_hostfile(&path, 3, 0, 1);
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        error,
        Err(ClusterError::Misconfigured(
            Misconfiguration::HostfileCount {
                path: path.clone(),
                listed: 2,
                processes: 3
            }
        ))
    );
}

/// Every cluster error that carries a number the binary sets with a flag says it without the
/// flag (the binary words it: `--processes`, `--process`, `--workers`, `--sent-filter`,
/// `--peer-timeout`).
#[test]
fn no_cluster_error_names_a_flag() {
    let misconfigurations = [
        Misconfiguration::HostfileCount {
            path: PathBuf::from("hosts.txt"),
            listed: 2,
            processes: 3,
        },
        Misconfiguration::ProcessOutOfRange {
            process: 2,
            processes: 2,
        },
        Misconfiguration::SentFilterTooLarge { slots: 9, max: 8 },
        Misconfiguration::ProcessCount {
            peer: 1,
            theirs: 3,
            ours: 2,
        },
        Misconfiguration::Workers {
            peer: 1,
            theirs: 2,
            ours: 1,
        },
        Misconfiguration::SameProcess { peer: 1 },
    ];
    let mut errors: Vec<ClusterError> = misconfigurations
        .into_iter()
        .map(ClusterError::Misconfigured)
        .collect();
    errors.push(ClusterError::Silent {
        process: 1,
        address: "127.0.0.1:1".into(),
        silent: Duration::from_millis(3100),
        timeout: Duration::from_secs(3),
    });
    errors.push(ClusterError::Interrupted);
    for error in errors {
        let text = error.to_string();
        assert!(!text.contains("--"), "names a flag: {text}");
        assert!(!text.is_empty());
    }
}
