//! The A2UI the restaurant finder shows: a restaurant list, a booking form and a confirmation,
//! each for A2UI v0.8, v0.9 and v1.0.
//!
//! Every builder returns the messages in the order a model should write them: the surface first,
//! then the components top-down (a parent before its children, so a client can draw each one the
//! moment it arrives), then the data model, its plain values (the list's title) before its lists.
//!
//! v1.0 could put the components and the data model inside `createSurface`; the builders send
//! them in `updateComponents` and `updateDataModel` instead, as for v0.9, so that every version
//! the demo speaks has the same shape. The splitter streams either form: it hands out each
//! component and each record the moment it closes, inline in a `createSurface` too.

use crate::tools::Restaurant;
use serde_json::{Map, Value, json};

/// The messages of one answer as the block a model writes: a JSON array between
/// `<a2ui-json>` tags, one message a line, each with its keys in streaming order.
pub fn block(messages: &[Value]) -> String {
    let body: Vec<String> = messages
        .iter()
        .map(a2ui_stream::to_streaming_json)
        .collect();
    format!("<a2ui-json>\n[\n{}\n]\n</a2ui-json>", body.join(",\n"))
}

pub use a2ui_stream::Version;

/// The versions the demo speaks, oldest first.
pub const VERSIONS: [Version; 3] = [Version::V08, Version::V09, Version::V10];

/// Surface ids used by the demo.
pub const LIST_SURFACE: &str = "restaurant-list";
/// Surface of the booking form.
pub const BOOKING_SURFACE: &str = "booking-form";
/// Surface of the booking confirmation.
pub const CONFIRMATION_SURFACE: &str = "confirmation";

/// The catalog a v0.9 surface uses.
pub const BASIC_CATALOG_V09: &str =
    "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
/// The catalog a v1.0 surface uses.
pub const BASIC_CATALOG_V10: &str =
    "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// Action names the buttons send.
pub const BOOK_ACTION: &str = "book_restaurant";
/// Action sent by the booking form's submit button.
pub const SUBMIT_ACTION: &str = "submit_booking";

