//! Writing A2UI messages back as Express: the inverse of compiling, for showing a model
//! example turns in the notation it is asked to write.
//!
//! The messages are first gathered into blocks: a `createSurface` takes the
//! `updateComponents` and root `updateDataModel` of the same surface that follow it (until
//! something else happens to that surface), so that a v0.9 surface, sent as three messages,
//! reads as one block like a v1.0 one. Then each block is written:
//!
//! * a surface as `surface("id")` (left out for the first block when it is the default surface
//!   `default_surface`), its data model as one assignment per leaf path
//!   (`$/user/name = "Ada"`), and each component as `id = Name(arguments)`;
//! * an update as `surface("id")` followed by its components (with `update=true` when one of
//!   them is `root`, which would otherwise create the surface) or its data assignments;
//! * `deleteSurface("id")`, and a renderer function call as the standalone call
//!   (`openUrl("https://example.com")`).
//!
//! Arguments follow each component's positional signature; one skipped optional argument is
//! written `_`, and after a longer gap the rest are keyword arguments. Component references
//! are variable names, bindings are paths (`$/user/name`), actions are `Event(name, {context})`
//! or the function call itself, checks are `?name(arguments, "message")`, templates
//! `_template($/items, row)`. Anything the notation has no form for is written as a map
//! literal, which compiles to the same object.
//!
//! Express writes each surface against one catalog: the first active catalog, unless its
//! `surface("id", "catalogId")` statement names another. A surface created with another
//! catalog gets that second argument; a component or call naming a catalog other than its
//! surface's has no spelling, and is an error.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::literal;
use super::signature::{self, ParamKind, Signature};
use super::{ExpressError, ExpressErrorKind};
use crate::official::catalog::Catalog;

/// The surface a block without a `surface(...)` statement is compiled against.
const DEFAULT_SURFACE: &str = "default_surface";

/// The message kinds that act on one surface.
const SURFACE_OPERATIONS: [&str; 4] = [
    "createSurface",
    "updateComponents",
    "updateDataModel",
    "deleteSurface",
];

/// Writes `messages` (v0.9 or v1.0) as Express statements, one per line, resolving every
/// component and function against `catalogs` (the catalogs the text will be compiled with).
///
/// The result is the content of one block, without the `<a2ui>` tags around it.
///
/// # Errors
///
/// A [`Validation`](ExpressErrorKind::Validation) error when no catalog is given, when a
/// message names a catalog, component or function the catalogs do not declare, or when a
/// message has no Express statement (a v0.8 message, `agentFunctionResponse`, a data update
/// that removes a value).
///
/// ```
/// use a2ui_stream::express::decompile;
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use serde_json::json;
///
/// let catalog = Catalog::builtin(Version::V10);
/// let surface = json!({"version": "v1.0", "createSurface": {
///     "surfaceId": "greeting",
///     "catalogId": catalog.catalog_id(),
///     "components": [
///         {"id": "root", "component": "Card", "child": "body"},
///         {"id": "body", "component": "Text", "text": {"@path": "/name"}}],
///     "dataModel": {"name": "Ada"}}});
/// let text = decompile(&[surface], &[catalog])?;
/// assert_eq!(text, "surface(\"greeting\")\n$/name = \"Ada\"\nroot = Card(body)\nbody = Text($/name)");
/// # Ok::<(), a2ui_stream::express::ExpressError>(())
/// ```
pub fn decompile(messages: &[Value], catalogs: &[Catalog]) -> Result<String, ExpressError> {
    let writer = Writer::new(catalogs)?;
    let mut state = State {
        first: true,
        ..State::default()
    };
    let mut blocks = Vec::new();
    for block in gather(messages) {
        let lines = writer.block(&block, &mut state)?;
        state.first = false;
        if !lines.is_empty() {
            blocks.push(lines.join("\n"));
        }
    }
    Ok(blocks.join("\n"))
}

/// A Validation error saying `message`.
fn invalid(message: impl Into<String>) -> ExpressError {
    ExpressError::of(ExpressErrorKind::Validation, None, message)
}

/// One message to write, after gathering, with the catalog its surface was created with in
/// the same messages (`None` when they do not create it, or create it naming none).
struct Block {
    message: Value,
    surface_catalog: Option<String>,
}

/// The surface operation of a message and its body, if it is one.
fn surface_operation(message: &Value) -> Option<(&'static str, &Map<String, Value>)> {
    SURFACE_OPERATIONS
        .iter()
        .find_map(|op| Some((*op, message.get(*op)?.as_object()?)))
}

