//! The run log (feature `store`): the same behaviour checks against every backend — memory,
//! SQLite in memory, SQLite in a file and, with feature `store-redis`, Redis on a `redis-server`
//! each test starts for itself (see `support/redis.rs`: skipped with one line when it is not
//! installed, failing under `CI=true`) — then what only one backend has (its bounds, its file,
//! its connections), and property tests of reads.

mod support;

#[path = "store/memory.rs"]
mod memory;
#[path = "store/props.rs"]
mod props;
#[path = "store/records.rs"]
mod records;
#[cfg(feature = "store-redis")]
#[path = "store/redis.rs"]
mod redis;
#[path = "store/sqlite.rs"]
mod sqlite;

use a2ui_stream::agui::RunBuilder;
use a2ui_stream::agui::events::{
    AssistantMessage, ChatMessage, Event, FunctionCall, RunError, RunFinished, RunStarted,
    StepStarted, TextMessage, TextMessageStart, ToolCall, ToolMessage, UserContent, UserMessage,
};
use a2ui_stream::agui::{
    MemoryRunLog, RunLog, RunRecorder, RunStatus, SqliteRunLog, StoreError, StoreErrorKind, Stored,
    messages_of_run,
};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

/// A folder of the test's own under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "a2ui-store-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    fn file(&self) -> PathBuf {
        self.0.join("runs.sqlite")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

enum Storage {
    Memory,
    File(TempDir),
    #[cfg(feature = "store-redis")]
    Redis(support::redis::RedisServer),
}

/// A log under test, and what it is stored in.
struct Backend {
    name: &'static str,
    log: Arc<dyn RunLog>,
    storage: Storage,
}

impl Backend {
    /// A second log on the same storage, as another server process would open it (`None` in
    /// memory, which has no other handle).
    fn another(&self) -> Option<Arc<dyn RunLog>> {
        match &self.storage {
            Storage::Memory => None,
            Storage::File(dir) => Some(Arc::new(SqliteRunLog::open(dir.file()).unwrap())),
            #[cfg(feature = "store-redis")]
            Storage::Redis(server) => Some(Arc::new(
                a2ui_stream::agui::RedisRunLog::open(&server.url()).unwrap(),
            )),
        }
    }
}

/// Every backend this build has (Redis only where `redis-server` runs).
fn backends() -> Vec<Backend> {
    let dir = TempDir::new();
    let all = vec![
        Backend {
            name: "memory",
            log: Arc::new(MemoryRunLog::new()),
            storage: Storage::Memory,
        },
        Backend {
            name: "sqlite in memory",
            log: Arc::new(SqliteRunLog::in_memory().unwrap()),
            storage: Storage::Memory,
        },
        Backend {
            name: "sqlite file",
            log: Arc::new(SqliteRunLog::open(dir.file()).unwrap()),
            storage: Storage::File(dir),
        },
    ];
    #[cfg(feature = "store-redis")]
    let all = {
        let mut all = all;
        if let Some(server) = support::redis::RedisServer::start_or_skip() {
            all.push(Backend {
                name: "redis",
                log: Arc::new(a2ui_stream::agui::RedisRunLog::open(&server.url()).unwrap()),
                storage: Storage::Redis(server),
            });
        }
        all
    };
    all
}

fn steps(names: &[&str]) -> Vec<Event> {
    names
        .iter()
        .map(|n| Event::from(StepStarted::new(*n)))
        .collect()
}

fn seqs(stored: &[Stored]) -> Vec<u64> {
    stored.iter().map(|s| s.seq).collect()
}

fn conflict(thread: &str, run: &str, expected: u64, got: u64) -> StoreError {
    StoreError::conflict(thread, run, expected, got)
}

fn ended(thread: &str, run: &str) -> StoreError {
    StoreError::ended(thread, run)
}

fn user(id: &str, text: &str) -> ChatMessage {
    ChatMessage::User(UserMessage::new(id, UserContent::Text(text.into())))
}

fn assistant(id: &str, text: &str) -> ChatMessage {
    let mut m = AssistantMessage::new(id);
    m.content = Some(text.into());
    ChatMessage::Assistant(m)
}

