//! Reads give back what was written: random events, appended in random batches through a
//! recorder, read back in random windows (SQLite in memory); and runs started with a random
//! claim and first batch, on every backend.

use super::{backends, conflict, seqs};
use a2ui_stream::agui::events::{
    Custom, Event, RunFinished, StepStarted, TextMessageContent, TextMessageStart,
};
use a2ui_stream::agui::{RunLog, RunRecorder, RunStatus, SqliteRunLog};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        ".{0,12}".prop_map(|s| Event::from(StepStarted::new(s))),
        (".{0,6}", ".{0,24}").prop_map(|(id, delta)| TextMessageContent::new(id, delta).into()),
        ("[a-z]{1,6}", any::<i64>()).prop_map(|(name, n)| Custom::new(
            name,
            serde_json::json!({"n": n})
        )
        .into()),
        "[ -~]{0,8}".prop_map(|id| TextMessageStart::new(id).into()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn reads_in_any_window_match_what_was_appended(
        events in prop::collection::vec(event(), 0..40),
        ends in any::<bool>(),
        batch_sizes in prop::collection::vec(1usize..6, 1..40),
        windows in prop::collection::vec((0u64..45, 0usize..45), 1..12),
    ) {
        let mut events = events;
        if ends {
            events.push(RunFinished::new("t", "r").into());
        }
        let log: Arc<dyn RunLog> = Arc::new(SqliteRunLog::in_memory().unwrap());
        let mut recorder = RunRecorder::new(log.clone(), "t", "r").unwrap();
        let mut rest = &events[..];
        let mut sizes = batch_sizes.iter().cycle();
        let mut returned = Vec::new();
        while !rest.is_empty() {
            let n = (*sizes.next().unwrap()).min(rest.len());
            let (batch, tail) = rest.split_at(n);
            returned.extend(recorder.record(batch).unwrap());
            rest = tail;
        }
        prop_assert_eq!(recorder.last_seq(), events.len() as u64);
        prop_assert_eq!(seqs(&returned), (1..=events.len() as u64).collect::<Vec<_>>());
        for (after, limit) in windows {
            let got = log.read_after("t", "r", after, limit).unwrap();
            let from = (after as usize).min(events.len());
            let to = from.saturating_add(limit).min(events.len());
            prop_assert_eq!(&got[..], &returned[from..to]);
            let parsed: Vec<Event> = got.iter().map(|s| s.event().unwrap()).collect();
            prop_assert_eq!(&parsed[..], &events[from..to]);
        }
        let status = log.status("t", "r").unwrap();
        if events.is_empty() {
            prop_assert_eq!(status, None);
        } else {
            prop_assert_eq!(status, Some(RunStatus { last_seq: events.len() as u64, ended: ends }));
        }
    }
}

/// A run started with a random claim and first batch, then recorded in random batches, reads
/// back whole with its claim on every backend; starting it again is refused and changes nothing.
#[test]
fn a_started_run_reads_back_with_its_claim_on_every_backend() {
    let cases = (
        prop::collection::vec(event(), 1..30),
        any::<bool>(),
        1usize..8,
        prop::collection::vec(1usize..6, 1..10),
        ".{0,40}",
    );
    for b in backends() {
        // Each case (shrinking included) writes a run of its own.
        let next_run = AtomicUsize::new(0);
        let mut runner = TestRunner::new(ProptestConfig::with_cases(32));
        let outcome = runner.run(&cases, |(events, ends, first, sizes, claim)| {
            let run = format!("r{}", next_run.fetch_add(1, Ordering::Relaxed));
            let mut events = events;
            if ends {
                events.push(RunFinished::new("t", &run).into());
            }
            let (first, mut rest) = events.split_at(first.min(events.len()));
            let (mut recorder, mut returned) =
                RunRecorder::start(b.log.clone(), "t", &run, &claim, first).unwrap();
            let mut sizes = sizes.iter().cycle();
            while !rest.is_empty() {
                let n = (*sizes.next().unwrap()).min(rest.len());
                let (batch, tail) = rest.split_at(n);
                returned.extend(recorder.record(batch).unwrap());
                rest = tail;
            }
            let last = events.len() as u64;
            prop_assert_eq!(seqs(&returned), (1..=last).collect::<Vec<_>>());
            let stored = b.log.read_after("t", &run, 0, 100).unwrap();
            prop_assert_eq!(&stored, &returned);
            let parsed: Vec<Event> = stored.iter().map(|s| s.event().unwrap()).collect();
            prop_assert_eq!(&parsed, &events);
            prop_assert_eq!(b.log.claim("t", &run).unwrap(), Some(claim.clone()));
            let status = Some(RunStatus {
                last_seq: last,
                ended: ends,
            });
            prop_assert_eq!(b.log.status("t", &run).unwrap(), status);
            prop_assert_eq!(
                b.log.start("t", &run, "another", &events[..1]),
                Err(conflict("t", &run, last + 1, 1))
            );
            prop_assert_eq!(b.log.read_after("t", &run, 0, 100).unwrap(), stored);
            prop_assert_eq!(b.log.claim("t", &run).unwrap(), Some(claim));
            Ok(())
        });
        if let Err(e) = outcome {
            panic!("{}: {e}", b.name);
        }
    }
}
