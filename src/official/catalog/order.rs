//! The order in which a catalog document declares the members of its `properties` objects, which
//! a [`serde_json::Value`] forgets (its maps are sorted) and which positional notations such as
//! A2UI Express need: a component's arguments follow the order its schema lists them in.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// For each `properties` object of a schema document, by its JSON Pointer (`/components/Text/properties`),
/// its member names in the order the document writes them. Empty when the order is not known
/// (a catalog built from [`Value`](serde_json::Value)s). It plays no part in comparing catalogs.
#[derive(Clone, Default)]
pub(crate) struct KeyOrder(Arc<BTreeMap<String, Vec<String>>>);

impl PartialEq for KeyOrder {
    fn eq(&self, _: &KeyOrder) -> bool {
        true
    }
}

impl fmt::Debug for KeyOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ordered objects", self.0.len())
    }
}

impl KeyOrder {
    /// The order of every `properties` object of the JSON document `text` (none when it is not
    /// JSON).
    pub(crate) fn of_json(text: &str) -> KeyOrder {
        let mut found = BTreeMap::new();
        let mut de = serde_json::Deserializer::from_str(text);
        let walk = Walk {
            pointer: String::new(),
            found: &mut found,
        };
        match walk.deserialize(&mut de) {
            Ok(()) => KeyOrder(Arc::new(found)),
            Err(_) => KeyOrder::default(),
        }
    }

    /// An order made of `(pointer, names)` entries.
    pub(crate) fn from_entries(entries: impl IntoIterator<Item = (String, Vec<String>)>) -> Self {
        KeyOrder(Arc::new(entries.into_iter().collect()))
    }

    /// The member names of the `properties` object at `pointer`, in document order.
    #[cfg_attr(not(feature = "express"), allow(dead_code))]
    pub(crate) fn keys(&self, pointer: &str) -> Option<&[String]> {
        self.0.get(pointer).map(Vec::as_slice)
    }
}

/// A JSON Pointer segment for member `key` (`~` and `/` escaped).
pub(crate) fn pointer_segment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Walks a JSON document, recording the member order of the objects held by a `properties` member.
struct Walk<'a> {
    pointer: String,
    found: &'a mut BTreeMap<String, Vec<String>>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let records = self.pointer.ends_with("/properties");
        let mut names = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let pointer = format!("{}/{}", self.pointer, pointer_segment(&key));
            map.next_value_seed(Walk {
                pointer,
                found: self.found,
            })?;
            if records {
                names.push(key);
            }
        }
        if records {
            self.found.insert(self.pointer, names);
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            let seed = Walk {
                pointer: format!("{}/{index}", self.pointer),
                found: self.found,
            };
            if seq.next_element_seed(seed)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_properties_in_document_order() {
        let order = KeyOrder::of_json(
            r#"{"components": {"Button": {"allOf": [{"$ref": "x"},
                {"properties": {"child": {}, "action": {"properties": {"z": 1, "a": 2}}}}]}}}"#,
        );
        assert_eq!(
            order.keys("/components/Button/allOf/1/properties"),
            Some(&["child".to_owned(), "action".to_owned()][..])
        );
        assert_eq!(
            order.keys("/components/Button/allOf/1/properties/action/properties"),
            Some(&["z".to_owned(), "a".to_owned()][..])
        );
        assert!(KeyOrder::of_json("not json").keys("").is_none());
    }

    #[test]
    fn escapes_pointer_segments() {
        let order = KeyOrder::of_json(r#"{"a/b": {"properties": {"y": 1, "x": 2}}}"#);
        assert!(order.keys("/a~1b/properties").is_some());
    }
}