#[test]
fn appends_and_reads_after_with_limits() {
    for b in backends() {
        let first = steps(&["a", "b", "c"]);
        let second = steps(&["d", "e"]);
        let stored1 = b.log.append("t", "r", 1, &first).unwrap();
        let stored2 = b.log.append("t", "r", 4, &second).unwrap();
        assert_eq!(seqs(&stored1), [1, 2, 3], "{}", b.name);
        assert_eq!(seqs(&stored2), [4, 5], "{}", b.name);
        let all: Vec<Stored> = stored1.iter().chain(&stored2).cloned().collect();
        for (stored, event) in all.iter().zip(first.iter().chain(&second)) {
            assert_eq!(stored.json, serde_json::to_string(event).unwrap());
            assert_eq!(&stored.event().unwrap(), event, "{}", b.name);
        }
        assert_eq!(
            b.log.read_after("t", "r", 0, 100).unwrap(),
            all,
            "{}",
            b.name
        );
        assert_eq!(seqs(&b.log.read_after("t", "r", 2, 2).unwrap()), [3, 4]);
        assert_eq!(seqs(&b.log.read_after("t", "r", 4, 2).unwrap()), [5]);
        assert_eq!(b.log.read_after("t", "r", 0, 1).unwrap(), all[..1]);
        assert_eq!(b.log.read_after("t", "r", 5, 10).unwrap(), []);
        assert_eq!(b.log.read_after("t", "r", 1000, 10).unwrap(), []);
        assert_eq!(b.log.read_after("t", "r", u64::MAX, 10).unwrap(), []);
        assert_eq!(b.log.read_after("t", "r", 0, 0).unwrap(), [], "{}", b.name);
        assert_eq!(b.log.read_after("t", "r", 3, usize::MAX).unwrap(), all[3..]);
        assert_eq!(b.log.read_after("t", "other", 0, 10).unwrap(), []);
        assert_eq!(b.log.read_after("other", "r", 0, 10).unwrap(), []);
        assert_eq!(b.log.append("t", "r", 6, &[]).unwrap(), [], "{}", b.name);
        assert_eq!(
            b.log.status("t", "r").unwrap(),
            Some(RunStatus {
                last_seq: 5,
                ended: false
            }),
            "{}",
            b.name
        );
    }
}

#[test]
fn an_append_not_right_after_the_last_is_a_conflict_and_stores_nothing() {
    for b in backends() {
        let log = &b.log;
        let one = steps(&["x"]);
        assert_eq!(
            log.append("t", "r", 2, &one).unwrap_err(),
            conflict("t", "r", 1, 2)
        );
        assert_eq!(
            log.append("t", "r", 0, &one).unwrap_err(),
            conflict("t", "r", 1, 0)
        );
        assert_eq!(log.status("t", "r").unwrap(), None, "{}", b.name);
        log.append("t", "r", 1, &steps(&["a", "b", "c"])).unwrap();
        // Sent twice, and a gap.
        assert_eq!(
            log.append("t", "r", 3, &one).unwrap_err(),
            conflict("t", "r", 4, 3)
        );
        assert_eq!(
            log.append("t", "r", 1, &one).unwrap_err(),
            conflict("t", "r", 4, 1)
        );
        assert_eq!(
            log.append("t", "r", 5, &one).unwrap_err(),
            conflict("t", "r", 4, 5)
        );
        assert_eq!(log.status("t", "r").unwrap().unwrap().last_seq, 3);
        assert_eq!(
            log.read_after("t", "r", 0, 10).unwrap().len(),
            3,
            "{}",
            b.name
        );
    }
}

#[test]
fn a_run_finished_or_failed_takes_no_more_events() {
    let terminals = [
        Event::from(RunFinished::new("t", "r")),
        Event::from(RunError::new("the model is unavailable")),
    ];
    for b in backends() {
        for (i, terminal) in terminals.iter().enumerate() {
            let run = format!("r{i}");
            let stored = b
                .log
                .append(
                    "t",
                    &run,
                    1,
                    &[RunStarted::new("t", &run).into(), terminal.clone()],
                )
                .unwrap();
            assert!(!stored[0].is_terminal());
            assert!(stored[1].is_terminal(), "{}", b.name);
            assert_eq!(
                b.log.status("t", &run).unwrap(),
                Some(RunStatus {
                    last_seq: 2,
                    ended: true
                }),
                "{}",
                b.name
            );
            for first_seq in [3, 1, 2] {
                assert_eq!(
                    b.log.append("t", &run, first_seq, &steps(&["late"])),
                    Err(ended("t", &run)),
                    "{} at {first_seq}",
                    b.name
                );
            }
            assert_eq!(b.log.read_after("t", &run, 0, 10).unwrap().len(), 2);
        }
        // Events after the terminal event of their own batch: the whole batch is refused.
        let batch = [
            Event::from(RunStarted::new("t", "r9")),
            RunFinished::new("t", "r9").into(),
            StepStarted::new("late").into(),
        ];
        assert_eq!(b.log.append("t", "r9", 1, &batch), Err(ended("t", "r9")));
        assert_eq!(b.log.status("t", "r9").unwrap(), None, "{}", b.name);
    }
}

