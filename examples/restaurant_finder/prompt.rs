//! The system prompt: the agent's role, the A2UI rules, a schema summary and worked examples for
//! the chosen protocol version, and how UI actions come back.

use crate::tools::Restaurant;
use crate::ui::block;
use crate::ui::{self, Version};
use serde_json::Value;
use std::sync::OnceLock;

/// The line of the prompt naming the protocol version (the scripted model reads it too).
pub fn version_line(v: Version) -> String {
    format!("A2UI protocol version: {}", v.message_tag())
}

/// Prefix of the user message that carries a UI action back to the model.
pub const ACTION_PREFIX: &str = "[ui action]";

/// The user message for a UI action: `[ui action] NAME {context JSON}`.
pub fn action_message(name: &str, context: &Value) -> String {
    format!("{ACTION_PREFIX} {name} {context}")
}

/// Parses a user message written by [`action_message`].
pub fn parse_action_message(text: &str) -> Option<(String, Value)> {
    let rest = text.trim().strip_prefix(ACTION_PREFIX)?.trim_start();
    let (name, context) = rest.split_once(' ').unwrap_or((rest, "{}"));
    let context = serde_json::from_str(context.trim()).ok()?;
    Some((name.to_owned(), context))
}

/// Prefix of the user message asking the model to correct an invalid UI.
pub const RETRY_PREFIX: &str = "[ui rejected]";

/// The user message sent with a retry: what was wrong, and what to do.
pub fn retry_message(reason: &str) -> String {
    format!(
        "{RETRY_PREFIX} The A2UI you wrote was rejected: {reason}\n\
         Write your whole answer again, with one corrected <a2ui-json> block. Do not call tools again."
    )
}

/// [`retry_message`] for a model that writes A2UI Express.
pub fn express_retry_message(reason: &str) -> String {
    format!(
        "{RETRY_PREFIX} The A2UI Express you wrote was rejected: {reason}\n\
         Write your whole answer again, with one corrected {} block. Do not call tools again.",
        crate::express::OPEN_TAG
    )
}

