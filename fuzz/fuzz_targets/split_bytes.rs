//! Arbitrary bytes, cut at fuzzer-chosen points, in tagged and bare framing, strict or lenient:
//! no panic, the same result as a one-shot feed (messages, errors with their offsets,
//! concatenated text), and valid output (a lenient splitter's repaired messages too).
#![no_main]

mod common;

use a2ui_stream::Config;
use arbitrary::Arbitrary;
use bytes::Bytes;
use common::{check_events, cut_points, merge, run};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    bare: bool,
    /// Read with `Config::lenient`.
    lenient: bool,
    /// Feed the pieces with `feed` (copying) rather than `feed_bytes`.
    copy: bool,
    /// Also feed the input one byte at a time.
    bytewise: bool,
    cuts: Vec<u16>,
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let config = Config {
        lenient: input.lenient,
        ..if input.bare {
            Config::bare()
        } else {
            Config::default()
        }
    };
    let data = Bytes::from(input.data);
    let one_shot = run(&config, &data, &[0, data.len()], false);
    check_events(&config, &data, &one_shot);
    let want = merge(&one_shot);

    let points = cut_points(data.len(), &input.cuts);
    let split = run(&config, &data, &points, input.copy);
    check_events(&config, &data, &split);
    assert_eq!(merge(&split), want, "cut at {points:?}");

    if input.bytewise {
        let every: Vec<usize> = (0..=data.len()).collect();
        assert_eq!(
            merge(&run(&config, &data, &every, false)),
            want,
            "byte by byte"
        );
    }
});