#[test]
fn status_follows_the_appends() {
    for b in backends() {
        assert_eq!(b.log.status("t", "r").unwrap(), None);
        b.log.append("t", "r", 1, &steps(&["a"])).unwrap();
        assert_eq!(
            b.log.status("t", "r").unwrap(),
            Some(RunStatus {
                last_seq: 1,
                ended: false
            })
        );
        b.log.append("t", "r", 2, &steps(&["b", "c"])).unwrap();
        assert_eq!(
            b.log.status("t", "r").unwrap(),
            Some(RunStatus {
                last_seq: 3,
                ended: false
            }),
            "{}",
            b.name
        );
        assert_eq!(b.log.status("t", "r2").unwrap(), None, "{}", b.name);
    }
}

#[test]
fn wait_after_returns_at_once_when_events_are_there() {
    for b in backends() {
        b.log.append("t", "r", 1, &steps(&["a", "b"])).unwrap();
        let start = Instant::now();
        let got = b
            .log
            .wait_after("t", "r", 0, 10, Duration::from_secs(30))
            .unwrap();
        assert_eq!(seqs(&got), [1, 2], "{}", b.name);
        let got = b
            .log
            .wait_after("t", "r", 1, 10, Duration::from_secs(30))
            .unwrap();
        assert_eq!(seqs(&got), [2], "{}", b.name);
        let got = b
            .log
            .wait_after("t", "r", 0, 1, Duration::from_secs(30))
            .unwrap();
        assert_eq!(seqs(&got), [1], "{}", b.name);
        assert!(start.elapsed() < Duration::from_secs(5), "{}", b.name);
    }
}

#[test]
fn wait_after_wakes_for_an_append_from_another_thread() {
    for b in backends() {
        b.log.append("t", "r", 1, &steps(&["a"])).unwrap();
        let writer = b.log.clone();
        let handle = thread::spawn(move || {
            thread::sleep(Duration::from_millis(300));
            writer.append("t", "r", 2, &steps(&["b"])).unwrap();
        });
        let start = Instant::now();
        let got = b
            .log
            .wait_after("t", "r", 1, 10, Duration::from_secs(30))
            .unwrap();
        let waited = start.elapsed();
        handle.join().unwrap();
        assert_eq!(got.len(), 1, "{}", b.name);
        assert_eq!(got[0].event().unwrap(), steps(&["b"])[0]);
        assert!(waited < Duration::from_secs(5), "{}: {waited:?}", b.name);
    }
}

#[test]
fn wait_after_a_run_not_started_yet_wakes_for_its_first_event() {
    for b in backends() {
        let writer = b.log.clone();
        let handle = thread::spawn(move || {
            thread::sleep(Duration::from_millis(200));
            writer.append("t", "new", 1, &steps(&["a"])).unwrap();
        });
        let got = b
            .log
            .wait_after("t", "new", 0, 10, Duration::from_secs(30))
            .unwrap();
        handle.join().unwrap();
        assert_eq!(seqs(&got), [1], "{}", b.name);
    }
}

#[test]
fn wait_after_times_out_empty() {
    for b in backends() {
        b.log.append("t", "r", 1, &steps(&["a"])).unwrap();
        for (run, after) in [("r", 1), ("never", 0)] {
            let timeout = Duration::from_millis(300);
            let start = Instant::now();
            let got = b.log.wait_after("t", run, after, 10, timeout).unwrap();
            let waited = start.elapsed();
            assert_eq!(got, [], "{}", b.name);
            assert!(waited >= timeout, "{}: {waited:?}", b.name);
            assert!(waited < Duration::from_secs(5), "{}: {waited:?}", b.name);
        }
        let got = b.log.wait_after("t", "r", 1, 10, Duration::ZERO).unwrap();
        assert_eq!(got, [], "{}", b.name);
    }
}

