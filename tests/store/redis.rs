//! What only the Redis backend has: connections that outlive a Redis restart, and prefixes.

use super::{seqs, steps};
use crate::support::redis::RedisServer;
use a2ui_stream::agui::store::{RedisRunLog, RunLog, StoreError};

#[test]
fn reads_survive_a_redis_restart_and_a_write_fails_once() {
    let Some(mut server) = RedisServer::start_or_skip() else {
        return;
    };
    let log = RedisRunLog::open(&server.url()).unwrap();
    log.append("t", "r", 1, &steps(&["a"])).unwrap();
    assert_eq!(seqs(&log.read_after("t", "r", 0, 10).unwrap()), [1]);

    // The pooled connection is stale now; a read is tried again on a new one.
    server.restart();
    assert_eq!(log.read_after("t", "r", 0, 10).unwrap(), []);
    assert_eq!(log.status("t", "r").unwrap(), None);

    // A write is not tried again (it may have been applied): the caller is told, and the next
    // call uses a new connection.
    server.restart();
    let err = log.append("t", "r", 1, &steps(&["a"])).unwrap_err();
    let StoreError::Backend(message) = &err else {
        panic!("{err:?}")
    };
    assert!(message.starts_with("appending events"), "{message}");
    assert_eq!(seqs(&log.append("t", "r", 1, &steps(&["a"])).unwrap()), [1]);
}

#[test]
fn logs_with_other_prefixes_do_not_see_each_other() {
    let Some(server) = RedisServer::start_or_skip() else {
        return;
    };
    let default = RedisRunLog::open(&server.url()).unwrap();
    let staging = RedisRunLog::open(&server.url())
        .unwrap()
        .with_prefix("staging");
    default.append("t", "r", 1, &steps(&["a", "b"])).unwrap();
    assert_eq!(staging.status("t", "r").unwrap(), None);
    staging.append("t", "r", 1, &steps(&["x"])).unwrap();
    assert_eq!(default.status("t", "r").unwrap().unwrap().last_seq, 2);
    assert_eq!(staging.status("t", "r").unwrap().unwrap().last_seq, 1);
    assert!(format!("{staging:?}").contains("\"staging\""));
}

#[test]
fn opening_a_redis_that_does_not_answer_fails() {
    // Port 1 on the loopback: nothing listens there.
    let err = RedisRunLog::open("redis://127.0.0.1:1/").unwrap_err();
    let StoreError::Backend(message) = &err else {
        panic!("{err:?}")
    };
    assert!(
        message.starts_with("opening Redis at 127.0.0.1:1"),
        "{message}"
    );
}
