//! What only the Redis backend has: connections that outlive a Redis restart, and prefixes.

use super::{seqs, steps};
use crate::support::redis::RedisServer;
use a2ui_stream::agui::{RedisRunLog, RunLog, StoreError, StoreErrorKind};

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
    assert_eq!(err.kind(), StoreErrorKind::Backend, "{err:?}");
    let message = err.message();
    assert!(message.contains("appending events"), "{message}");
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
    assert_eq!(err.kind(), StoreErrorKind::Backend, "{err:?}");
    let message = err.message();
    assert!(
        message.contains("opening Redis at 127.0.0.1:1"),
        "{message}"
    );
}

#[test]
fn a_claim_is_a_key_beside_the_run_set_with_its_first_events() {
    let Some(server) = RedisServer::start_or_skip() else {
        return;
    };
    let log = RedisRunLog::open(&server.url()).unwrap().with_prefix("app");
    log.start("a:b", "c%", "alice", &steps(&["a"])).unwrap();
    log.append("a:b", "plain", 1, &steps(&["a"])).unwrap();
    let mut con = redis::Client::open(server.url())
        .unwrap()
        .get_connection()
        .unwrap();
    let get = |con: &mut redis::Connection, key: &str| -> Option<String> {
        redis::cmd("GET").arg(key).query(con).unwrap()
    };
    assert_eq!(
        get(&mut con, "app:claim:a%3Ab:c%25").as_deref(),
        Some("alice")
    );
    assert_eq!(get(&mut con, "app:claim:a%3Ab:plain"), None);
    let mut keys: Vec<String> = redis::cmd("KEYS").arg("app:*").query(&mut con).unwrap();
    keys.sort();
    assert_eq!(
        keys,
        [
            "app:claim:a%3Ab:c%25",
            "app:run:a%3Ab:c%25",
            "app:run:a%3Ab:plain"
        ]
    );
    // A run whose keys were deleted (retention, by the operator) can be started again.
    redis::cmd("DEL")
        .arg("app:run:a%3Ab:c%25")
        .arg("app:claim:a%3Ab:c%25")
        .query::<i64>(&mut con)
        .unwrap();
    assert_eq!(log.claim("a:b", "c%").unwrap(), None);
    log.start("a:b", "c%", "bob", &steps(&["b"])).unwrap();
    assert_eq!(log.claim("a:b", "c%").unwrap().as_deref(), Some("bob"));
    // An ended flag left without its stream still ends the run: it is not started again.
    redis::cmd("DEL")
        .arg("app:run:a%3Ab:c%25")
        .query::<i64>(&mut con)
        .unwrap();
    redis::cmd("SET")
        .arg("app:ended:a%3Ab:c%25")
        .arg("1")
        .query::<()>(&mut con)
        .unwrap();
    assert_eq!(
        log.start("a:b", "c%", "carol", &steps(&["c"])),
        Err(StoreError::ended("a:b", "c%"))
    );
    assert_eq!(log.claim("a:b", "c%").unwrap().as_deref(), Some("bob"));
}