#[test]
fn wait_after_the_end_of_an_ended_run_returns_at_once() {
    for b in backends() {
        b.log
            .append(
                "t",
                "r",
                1,
                &[
                    RunStarted::new("t", "r").into(),
                    RunFinished::new("t", "r").into(),
                ],
            )
            .unwrap();
        let start = Instant::now();
        let got = b
            .log
            .wait_after("t", "r", 2, 10, Duration::from_secs(30))
            .unwrap();
        assert_eq!(got, [], "{}", b.name);
        assert!(start.elapsed() < Duration::from_secs(5), "{}", b.name);
    }
}

#[test]
fn messages_are_upserted_by_id_in_order() {
    for b in backends() {
        let log = &b.log;
        assert_eq!(log.thread_messages("t").unwrap(), []);
        log.save_messages("t", &[user("u1", "Hi"), assistant("a1", "Hel")])
            .unwrap();
        let tool = ChatMessage::Tool(ToolMessage::new("t1", "c1", "3 results"));
        log.save_messages("t", &[assistant("a1", "Hello!"), tool.clone()])
            .unwrap();
        log.save_messages("t", &[user("u2", "More")]).unwrap();
        // The same id twice in one call: one message, the later version, where it first came.
        log.save_messages(
            "t",
            &[user("u3", "v1"), user("u2", "More!"), user("u3", "v2")],
        )
        .unwrap();
        log.save_messages("t", &[]).unwrap();
        assert_eq!(
            log.thread_messages("t").unwrap(),
            [
                user("u1", "Hi"),
                assistant("a1", "Hello!"),
                tool,
                user("u2", "More!"),
                user("u3", "v2"),
            ],
            "{}",
            b.name
        );
        // Another thread is another conversation, even with the same message ids.
        log.save_messages("t2", &[assistant("a1", "Other")])
            .unwrap();
        assert_eq!(
            log.thread_messages("t2").unwrap(),
            [assistant("a1", "Other")]
        );
        assert_eq!(log.thread_messages("t").unwrap().len(), 5, "{}", b.name);
        assert_eq!(log.thread_messages("never").unwrap(), []);
    }
}

#[test]
fn two_logs_on_the_same_storage_see_each_others_appends() {
    for b in backends() {
        let Some(other) = b.another() else { continue };
        b.log.append("t", "r", 1, &steps(&["a"])).unwrap();
        assert_eq!(seqs(&other.read_after("t", "r", 0, 10).unwrap()), [1]);
        other.append("t", "r", 2, &steps(&["b"])).unwrap();
        assert_eq!(seqs(&b.log.read_after("t", "r", 0, 10).unwrap()), [1, 2]);
        assert_eq!(b.log.status("t", "r").unwrap().unwrap().last_seq, 2);
        // Both writing the same next number: the second is refused.
        b.log.append("t", "r", 3, &steps(&["c"])).unwrap();
        assert_eq!(
            other.append("t", "r", 3, &steps(&["c'"])),
            Err(conflict("t", "r", 4, 3)),
            "{}",
            b.name
        );
        // A wait in one wakes for an append in the other.
        let writer = b.log.clone();
        let handle = thread::spawn(move || {
            thread::sleep(Duration::from_millis(300));
            writer.append("t", "r", 4, &steps(&["d"])).unwrap();
        });
        let start = Instant::now();
        let got = other
            .wait_after("t", "r", 3, 10, Duration::from_secs(30))
            .unwrap();
        let waited = start.elapsed();
        handle.join().unwrap();
        assert_eq!(seqs(&got), [4], "{}", b.name);
        assert!(waited < Duration::from_secs(5), "{}: {waited:?}", b.name);
        // Messages are shared too.
        other.save_messages("t", &[user("u1", "Hi")]).unwrap();
        assert_eq!(b.log.thread_messages("t").unwrap(), [user("u1", "Hi")]);
    }
}