/// One component, written once in a version-neutral form and rendered for either version.
enum C<'a> {
    Column(&'a [&'a str]),
    Row(&'a [&'a str]),
    Card(&'a str),
    /// A list repeating `template` over the array at `path`.
    List {
        template: &'a str,
        path: &'a str,
    },
    /// Text bound to a data path, with an optional usage hint / variant.
    TextPath(&'a str, Option<&'a str>),
    /// Literal text.
    TextLit(&'a str, Option<&'a str>),
    Image(&'a str),
    Divider,
    /// A button with a child label and an action whose context binds keys to paths.
    Button {
        child: &'a str,
        primary: bool,
        action: &'a str,
        context: &'a [(&'a str, &'a str)],
    },
    TextField {
        label: &'a str,
        path: &'a str,
        number: bool,
    },
    DateTime {
        label: &'a str,
        path: &'a str,
    },
}

/// A value bound to a data path: `{"path": ..}` up to v0.9, `{"@path": ..}` in v1.0.
fn bound(v: Version, path: &str) -> Value {
    match v {
        Version::V08 | Version::V09 => json!({ "path": path }),
        _ => json!({ "@path": path }),
    }
}

fn literal(v: Version, text: &str) -> Value {
    match v {
        Version::V08 => json!({ "literalString": text }),
        _ => json!(text),
    }
}

/// A component id as version `v` writes it. The builders name components with hyphens
/// (`card-book`); v1.0 ids are identifiers, so there the hyphens become underscores (`card_book`).
pub fn component_id(v: Version, id: &str) -> String {
    match v {
        Version::V08 | Version::V09 => id.to_owned(),
        _ => id.replace('-', "_"),
    }
}

/// A v1.0 Text has no heading variants (only `caption` and `body`) but reads simple Markdown:
/// `h1`..`h5` become that many `#` in front of the text. Data is put into the heading with the
/// catalog's `formatString`, whose `${path}` reads the data model.
fn v10_heading(level: &str, text: &Value) -> Option<Value> {
    let hashes = "#".repeat(level.strip_prefix('h')?.parse::<usize>().ok()?);
    Some(match text {
        Value::String(s) => json!(format!("{hashes} {s}")),
        bound => {
            let path = bound.get("@path")?.as_str()?;
            json!({ "@call": "formatString", "args": { "value": format!("{hashes} ${{{path}}}") } })
        }
    })
}

/// One component as a v0.8 `{id, component:{Type:{..}}}` or v0.9 `{id, component:"Type", ..}` object.
fn component(v: Version, id: &str, weight: Option<u32>, c: &C<'_>) -> Value {
    let (ty, props): (&str, Value) = match c {
        C::Column(children) | C::Row(children) => {
            let ty = if matches!(c, C::Column(_)) {
                "Column"
            } else {
                "Row"
            };
            let kids: Vec<String> = children.iter().map(|id| component_id(v, id)).collect();
            let kids = match v {
                Version::V08 => json!({ "explicitList": kids }),
                _ => json!(kids),
            };
            (ty, json!({ "children": kids }))
        }
        C::Card(child) => ("Card", json!({ "child": component_id(v, child) })),
        C::List { template, path } => {
            let template = component_id(v, template);
            let kids = match v {
                Version::V08 => {
                    json!({ "template": { "componentId": template, "dataBinding": path } })
                }
                _ => json!({ "componentId": template, "path": path }),
            };
            ("List", json!({ "direction": "vertical", "children": kids }))
        }
        C::TextPath(path, hint) | C::TextLit(path, hint) => {
            let text = if matches!(c, C::TextPath(..)) {
                bound(v, path)
            } else {
                literal(v, path)
            };
            let heading = hint
                .filter(|_| v == Version::V10)
                .and_then(|h| v10_heading(h, &text));
            if let Some(text) = heading {
                return finish(v, id, weight, "Text", json!({ "text": text }));
            }
            let mut p = json!({ "text": text });
            if let (Some(h), Some(obj)) = (hint, p.as_object_mut()) {
                let key = if v == Version::V08 {
                    "usageHint"
                } else {
                    "variant"
                };
                obj.insert(key.into(), json!(h));
            }
            ("Text", p)
        }
        C::Image(path) => ("Image", json!({ "url": bound(v, path) })),
        C::Divider => ("Divider", json!({})),
        C::Button {
            child,
            primary,
            action,
            context,
        } => {
            let action = match v {
                Version::V08 => json!({
                    "name": action,
                    "context": context.iter().map(|(k, p)| json!({ "key": k, "value": bound(v, p) })).collect::<Vec<_>>()
                }),
                _ => json!({ "event": {
                    "name": action,
                    "context": context.iter().map(|(k, p)| ((*k).to_owned(), bound(v, p))).collect::<Map<_, _>>()
                }}),
            };
            let mut p = json!({ "child": component_id(v, child), "action": action });
            if let Some(obj) = p.as_object_mut().filter(|_| *primary) {
                match v {
                    Version::V08 => obj.insert("primary".into(), json!(true)),
                    _ => obj.insert("variant".into(), json!("primary")),
                };
            }
            ("Button", p)
        }
        C::TextField {
            label,
            path,
            number,
        } => {
            let mut p = match v {
                Version::V08 => json!({ "label": literal(v, label), "text": bound(v, path) }),
                _ => json!({ "label": label, "value": bound(v, path) }),
            };
            if let Some(obj) = p.as_object_mut().filter(|_| *number) {
                match v {
                    Version::V08 => obj.insert("textFieldType".into(), json!("number")),
                    _ => obj.insert("variant".into(), json!("number")),
                };
            }
            ("TextField", p)
        }
        C::DateTime { label, path } => {
            let p = match v {
                Version::V08 => {
                    json!({ "value": bound(v, path), "enableDate": true, "enableTime": true })
                }
                _ => {
                    json!({ "label": label, "value": bound(v, path), "enableDate": true, "enableTime": true })
                }
            };
            ("DateTimeInput", p)
        }
    };
    finish(v, id, weight, ty, props)
}

/// A component of type `ty` with `props`, in the shape of version `v`.
fn finish(v: Version, id: &str, weight: Option<u32>, ty: &str, props: Value) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(component_id(v, id)));
    if let Some(w) = weight {
        out.insert("weight".into(), json!(w));
    }
    match v {
        Version::V08 => {
            out.insert("component".into(), json!({ ty: props }));
        }
        _ => {
            out.insert("component".into(), json!(ty));
            if let Value::Object(props) = props {
                out.extend(props);
            }
        }
    }
    Value::Object(out)
}

