//! What only the memory backend has: its bounds on runs and on threads' conversations.

use super::{steps, user};
use a2ui_stream::agui::events::{ChatMessage, Event, RunFinished};
use a2ui_stream::agui::{MemoryRunLog, RunLog};

/// The bytes a thread counts for: the JSON length of its stored messages.
fn thread_bytes(log: &MemoryRunLog, thread_id: &str) -> usize {
    log.thread_messages(thread_id)
        .unwrap()
        .iter()
        .map(|m| serde_json::to_string(m).unwrap().len())
        .sum()
}

/// A user message whose JSON is `size` bytes long.
fn message_of(id: &str, size: usize) -> ChatMessage {
    let empty = serde_json::to_string(&user(id, "")).unwrap().len();
    let message = user(id, &"x".repeat(size - empty));
    assert_eq!(serde_json::to_string(&message).unwrap().len(), size);
    message
}

#[test]
fn threads_are_kept_within_their_byte_bound_forgetting_the_oldest() {
    const MIB: usize = 1 << 20;
    let log = MemoryRunLog::with_capacity(200, 1_000).with_max_thread_bytes(16 * MIB);
    let threads: Vec<String> = (0..100).map(|i| format!("thread-{i}")).collect();
    for (i, thread) in threads.iter().enumerate() {
        log.save_messages(thread, &[message_of(&format!("u{i}"), 1_000_000)])
            .unwrap();
        if i % 10 == 9 {
            let total: usize = threads.iter().map(|t| thread_bytes(&log, t)).sum();
            assert!(total <= 16 * MIB, "after {i}: {total}");
        }
    }
    // 16 threads of 1 MB fit in 16 MiB: the 16 saved last remain, whole.
    for thread in &threads[84..] {
        assert_eq!(thread_bytes(&log, thread), 1_000_000, "{thread}");
    }
    for thread in &threads[..84] {
        assert_eq!(log.thread_messages(thread).unwrap(), [], "{thread}");
    }
}

#[test]
fn the_default_thread_byte_bound_is_64_mib() {
    let log = MemoryRunLog::new();
    // 100 threads of 1.9 MB would be 190 MB.
    let threads: Vec<String> = (0..100).map(|i| format!("thread-{i}")).collect();
    for (i, thread) in threads.iter().enumerate() {
        log.save_messages(thread, &[message_of(&format!("u{i}"), 1_900_000)])
            .unwrap();
    }
    let kept: Vec<&String> = threads
        .iter()
        .filter(|t| !log.thread_messages(t).unwrap().is_empty())
        .collect();
    // 35 × 1.9 MB = 66.5 MB ≤ 64 MiB = 67.1 MB < 36 × 1.9 MB.
    assert_eq!(kept.len(), 35);
    assert_eq!(kept[0], "thread-65");
}

#[test]
fn a_thread_saved_again_is_forgotten_last() {
    let log = MemoryRunLog::with_capacity(10, 10).with_max_thread_bytes(3_000);
    for thread in ["a", "b", "c"] {
        log.save_messages(thread, &[message_of(&format!("{thread}1"), 900)])
            .unwrap();
    }
    // "a" is saved again, so "b" is now the one saved least recently.
    log.save_messages("a", &[message_of("a2", 100)]).unwrap();
    log.save_messages("d", &[message_of("d1", 900)]).unwrap();
    assert_eq!(log.thread_messages("b").unwrap(), []);
    assert_eq!(thread_bytes(&log, "a"), 1_000);
    assert_eq!(thread_bytes(&log, "c"), 900);
    assert_eq!(thread_bytes(&log, "d"), 900);

    // The bound on the number of threads forgets in the same order.
    let log = MemoryRunLog::with_capacity(10, 2);
    log.save_messages("a", &[user("u1", "Hi")]).unwrap();
    log.save_messages("b", &[user("u1", "Hi")]).unwrap();
    log.save_messages("a", &[user("u2", "Again")]).unwrap();
    log.save_messages("c", &[user("u1", "Hi")]).unwrap();
    assert_eq!(log.thread_messages("b").unwrap(), []);
    assert_eq!(log.thread_messages("a").unwrap().len(), 2);
    assert_eq!(log.thread_messages("c").unwrap().len(), 1);
    // Saving nothing changes nothing.
    log.save_messages("d", &[]).unwrap();
    assert_eq!(log.thread_messages("c").unwrap().len(), 1);
}