#[test]
fn only_one_of_several_concurrent_first_appends_is_stored() {
    for b in backends() {
        let handles: Vec<_> = (0..4)
            .map(|i| {
                let log = b.log.clone();
                thread::spawn(move || {
                    let name = format!("writer-{i}");
                    log.append("t", "r", 1, &steps(&[&name]))
                        .map(|stored| (name, stored))
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let winners: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(winners.len(), 1, "{}: {results:?}", b.name);
        for r in &results {
            if let Err(e) = r {
                assert_eq!(e, &conflict("t", "r", 2, 1), "{}", b.name);
            }
        }
        let stored = b.log.read_after("t", "r", 0, 10).unwrap();
        assert_eq!(stored, winners[0].1, "{}", b.name);
        assert_eq!(stored[0].event().unwrap(), steps(&[&winners[0].0])[0]);
    }
}

#[test]
fn ids_with_colons_percent_signs_and_unicode_stay_apart() {
    let pairs = [
        ("a:b", "c"),
        ("a", "b:c"),
        ("a%3Ab", "c"),
        ("a", "b%3Ac"),
        ("スレッド:1", "実行:ü"),
        ("", ":"),
        (":", ""),
    ];
    for b in backends() {
        for (i, (thread, run)) in pairs.iter().enumerate() {
            let name = format!("step {i}");
            b.log.append(thread, run, 1, &steps(&[&name])).unwrap();
            b.log
                .save_messages(thread, &[user("u", &format!("message {i}"))])
                .unwrap();
        }
        for (i, (thread, run)) in pairs.iter().enumerate() {
            let got = b.log.read_after(thread, run, 0, 10).unwrap();
            let name = format!("step {i}");
            assert_eq!(got.len(), 1, "{}: {thread:?} {run:?}", b.name);
            assert_eq!(got[0].event().unwrap(), steps(&[&name])[0], "{}", b.name);
            assert_eq!(b.log.status(thread, run).unwrap().unwrap().last_seq, 1);
        }
        // Threads are apart by thread id alone; (a, b:c) and (a, b%3Ac) share thread "a".
        assert_eq!(
            b.log.thread_messages("a:b").unwrap(),
            [user("u", "message 0")]
        );
        assert_eq!(
            b.log.thread_messages("a%3Ab").unwrap(),
            [user("u", "message 2")]
        );
        assert_eq!(
            b.log.thread_messages("スレッド:1").unwrap(),
            [user("u", "message 4")],
            "{}",
            b.name
        );
        assert_eq!(
            b.log.thread_messages("a").unwrap(),
            [user("u", "message 3")]
        );
    }
}

#[test]
fn a_recorded_run_builder_sequence_gives_back_its_messages() {
    for b in backends() {
        let mut recorder = RunRecorder::new(b.log.clone(), "t", "r").unwrap();
        let mut run = RunBuilder::new("t", "r");
        run.text("Let me look.").unwrap();
        let first_text = run.text_message_id().unwrap().to_owned();
        recorder.record(&run.drain().collect::<Vec<_>>()).unwrap();
        run.tool_call_start("c1", "search").unwrap();
        run.tool_call_args("c1", r#"{"q":"#).unwrap();
        run.tool_call_args("c1", r#""pizza"}"#).unwrap();
        run.tool_call_result("c1", "3 places").unwrap();
        run.text("Found ").unwrap();
        run.text("three.").unwrap();
        let last_text = run.text_message_id().unwrap().to_owned();
        run.finish().unwrap();
        recorder.record(&run.drain().collect::<Vec<_>>()).unwrap();

        let events: Vec<Event> = b
            .log
            .read_after("t", "r", 0, 1000)
            .unwrap()
            .iter()
            .map(|s| s.event().unwrap())
            .collect();
        let result_id = events
            .iter()
            .find_map(|e| match e {
                Event::ToolCallResult(r) => Some(r.message_id.clone()),
                _ => None,
            })
            .unwrap();
        let mut asking = AssistantMessage::new(&first_text);
        asking.content = Some("Let me look.".into());
        asking.tool_calls = Some(vec![ToolCall::new(
            "c1",
            FunctionCall::new("search", r#"{"q":"pizza"}"#),
        )]);
        let expected = vec![
            ChatMessage::Assistant(asking),
            ChatMessage::Tool(ToolMessage::new(result_id, "c1", "3 places")),
            assistant(&last_text, "Found three."),
        ];
        let messages = messages_of_run(&events);
        assert_eq!(messages, expected, "{}", b.name);

        // Saved after the user's question, the thread reads back whole.
        let mut thread = vec![user("u1", "Any pizza nearby?")];
        thread.extend(messages);
        b.log.save_messages("t", &thread).unwrap();
        assert_eq!(b.log.thread_messages("t").unwrap(), thread, "{}", b.name);
        assert!(b.log.status("t", "r").unwrap().unwrap().ended);
    }
}

#[test]
fn messages_of_run_keeps_roles_a_text_message_names() {
    let mut system = TextMessageStart::new("s1");
    system.role = Some(a2ui_stream::agui::events::TextMessageRole::System);
    let events = [
        Event::from(system),
        a2ui_stream::agui::events::TextMessageContent::new("s1", "Be brief.").into(),
        a2ui_stream::agui::events::TextMessageEnd::new("s1").into(),
    ];
    assert_eq!(
        messages_of_run(&events),
        [ChatMessage::System(TextMessage::new("s1", "Be brief."))]
    );
}

#[test]
fn start_stores_the_first_batch_with_its_claim() {
    for b in backends() {
        let first = [
            Event::from(RunStarted::new("t", "r")),
            StepStarted::new("plan").into(),
        ];
        let stored = b.log.start("t", "r", "alice sha256:9f2c", &first).unwrap();
        assert_eq!(seqs(&stored), [1, 2], "{}", b.name);
        assert_eq!(stored[0].json, serde_json::to_string(&first[0]).unwrap());
        assert_eq!(b.log.read_after("t", "r", 0, 10).unwrap(), stored);
        assert_eq!(
            b.log.status("t", "r").unwrap(),
            Some(RunStatus {
                last_seq: 2,
                ended: false
            }),
            "{}",
            b.name
        );
        assert_eq!(
            b.log.claim("t", "r").unwrap().as_deref(),
            Some("alice sha256:9f2c"),
            "{}",
            b.name
        );
        // The run continues with appends, and the claim stays.
        b.log
            .append("t", "r", 3, &[RunFinished::new("t", "r").into()])
            .unwrap();
        assert!(b.log.status("t", "r").unwrap().unwrap().ended);
        assert_eq!(
            b.log.claim("t", "r").unwrap().as_deref(),
            Some("alice sha256:9f2c"),
            "{}",
            b.name
        );
        // No claim: a run begun with append, a run never appended to, another thread.
        b.log.append("t", "plain", 1, &steps(&["a"])).unwrap();
        assert_eq!(b.log.claim("t", "plain").unwrap(), None, "{}", b.name);
        assert_eq!(b.log.claim("t", "unknown").unwrap(), None, "{}", b.name);
        assert_eq!(b.log.claim("other", "r").unwrap(), None, "{}", b.name);
        // Any string is a claim, the empty one included; ids are escaped as for events.
        b.log.start("a:b", "c", "", &steps(&["x"])).unwrap();
        b.log.start("a", "b:c", "ü:%3A", &steps(&["y"])).unwrap();
        assert_eq!(b.log.claim("a:b", "c").unwrap().as_deref(), Some(""));
        assert_eq!(b.log.claim("a", "b:c").unwrap().as_deref(), Some("ü:%3A"));
        // Another process sharing the storage sees the claim.
        if let Some(other) = b.another() {
            assert_eq!(
                other.claim("t", "r").unwrap().as_deref(),
                Some("alice sha256:9f2c"),
                "{}",
                b.name
            );
        }
    }
}

#[test]
fn starting_a_run_that_has_events_is_a_conflict_and_changes_nothing() {
    for b in backends() {
        b.log
            .append("t", "appended", 1, &steps(&["a", "b"]))
            .unwrap();
        b.log
            .start("t", "started", "alice", &steps(&["a"]))
            .unwrap();
        b.log
            .start(
                "t",
                "ended",
                "alice",
                &[
                    RunStarted::new("t", "ended").into(),
                    RunFinished::new("t", "ended").into(),
                ],
            )
            .unwrap();
        for (run, last, claim) in [
            ("appended", 2, None),
            ("started", 1, Some("alice")),
            ("ended", 2, Some("alice")),
        ] {
            let before = b.log.read_after("t", run, 0, 10).unwrap();
            let status = b.log.status("t", run).unwrap();
            assert_eq!(
                b.log.start("t", run, "bob", &steps(&["intruder"])),
                Err(conflict("t", run, last + 1, 1)),
                "{}: {run}",
                b.name
            );
            assert_eq!(b.log.read_after("t", run, 0, 10).unwrap(), before);
            assert_eq!(b.log.status("t", run).unwrap(), status, "{}", b.name);
            assert_eq!(
                b.log.claim("t", run).unwrap().as_deref(),
                claim,
                "{}: {run}",
                b.name
            );
        }
    }
}

#[test]
fn start_refuses_an_empty_batch_and_one_with_events_after_its_end() {
    for b in backends() {
        let err = b.log.start("t", "r", "alice", &[]).unwrap_err();
        assert_eq!(err.kind(), StoreErrorKind::Backend, "{}: {err:?}", b.name);
        let message = err.message();
        assert!(
            message.contains("a run starts with at least one event"),
            "{}: {message}",
            b.name
        );
        assert!(message.contains("\"r\""), "{}: {message}", b.name);
        let late = [
            Event::from(RunFinished::new("t", "r")),
            StepStarted::new("late").into(),
        ];
        assert_eq!(
            b.log.start("t", "r", "alice", &late),
            Err(ended("t", "r")),
            "{}",
            b.name
        );
        assert_eq!(b.log.status("t", "r").unwrap(), None, "{}", b.name);
        assert_eq!(b.log.claim("t", "r").unwrap(), None, "{}", b.name);
        // Nothing was stored: the run can still be started.
        let whole = [
            Event::from(RunStarted::new("t", "r")),
            RunError::new("no model").into(),
        ];
        assert_eq!(
            seqs(&b.log.start("t", "r", "alice", &whole).unwrap()),
            [1, 2]
        );
        assert_eq!(
            b.log.status("t", "r").unwrap(),
            Some(RunStatus {
                last_seq: 2,
                ended: true
            }),
            "{}",
            b.name
        );
        assert_eq!(
            b.log.append("t", "r", 3, &steps(&["late"])),
            Err(ended("t", "r"))
        );
    }
}

#[test]
fn of_two_simultaneous_starts_of_a_run_exactly_one_succeeds() {
    for b in backends() {
        // Other processes, where the storage has them: the race is then between connections.
        let second = b.another().unwrap_or_else(|| b.log.clone());
        for round in 0..20 {
            let run = format!("r{round}");
            let barrier = Arc::new(Barrier::new(2));
            let handles: Vec<_> = [b.log.clone(), second.clone()]
                .into_iter()
                .enumerate()
                .map(|(i, log)| {
                    let (barrier, run) = (barrier.clone(), run.clone());
                    thread::spawn(move || {
                        let claim = format!("writer-{i}");
                        let batch = steps(&[&claim, "more"]);
                        barrier.wait();
                        log.start("t", &run, &claim, &batch)
                            .map(|stored| (claim, stored))
                    })
                })
                .collect();
            let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
            let winners: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
            assert_eq!(winners.len(), 1, "{}: {results:?}", b.name);
            let (claim, stored) = winners[0];
            for r in &results {
                if let Err(e) = r {
                    assert_eq!(e, &conflict("t", &run, 3, 1), "{}", b.name);
                }
            }
            assert_eq!(b.log.read_after("t", &run, 0, 10).unwrap(), *stored);
            assert_eq!(stored[0].event().unwrap(), steps(&[claim.as_str()])[0]);
            assert_eq!(
                b.log.claim("t", &run).unwrap().as_ref(),
                Some(claim),
                "{}",
                b.name
            );
        }
    }
}

#[test]
fn a_recorder_started_with_a_claim_continues_after_its_first_batch() {
    for b in backends() {
        let mut run = RunBuilder::new("t", "r");
        run.text("Hello").unwrap();
        let first: Vec<Event> = run.drain().collect();
        let (mut recorder, stored) =
            RunRecorder::start(b.log.clone(), "t", "r", "alice", &first).unwrap();
        assert_eq!(seqs(&stored), [1, 2, 3], "{}", b.name);
        assert_eq!(recorder.last_seq(), 3);
        run.finish().unwrap();
        let rest: Vec<Event> = run.drain().collect();
        assert_eq!(seqs(&recorder.record(&rest).unwrap()), [4, 5], "{}", b.name);
        let events: Vec<Event> = b
            .log
            .read_after("t", "r", 0, 10)
            .unwrap()
            .iter()
            .map(|s| s.event().unwrap())
            .collect();
        assert_eq!(events, [first, rest].concat(), "{}", b.name);
        assert_eq!(b.log.claim("t", "r").unwrap().as_deref(), Some("alice"));
        assert_eq!(
            RunRecorder::start(b.log.clone(), "t", "r", "alice", &steps(&["a"])).unwrap_err(),
            conflict("t", "r", 6, 1),
            "{}",
            b.name
        );
    }
}
