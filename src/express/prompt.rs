//! The system prompt that teaches a model to write A2UI Express for a set of catalogs: the
//! notation's rules, each catalog's components and functions as positional signatures, and
//! example turns written in Express.
//!
//! The rules describe only the messages the agent allows (a `deleteSurface` statement is not
//! taught to a model that may not delete surfaces), and the signatures are those the compiler
//! reads positional arguments with, so a model that copies them writes what compiles.

use serde_json::Value;

use super::signature::{self, Param, ParamKind, Signature};
use super::{ExpressError, ExpressErrorKind, decompile, literal};
use crate::MessageKind;
use crate::official::catalog::{Catalog, Version};

/// The tag a model opens an Express block with.
const OPEN_TAG: &str = "<a2ui>";
/// The tag a model closes an Express block with.
const CLOSE_TAG: &str = "</a2ui>";

/// How deep an enum is looked for through `oneOf` / `anyOf` / `allOf`.
const MAX_ENUM_DEPTH: usize = 8;

/// The Express system prompt for `catalogs` (the catalogs the model's output will be compiled
/// with, after any narrowing such as [`Catalog::with_only_components`]), teaching every
/// message their protocol version has, followed by `examples`: each one turn's messages,
/// shown decompiled between `<a2ui>` tags.
///
/// The prompt is the same for the same input. With several catalogs it names each catalog's
/// id beside its members.
///
/// # Errors
///
/// A [`Validation`](ExpressErrorKind::Validation) error when no catalog is given (there is
/// nothing a model could be told to write), when the catalogs speak different protocol
/// versions or v0.8, or when an example cannot be decompiled (see
/// [`decompile`](super::decompile)).
///
/// ```
/// use a2ui_stream::express::prompt;
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use serde_json::json;
///
/// let catalog = Catalog::builtin(Version::V10);
/// let example = vec![json!({"version": "v1.0", "createSurface": {
///     "surfaceId": "hello",
///     "catalogId": catalog.catalog_id(),
///     "components": [{"id": "root", "component": "Text", "text": "Hello"}]}})];
/// let text = prompt(&[catalog], &[example])?;
/// assert!(text.contains("<a2ui>") && text.contains("</a2ui>"));
/// assert!(text.contains("\n- Text(text, variant?"));
/// assert!(text.contains("deleteSurface("));
/// assert!(text.contains("surface(\"hello\")\nroot = Text(\"Hello\")"));
/// assert!(prompt(&[], &[]).is_err());
/// # Ok::<(), a2ui_stream::express::ExpressError>(())
/// ```
pub fn prompt(catalogs: &[Catalog], examples: &[Vec<Value>]) -> Result<String, ExpressError> {
    let version = version_of(catalogs)?;
    let all = version_kinds(version);
    render(catalogs, examples, version, all)
}

/// [`prompt`], teaching only the statements that compile to the message kinds in `allowed`
/// (`CreateSurface`, `UpdateComponents`, `UpdateDataModel`, `DeleteSurface`, and for v1.0
/// `CallRendererFunction`; other kinds are ignored).
///
/// # Errors
///
/// As [`prompt`].
///
/// ```
/// use a2ui_stream::MessageKind;
/// use a2ui_stream::express::prompt_allowing;
/// use a2ui_stream::official::catalog::{Catalog, Version};
///
/// let catalog = Catalog::builtin(Version::V10);
/// let allowed = [MessageKind::CreateSurface, MessageKind::UpdateComponents];
/// let text = prompt_allowing(&[catalog], &[], &allowed)?;
/// assert!(text.contains("surface(\"") && !text.contains("deleteSurface("));
/// # Ok::<(), a2ui_stream::express::ExpressError>(())
/// ```
pub fn prompt_allowing(
    catalogs: &[Catalog],
    examples: &[Vec<Value>],
    allowed: &[MessageKind],
) -> Result<String, ExpressError> {
    let version = version_of(catalogs)?;
    let allowed: Vec<MessageKind> = version_kinds(version)
        .into_iter()
        .filter(|kind| allowed.contains(kind))
        .collect();
    render(catalogs, examples, version, allowed)
}

/// A Validation error saying `message`.
fn invalid(message: impl Into<String>) -> ExpressError {
    ExpressError::of(ExpressErrorKind::Validation, None, message)
}