#[test]
fn a_message_replaced_by_id_counts_once() {
    let log = MemoryRunLog::with_capacity(10, 10).with_max_thread_bytes(3_000);
    log.save_messages("first", &[message_of("u1", 1_000)])
        .unwrap();
    // An answer that grows, saved again and again under one id (and twice in one call).
    for size in [500, 1_000, 1_500, 1_900] {
        let answer = message_of("a1", size);
        log.save_messages("second", &[answer.clone(), answer])
            .unwrap();
    }
    assert_eq!(thread_bytes(&log, "first"), 1_000);
    assert_eq!(thread_bytes(&log, "second"), 1_900);
    // Shrinking gives the room back.
    log.save_messages("second", &[message_of("a1", 900)])
        .unwrap();
    log.save_messages("third", &[message_of("u1", 1_000)])
        .unwrap();
    assert_eq!(thread_bytes(&log, "first"), 1_000);
    assert_eq!(thread_bytes(&log, "second"), 900);
    assert_eq!(thread_bytes(&log, "third"), 1_000);
}

#[test]
fn a_thread_larger_than_the_bound_keeps_its_last_messages_that_fit() {
    let log = MemoryRunLog::with_capacity(10, 10).with_max_thread_bytes(1_000);
    log.save_messages("other", &[message_of("o1", 200)])
        .unwrap();
    let long = [
        message_of("m1", 300),
        message_of("m2", 300),
        message_of("m3", 300),
        message_of("m4", 300),
    ];
    log.save_messages("long", &long).unwrap();
    // The last three fit (900 bytes); the thread saved before is forgotten to make room.
    assert_eq!(log.thread_messages("long").unwrap(), long[1..]);
    assert_eq!(log.thread_messages("other").unwrap(), []);
    // A message alone larger than the bound: the thread keeps nothing, the others stay.
    log.save_messages("small", &[message_of("s1", 50)]).unwrap();
    log.save_messages("huge", &[message_of("h1", 1_001)])
        .unwrap();
    assert_eq!(log.thread_messages("huge").unwrap(), []);
    assert_eq!(log.thread_messages("small").unwrap().len(), 1);
    assert_eq!(log.thread_messages("long").unwrap().len(), 3);
    // Added to a thread, it leaves nothing of it: it is the last message, and it does not fit.
    log.save_messages("small", &[message_of("s2", 1_001)])
        .unwrap();
    assert_eq!(log.thread_messages("small").unwrap(), []);
    assert_eq!(thread_bytes(&log, "long"), 900);
    // The bytes of forgotten threads were given back: a thread of 1,000 bytes fits once
    // "long" is forgotten.
    log.save_messages("full", &[message_of("f1", 1_000)])
        .unwrap();
    assert_eq!(thread_bytes(&log, "full"), 1_000);
    assert_eq!(log.thread_messages("long").unwrap(), []);
}

#[test]
fn claims_count_in_the_bound_on_bytes_of_runs() {
    let log = MemoryRunLog::with_capacity(100, 100).with_max_bytes(1_000);
    let claim = "c".repeat(400);
    for run in ["r1", "r2", "r3"] {
        let end = [Event::from(RunFinished::new("t", run))];
        log.start("t", run, &claim, &end).unwrap();
    }
    // Three runs of about 450 bytes each: only the last two fit.
    assert_eq!(log.status("t", "r1").unwrap(), None);
    assert_eq!(log.claim("t", "r1").unwrap(), None);
    assert_eq!(log.claim("t", "r3").unwrap(), Some(claim));
    assert!(log.status("t", "r2").unwrap().is_some());
    // A forgotten run can be started again.
    assert_eq!(
        log.start("t", "r1", "again", &steps(&["a"])).unwrap()[0].seq,
        1
    );
}
