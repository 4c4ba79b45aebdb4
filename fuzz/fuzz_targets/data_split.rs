//! Data-model updates split per entry: for generated v0.8 and v0.9 updates (odd keys, nulls,
//! nesting, whitespace) at fuzzer-chosen depths and limits, cut at fuzzer-chosen points, the
//! pieces are the same at every cut, and a renderer (the library's `renderer::RendererState`)
//! that applies them ends where the whole update leaves it, from any starting data model.
#![no_main]

use a2ui_stream::renderer::RendererState;
use a2ui_stream::{Config, Event, Splitter};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

const KEYS: [&str; 8] = ["a", "b", "items", "0", "a~b/c", "q\"\u{e9}", "x.y", "__proto__"];

#[derive(Arbitrary, Debug)]
enum Node {
    Null,
    Bool(bool),
    Int(i32),
    Float(i16),
    Str(u8),
    Arr(Vec<Node>),
    Obj(Vec<(u8, Node)>),
}

fn value(n: &Node, depth: u32) -> Value {
    match n {
        _ if depth > 6 => Value::Null,
        Node::Null => Value::Null,
        Node::Bool(b) => json!(b),
        Node::Int(i) => json!(i),
        Node::Float(f) => json!(f64::from(*f) / 8.0),
        Node::Str(s) => json!(format!("s{{}}\\\"{s}")),
        Node::Arr(items) => Value::Array(items.iter().map(|i| value(i, depth + 1)).collect()),
        Node::Obj(kv) => Value::Object(
            kv.iter()
                .map(|(k, v)| (KEYS[*k as usize % KEYS.len()].to_owned(), value(v, depth + 1)))
                .collect::<Map<_, _>>(),
        ),
    }
}

/// The v0.8 `contents` a value stands for (objects as `valueMap`s; arrays and nulls dropped).
fn contents(v: &Value) -> Value {
    let Value::Object(m) = v else {
        return json!([]);
    };
    Value::Array(
        m.iter()
            .filter_map(|(k, v)| {
                Some(match v {
                    Value::Bool(b) => json!({"key": k, "valueBoolean": b}),
                    Value::Number(n) => json!({"key": k, "valueNumber": n}),
                    Value::String(s) => json!({"key": k, "valueString": s}),
                    Value::Object(_) => json!({"key": k, "valueMap": contents(v)}),
                    _ => return None,
                })
            })
            .collect(),
    )
}

#[derive(Arbitrary, Debug)]
struct Input {
    v08: bool,
    path: u8,
    value: Node,
    state: Node,
    depth: u8,
    limit: u8,
    pretty: bool,
    cuts: Vec<u16>,
}

fn run(config: &Config, input: &[u8], points: &[usize]) -> Vec<String> {
    let mut s = Splitter::with_config(config.clone());
    let mut out = Vec::new();
    let mut take = |e: Result<Event, a2ui_stream::Error>| match e {
        Ok(Event::Message(m)) => out.push(m.as_str().to_owned()),
        Ok(Event::Text(_)) => {}
        Err(e) => panic!("valid input gave {e}"),
    };
    for w in points.windows(2) {
        s.feed(&input[w[0]..w[1]]).for_each(&mut take);
    }
    s.finish().for_each(&mut take);
    out
}

fuzz_target!(|input: Input| {
    let path = ["/", "/data", "/a/b", ""][input.path as usize % 4];
    let v = value(&input.value, 0);
    let mut body = json!({"surfaceId": "s"});
    if !path.is_empty() {
        body["path"] = json!(path);
    }
    let update = if input.v08 {
        body["contents"] = contents(&v);
        json!({"dataModelUpdate": body})
    } else {
        body["value"] = v;
        json!({"version": "v0.9", "updateDataModel": body})
    };
    let text = if input.pretty {
        serde_json::to_string_pretty(&update).unwrap_or_default()
    } else {
        update.to_string()
    };
    let bytes = text.as_bytes();
    let config = Config {
        split_data_depth: input.depth as usize % 5,
        max_split_data_entries: 1 + input.limit as usize,
        ..Config::bare()
    };
    let one_shot = run(&config, bytes, &[0, bytes.len()]);
    let mut points: Vec<usize> = input.cuts.iter().map(|&c| c as usize % (bytes.len() + 1)).collect();
    points.extend([0, bytes.len()]);
    points.sort_unstable();
    assert_eq!(run(&config, bytes, &points), one_shot, "cut at {points:?}");

    let begin = if input.v08 {
        json!({"beginRendering": {"surfaceId": "s", "root": "root"}})
    } else {
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}})
    };
    let mut start = RendererState::new();
    start.apply(&begin).expect("the surface is made");
    start
        .surface_mut("s")
        .expect("made above")
        .set_data("/", value(&input.state, 0))
        .expect("any value can be the whole data model");
    let mut whole = start.clone();
    if whole.apply(&update).is_err() {
        return;
    }
    let mut split = start;
    for m in &one_shot {
        let m: Value = serde_json::from_str(m).expect("a piece is JSON");
        split.apply(&m).expect("the renderer applies every piece");
    }
    assert_eq!(split, whole, "pieces {one_shot:#?}");
});