fn surface_id(body: &Map<String, Value>) -> Option<&str> {
    body.get("surfaceId").and_then(Value::as_str)
}

/// Whether an `updateDataModel` replaces the whole data model (its `path` is absent, `""` or
/// `"/"`) with an object.
fn is_root_update(body: &Map<String, Value>) -> bool {
    let root = match body.get("path") {
        None => true,
        Some(Value::String(path)) => path.is_empty() || path == "/",
        Some(_) => false,
    };
    root && body.get("value").is_some_and(Value::is_object)
}

/// The messages as blocks: each `updateComponents` or root `updateDataModel` that follows the
/// `createSurface` of its surface, with nothing else happening to that surface in between and
/// no other kind of message between them, is folded into it (as its `components` if it has
/// none yet, as its `dataModel`); every other message stays as it is, in order.
fn gather(messages: &[Value]) -> Vec<Block> {
    let mut out: Vec<Value> = Vec::with_capacity(messages.len());
    let mut open: BTreeMap<String, usize> = BTreeMap::new();
    for message in messages {
        let Some((op, body)) = surface_operation(message) else {
            open.clear();
            out.push(message.clone());
            continue;
        };
        let id = surface_id(body).map(str::to_owned);
        if op == "createSurface" {
            if let Some(id) = id {
                open.insert(id, out.len());
            }
            out.push(message.clone());
            continue;
        }
        if let Some(id) = &id {
            if let Some(create) = open.get(id).and_then(|at| out.get_mut(*at)) {
                if fold(create, op, body) {
                    continue;
                }
            }
            open.remove(id);
        }
        out.push(message.clone());
    }
    with_surface_catalogs(out)
}

/// Folds an update into the body of the `createSurface` message `create`; whether it did.
fn fold(create: &mut Value, op: &str, body: &Map<String, Value>) -> bool {
    let Some(Value::Object(create)) = create.get_mut("createSurface") else {
        return false;
    };
    match op {
        "updateComponents" if !create.contains_key("components") => {
            let components = body.get("components").cloned().unwrap_or_default();
            create.insert("components".to_owned(), components);
            true
        }
        "updateDataModel" if is_root_update(body) => {
            let value = body.get("value").cloned().unwrap_or_default();
            create.insert("dataModel".to_owned(), value);
            true
        }
        _ => false,
    }
}

/// Each message with the catalog of the `createSurface` of its surface that came before it.
fn with_surface_catalogs(messages: Vec<Value>) -> Vec<Block> {
    let mut catalogs: BTreeMap<String, String> = BTreeMap::new();
    messages
        .into_iter()
        .map(|message| {
            let mut surface_catalog = None;
            if let Some((op, body)) = surface_operation(&message) {
                if let Some(id) = surface_id(body) {
                    if op == "createSurface" {
                        match body.get("catalogId").and_then(Value::as_str) {
                            Some(catalog) => catalogs.insert(id.to_owned(), catalog.to_owned()),
                            None => catalogs.remove(id),
                        };
                    }
                    surface_catalog = catalogs.get(id).cloned();
                }
            }
            Block {
                message,
                surface_catalog,
            }
        })
        .collect()
}

/// The variable name each component of a block is written under: its id when that is a name,
/// else a name made from it (`content-grid` as `content_grid`) that nothing else in the block
/// uses, with the id given as `id="content-grid"`.
struct Names(BTreeMap<String, String>);

impl Names {
    fn of<'a>(ids: impl IntoIterator<Item = &'a str> + Clone) -> Names {
        let mut names: BTreeMap<String, String> = ids
            .clone()
            .into_iter()
            .filter(|id| literal::is_name(id))
            .map(|id| (id.to_owned(), id.to_owned()))
            .collect();
        for id in ids {
            if names.contains_key(id) {
                continue;
            }
            let base = made_name(id);
            let mut name = base.clone();
            let mut n = 2;
            while names.values().any(|taken| *taken == name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            names.insert(id.to_owned(), name);
        }
        Names(names)
    }

    /// The variable of component `id` of this block.
    fn variable(&self, id: &str) -> Option<&str> {
        self.0.get(id).map(String::as_str)
    }

    /// A reference to component `id`: its variable when the block defines it, else the bare
    /// id when that is a name no variable of the block takes (a component of an earlier turn),
    /// else the id quoted.
    fn reference(&self, id: &str) -> String {
        if let Some(name) = self.variable(id) {
            return name.to_owned();
        }
        let free = !self.0.values().any(|name| name == id);
        if literal::is_name(id) && free {
            id.to_owned()
        } else {
            literal::string(id)
        }
    }
}