/// A message of version `v`: `{key: body}`, with `"version"` from v0.9 on.
fn message(v: Version, key: &str, body: Value) -> Value {
    match v {
        Version::V08 => json!({ key: body }),
        _ => json!({ "version": v.message_tag(), key: body }),
    }
}

/// The surface-opening message. In v0.8 the root is named here; from v0.9 on it is the
/// component `root`. v1.0 has no theme on a surface.
fn open_surface(v: Version, surface: &str, root: &str) -> Value {
    match v {
        Version::V08 => json!({ "beginRendering": {
            "surfaceId": surface, "root": root, "styles": { "primaryColor": "#B3261E", "font": "Roboto" }
        }}),
        Version::V09 => message(
            v,
            "createSurface",
            json!({ "surfaceId": surface, "catalogId": BASIC_CATALOG_V09, "theme": { "primaryColor": "#B3261E" } }),
        ),
        _ => message(
            v,
            "createSurface",
            json!({ "surfaceId": surface, "catalogId": BASIC_CATALOG_V10 }),
        ),
    }
}

fn update_components(v: Version, surface: &str, components: Vec<Value>) -> Value {
    let key = match v {
        Version::V08 => "surfaceUpdate",
        _ => "updateComponents",
    };
    message(
        v,
        key,
        json!({ "surfaceId": surface, "components": components }),
    )
}

/// A v0.8 `contents` entry holding a plain value (anything else is written as its JSON text).
fn v08_scalar(key: &str, value: &Value) -> Value {
    match value {
        Value::Number(n) => json!({ "key": key, "valueNumber": n }),
        Value::Bool(b) => json!({ "key": key, "valueBoolean": b }),
        Value::String(s) => json!({ "key": key, "valueString": s }),
        Value::Null => json!({ "key": key, "valueString": "" }),
        other => json!({ "key": key, "valueString": other.to_string() }),
    }
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Object(_) | Value::Array(_))
}

/// A v0.8 entry for one value: plain values directly, a map of plain values as a `valueMap`.
/// `None` for deeper structures, which need a message of their own.
fn v08_entry(key: &str, value: &Value) -> Option<Value> {
    match value {
        Value::Object(map) if map.values().all(is_scalar) => Some(json!({
            "key": key,
            "valueMap": map.iter().map(|(k, v)| v08_scalar(k, v)).collect::<Vec<_>>()
        })),
        Value::Object(_) | Value::Array(_) => None,
        scalar => Some(v08_scalar(key, scalar)),
    }
}

/// Sets the whole data model of a surface to `data` (a JSON object).
///
/// A v0.8 `valueMap` holds one level of plain values, so a list of records goes in a second
/// `dataModelUpdate` at its own path, its entries keyed `item1`, `item2`, ... (the `/` update
/// comes first: it replaces the whole model). v0.9 and v1.0 do the same: the plain values in an
/// `updateDataModel` at `/`, then each list or map in one at its own path. So the list's title
/// comes before its items, as a model writes it, and the heading shows with the first card (in
/// one object the writer would put `items` before `title`: it orders keys by name).
fn set_data(v: Version, surface: &str, data: &Value) -> Vec<Value> {
    match v {
        Version::V08 => {
            let empty = Map::new();
            let map = data.as_object().unwrap_or(&empty);
            let top: Vec<Value> = map
                .iter()
                .filter_map(|(k, val)| v08_entry(k, val))
                .collect();
            let mut out = vec![
                json!({ "dataModelUpdate": { "surfaceId": surface, "path": "/", "contents": top } }),
            ];
            for (key, val) in map.iter().filter(|(k, val)| v08_entry(k, val).is_none()) {
                let entries: Vec<Value> = match val {
                    Value::Array(items) => items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| {
                            let key = format!("item{}", i + 1);
                            v08_entry(&key, item).unwrap_or_else(|| v08_scalar(&key, item))
                        })
                        .collect(),
                    Value::Object(m) => m
                        .iter()
                        .map(|(k, item)| v08_entry(k, item).unwrap_or_else(|| v08_scalar(k, item)))
                        .collect(),
                    _ => Vec::new(),
                };
                out.push(json!({ "dataModelUpdate": { "surfaceId": surface, "path": format!("/{key}"), "contents": entries } }));
            }
            out
        }
        _ => {
            let map = data.as_object().cloned().unwrap_or_default();
            let (plain, nested): (Map<String, Value>, Map<String, Value>) =
                map.into_iter().partition(|(_, val)| is_scalar(val));
            let update = |path: String, value: Value| {
                let body = json!({ "surfaceId": surface, "path": path, "value": value });
                message(v, "updateDataModel", body)
            };
            std::iter::once(update("/".into(), Value::Object(plain)))
                .chain(
                    nested
                        .into_iter()
                        .map(|(key, val)| update(format!("/{key}"), val)),
                )
                .collect()
        }
    }
}

