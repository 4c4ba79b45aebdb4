//! Reads give back what was appended: random events, appended in random batches through a
//! recorder, read back in random windows (SQLite in memory).

use super::seqs;
use a2ui_stream::agui::store::{RunLog, RunRecorder, RunStatus, SqliteRunLog};
use a2ui_stream::agui::{
    Custom, Event, RunFinished, StepStarted, TextMessageContent, TextMessageStart,
};
use proptest::prelude::*;
use std::sync::Arc;

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