/// A name made from an id that is not one: every other character as `_`, with a leading `_`
/// when that does not start a name.
fn made_name(id: &str) -> String {
    let replaced: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if literal::is_name(&replaced) {
        replaced
    } else {
        format!("_{replaced}")
    }
}

/// What a component or call is, for finding its catalog and saying what is wrong.
#[derive(Clone, Copy)]
enum Member {
    Component,
    Function,
}

impl Member {
    fn label(self) -> &'static str {
        match self {
            Member::Component => "component",
            Member::Function => "function",
        }
    }

    fn defined_in(self, catalog: &Catalog, name: &str) -> bool {
        match self {
            Member::Component => catalog.component(name).is_some(),
            Member::Function => catalog.function_schema(name).is_some(),
        }
    }
}

/// Where a value is written: the block's variable names and the catalog its surface is
/// written against.
struct Scope<'n, 'c> {
    names: &'n Names,
    catalog: &'c Catalog,
}

/// What the blocks written so far mean for the next one.
#[derive(Default)]
struct State {
    /// No block has been written yet.
    first: bool,
    /// The standalone calls written so far.
    calls: usize,
    /// The catalog the compiler is at (by position): the one the last `surface(...)` statement
    /// named, the first catalog when it named none. A standalone call is compiled against it.
    current: usize,
}

/// Writes blocks against the active catalogs. Express writes a surface against one catalog:
/// the first, unless its `surface("id", "catalogId")` statement names another.
struct Writer<'c> {
    catalogs: &'c [Catalog],
}

impl<'c> Writer<'c> {
    fn new(catalogs: &'c [Catalog]) -> Result<Self, ExpressError> {
        if catalogs.is_empty() {
            return Err(invalid(
                "no active catalog: Express needs a catalog to write components against",
            ));
        }
        Ok(Writer { catalogs })
    }

    /// The position of the active catalog `id`.
    fn index_of(&self, id: &str) -> Result<usize, ExpressError> {
        self.catalogs
            .iter()
            .position(|c| c.catalog_id() == Some(id))
            .ok_or_else(|| invalid(format!("catalog {id:?} is not among the active catalogs")))
    }