fn schema_summary(v: Version) -> &'static str {
    match v {
        Version::V08 => {
            "Messages (each a JSON object with exactly one key):
- {\"beginRendering\": {\"surfaceId\": S, \"root\": ROOT_ID, \"styles\": {\"primaryColor\": \"#RRGGBB\", \"font\": F}}} opens a surface.
- {\"surfaceUpdate\": {\"surfaceId\": S, \"components\": [C, ...]}} adds or replaces components.
  A component is {\"id\": ID, \"weight\"?: N, \"component\": {TYPE: {PROPERTIES}}}.
- {\"dataModelUpdate\": {\"surfaceId\": S, \"path\": \"/\", \"contents\": [{\"key\": K, \"valueString\"|\"valueNumber\"|\"valueBoolean\"|\"valueMap\": V}, ...]}}
  replaces the data at path (\"/\" is the whole model; send it first). A valueMap holds only plain values,
  so write a list of records as another dataModelUpdate with \"path\": \"/items\" whose entries are keyed
  item1, item2, ..., each a valueMap.
- {\"deleteSurface\": {\"surfaceId\": S}} removes a surface.
Values shown to the user are {\"literalString\": \"...\"} or {\"path\": \"/data/path\"}.
Components: Text {text, usageHint: h1..h5|caption|body}, Image {url}, Row / Column {children: {explicitList: [IDs]}},
List {direction, children: {template: {componentId, dataBinding: \"/items\"}}} (inside a template, paths like \"/name\" are
relative to the item), Card {child}, Divider {}, Button {child, primary, action: {name, context: [{key, value: {path}}]}},
TextField {label, text: {path}, textFieldType: shortText|number|longText}, DateTimeInput {value: {path}, enableDate, enableTime} (no label)."
        }
        Version::V09 => {
            "Messages (each a JSON object with \"version\": \"v0.9\" and one operation key):
- {\"version\": \"v0.9\", \"createSurface\": {\"surfaceId\": S, \"catalogId\": \"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json\"}} opens a surface.
- {\"version\": \"v0.9\", \"updateComponents\": {\"surfaceId\": S, \"components\": [C, ...]}} adds or replaces components.
  A component is flat: {\"id\": ID, \"component\": TYPE, ...PROPERTIES}. The root component MUST have the id \"root\".
- {\"version\": \"v0.9\", \"updateDataModel\": {\"surfaceId\": S, \"path\": \"/\", \"value\": JSON}} sets data.
- {\"version\": \"v0.9\", \"deleteSurface\": {\"surfaceId\": S}} removes a surface.
A value shown to the user is a plain string or {\"path\": \"/data/path\"}.
Components: Text {text, variant: h1..h5|caption|body}, Image {url}, Row / Column {children: [IDs]},
List {direction, children: {componentId, path: \"/items\"}} (inside a template, paths like \"name\" are relative to the item),
Card {child}, Divider {}, Button {child, variant: primary, action: {event: {name, context: {KEY: {path}}}}},
TextField {label, value: {path}, variant: shortText|number|longText}, DateTimeInput {value: {path}, enableDate, enableTime}."
        }
        _ => {
            "Messages (each a JSON object with \"version\": \"v1.0\" and one operation key):
- {\"version\": \"v1.0\", \"createSurface\": {\"surfaceId\": S, \"catalogId\": \"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json\"}} opens a surface.
  It could also carry the components and the data model, but send those in the two messages below, the form
  every client of this agent reads.
- {\"version\": \"v1.0\", \"updateComponents\": {\"surfaceId\": S, \"components\": [C, ...]}} adds or replaces components.
  A component is flat: {\"id\": ID, \"component\": TYPE, ...PROPERTIES}. The root component MUST have the id \"root\".
  An ID is an identifier: letters, digits and underscores, not starting with a digit, no hyphens (\"card_title\", not \"card-title\").
- {\"version\": \"v1.0\", \"updateDataModel\": {\"surfaceId\": S, \"path\": \"/\", \"value\": JSON}} sets data; \"value\" is required
  (null deletes what is at path).
- {\"version\": \"v1.0\", \"deleteSurface\": {\"surfaceId\": S}} removes a surface.
A value shown to the user is a plain string, a data binding {\"@path\": \"/data/path\"} (never {\"path\": ...}), or a function
call {\"@call\": NAME, \"args\": {...}}.
Text reads simple Markdown and has no heading variants: write a heading as \"## Title\", and put data into text with
{\"@call\": \"formatString\", \"args\": {\"value\": \"## ${/data/path}\"}}.
Components: Text {text, variant: caption|body}, Image {url}, Row / Column {children: [IDs]},
List {direction, children: {componentId, path: \"/items\"}} (inside a template, paths like \"name\" and ${name} are relative to the item),
Card {child}, Divider {}, Button {child, variant: primary, action: {event: {name, context: {KEY: {\"@path\": P}}}}},
TextField {label, value: {\"@path\": P}, variant: shortText|number|longText}, DateTimeInput {label, value: {\"@path\": P}, enableDate, enableTime}."
        }
    }
}

fn sample_restaurant() -> Restaurant {
    Restaurant {
        name: "Example Bistro".into(),
        cuisine: "French".into(),
        city: "Paris".into(),
        detail: "A short line about the food.".into(),
        rating: 4.5,
        address: "1 Example Street".into(),
        image_url: "https://example.com/bistro.jpg".into(),
        info_link: "https://example.com/bistro".into(),
    }
}

/// The UIs the prompt shows as examples: a result list, a booking form, a confirmation.
fn examples(v: Version) -> [Vec<Value>; 3] {
    [
        ui::restaurant_list(v, "Top French restaurants in Paris", &[sample_restaurant()]),
        ui::booking_form(
            v,
            "Example Bistro",
            "1 Example Street",
            "https://example.com/bistro.jpg",
        ),
        ui::confirmation(
            v,
            "Example Bistro",
            "2",
            "2025-06-01T19:30",
            "vegetarian",
            "https://example.com/bistro.jpg",
        ),
    ]
}

/// The whole system prompt for version `v`.
pub fn system_prompt(v: Version) -> String {
    let [list, booking, confirm] = examples(v);
    let (list, booking, confirm) = (block(&list), block(&booking), block(&confirm));
    format!(
        "You are a restaurant finder. You help people find restaurants and book a table.
{version}

# How you answer
- To find restaurants, call the tool `get_restaurants` (cuisine, location, count). Never invent restaurants.
- Then answer with one or two sentences of prose and exactly one A2UI block that shows the results:
  <a2ui-json>[ ...A2UI messages... ]</a2ui-json>
  Write the block as a JSON array of messages, between those tags, with no markdown fence.
- Write the messages in this order, so the interface can be drawn while you are still writing:
  1. the message that opens the surface;
  2. the components, top-down: every parent before its children, the root first;
  3. the data model last.
- Use only the component types listed below, give every component a unique id, and make sure every id you
  refer to (child, children, template) is a component you send.
- Use surface `{list_sid}` for results, `{booking_sid}` for the booking form, `{confirm_sid}` for the confirmation.

# A2UI {vstr} summary
{schema}

{actions}
# Example: a result list
{list}

# Example: a booking form
{booking}

# Example: a confirmation
{confirm}
",
        version = version_line(v),
        list_sid = ui::LIST_SURFACE,
        booking_sid = ui::BOOKING_SURFACE,
        confirm_sid = ui::CONFIRMATION_SURFACE,
        vstr = v.message_tag(),
        schema = schema_summary(v),
        actions = ui_actions(),
    )
}

/// The prompt's section on UI actions.
fn ui_actions() -> String {
    format!(
        "# UI actions
When the user presses a button you get a message `{ACTION_PREFIX} NAME {{context JSON}}`.
- `{book}` (context: restaurantName, address, imageUrl): show the booking form for that restaurant.
- `{submit}` (context: restaurantName, partySize, reservationTime, dietary, imageUrl): confirm the booking.
",
        book = ui::BOOK_ACTION,
        submit = ui::SUBMIT_ACTION,
    )
}

/// The system prompt for version `v` when the model writes A2UI Express (`--format express`):
/// the same role and UI actions as [`system_prompt`], the crate's Express prompt for the demo's
/// catalog instead of the JSON summary, and the same examples written in Express. Made once
/// per version; v0.8 has no Express.
pub fn express_system_prompt(v: Version) -> Result<&'static str, String> {
    static V09: OnceLock<Result<String, String>> = OnceLock::new();
    static V10: OnceLock<Result<String, String>> = OnceLock::new();
    let made = match v {
        Version::V08 => return Err(crate::express::no_v08()),
        Version::V09 => &V09,
        _ => &V10,
    };
    made.get_or_init(|| write_express_prompt(v))
        .as_deref()
        .map_err(|e| format!("cannot write the Express system prompt: {e}"))
}

fn write_express_prompt(v: Version) -> Result<String, String> {
    let catalogs = crate::express::catalogs(v)?;
    let notation = a2ui_stream::express::prompt(catalogs, &[]).map_err(|e| e.to_string())?;
    let [list, booking, confirm] = examples(v);
    let block = |m: &[Value]| crate::express::block(v, m);
    let heading = match v {
        Version::V10 => {
            "\n- Text has no heading variants in v1.0 but reads simple Markdown: write a heading as \
             `Text(\"## Title\")`, or with data `Text(formatString(\"## ${/title}\"))`."
        }
        _ => "",
    };
    Ok(format!(
        "You are a restaurant finder. You help people find restaurants and book a table.
{version}

# How you answer
- To find restaurants, call the tool `get_restaurants` (cuisine, location, count). Never invent restaurants.
- Then answer with one or two sentences of prose and exactly one A2UI Express block that shows the results,
  between {open} and {close}, with no markdown fence.
- Write the statements in this order, so the interface can be drawn while you are still writing:
  1. `surface(\"ID\")`, then the plain values of the data model (such as the title);
  2. the components, top-down: `root` first, every parent before its children;
  3. the lists of the data model last: `$/items = [{{...}}, {{...}}, ...]` (each card is drawn as soon as its
     record is written).
- Use only the components and functions listed below, give every component its own name, and make sure every
  name you refer to (child, children, template) is a component you define.{heading}
- Use surface `{list_sid}` for results, `{booking_sid}` for the booking form, `{confirm_sid}` for the confirmation.

{notation}

{actions}
# Example: a result list
{list}

# Example: a booking form
{booking}

# Example: a confirmation
{confirm}
",
        version = version_line(v),
        open = crate::express::OPEN_TAG,
        close = crate::express::CLOSE_TAG,
        list_sid = ui::LIST_SURFACE,
        booking_sid = ui::BOOKING_SURFACE,
        confirm_sid = ui::CONFIRMATION_SURFACE,
        notation = notation.trim_end(),
        actions = ui_actions(),
        list = block(&list)?,
        booking = block(&booking)?,
        confirm = block(&confirm)?,
    ))
}

/// Which version a system prompt was written for (read from its version line).
pub fn version_of_prompt(prompt: &str) -> Option<Version> {
    prompt.lines().find_map(|l| {
        l.trim()
            .strip_prefix("A2UI protocol version:")
            .and_then(Version::parse)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn actions_round_trip_through_the_user_message() {
        let ctx = json!({"restaurantName": "A b", "partySize": 3});
        let msg = action_message("book_restaurant", &ctx);
        assert_eq!(
            parse_action_message(&msg),
            Some(("book_restaurant".to_owned(), ctx))
        );
        assert_eq!(parse_action_message("book me a table"), None);
    }

    #[test]
    fn the_prompt_names_its_version_and_shows_examples() {
        for v in crate::ui::VERSIONS {
            let p = system_prompt(v);
            assert_eq!(version_of_prompt(&p), Some(v));
            assert_eq!(p.matches("<a2ui-json>\n[").count(), 3);
            assert!(p.contains(crate::tools::GET_RESTAURANTS));
        }
        assert!(system_prompt(Version::V08).contains("beginRendering"));
        assert!(system_prompt(Version::V09).contains("createSurface"));
        // The v1.0 examples bind with `@path`, call `formatString` and name no hyphenated id.
        let p = system_prompt(Version::V10);
        let examples = &p[p.find("# Example: a result list").unwrap()..];
        assert!(examples.contains(r#""version":"v1.0","createSurface""#));
        assert!(examples.contains(r#"{"@path":"imageUrl"}"#));
        assert!(examples.contains(r#""@call":"formatString""#));
        assert!(!examples.contains(r#""path":{"#) && !examples.contains(r#""id":"card-"#));
        assert!(!examples.contains("v0.9"));
    }
}
