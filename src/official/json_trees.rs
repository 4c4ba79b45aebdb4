//! Random JSON trees for the property tests of the modules that walk component and message trees.

use proptest::prelude::*;
use serde_json::Value;

/// Trees of `leaf` values, lists and objects whose keys `key` picks, at most `depth` levels of
/// containers and about `size` nodes, each container holding up to three members.
pub(crate) fn json_trees<K>(
    leaf: impl Strategy<Value = Value> + 'static,
    key: K,
    depth: u32,
    size: u32,
) -> impl Strategy<Value = Value>
where
    K: Strategy<Value = &'static str> + Clone + 'static,
{
    leaf.prop_recursive(depth, size, 4, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((key.clone(), inner), 0..4).prop_map(|members| {
                Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
            }),
        ]
    })
}