    fn catalog_at(&self, index: usize) -> Result<&'c Catalog, ExpressError> {
        self.catalogs
            .get(index)
            .ok_or_else(|| invalid("no active catalog: Express needs one to write against"))
    }

    /// The catalog component or function `name` is written against in `scope`: the scope's,
    /// which has to define it, and which the member's own `catalogId` (if any) has to name.
    fn member_catalog(
        &self,
        member: Member,
        name: &str,
        own: Option<&str>,
        scope: &Scope<'_, 'c>,
    ) -> Result<&'c Catalog, ExpressError> {
        let catalog = scope.catalog;
        let id = catalog.catalog_id().unwrap_or("(no id)");
        if let Some(own) = own.filter(|own| *own != id) {
            return Err(invalid(format!(
                "the {} {name:?} names catalog {own:?}, but Express writes its surface against \
                 catalog {id:?}",
                member.label()
            )));
        }
        if !member.defined_in(catalog, name) {
            return Err(invalid(format!(
                "the {} {name:?} is not defined in catalog {id:?}",
                member.label()
            )));
        }
        Ok(catalog)
    }

    fn block(&self, block: &Block, state: &mut State) -> Result<Vec<String>, ExpressError> {
        let known = block.surface_catalog.as_deref();
        let message = &block.message;
        if let Some((op, body)) = surface_operation(message) {
            return match op {
                "createSurface" => self.create(body, state),
                "updateComponents" => self.update_components(body, known, state),
                "updateDataModel" => {
                    let mut lines = vec![self.header(body, 0, "", state)];
                    lines.extend(update_data(body)?);
                    Ok(lines)
                }
                _ => Ok(vec![delete(body)]),
            };
        }
        if let Some(call) = message.get("callRendererFunction") {
            state.calls += 1;
            return Ok(vec![self.renderer_call(call, state)?]);
        }
        let kind = message
            .as_object()
            .and_then(|m| m.keys().find(|k| *k != "version"))
            .map_or("(empty)", String::as_str);
        Err(invalid(format!(
            "Express has no statement for a {kind} message"
        )))
    }

    /// `surface("id"[, "catalogId"]{extra})`, naming the catalog at `index` unless it is the
    /// first; the compiler is then at that catalog.
    fn header(
        &self,
        body: &Map<String, Value>,
        index: usize,
        extra: &str,
        state: &mut State,
    ) -> String {
        let id = surface_id(body).unwrap_or(DEFAULT_SURFACE);
        let mut args = literal::string(id);
        if let Some(catalog) = self.catalogs.get(index).filter(|_| index > 0) {
            args.push_str(&format!(
                ", {}",
                literal::string(catalog.catalog_id().unwrap_or(""))
            ));
        }
        state.current = index;
        format!("surface({args}{extra})")
    }

    fn create(
        &self,
        body: &Map<String, Value>,
        state: &mut State,
    ) -> Result<Vec<String>, ExpressError> {
        let index = match body.get("catalogId").and_then(Value::as_str) {
            Some(id) => self.index_of(id)?,
            None => 0,
        };
        let send = body.get("sendDataModel").and_then(Value::as_bool);
        let extra = send.map_or_else(String::new, |send| format!(", sendDataModel={send}"));
        let mut lines = Vec::new();
        if let Some(model) = body.get("dataModel") {
            lines.extend(data_model(model));
        }
        let components = components_of(body)?;
        lines.extend(self.components(&components, self.catalog_at(index)?)?);
        let id = surface_id(body).unwrap_or(DEFAULT_SURFACE);
        let implicit = state.first
            && id == DEFAULT_SURFACE
            && index == 0
            && extra.is_empty()
            && !lines.is_empty();
        if !implicit {
            lines.insert(0, self.header(body, index, &extra, state));
        }
        Ok(lines)
    }

    /// A surface's components sent after it was created: `surface("id")` and the
    /// components, with `update=true` when one is `root` (which would otherwise create the
    /// surface). The catalog is the one the surface was created with, when these messages
    /// create it, else the first that defines every component.
    fn update_components(
        &self,
        body: &Map<String, Value>,
        known: Option<&str>,
        state: &mut State,
    ) -> Result<Vec<String>, ExpressError> {
        let components = components_of(body)?;
        let index = match known {
            Some(id) => self.index_of(id)?,
            None => self.defining_all(&components),
        };
        let has_root = components
            .iter()
            .any(|c| c.get("id").and_then(Value::as_str) == Some("root"));
        let update = if has_root { ", update=true" } else { "" };
        let mut lines = vec![self.header(body, index, update, state)];
        lines.extend(self.components(&components, self.catalog_at(index)?)?);
        Ok(lines)
    }

    /// The position of the first catalog that defines the type of every one of `components`
    /// (the first catalog when none does).
    fn defining_all(&self, components: &[&Map<String, Value>]) -> usize {
        let types: Vec<&str> = components
            .iter()
            .filter_map(|c| c.get("component").and_then(Value::as_str))
            .collect();
        self.catalogs
            .iter()
            .position(|catalog| {
                types
                    .iter()
                    .all(|name| Member::Component.defined_in(catalog, name))
            })
            .unwrap_or(0)
    }

    fn components(
        &self,
        components: &[&Map<String, Value>],
        catalog: &'c Catalog,
    ) -> Result<Vec<String>, ExpressError> {
        let ids = components
            .iter()
            .filter_map(|c| c.get("id").and_then(Value::as_str));
        let names = Names::of(ids);
        let scope = Scope {
            names: &names,
            catalog,
        };
        components
            .iter()
            .map(|component| self.component(component, &scope))
            .collect()
    }

    /// `variable = Name(arguments)` for one component.
    fn component(
        &self,
        component: &Map<String, Value>,
        scope: &Scope<'_, 'c>,
    ) -> Result<String, ExpressError> {
        let id = component
            .get("id")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("a component has no string id"))?;
        let name = component
            .get("component")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(format!("component {id:?} names no component type")))?;
        let own = component.get("catalogId").and_then(Value::as_str);
        let catalog = self.member_catalog(Member::Component, name, own, scope)?;
        let signature = signature::component(catalog, name)
            .ok_or_else(|| invalid(format!("the component {name:?} has no signature")))?;
        let properties: Map<String, Value> = component
            .iter()
            .filter(|(key, _)| !["id", "component", "catalogId"].contains(&key.as_str()))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        let mut args = self.arguments(&signature, &properties, |param, value| {
            self.property(param, value, component, scope)
        })?;
        let variable = scope.names.variable(id).unwrap_or(id);
        if variable != id {
            args.push(format!("id={}", literal::string(id)));
        }
        Ok(format!("{variable} = {name}({})", args.join(", ")))
    }

    /// The arguments of a call with `signature`: positional while they follow each other, one
    /// skipped optional argument as `_`, keyword arguments after a longer gap, and members
    /// the signature does not list as keyword arguments after the rest.
    fn arguments(
        &self,
        signature: &Signature,
        values: &Map<String, Value>,
        write: impl Fn(Option<ParamKind>, &Value) -> Result<String, ExpressError>,
    ) -> Result<Vec<String>, ExpressError> {
        let mut args = Vec::new();
        let mut skipped = 0usize;
        let mut keywords = false;
        for param in &signature.params {
            let Some(value) = values.get(&param.name) else {
                skipped += 1;
                continue;
            };
            let text = write(Some(param.kind), value)?;
            if !keywords && skipped == 1 {
                args.push("_".to_owned());
            } else if skipped > 1 {
                keywords = true;
            }
            skipped = 0;
            if keywords {
                args.push(keyword(&signature.name, &param.name, &text)?);
            } else {
                args.push(text);
            }
        }
        for (key, value) in values {
            if signature.param(key).is_none() {
                let text = write(None, value)?;
                args.push(keyword(&signature.name, key, &text)?);
            }
        }
        Ok(args)
    }

    /// A component property, written as its parameter kind reads it.
    fn property(
        &self,
        kind: Option<ParamKind>,
        value: &Value,
        component: &Map<String, Value>,
        scope: &Scope<'_, 'c>,
    ) -> Result<String, ExpressError> {
        match (kind, value) {
            (Some(ParamKind::Child), Value::String(id)) => Ok(scope.names.reference(id)),
            (Some(ParamKind::Children), Value::Array(ids)) if ids.iter().all(Value::is_string) => {
                let refs: Vec<String> = ids
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|id| scope.names.reference(id))
                    .collect();
                Ok(format!("[{}]", refs.join(", ")))
            }
            (Some(ParamKind::Checks), Value::Array(rules)) => {
                let rules = rules
                    .iter()
                    .map(|rule| self.check(rule, component, scope))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(format!("[{}]", rules.join(", ")))
            }
            _ => self.value(value, scope),
        }
    }

    /// Any value: a binding, template, action or call in its own form, else a literal.
    fn value(&self, value: &Value, scope: &Scope<'_, 'c>) -> Result<String, ExpressError> {
        Ok(match value {
            Value::Null => "null".to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => literal::number(n),
            Value::String(s) => literal::string(s),
            Value::Array(items) => {
                let items = items
                    .iter()
                    .map(|item| self.value(item, scope))
                    .collect::<Result<Vec<_>, _>>()?;
                format!("[{}]", items.join(", "))
            }
            Value::Object(map) => match self.special(map, scope)? {
                Some(text) => text,
                None => self.map(map, scope)?,
            },
        })
    }

    /// An object that has a form of its own (binding, template, event, call), written so.
    fn special(
        &self,
        map: &Map<String, Value>,
        scope: &Scope<'_, 'c>,
    ) -> Result<Option<String>, ExpressError> {
        if let Some(path) = binding(map) {
            return Ok(literal::path(path));
        }
        if let Some((path, id)) = template(map) {
            return Ok(literal::path(path)
                .map(|path| format!("_template({path}, {})", scope.names.reference(id))));
        }
        if let Some(event) = map.get("event").filter(|_| map.len() == 1) {
            return self.event(event, scope);
        }
        if let Some(call) = map.get("functionCall").filter(|_| map.len() == 1) {
            return self.call(call, scope);
        }
        if call_name(map).is_some() {
            return self.call(&Value::Object(map.clone()), scope);
        }
        Ok(None)
    }

    /// `{key: value, ...}`, keys quoted when they are not names.
    fn map(&self, map: &Map<String, Value>, scope: &Scope<'_, 'c>) -> Result<String, ExpressError> {
        let entries = map
            .iter()
            .map(|(key, value)| {
                Ok(format!(
                    "{}: {}",
                    literal::key(key),
                    self.value(value, scope)?
                ))
            })
            .collect::<Result<Vec<_>, ExpressError>>()?;
        Ok(format!("{{{}}}", entries.join(", ")))
    }

    /// `Event("name")` or `Event("name", {context})`, when the event holds only those.
    fn event(&self, event: &Value, scope: &Scope<'_, 'c>) -> Result<Option<String>, ExpressError> {
        let Some(event) = event.as_object() else {
            return Ok(None);
        };
        let Some(name) = event.get("name").and_then(Value::as_str) else {
            return Ok(None);
        };
        if event.keys().any(|k| k != "name" && k != "context") {
            return Ok(None);
        }
        let name = literal::string(name);
        Ok(Some(match event.get("context") {
            None => format!("Event({name})"),
            Some(Value::Object(context)) => format!("Event({name}, {})", self.map(context, scope)?),
            Some(_) => return Ok(None),
        }))
    }

    /// `name(arguments)` for a function call object (`call` / `@call`, `args`, maybe
    /// `catalogId` and `returnType`), or `None` when it holds anything else.
    fn call(&self, call: &Value, scope: &Scope<'_, 'c>) -> Result<Option<String>, ExpressError> {
        let Some(call) = call.as_object() else {
            return Ok(None);
        };
        let Some(name) = call_name(call) else {
            return Ok(None);
        };
        let known = ["call", "@call", "args", "catalogId", "returnType"];
        let args = match call.get("args") {
            None => Map::new(),
            Some(Value::Object(args)) => args.clone(),
            Some(_) => return Ok(None),
        };
        if call.keys().any(|k| !known.contains(&k.as_str())) || !literal::is_identifier(name) {
            return Ok(None);
        }
        let own = call.get("catalogId").and_then(Value::as_str);
        let catalog = self.member_catalog(Member::Function, name, own, scope)?;
        let signature = signature::function(catalog, name)
            .ok_or_else(|| invalid(format!("the function {name:?} has no signature")))?;
        let args = self.arguments(&signature, &args, |_, value| self.value(value, scope))?;
        Ok(Some(format!("{name}({})", args.join(", "))))
    }

    /// A check rule: `?name(arguments, "message")`, the component's own bound `value` left
    /// out (the compiler passes it), or a map literal when the rule has no such form.
    fn check(
        &self,
        rule: &Value,
        component: &Map<String, Value>,
        scope: &Scope<'_, 'c>,
    ) -> Result<String, ExpressError> {
        match self.check_form(rule, component, scope)? {
            Some(text) => Ok(text),
            None => self.value(rule, scope),
        }
    }

    fn check_form(
        &self,
        rule: &Value,
        component: &Map<String, Value>,
        scope: &Scope<'_, 'c>,
    ) -> Result<Option<String>, ExpressError> {
        let Some(rule) = rule.as_object() else {
            return Ok(None);
        };
        if rule.keys().any(|k| k != "condition" && k != "message") {
            return Ok(None);
        }
        let message = match rule.get("message") {
            None => None,
            Some(Value::String(message)) => Some(message),
            Some(_) => return Ok(None),
        };
        let Some(condition) = rule.get("condition").and_then(Value::as_object) else {
            return Ok(None);
        };
        let Some(name) = call_name(condition) else {
            return Ok(None);
        };
        let plain = condition
            .keys()
            .all(|k| ["call", "@call", "args"].contains(&k.as_str()));
        if !plain || !literal::is_identifier(name) {
            return Ok(None);
        }
        let catalog = self.member_catalog(Member::Function, name, None, scope)?;
        let Some(signature) = signature::function(catalog, name) else {
            return Ok(None);
        };
        let empty = Map::new();
        let args = match condition.get("args") {
            None => &empty,
            Some(Value::Object(args)) => args,
            Some(_) => return Ok(None),
        };
        let own_value = component.get("value");
        let mut params = signature.params.iter();
        let first_is_own = params.next().is_some_and(|p| p.name == "value")
            && own_value.is_some()
            && args.get("value") == own_value;
        if !first_is_own || args.keys().any(|k| signature.param(k).is_none()) {
            return Ok(None);
        }
        let mut written = Vec::new();
        for param in params {
            match args.get(&param.name) {
                Some(value) => written.push(self.value(value, scope)?),
                None => written.push("_".to_owned()),
            }
        }
        match message {
            Some(message) => written.push(literal::string(message)),
            None => {
                while written.last().is_some_and(|a| a == "_") {
                    written.pop();
                }
            }
        }
        Ok(Some(if written.is_empty() {
            format!("?{name}")
        } else {
            format!("?{name}({})", written.join(", "))
        }))
    }

    /// A standalone call: `name(arguments)`, with `functionCallId=` unless the id is
    /// `call_<n>` for the `n`th call, which is what the compiler gives it. The compiler writes
    /// it against the catalog it is at, which has to be the call's.
    fn renderer_call(&self, message: &Value, state: &State) -> Result<String, ExpressError> {
        let n = state.calls;
        let call = message
            .get("callFunction")
            .ok_or_else(|| invalid("a callRendererFunction message has no callFunction"))?;
        let names = Names(BTreeMap::new());
        let scope = Scope {
            names: &names,
            catalog: self.catalog_at(state.current)?,
        };
        let text = self
            .call(call, &scope)?
            .ok_or_else(|| invalid("Express cannot write this renderer function call"))?;
        let id = message.get("functionCallId").and_then(Value::as_str);
        Ok(match id.filter(|id| *id != format!("call_{n}")) {
            None => text,
            Some(id) => {
                let open = text.strip_suffix(')').unwrap_or(&text);
                let comma = if open.ends_with('(') { "" } else { ", " };
                format!("{open}{comma}functionCallId={})", literal::string(id))
            }
        })
    }
}