/// The protocol version all `catalogs` speak.
fn version_of(catalogs: &[Catalog]) -> Result<Version, ExpressError> {
    let Some(first) = catalogs.first() else {
        return Err(invalid(
            "no active catalog: there is nothing a model could be told to write",
        ));
    };
    let version = first.version();
    if catalogs.iter().any(|c| c.version() != version) {
        return Err(invalid(
            "the active catalogs speak different protocol versions",
        ));
    }
    if version < Version::V09 {
        return Err(invalid(format!(
            "Express compiles to v0.9 and v1.0 messages, not v{version}"
        )));
    }
    Ok(version)
}

/// The message kinds an Express block of `version` can compile to.
fn version_kinds(version: Version) -> Vec<MessageKind> {
    let mut kinds = vec![
        MessageKind::CreateSurface,
        MessageKind::UpdateComponents,
        MessageKind::UpdateDataModel,
        MessageKind::DeleteSurface,
    ];
    if version >= Version::V10 {
        kinds.push(MessageKind::CallRendererFunction);
    }
    kinds
}

fn render(
    catalogs: &[Catalog],
    examples: &[Vec<Value>],
    version: Version,
    allowed: Vec<MessageKind>,
) -> Result<String, ExpressError> {
    let taught = Taught::new(&allowed, catalogs.len() > 1);
    let mut sections = vec![intro(version), rules(&taught)];
    if catalogs.len() > 1 {
        sections.push(several_catalogs(catalogs));
    }
    for catalog in catalogs {
        let id = (catalogs.len() > 1).then(|| catalog.catalog_id().unwrap_or("(no id)"));
        sections.push(components_section(catalog, id));
        if let Some(functions) = functions_section(catalog, id) {
            sections.push(functions);
        }
    }
    if !examples.is_empty() {
        sections.push(examples_section(examples, catalogs)?);
    }
    Ok(sections.join("\n\n"))
}

/// Which statements the rules teach.
struct Taught {
    create: bool,
    components: bool,
    data: bool,
    delete: bool,
    call: bool,
    several_catalogs: bool,
}

impl Taught {
    fn new(allowed: &[MessageKind], several_catalogs: bool) -> Taught {
        let create = allowed.contains(&MessageKind::CreateSurface);
        Taught {
            create,
            components: create || allowed.contains(&MessageKind::UpdateComponents),
            data: allowed.contains(&MessageKind::UpdateDataModel),
            delete: allowed.contains(&MessageKind::DeleteSurface),
            call: allowed.contains(&MessageKind::CallRendererFunction),
            several_catalogs,
        }
    }
}

fn intro(version: Version) -> String {
    format!(
        "# Writing user interfaces in A2UI Express\n\n\
         Write every user interface in A2UI Express, a compact notation that the host compiles \
         into A2UI v{version} messages; never write those messages as JSON yourself. Put each \
         Express block between the tags {OPEN_TAG} and {CLOSE_TAG}. Everything outside the tags \
         is shown to the user as ordinary text."
    )
}

fn rules(taught: &Taught) -> String {
    let mut rules = vec![
        "A block is a list of statements, one per line. A statement may run over several \
         lines, `;` may separate statements on one line, and `#` or `//` starts a comment."
            .to_owned(),
    ];
    if taught.components {
        rules.extend(component_rules(taught));
    }
    if taught.data {
        rules.push(
            "`$/path = value` stores a value (a string, number, boolean, null, list or map) in \
             the data model at `path`; write one assignment per value, as in \
             `$/user/name = \"Ada\"`. A block of assignments alone updates the data of a \
             surface that already exists."
                .to_owned(),
        );
    }
    if taught.components || taught.data {
        rules.push(surface_rule(taught));
    }
    if taught.delete {
        rules.push("`deleteSurface(\"id\")` removes surface `id`.".to_owned());
    }
    if taught.call {
        rules.push(
            "A function call that stands alone as a statement, such as \
             `function(\"argument\")`, asks the renderer to run that function now."
                .to_owned(),
        );
    }
    let list: Vec<String> = rules.iter().map(|rule| format!("- {rule}")).collect();
    format!("## The notation\n\n{}", list.join("\n"))
}

