//! A cluster's own checks of its bounds (the command line checks them first; a library user
//! building a `Cluster` by hand meets these).

use modelcheck::distributed::MAX_SENT_FILTER_SLOTS as MAX_SLOTS;
use modelcheck::distributed::{Cluster, ClusterError, MAX_WORKERS};
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
    for (workers, sent_filter, says) in [
        (0, 0, "workers must number"),
        (MAX_WORKERS / 2 + 1, 0, "workers must number"),
        (1, MAX_SLOTS + 1, "--sent-filter"),
    ] {
        match cluster(workers, sent_filter).validate() {
            Err(ClusterError::Usage(message)) => assert!(message.contains(says), "{message}"),
            other => panic!("{workers} workers, {sent_filter} slots: {other:?}"),
        }
    }
}