/// `name=value`, when `name` can be written as an argument name.
fn keyword(owner: &str, name: &str, value: &str) -> Result<String, ExpressError> {
    if literal::is_name(name) {
        Ok(format!("{name}={value}"))
    } else {
        Err(invalid(format!(
            "{owner:?} is given {name:?}, which Express cannot write as an argument name"
        )))
    }
}

/// The components of a message body, each an object.
fn components_of(body: &Map<String, Value>) -> Result<Vec<&Map<String, Value>>, ExpressError> {
    match body.get("components") {
        None => Ok(Vec::new()),
        Some(Value::Array(list)) => list
            .iter()
            .map(|c| {
                c.as_object()
                    .ok_or_else(|| invalid("a component is not an object"))
            })
            .collect(),
        Some(_) => Err(invalid("components is not a list")),
    }
}

/// The function a call object names (`@call` in v1.0, `call` in v0.9).
fn call_name(map: &Map<String, Value>) -> Option<&str> {
    map.get("@call")
        .or_else(|| map.get("call"))
        .and_then(Value::as_str)
}

/// The path of a data binding (`{"@path": ..}` in v1.0, `{"path": ..}` in v0.9).
fn binding(map: &Map<String, Value>) -> Option<&str> {
    if map.len() != 1 {
        return None;
    }
    map.get("@path")
        .or_else(|| map.get("path"))
        .and_then(Value::as_str)
}

