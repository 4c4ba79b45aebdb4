//! The splitter's component messages put back together, for validating an answer whole.

use serde_json::Value;
use std::collections::HashMap;

/// The key of a component update (`surfaceUpdate` / `updateComponents`) and its surface id.
fn component_update(m: &Value) -> Option<(&'static str, &str)> {
    ["surfaceUpdate", "updateComponents"]
        .into_iter()
        .find_map(|key| Some((key, m.get(key)?.get("surfaceId")?.as_str()?)))
}

/// Joins the component updates of each surface into the first one, so that a surface's
/// components are one list, as a model writes them: the splitter hands each component out as
/// a message of its own, and the validator's integrity checks (a root, references, orphans)
/// are about the whole list. A `deleteSurface` ends the surface's list (a later update starts a
/// new one); every other message keeps its place.
///
/// ```
/// use a2ui_stream::official::validator::rejoin;
/// use serde_json::json;
///
/// let c = |s: &str, id: &str| json!({"version": "v0.9", "updateComponents": {"surfaceId": s, "components": [{"id": id}]}});
/// let data = json!({"version": "v0.9", "updateDataModel": {"surfaceId": "a", "value": {}}});
/// let del = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "a"}});
/// let out = rejoin(&[c("a", "1"), c("b", "x"), data.clone(), c("a", "2"), del.clone(), c("a", "3")]);
/// let ids = |i: usize| out[i]["updateComponents"]["components"].as_array().unwrap()
///     .iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
/// assert_eq!(out.len(), 5);
/// assert_eq!(ids(0), ["1", "2"]);
/// assert_eq!(ids(1), ["x"]);
/// assert_eq!((&out[2], &out[3]), (&data, &del));
/// assert_eq!(ids(4), ["3"]);
/// ```
pub fn rejoin(messages: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    // Surface id -> index in `out` of its component list.
    let mut lists: HashMap<String, usize> = HashMap::new();
    for m in messages {
        if let Some(sid) = m
            .get("deleteSurface")
            .and_then(|d| d.get("surfaceId"))
            .and_then(Value::as_str)
        {
            lists.remove(sid);
        }
        let Some((key, sid)) = component_update(m) else {
            out.push(m.clone());
            continue;
        };
        let comps = m
            .get(key)
            .and_then(|b| b.get("components"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let target = lists
            .get(sid)
            .and_then(|&i| out.get_mut(i))
            .and_then(|prev| prev.get_mut(key))
            .and_then(|b| b.get_mut("components"))
            .and_then(Value::as_array_mut);
        match target {
            Some(list) => list.extend(comps),
            None => {
                lists.insert(sid.to_owned(), out.len());
                out.push(m.clone());
            }
        }
    }
    out
}
