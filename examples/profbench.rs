fn main() {
    let data = std::fs::read("/tmp/corpus.txt").unwrap();
    let s = std::str::from_utf8(&data).unwrap();
    let mut ranges = vec![];
    let mut at = 0;
    while let Some(i) = s[at..].find("<a2ui-json>\n") {
        let start = at + i + 12;
        let end = start + s[start..].find("\n</a2ui-json>").unwrap();
        ranges.push(start..end);
        at = end;
    }
    let iters: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let only: Option<usize> = std::env::args().nth(1).and_then(|a| a.parse().ok());
    let sizes: Vec<usize> = only.map_or(vec![65536, 256, 16, 4, 1], |c| vec![c]);
    for round in 0..3 {
        if only.is_some() && round > 0 {
            break;
        }
        for &chunk in &sizes {
            let t = std::time::Instant::now();
            let mut n = 0;
            for _ in 0..iters {
                let mut s = a2ui_stream::Splitter::new();
                for c in data.chunks(chunk) {
                    for e in s.feed(c) {
                        if e.is_ok() {
                            n += 1;
                        }
                    }
                }
                n += s.finish().count();
            }
            let el = t.elapsed();
            print!(
                "{chunk}: {:.0} ",
                (data.len() * iters) as f64 / el.as_secs_f64() / 1048576.0
            );
            std::hint::black_box(n);
        }
        let t = std::time::Instant::now();
        let mut n = 0;
        for _ in 0..iters {
            for r in &ranges {
                n += serde_json::from_slice::<serde_json::Value>(&data[r.clone()])
                    .unwrap()
                    .as_array()
                    .unwrap()
                    .len();
            }
        }
        let el = t.elapsed();
        println!(
            "serde: {:.0} MiB/s (round {round})",
            (data.len() * iters) as f64 / el.as_secs_f64() / 1048576.0
        );
        std::hint::black_box(n);
    }
}