/// The path and component of a child list template (`{"componentId": .., "path": ..}`).
fn template(map: &Map<String, Value>) -> Option<(&str, &str)> {
    if map.len() != 2 {
        return None;
    }
    let path = map
        .get("path")
        .or_else(|| map.get("@path"))
        .and_then(Value::as_str)?;
    let id = map.get("componentId").and_then(Value::as_str)?;
    Some((path, id))
}

fn delete(body: &Map<String, Value>) -> String {
    let id = surface_id(body).unwrap_or(DEFAULT_SURFACE);
    format!("deleteSurface({})", literal::string(id))
}

/// The assignments of an `updateDataModel` that was not folded into a surface.
fn update_data(body: &Map<String, Value>) -> Result<Vec<String>, ExpressError> {
    let mut lines = Vec::new();
    let value = body.get("value").ok_or_else(|| {
        invalid("Express cannot remove a data model value (an update without a value)")
    })?;
    let pointer = match body.get("path") {
        None => "/",
        Some(Value::String(path)) if path.is_empty() => "/",
        Some(Value::String(path)) => path,
        Some(other) => return Err(invalid(format!("data path {other} is not a string"))),
    };
    if pointer == "/" {
        lines.extend(data_model(value));
    } else {
        let path = literal::path(pointer)
            .filter(|p| p.starts_with("$/"))
            .ok_or_else(|| invalid(format!("Express cannot write the data path {pointer:?}")))?;
        lines.push(format!("{path} = {}", data_literal(value)));
    }
    Ok(lines)
}