fn component_rules(taught: &Taught) -> Vec<String> {
    let mut rules = vec![
        "`name = Component(arguments)` defines a component whose id is `name` (letters, \
         digits and `_`, not starting with a digit)."
            .to_owned(),
    ];
    if taught.create {
        rules.push(
            "The component named `root` is the top of the tree; every other component must \
             be reachable from it."
                .to_owned(),
        );
    }
    rules.extend(
        [
            "Arguments follow the component's signature below, without property names. Leave \
             out optional arguments (marked `?`) at the end, write `_` for an optional \
             argument you skip before one you give, or give any argument by name: \
             `Component(first, _, third)`, `Component(first, third=value)`. An argument listed \
             as `literal only` takes a value written out, never a `$` binding or a function \
             call.",
            "A child argument is the name of another component, or a component written in \
             place: `Outer(Inner(\"Hello\"))`. A list of children is `[first, second]`. A child \
             list repeated for every item of a data list is `_template($/items, row)`, where \
             `row` is a component whose bindings are relative to the item.",
            "`$/user/name` binds an argument to the data model at that path; `$name` is \
             relative to the current template item, and `$` alone is the item itself.",
            "Values: strings `\"...\"` (escapes `\\n`, `\\t`, `\\\\`, `\\\"`), `\"\"\"...\"\"\"` \
             across lines, `r\"...\"` raw, without escapes (for patterns with backslashes); \
             numbers `42`, `-1.5`; `true`, `false`, `null`; lists `[a, b]`; maps \
             `{title: \"Overview\", \"item-id\": 7}`, quoting keys that are not plain names.",
            "An action is `Event(\"name\")` or `Event(\"name\", {key: value})`, which is sent to \
             the agent, or a function call, which runs in the renderer.",
            "A function call is `function(arguments)`, its arguments following the function's \
             signature below; it can stand wherever a value is computed.",
            "An input's validation checks are its last argument: `[?check, ?other(argument, \
             \"message\")]`, each a function name after `?`. The input's own value is what is \
             checked, so give only the function's other arguments, then optionally the message \
             to show when the check fails.",
            "`name = {map}`, `name = Event(...)` and `name = ?check(...)` name a value to \
             reuse: the name stands for that value wherever it is used, and defines no \
             component.",
        ]
        .map(str::to_owned),
    );
    rules
}

fn surface_rule(taught: &Taught) -> String {
    let mut rule = "`surface(\"id\")` makes the statements after it address surface `id`; \
                    without it they address `default_surface`."
        .to_owned();
    if taught.create {
        rule.push_str(" A block that defines `root` creates its surface.");
    }
    if taught.components {
        rule.push_str(" Components defined without a `root` update a surface that already exists.");
    }
    if taught.several_catalogs {
        rule.push_str(
            " A second argument, `surface(\"id\", \"catalog id\")`, names the catalog the \
             surface is written against.",
        );
    }
    rule
}

/// The catalog ids, and how a block says which catalog a surface is written against.
fn several_catalogs(catalogs: &[Catalog]) -> String {
    let ids: Vec<String> = catalogs
        .iter()
        .map(|c| format!("`{}`", c.catalog_id().unwrap_or("(no id)")))
        .collect();
    let first = ids.first().map_or("", String::as_str);
    format!(
        "## Catalogs\n\nSeveral catalogs are active: {}. A surface is written against one of \
         them, with that catalog's components and functions only: {first} unless its surface \
         statement names another as its second argument, `surface(\"id\", \"catalog id\")`. A \
         function call standing alone uses the catalog of the surface statement before it.",
        ids.join(", ")
    )
}

/// A section heading (`## Components`), naming the catalog when several are active.
fn heading(title: &str, catalog_id: Option<&str>) -> String {
    match catalog_id {
        Some(id) => format!("## {title} of catalog `{id}`"),
        None => format!("## {title}"),
    }
}

fn components_section(catalog: &Catalog, catalog_id: Option<&str>) -> String {
    let entries: Vec<String> = signature::components(catalog)
        .iter()
        .map(|s| entry(s, catalog.component(&s.name).map(|c| &c.schema), None))
        .collect();
    let body = if entries.is_empty() {
        "None.".to_owned()
    } else {
        entries.join("\n")
    };
    format!("{}\n\n{body}", heading("Components", catalog_id))
}

