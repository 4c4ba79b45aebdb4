fn main() {
    let data = std::fs::read("/tmp/corpus.txt").unwrap();
    let chunk: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let t = std::time::Instant::now();
    let mut n = 0;
    let iters: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
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
    println!(
        "{n} events, {:.1} MiB/s",
        (data.len() * iters) as f64 / el.as_secs_f64() / 1048576.0
    );
}