/// A data model as assignments, one per leaf path (`$/user/name = "Ada"`), in path order. A
/// map whose keys cannot all be path segments is assigned whole, as a map literal, at its own
/// path (`$/` for the root).
fn data_model(model: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    leaves(model, "", &mut lines);
    lines
}

fn leaves(value: &Value, pointer: &str, lines: &mut Vec<String>) {
    match value {
        Value::Object(map)
            if !map.is_empty() && map.keys().all(|k| literal::is_path_segment(k)) =>
        {
            for (key, value) in map {
                leaves(value, &format!("{pointer}/{key}"), lines);
            }
        }
        Value::Object(map) if map.is_empty() && pointer.is_empty() => {}
        _ => {
            let path = if pointer.is_empty() { "/" } else { pointer };
            lines.push(format!("${path} = {}", data_literal(value)));
        }
    }
}

/// A data model value as a literal: data holds no bindings or calls, so objects are maps.
fn data_literal(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => literal::number(n),
        Value::String(s) => literal::string(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(data_literal).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", literal::key(k), data_literal(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::official::catalog::Version;
    use serde_json::json;

    fn basic(messages: &[Value]) -> Result<String, ExpressError> {
        decompile(messages, &[Catalog::builtin(Version::V10)])
    }

    #[test]
    fn a_v0_9_surface_in_three_messages_is_one_block() {
        let catalog = Catalog::builtin(Version::V09);
        let id = catalog.catalog_id().unwrap_or_default().to_owned();
        let messages = [
            json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": id}}),
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
                {"id": "root", "component": "Text", "text": {"path": "/title"}}]}}),
            json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/",
                "value": {"title": "Hi"}}}),
        ];
        let text = decompile(&messages, &[catalog]).unwrap_or_default();
        assert_eq!(
            text,
            "surface(\"s\")\n$/title = \"Hi\"\nroot = Text($/title)"
        );
    }

    #[test]
    fn an_id_that_is_not_a_name_gets_a_variable_and_keeps_its_id() {
        let text = basic(&[
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
            "components": [
                {"id": "root", "component": "Card", "child": "main-text"},
                {"id": "main-text", "component": "Text", "text": "Hi", "variant": "caption"}]}}),
        ]);
        assert_eq!(
            text.unwrap_or_default(),
            "surface(\"s\", update=true)\nroot = Card(main_text)\n\
             main_text = Text(\"Hi\", \"caption\", id=\"main-text\")"
        );
    }

    #[test]
    fn data_keys_that_are_not_names_stay_in_a_map() {
        let text = basic(&[
            json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s",
            "value": {"user": {"first-name": "Ada"}, "n": 1.0, "list": [1, {"a b": null}]}}}),
        ]);
        assert_eq!(
            text.unwrap_or_default(),
            "surface(\"s\")\n$/list = [1, {\"a b\": null}]\n$/n = 1.0\n\
             $/user = {\"first-name\": \"Ada\"}"
        );
    }

    #[test]
    fn checks_leave_the_own_value_implicit() {
        let value = json!({"@path": "/zip"});
        let text = basic(&[
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "zip", "component": "TextField", "label": "Zip",
                "value": value, "checks": [
                    {"condition": {"@call": "required", "args": {"value": value}}},
                    {"condition": {"@call": "regex",
                        "args": {"value": value, "pattern": "^\\d{5}$"}}, "message": "Five"},
                    {"condition": {"@call": "required", "args": {"value": {"@path": "/x"}}}}]}]}}),
        ]);
        assert_eq!(
            text.unwrap_or_default(),
            "surface(\"s\")\nzip = TextField(\"Zip\", $/zip, checks=[?required, \
             ?regex(r\"^\\d{5}$\", \"Five\"), {condition: required($/x)}])"
        );
    }

    #[test]
    fn renderer_calls_keep_an_id_the_compiler_would_not_give() {
        let call = |id: &str| {
            json!({"version": "v1.0", "callRendererFunction": {"functionCallId": id,
                "callFunction": {"call": "openUrl", "args": {"url": "https://a2ui.org"}}}})
        };
        let text = basic(&[call("call_1"), call("other")]);
        assert_eq!(
            text.unwrap_or_default(),
            "openUrl(\"https://a2ui.org\")\nopenUrl(\"https://a2ui.org\", functionCallId=\"other\")"
        );
    }

    #[test]
    fn what_express_cannot_say_is_an_error() {
        let kind = |r: Result<String, ExpressError>| r.err().map(|e| e.kind());
        let unknown = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "root", "component": "Marquee"}]}});
        assert_eq!(kind(basic(&[unknown])), Some(ExpressErrorKind::Validation));
        let answer = json!({"version": "v1.0", "agentFunctionResponse": {}});
        assert_eq!(kind(basic(&[answer])), Some(ExpressErrorKind::Validation));
        let removal =
            json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/a"}});
        assert_eq!(kind(basic(&[removal])), Some(ExpressErrorKind::Validation));
        assert_eq!(
            kind(decompile(&[], &[])),
            Some(ExpressErrorKind::Validation)
        );
    }
}