fn functions_section(catalog: &Catalog, catalog_id: Option<&str>) -> Option<String> {
    let entries: Vec<String> = signature::functions(catalog)
        .iter()
        .map(|s| {
            let schema = catalog.function_schema(&s.name);
            let returns = schema
                .and_then(|f| f.get("returnType"))
                .and_then(Value::as_str);
            entry(s, schema, returns)
        })
        .collect();
    if entries.is_empty() {
        return None;
    }
    Some(format!(
        "{}\n\n{}",
        heading("Functions", catalog_id),
        entries.join("\n")
    ))
}

/// One signature as a list entry: `- Name(first, second?) -> type: description`, then a line
/// for each argument with allowed values or a description, and one naming the arguments that
/// take literals only.
fn entry(signature: &Signature, schema: Option<&Value>, returns: Option<&str>) -> String {
    let params: Vec<String> = signature
        .params
        .iter()
        .map(|p| {
            let mark = if p.required { "" } else { "?" };
            format!("{}{mark}", p.name)
        })
        .collect();
    let mut line = format!("- {}({})", signature.name, params.join(", "));
    if let Some(returns) = returns {
        line.push_str(&format!(" -> {returns}"));
    }
    if let Some(description) = schema.and_then(description) {
        line.push_str(&format!(": {description}"));
    }
    for param in &signature.params {
        if let Some(about) = about(param) {
            line.push_str(&format!("\n  - {}: {about}", param.name));
        }
    }
    let literal: Vec<&str> = signature
        .params
        .iter()
        .filter(|p| is_literal_only(p))
        .map(|p| p.name.as_str())
        .collect();
    if !literal.is_empty() {
        line.push_str(&format!("\n  - literal only: {}", literal.join(", ")));
    }
    line
}

/// Whether an argument takes a value written out and no binding: a value of a declared type
/// (or list of values) that the schema does not let be bound or computed.
fn is_literal_only(param: &Param) -> bool {
    let typed = ["type", "enum", "const"]
        .iter()
        .any(|key| param.schema.get(*key).is_some());
    param.kind == ParamKind::Value && !param.bindable && typed
}

/// What an argument's line says: its allowed values, its description.
fn about(param: &Param) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(values) = enum_of(&param.schema, 0) {
        let values: Vec<String> = values.iter().map(value_text).collect();
        parts.push(format!("one of {}", values.join(", ")));
    }
    if let Some(description) = description(&param.schema) {
        parts.push(description);
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// A schema's description on one line, from the schema or, for a component, its `allOf`
/// parts.
fn description(schema: &Value) -> Option<String> {
    let own = schema.get("description").and_then(Value::as_str);
    let text = own.or_else(|| {
        schema
            .get("allOf")?
            .as_array()?
            .iter()
            .find_map(|part| part.get("description").and_then(Value::as_str))
    })?;
    let words: Vec<&str> = text.split_whitespace().collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The values a schema allows, when it lists them (`enum`, or one found through `oneOf`,
/// `anyOf`, `allOf`).
fn enum_of(schema: &Value, depth: usize) -> Option<&Vec<Value>> {
    if depth > MAX_ENUM_DEPTH {
        return None;
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values);
    }
    ["oneOf", "anyOf", "allOf"].iter().find_map(|key| {
        schema
            .get(*key)?
            .as_array()?
            .iter()
            .find_map(|sub| enum_of(sub, depth + 1))
    })
}

/// An allowed value as Express writes it.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => literal::string(s),
        Value::Number(n) => literal::number(n),
        other => other.to_string(),
    }
}

fn examples_section(examples: &[Vec<Value>], catalogs: &[Catalog]) -> Result<String, ExpressError> {
    let blocks = examples
        .iter()
        .map(|turn| {
            Ok(format!(
                "{OPEN_TAG}\n{}\n{CLOSE_TAG}",
                decompile(turn, catalogs)?
            ))
        })
        .collect::<Result<Vec<_>, ExpressError>>()?;
    Ok(format!("## Examples\n\n{}", blocks.join("\n\n")))
}
