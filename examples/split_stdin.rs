//! Splits a response read from standard input, fed in chunks of N bytes (default 7), and prints
//! each event as it is completed.
//!
//! `echo 'Hi <a2ui-json>{"deleteSurface":{"surfaceId":"s"}}</a2ui-json>' | cargo run --example split_stdin -- 5`
use a2ui_stream::{Event, Splitter};
use std::io::Read;

fn main() -> std::io::Result<()> {
    let chunk: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(7)
        .max(1);
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input)?;
    let mut splitter = Splitter::new();
    let mut show = |ev: Result<Event, a2ui_stream::Error>| match ev {
        Ok(Event::Text(t)) => println!("text    {:?}", String::from_utf8_lossy(&t)),
        Ok(Event::Message(m)) => println!("message {:?} {}", m.kind(), m.as_str()),
        Err(e) => println!("error   {e}"),
    };
    for part in input.chunks(chunk) {
        splitter.feed(part).for_each(&mut show);
    }
    splitter.finish().for_each(&mut show);
    Ok(())
}