fn root_id(v: Version, name: &'static str) -> &'static str {
    match v {
        Version::V08 => name,
        _ => "root",
    }
}

/// Inside a list template, v0.8 binds with absolute paths of the item, later versions with
/// relative ones.
fn item_path(v: Version, field: &'static str) -> &'static str {
    match (v, field) {
        (Version::V08, "name") => "/name",
        (Version::V08, "rating") => "/rating",
        (Version::V08, "detail") => "/detail",
        (Version::V08, "address") => "/address",
        (Version::V08, "imageUrl") => "/imageUrl",
        (Version::V08, "infoLink") => "/infoLink",
        (Version::V08, _) => "/",
        (_, f) => f,
    }
}

/// Rating as the card shows it: `★★★★½ 4.6`.
pub fn stars(rating: f64) -> String {
    let r = rating.clamp(0.0, 5.0);
    let full = r.floor() as usize;
    let half = r - r.floor() >= 0.5;
    format!(
        "{}{} {:.1}",
        "★".repeat(full),
        if half { "½" } else { "" },
        rating
    )
}

/// The restaurant list: a title and one card per restaurant (image, name, rating, detail,
/// address, a "Book" button).
pub fn restaurant_list(v: Version, title: &str, restaurants: &[Restaurant]) -> Vec<Value> {
    let root = root_id(v, "list-root");
    let p = |f| item_path(v, f);
    let comps = vec![
        component(v, root, None, &C::Column(&["list-title", "list-items"])),
        component(v, "list-title", None, &C::TextPath("/title", Some("h1"))),
        component(
            v,
            "list-items",
            None,
            &C::List {
                template: "card",
                path: "/items",
            },
        ),
        component(v, "card", None, &C::Card("card-row")),
        component(
            v,
            "card-row",
            None,
            &C::Row(&["card-image", "card-details"]),
        ),
        component(v, "card-image", Some(1), &C::Image(p("imageUrl"))),
        component(
            v,
            "card-details",
            Some(2),
            &C::Column(&[
                "card-name",
                "card-rating",
                "card-detail",
                "card-address",
                "card-book",
            ]),
        ),
        component(v, "card-name", None, &C::TextPath(p("name"), Some("h3"))),
        component(v, "card-rating", None, &C::TextPath(p("rating"), None)),
        component(v, "card-detail", None, &C::TextPath(p("detail"), None)),
        component(
            v,
            "card-address",
            None,
            &C::TextPath(p("address"), Some("caption")),
        ),
        component(
            v,
            "card-book",
            None,
            &C::Button {
                child: "card-book-label",
                primary: true,
                action: BOOK_ACTION,
                context: &[
                    ("restaurantName", p("name")),
                    ("address", p("address")),
                    ("imageUrl", p("imageUrl")),
                ],
            },
        ),
        component(v, "card-book-label", None, &C::TextLit("Book", None)),
    ];
    let items: Vec<Value> = restaurants
        .iter()
        .map(|r| {
            json!({
                "name": r.name, "rating": stars(r.rating), "detail": r.detail,
                "address": r.address, "imageUrl": r.image_url, "infoLink": r.info_link
            })
        })
        .collect();
    vec![
        open_surface(v, LIST_SURFACE, root),
        update_components(v, LIST_SURFACE, comps),
    ]
    .into_iter()
    .chain(set_data(
        v,
        LIST_SURFACE,
        &json!({ "title": title, "items": items }),
    ))
    .collect()
}

/// The booking form for one restaurant: party size, date and time, dietary needs, a submit button.
pub fn booking_form(v: Version, restaurant: &str, address: &str, image_url: &str) -> Vec<Value> {
    let root = root_id(v, "booking-root");
    let comps = vec![
        component(
            v,
            root,
            None,
            &C::Column(&[
                "booking-title",
                "booking-image",
                "booking-address",
                "booking-party",
                "booking-time",
                "booking-dietary",
                "booking-submit",
            ]),
        ),
        component(v, "booking-title", None, &C::TextPath("/title", Some("h2"))),
        component(v, "booking-image", None, &C::Image("/imageUrl")),
        component(v, "booking-address", None, &C::TextPath("/address", None)),
        component(
            v,
            "booking-party",
            None,
            &C::TextField {
                label: "Party size",
                path: "/partySize",
                number: true,
            },
        ),
        component(
            v,
            "booking-time",
            None,
            &C::DateTime {
                label: "Date and time",
                path: "/reservationTime",
            },
        ),
        component(
            v,
            "booking-dietary",
            None,
            &C::TextField {
                label: "Dietary requirements",
                path: "/dietary",
                number: false,
            },
        ),
        component(
            v,
            "booking-submit",
            None,
            &C::Button {
                child: "booking-submit-label",
                primary: true,
                action: SUBMIT_ACTION,
                context: &[
                    ("restaurantName", "/restaurantName"),
                    ("partySize", "/partySize"),
                    ("reservationTime", "/reservationTime"),
                    ("dietary", "/dietary"),
                    ("imageUrl", "/imageUrl"),
                ],
            },
        ),
        component(
            v,
            "booking-submit-label",
            None,
            &C::TextLit("Reserve a table", None),
        ),
    ];
    let data = json!({
        "title": format!("Book a table at {restaurant}"),
        "restaurantName": restaurant,
        "address": address,
        "imageUrl": image_url,
        "partySize": "2",
        "reservationTime": "",
        "dietary": ""
    });
    vec![
        open_surface(v, BOOKING_SURFACE, root),
        update_components(v, BOOKING_SURFACE, comps),
    ]
    .into_iter()
    .chain(set_data(v, BOOKING_SURFACE, &data))
    .collect()
}

/// The confirmation card after the booking form was submitted.
pub fn confirmation(
    v: Version,
    restaurant: &str,
    party_size: &str,
    time: &str,
    dietary: &str,
    image_url: &str,
) -> Vec<Value> {
    let root = root_id(v, "confirmation-root");
    let comps = vec![
        component(v, root, None, &C::Card("confirmation-column")),
        component(
            v,
            "confirmation-column",
            None,
            &C::Column(&[
                "confirmation-title",
                "confirmation-image",
                "confirmation-divider",
                "confirmation-details",
                "confirmation-dietary",
                "confirmation-footer",
            ]),
        ),
        component(
            v,
            "confirmation-title",
            None,
            &C::TextPath("/title", Some("h2")),
        ),
        component(v, "confirmation-image", None, &C::Image("/imageUrl")),
        component(v, "confirmation-divider", None, &C::Divider),
        component(
            v,
            "confirmation-details",
            None,
            &C::TextPath("/details", None),
        ),
        component(
            v,
            "confirmation-dietary",
            None,
            &C::TextPath("/dietary", None),
        ),
        component(
            v,
            "confirmation-footer",
            None,
            &C::TextLit("See you soon!", Some("h5")),
        ),
    ];
    let when = if time.trim().is_empty() {
        "a time to be confirmed".to_owned()
    } else {
        time.to_owned()
    };
    let dietary = if dietary.trim().is_empty() {
        "none".to_owned()
    } else {
        dietary.to_owned()
    };
    let data = json!({
        "title": format!("Booked: {restaurant}"),
        "details": format!("Table for {party_size} at {when}"),
        "dietary": format!("Dietary requirements: {dietary}"),
        "imageUrl": image_url
    });
    vec![
        open_surface(v, CONFIRMATION_SURFACE, root),
        update_components(v, CONFIRMATION_SURFACE, comps),
    ]
    .into_iter()
    .chain(set_data(v, CONFIRMATION_SURFACE, &data))
    .collect()
}

/// A `deleteSurface` message, sent before a retry replaces a rejected UI.
pub fn delete_surface(v: Version, surface: &str) -> Value {
    message(v, "deleteSurface", json!({ "surfaceId": surface }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(v: Version) -> Vec<Vec<Value>> {
        let r = crate::tools::get_restaurants("Chinese", "New York", 3);
        vec![
            restaurant_list(v, "Top 3", &r),
            booking_form(v, "A", "1 Street", "https://example.com/a.jpg"),
            confirmation(
                v,
                "A",
                "2",
                "2026-01-01T19:00",
                "",
                "https://example.com/a.jpg",
            ),
        ]
    }

    #[test]
    fn every_builder_makes_a_complete_ui_in_every_version() {
        for v in VERSIONS {
            for messages in all(v) {
                let mut ui = a2ui_stream::renderer::RendererState::new().strict();
                for m in &messages {
                    let tag = m.get("version").and_then(Value::as_str);
                    assert_eq!(tag, (v != Version::V08).then_some(v.message_tag()), "{m}");
                    ui.apply(m).unwrap();
                }
                assert_eq!(ui.surfaces().count(), 1);
                let official = crate::official::Official::builtin();
                assert_eq!(official.check(v, &messages), Ok(()));
            }
        }
    }

    #[test]
    fn v08_lists_become_value_maps() {
        let m = restaurant_list(
            Version::V08,
            "T",
            &crate::tools::get_restaurants("Chinese", "New York", 2),
        );
        let mut ui = a2ui_stream::renderer::RendererState::new();
        for x in &m {
            ui.apply(x).unwrap();
        }
        let data = ui.surface(LIST_SURFACE).unwrap().data_model();
        assert_eq!(data["title"], "T");
        assert_eq!(
            data["items"]["item2"]["name"],
            "Golden Lantern Noodle House"
        );
        // The schema allows one level of valueMap: the list has its own update at /items.
        let paths: Vec<&str> = m
            .iter()
            .filter_map(|x| x["dataModelUpdate"]["path"].as_str())
            .collect();
        assert_eq!(paths, ["/", "/items"]);
        for x in m.iter().filter(|x| x.get("dataModelUpdate").is_some()) {
            for entry in x["dataModelUpdate"]["contents"].as_array().unwrap() {
                for inner in entry["valueMap"].as_array().into_iter().flatten() {
                    assert!(inner.get("valueMap").is_none(), "{inner}");
                }
            }
        }
    }

    #[test]
    fn reads_versions_and_draws_stars() {
        assert_eq!(stars(4.6), "★★★★½ 4.6");
        assert_eq!(Version::parse("v0.8"), Some(Version::V08));
        assert_eq!(Version::parse("1.0"), Some(Version::V10));
        assert_eq!(Version::parse("v1.0"), Some(Version::V10));
        assert_eq!(Version::parse("2.0"), None);
    }

    #[test]
    fn v10_writes_identifier_ids_at_path_bindings_and_markdown_headings() {
        let list = restaurant_list(
            Version::V10,
            "T",
            &crate::tools::get_restaurants("Chinese", "New York", 1),
        );
        assert_eq!(
            list[0],
            json!({"version": "v1.0", "createSurface": {"surfaceId": LIST_SURFACE, "catalogId": BASIC_CATALOG_V10}})
        );
        let comps = list[1]["updateComponents"]["components"]
            .as_array()
            .unwrap();
        let by_id = |id: &str| comps.iter().find(|c| c["id"] == id).unwrap();
        assert_eq!(
            by_id("root")["children"],
            json!(["list_title", "list_items"])
        );
        assert_eq!(
            by_id("list_items")["children"],
            json!({"componentId": "card", "path": "/items"})
        );
        assert!(by_id("list_title").get("variant").is_none());
        assert_eq!(by_id("card_image")["url"], json!({"@path": "imageUrl"}));
        assert_eq!(
            by_id("card_book")["action"]["event"]["context"]["restaurantName"],
            json!({"@path": "name"})
        );
        assert_eq!(by_id("card_address")["variant"], "caption");
        let done = confirmation(Version::V10, "A", "2", "", "", "u");
        let footer = &done[1]["updateComponents"]["components"][7];
        assert_eq!(footer["id"], "confirmation_footer");
        assert_eq!(footer["text"], "##### See you soon!");
    }
}
