//! Compiling Express statements into A2UI messages (v0.9 and v1.0).
//!
//! Compilation has two layers. [`Compiler::statement`] compiles one statement the moment it
//! is read, into [`Output`]s: the component it declares and the inline components hoisted out
//! of it, a data model value, a surface opened, a whole message (`deleteSurface`,
//! `callRendererFunction`), or nothing (a definition). It needs only the statements before it:
//! a name it does not know yet is taken for the id of a component written later. [`assemble`]
//! then puts a whole block's outputs into the messages the official compiler returns: per
//! surface a `createSurface` with its components and data model (v1.0), or `createSurface`,
//! `updateComponents` and `updateDataModel` (v0.9).
//!
//! The rules are those of the A2UI Express conformance suite (`agent/express/compiler.yaml`):
//! * a variable names the component it holds; a component written inline is hoisted out after
//!   its parent with the id `<parent>_<property>` (`<parent>_<property>_<index>` in a list);
//! * positional arguments follow the component's [signature](super::signature); `_` or an
//!   omitted argument leaves the property out; a check, or a list of checks, goes to `checks`
//!   wherever it is written;
//! * a variable holding a map, an `Event`, a check, a template or a function call is a
//!   definition, substituted wherever it is named;
//! * `Event(name, {context})` is `{"event": {"name", "context"}}`; a function call in an action
//!   slot is `{"functionCall": ...}`; `_template($/path, c)` is `{"componentId", "path"}`;
//! * `?check(args, "message")` calls the catalog function on the component's own bound
//!   `value` first, then the arguments written; a string past the function's parameters is the
//!   rule's message, and a bare check gets a message of its own;
//! * bindings are `{"path"}` and calls `{"call"}` in v0.9, `{"@path"}` and `{"@call"}` in v1.0;
//! * a block without `surface(...)` is for `default_surface`; a surface whose components
//!   include `root` is created; a block of data assignments only updates the data model;
//! * a call written as a statement is a `callRendererFunction` (v1.0) with the id `call_<n>`.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::parse::{Arg, Call, Expr, ExprKind, Name, Statement};
use super::signature::{self, ParamKind, Signature};
use super::{ExpressError, ExpressErrorKind};
use crate::official::catalog::{Catalog, Version};

/// The surface a block is for when it has no `surface(...)` statement.
pub(crate) const DEFAULT_SURFACE: &str = "default_surface";

/// How deeply definitions may be substituted into one another.
const MAX_SUBSTITUTION: usize = 32;

fn invalid(at: Option<u64>, message: impl Into<String>) -> ExpressError {
    ExpressError::of(ExpressErrorKind::Validation, at, message)
}

/// A surface the statements are for: opened by `surface(...)`, or implicitly by the first
/// assignment of a block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scope {
    /// The surface's id.
    pub(crate) surface_id: String,
    /// Which of the compiler's catalogs the statements are written against.
    pub(crate) catalog: usize,
    /// Whether a `surface(...)` statement opened it.
    pub(crate) declared: bool,
    /// `sendDataModel=` of the `surface(...)` statement.
    pub(crate) send_data_model: Option<bool>,
    /// `update=true` of the `surface(...)` statement: the surface exists, its components are
    /// an update.
    pub(crate) update: bool,
}

/// What one statement compiles to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Output {
    /// A scope was opened; the outputs after it that name its index are for it.
    Opened(usize),
    /// Components of a scope: the statement's own first, then those hoisted out of it.
    Components {
        /// The scope's index.
        scope: usize,
        /// The components, each a whole component object.
        components: Vec<Value>,
    },
    /// A value of a scope's data model.
    Data {
        /// The scope's index.
        scope: usize,
        /// The path assigned (`/user/name`; empty for the whole model).
        path: String,
        /// The value.
        value: Value,
    },
    /// A whole message (`deleteSurface`, `callRendererFunction`), checked against the catalog
    /// at this index.
    Message {
        /// The message.
        message: Value,
        /// Which of the compiler's catalogs it belongs to.
        catalog: usize,
    },
}

/// Compiles statements one at a time; see the [module documentation](self).
#[derive(Debug)]
pub(crate) struct Compiler<'c> {
    catalogs: &'c [Catalog],
    version: Version,
    default_surface: String,
    /// Every scope opened so far.
    scopes: Vec<Scope>,
    /// The scope the next statements are for.
    current: Option<usize>,
    /// The definitions of the current scope, by name.
    definitions: HashMap<String, Expr>,
    /// Components of the current scope whose id is not their variable (`id=`).
    renamed: HashMap<String, String>,
    /// How many calls were written as statements.
    calls: usize,
}

impl<'c> Compiler<'c> {
    /// A compiler for text written against `catalogs` (the first is the default), emitting
    /// `version` (else the first catalog's) for surface `default_surface` unless a statement
    /// names another.
    pub(crate) fn new(
        catalogs: &'c [Catalog],
        version: Option<Version>,
        default_surface: &str,
    ) -> Result<Self, ExpressError> {
        let first = catalogs
            .first()
            .ok_or_else(|| invalid(None, "Express needs a catalog to compile against"))?;
        let version = version.unwrap_or(first.version());
        if version == Version::V08 {
            return Err(invalid(
                None,
                "Express compiles to v0.9 and v1.0 messages, not v0.8",
            ));
        }
        Ok(Compiler {
            catalogs,
            version,
            default_surface: default_surface.to_owned(),
            scopes: Vec::new(),
            current: None,
            definitions: HashMap::new(),
            renamed: HashMap::new(),
            calls: 0,
        })
    }

    /// The version emitted.
    pub(crate) fn version(&self) -> Version {
        self.version
    }

    /// The `catalogId` of catalog `index`, if it has one.
    pub(crate) fn catalog_id(&self, index: usize) -> Option<&'c str> {
        self.catalogs.get(index).and_then(Catalog::catalog_id)
    }

    /// The scopes opened so far, by index.
    pub(crate) fn scopes(&self) -> &[Scope] {
        &self.scopes
    }

    /// The catalog the next statements are written against.
    fn current_catalog(&self) -> usize {
        self.current
            .and_then(|i| self.scopes.get(i))
            .map_or(0, |s| s.catalog)
    }

    /// Learns what `statement` defines before it is compiled: a definition, or the id a
    /// component takes, so that statements before it can use it. A whole block is compiled
    /// this way, as the official compiler resolves names over the whole surface; a stream
    /// knows only what came before.
    pub(crate) fn learn(&mut self, statement: &Statement) {
        match statement {
            Statement::Definition { name, value } => {
                self.definitions.insert(name.text.clone(), value.clone());
            }
            Statement::Component { id, call } => {
                if self.is_definition_call(call) {
                    self.define_call(id, call);
                } else if let Some(Expr {
                    kind: ExprKind::String(explicit),
                    ..
                }) = keyword(call, "id")
                {
                    self.renamed.insert(id.text.clone(), explicit.clone());
                }
            }
            _ => {}
        }
    }

    /// Whether `call`, assigned to a variable, is a function call rather than a component: the
    /// variable is then a definition.
    fn is_definition_call(&self, call: &Call) -> bool {
        self.catalogs.get(self.current_catalog()).is_some_and(|c| {
            c.component(&call.callee.text).is_none() && is_function(c, &call.callee.text)
        })
    }

    /// Makes `name` stand for the function call `call`.
    fn define_call(&mut self, name: &Name, call: &Call) {
        let value = Expr {
            at: call.at,
            kind: ExprKind::Call(call.clone()),
        };
        self.definitions.insert(name.text.clone(), value);
    }

    /// Compiles one statement.
    pub(crate) fn statement(&mut self, statement: &Statement) -> Result<Vec<Output>, ExpressError> {
        let (scopes, current) = (self.scopes.len(), self.current);
        let compiled = self.compile(statement);
        if compiled.is_err() && self.scopes.len() > scopes {
            // The scope this statement opened went with its `Opened` output, lost in the
            // error: the next statement opens it again, so what follows still shows.
            self.scopes.truncate(scopes);
            self.current = current;
        }
        compiled
    }

    /// See [`Compiler::statement`].
    fn compile(&mut self, statement: &Statement) -> Result<Vec<Output>, ExpressError> {
        match statement {
            Statement::Surface(call) => self.surface(call),
            Statement::DeleteSurface(call) => {
                let surface_id = string_arg(call, 0, "surfaceId")?.ok_or_else(|| {
                    invalid(
                        Some(call.at),
                        "deleteSurface needs the id of the surface to delete",
                    )
                })?;
                only_args(call, &["surfaceId"])?;
                let message = json!({
                    "version": self.version.message_tag(),
                    "deleteSurface": {"surfaceId": surface_id},
                });
                Ok(vec![Output::Message {
                    message,
                    catalog: self.current_catalog(),
                }])
            }
            Statement::Call(call) => self.standalone_call(call),
            // An expression alone means nothing, as for the official compiler.
            Statement::Expression(_) => Ok(Vec::new()),
            Statement::Definition { name, value } => {
                // A definition is checked where it is used; nothing is emitted for it.
                let out = self.open_implicit();
                self.definitions.insert(name.text.clone(), value.clone());
                Ok(out)
            }
            Statement::Data { path, value } => {
                let mut out = self.open_implicit();
                let scope = self.current.unwrap_or(0);
                let compiled = self.builder()?.value(value, None, 0)?;
                out.push(Output::Data {
                    scope,
                    path: path.text.clone(),
                    value: compiled,
                });
                Ok(out)
            }
            Statement::Component { id, call } => {
                let mut out = self.open_implicit();
                let scope = self.current.unwrap_or(0);
                if self.is_definition_call(call) {
                    self.define_call(id, call);
                    return Ok(out);
                }
                let mut builder = self.builder()?;
                let own_id = match keyword(call, "id") {
                    None => id.text.clone(),
                    Some(Expr {
                        kind: ExprKind::String(explicit),
                        ..
                    }) if !explicit.is_empty() => explicit.clone(),
                    Some(other) => {
                        return Err(invalid(
                            Some(other.at),
                            "id= names the component's id: a non-empty string",
                        ));
                    }
                };
                let component = builder.component(&own_id, call)?;
                let mut components = vec![component];
                components.append(&mut builder.hoisted);
                if own_id != id.text {
                    self.renamed.insert(id.text.clone(), own_id);
                }
                out.push(Output::Components { scope, components });
                Ok(out)
            }
        }
    }

    /// A builder of values for the current scope.
    fn builder(&self) -> Result<Builder<'_>, ExpressError> {
        let catalog = self
            .catalogs
            .get(self.current_catalog())
            .ok_or_else(|| invalid(None, "Express needs a catalog to compile against"))?;
        Ok(Builder {
            catalog,
            version: self.version,
            definitions: &self.definitions,
            renamed: &self.renamed,
            hoisted: Vec::new(),
            own_value: None,
        })
    }

    /// Opens the default scope when no scope is open.
    fn open_implicit(&mut self) -> Vec<Output> {
        if self.current.is_some() {
            return Vec::new();
        }
        self.scopes.push(Scope {
            surface_id: self.default_surface.clone(),
            catalog: 0,
            declared: false,
            send_data_model: None,
            update: false,
        });
        let index = self.scopes.len() - 1;
        self.current = Some(index);
        vec![Output::Opened(index)]
    }

    /// `surface("id"[, "catalogId"], sendDataModel=…, update=…)`.
    fn surface(&mut self, call: &Call) -> Result<Vec<Output>, ExpressError> {
        only_args(call, &["surfaceId", "catalogId", "sendDataModel", "update"])?;
        let surface_id = string_arg(call, 0, "surfaceId")?.unwrap_or(self.default_surface.clone());
        let catalog = match string_arg(call, 1, "catalogId")? {
            None => 0,
            Some(id) => self
                .catalogs
                .iter()
                .position(|c| c.catalog_id() == Some(id.as_str()))
                .ok_or_else(|| {
                    let known: Vec<_> = self
                        .catalogs
                        .iter()
                        .filter_map(Catalog::catalog_id)
                        .collect();
                    invalid(
                        call.arg(1, "catalogId").map(|e| e.at),
                        format!("surface names the catalog {id}, which is not one of {known:?}"),
                    )
                })?,
        };
        let send_data_model = bool_arg(call, "sendDataModel")?;
        let update = bool_arg(call, "update")?.unwrap_or(false);
        self.scopes.push(Scope {
            surface_id,
            catalog,
            declared: true,
            send_data_model,
            update,
        });
        let index = self.scopes.len() - 1;
        self.current = Some(index);
        self.definitions.clear();
        self.renamed.clear();
        Ok(vec![Output::Opened(index)])
    }

    /// A call written as a statement: `callRendererFunction`.
    fn standalone_call(&mut self, call: &Call) -> Result<Vec<Output>, ExpressError> {
        if self.version != Version::V10 {
            return Err(invalid(
                Some(call.at),
                format!(
                    "a call written as a statement ({}) asks the renderer to run it, which needs v1.0",
                    call.callee.text
                ),
            ));
        }
        let catalog_index = self.current_catalog();
        let builder = self.builder()?;
        if builder.is_component(&call.callee.text) {
            return Err(invalid(
                Some(call.at),
                format!(
                    "{} is a component: give it a name (name = {}(...))",
                    call.callee.text, call.callee.text
                ),
            ));
        }
        self.calls += 1;
        let mut function_call_id = format!("call_{}", self.calls);
        let mut plain = call.clone();
        if let Some(explicit) = keyword(call, "functionCallId") {
            match &explicit.kind {
                ExprKind::String(id) if !id.is_empty() => function_call_id = id.clone(),
                _ => {
                    return Err(invalid(
                        Some(explicit.at),
                        "functionCallId= names the call: a non-empty string",
                    ));
                }
            }
            plain
                .args
                .retain(|a| a.key.as_ref().is_none_or(|k| k.text != "functionCallId"));
        }
        let mut builder = self.builder()?;
        let compiled = builder.function(&plain, 0)?;
        let catalog_id = self
            .catalogs
            .get(catalog_index)
            .and_then(Catalog::catalog_id)
            .unwrap_or_default();
        let call_key = call_key(self.version);
        let message = json!({
            "version": self.version.message_tag(),
            "callRendererFunction": {
                "functionCallId": function_call_id,
                "callFunction": {
                    "catalogId": catalog_id,
                    call_key: compiled.get(call_key).cloned().unwrap_or(Value::Null),
                    "args": compiled.get("args").cloned().unwrap_or_else(|| json!({})),
                },
            },
        });
        Ok(vec![Output::Message {
            message,
            catalog: catalog_index,
        }])
    }
}

/// The key that binds a value to the data model.
fn path_key(version: Version) -> &'static str {
    if version == Version::V10 {
        "@path"
    } else {
        "path"
    }
}

/// The key that names a function called.
fn call_key(version: Version) -> &'static str {
    if version == Version::V10 {
        "@call"
    } else {
        "call"
    }
}

/// Whether `name` is a function of the catalog.
fn is_function(catalog: &Catalog, name: &str) -> bool {
    catalog
        .catalog_schema()
        .get("functions")
        .and_then(|f| f.get(name))
        .is_some()
}

/// The argument given by keyword `key`.
fn keyword<'a>(call: &'a Call, key: &str) -> Option<&'a Expr> {
    call.args
        .iter()
        .find(|a| a.key.as_ref().is_some_and(|k| k.text == key))
        .map(|a| &a.value)
}

/// A string argument of a statement call (`surface`, `deleteSurface`), by keyword or position.
fn string_arg(call: &Call, index: usize, key: &str) -> Result<Option<String>, ExpressError> {
    match call.arg(index, key) {
        None => Ok(None),
        Some(Expr {
            kind: ExprKind::String(s),
            ..
        }) => Ok(Some(s.clone())),
        Some(other) => Err(invalid(
            Some(other.at),
            format!("{}: {key} is a string", call.callee.text),
        )),
    }
}

/// A boolean keyword argument of a statement call.
fn bool_arg(call: &Call, key: &str) -> Result<Option<bool>, ExpressError> {
    match keyword(call, key) {
        None => Ok(None),
        Some(Expr {
            kind: ExprKind::Bool(b),
            ..
        }) => Ok(Some(*b)),
        Some(other) => Err(invalid(
            Some(other.at),
            format!("{}: {key} is true or false", call.callee.text),
        )),
    }
}

/// Checks that a statement call takes no more positional arguments than `keys` and no
/// keyword but those.
fn only_args(call: &Call, keys: &[&str]) -> Result<(), ExpressError> {
    let positional = call.positional().count();
    for arg in &call.args {
        if let Some(key) = &arg.key {
            if !keys.contains(&key.text.as_str()) {
                return Err(invalid(
                    Some(key.at),
                    format!(
                        "{} takes no argument {}; it takes {}",
                        call.callee.text,
                        key.text,
                        keys.join(", ")
                    ),
                ));
            }
        }
    }
    let positional_keys = keys.len().min(2);
    if positional > positional_keys {
        let at = call.positional().nth(positional_keys).map(|e| e.at);
        return Err(invalid(
            at,
            format!(
                "{} takes at most {positional_keys} positional argument(s)",
                call.callee.text
            ),
        ));
    }
    Ok(())
}

/// Where a value sits in a component: the component's id and the property path under it,
/// which name the components hoisted out of the value.
#[derive(Debug, Clone)]
struct Place {
    /// `<parent>_<property>[_<index or key>...]`.
    id: String,
}

impl Place {
    fn of(parent: &str, property: &str) -> Place {
        Place {
            id: format!("{parent}_{property}"),
        }
    }

    fn item(&self, part: impl std::fmt::Display) -> Place {
        Place {
            id: format!("{}_{part}", self.id),
        }
    }
}

/// Builds the values of one statement.
struct Builder<'s> {
    catalog: &'s Catalog,
    version: Version,
    definitions: &'s HashMap<String, Expr>,
    renamed: &'s HashMap<String, String>,
    /// Components hoisted out of the statement, in order.
    hoisted: Vec<Value>,
    /// The binding of the component's `value`, which its checks are about.
    own_value: Option<Value>,
}

impl<'s> Builder<'s> {
    fn is_component(&self, name: &str) -> bool {
        self.catalog.component(name).is_some()
    }

    fn catalog_name(&self) -> String {
        self.catalog
            .catalog_id()
            .map_or_else(|| "the catalog".to_owned(), |id| format!("catalog {id}"))
    }

    /// The definition `name` stands for, if it is one.
    fn definition(&self, name: &str, depth: usize) -> Result<Option<&'s Expr>, ExpressError> {
        let definitions: &'s HashMap<String, Expr> = self.definitions;
        let found = definitions.get(name);
        if found.is_some() && depth > MAX_SUBSTITUTION {
            return Err(invalid(
                None,
                format!("{name} is defined in terms of itself"),
            ));
        }
        Ok(found)
    }

    /// The component `call` as a component object with id `id`; the components written inline
    /// in it are hoisted into `self.hoisted`.
    fn component(&mut self, id: &str, call: &Call) -> Result<Value, ExpressError> {
        let name = &call.callee.text;
        let Some(signature) = signature::component(self.catalog, name) else {
            let known: Vec<&str> = self.catalog.component_names().collect();
            let what = if is_function(self.catalog, name) {
                "a function, not a component"
            } else {
                "not a component of"
            };
            return Err(invalid(
                Some(call.callee.at),
                format!(
                    "{name} is {what} {}; its components are {}",
                    self.catalog_name(),
                    known.join(", ")
                ),
            ));
        };
        let assigned = assign(&signature, call, |e| self.is_check(e))?;
        let mut object = Map::new();
        object.insert("id".to_owned(), Value::String(id.to_owned()));
        object.insert("component".to_owned(), Value::String(name.clone()));
        for (param, expr) in &assigned.values {
            let place = Place::of(id, &param.name);
            let value = match param.kind {
                ParamKind::Child => self.child(expr, &place, 0)?,
                ParamKind::Children => self.children(expr, &place, 0)?,
                ParamKind::Action => self.action(expr, Some(&place), 0)?,
                ParamKind::Value | ParamKind::Checks => self.value(expr, Some(&place), 0)?,
            };
            if param.kind == ParamKind::Value && !param.bindable && is_dynamic(&value, self.version)
            {
                return Err(invalid(
                    Some(expr.at),
                    format!(
                        "{} of {name} is static: it takes a literal, not a binding or a call",
                        param.name
                    ),
                ));
            }
            if value.is_null() {
                // `null` leaves the property out, as `_` does.
                continue;
            }
            if let (Value::String(text), Some(allowed)) = (&value, enumeration(&param.schema, 0)) {
                if !allowed.iter().any(|a| a.as_str() == Some(text)) {
                    let allowed: Vec<String> = allowed.iter().map(Value::to_string).collect();
                    return Err(invalid(
                        Some(expr.at),
                        format!(
                            "\"{text}\" is not a value of {} of {name}, which is one of {}",
                            param.name,
                            allowed.join(", ")
                        ),
                    ));
                }
            }
            object.insert(param.name.clone(), value);
        }
        self.own_value = object
            .get("value")
            .filter(|v| v.get(path_key(self.version)).is_some())
            .cloned();
        if !assigned.checks.is_empty() {
            let mut rules = Vec::new();
            for check in &assigned.checks {
                rules.push(self.check_rule(check, 0)?);
            }
            object.insert("checks".to_owned(), Value::Array(rules));
        }
        self.own_value = None;
        for param in &signature.params {
            if param.required
                && param.kind != ParamKind::Checks
                && !object.contains_key(&param.name)
            {
                return Err(invalid(
                    Some(call.at),
                    format!("{name} needs its {}: {signature}", param.name),
                ));
            }
        }
        Ok(Value::Object(object))
    }

    /// Whether `expr` is a check, a reference to one, or a non-empty list of those.
    fn is_check(&self, expr: &Expr) -> bool {
        self.is_check_at(expr, 0)
    }

    fn is_check_at(&self, expr: &Expr, depth: usize) -> bool {
        match &expr.kind {
            ExprKind::Check { .. } => true,
            ExprKind::List(items) => {
                !items.is_empty() && items.iter().all(|i| self.is_check_at(i, depth + 1))
            }
            ExprKind::Reference(name) if depth < MAX_SUBSTITUTION => self
                .definitions
                .get(name)
                .is_some_and(|d| self.is_check_at(d, depth + 1)),
            _ => false,
        }
    }

    /// A component hoisted out of the value at `place`.
    fn hoist(&mut self, call: &Call, place: Option<&Place>) -> Result<Value, ExpressError> {
        let Some(place) = place else {
            return Err(invalid(
                Some(call.at),
                format!(
                    "{} is a component written where no property holds it; give it a name",
                    call.callee.text
                ),
            ));
        };
        let slot = self.hoisted.len();
        self.hoisted.push(Value::Null);
        let outer = self.own_value.take();
        let component = self.component(&place.id, call);
        self.own_value = outer;
        if let Some(entry) = self.hoisted.get_mut(slot) {
            *entry = component?;
        }
        Ok(Value::String(place.id.clone()))
    }

    /// A component id: a name, an inline component, or a string.
    fn child(&mut self, expr: &Expr, place: &Place, depth: usize) -> Result<Value, ExpressError> {
        match &expr.kind {
            ExprKind::Reference(name) => match self.definition(name, depth)? {
                Some(definition) => self.child(definition, place, depth + 1),
                None => Ok(Value::String(self.id_of(name))),
            },
            ExprKind::Call(call) if self.is_component(&call.callee.text) => {
                self.hoist(call, Some(place))
            }
            _ => self.value(expr, Some(place), depth),
        }
    }

    /// The component id variable `name` stands for.
    fn id_of(&self, name: &str) -> String {
        self.renamed
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_owned())
    }

    /// A child list: a list of component ids, or a template.
    fn children(
        &mut self,
        expr: &Expr,
        place: &Place,
        depth: usize,
    ) -> Result<Value, ExpressError> {
        match &expr.kind {
            ExprKind::List(items) => {
                let mut ids = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    ids.push(self.child(item, &place.item(i), depth)?);
                }
                Ok(Value::Array(ids))
            }
            ExprKind::Reference(name) => match self.definition(name, depth)? {
                Some(definition) => self.children(definition, place, depth + 1),
                None => Ok(Value::Array(vec![Value::String(self.id_of(name))])),
            },
            _ => self.value(expr, Some(place), depth),
        }
    }

    /// An action: an `Event`, a function call (run in the renderer), or a definition of one.
    fn action(
        &mut self,
        expr: &Expr,
        place: Option<&Place>,
        depth: usize,
    ) -> Result<Value, ExpressError> {
        match &expr.kind {
            ExprKind::Reference(name) => match self.definition(name, depth)? {
                Some(definition) => self.action(definition, place, depth + 1),
                None => self.value(expr, place, depth),
            },
            ExprKind::Call(call)
                if call.callee.text != "Event" && !self.is_component(&call.callee.text) =>
            {
                let function = self.function(call, depth)?;
                Ok(object([("functionCall", function)]))
            }
            _ => self.value(expr, place, depth),
        }
    }

    /// Any value.
    fn value(
        &mut self,
        expr: &Expr,
        place: Option<&Place>,
        depth: usize,
    ) -> Result<Value, ExpressError> {
        Ok(match &expr.kind {
            ExprKind::String(s) => Value::String(s.clone()),
            ExprKind::Number(n) => Value::Number(n.clone()),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Null => Value::Null,
            ExprKind::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let inner = place.map(|p| p.item(i));
                    out.push(self.value(item, inner.as_ref(), depth)?);
                }
                Value::Array(out)
            }
            ExprKind::Map(entries) => {
                let mut out = Map::new();
                for (key, item) in entries {
                    let inner = place.map(|p| p.item(&key.text));
                    let compiled = self.value(item, inner.as_ref(), depth)?;
                    out.insert(key.text.clone(), compiled);
                }
                Value::Object(out)
            }
            ExprKind::Path(path) => self.binding(path),
            ExprKind::Check { name, args } => self.condition(name, args.as_deref(), depth)?,
            ExprKind::Placeholder => {
                return Err(invalid(
                    Some(expr.at),
                    "'_' stands for a whole argument left out, not for a value inside one",
                ));
            }
            ExprKind::Template { path, component } => {
                let place = place.cloned().unwrap_or_else(|| Place {
                    id: "template".to_owned(),
                });
                let id = self.child(component, &place, depth)?;
                json!({"componentId": id, "path": path.text})
            }
            ExprKind::Call(call) => {
                if call.callee.text == "Event" {
                    self.event(call, depth)?
                } else if self.is_component(&call.callee.text) {
                    self.hoist(call, place)?
                } else {
                    self.function(call, depth)?
                }
            }
            ExprKind::Reference(name) => match self.definition(name, depth)? {
                Some(definition) => self.value(definition, place, depth + 1)?,
                None => Value::String(self.id_of(name)),
            },
        })
    }

    /// `$path`: a binding.
    fn binding(&self, path: &str) -> Value {
        let mut object = Map::new();
        object.insert(
            path_key(self.version).to_owned(),
            Value::String(path.to_owned()),
        );
        Value::Object(object)
    }

    /// `Event(name[, context])`.
    fn event(&mut self, call: &Call, depth: usize) -> Result<Value, ExpressError> {
        for arg in &call.args {
            if let Some(key) = &arg.key {
                if key.text != "name" && key.text != "context" {
                    return Err(invalid(
                        Some(key.at),
                        format!("Event takes a name and a context, not {}", key.text),
                    ));
                }
            }
        }
        if call.positional().count() > 2 {
            return Err(invalid(
                Some(call.at),
                "Event takes a name and a context: Event(name, {context})",
            ));
        }
        let name = match call.arg(0, "name") {
            Some(expr) => self.value(expr, None, depth)?,
            None => {
                return Err(invalid(
                    Some(call.at),
                    "Event needs the event's name: Event(name, {context})",
                ));
            }
        };
        if !name.is_string() {
            return Err(invalid(
                call.arg(0, "name").map(|e| e.at),
                "the name of an Event is a string",
            ));
        }
        let mut event = Map::new();
        event.insert("name".to_owned(), name);
        if let Some(context) = call.arg(1, "context") {
            let compiled = self.value(context, None, depth)?;
            if !compiled.is_object() {
                return Err(invalid(
                    Some(context.at),
                    "the context of an Event is a map: Event(name, {key: value})",
                ));
            }
            event.insert("context".to_owned(), compiled);
        }
        Ok(object([("event", Value::Object(event))]))
    }

    /// The signature of function `name`, or why there is none.
    fn function_signature(&self, name: &Name, what: &str) -> Result<Signature, ExpressError> {
        signature::function(self.catalog, &name.text).ok_or_else(|| {
            let known: Vec<String> = signature::functions(self.catalog)
                .into_iter()
                .map(|s| s.name)
                .collect();
            let is_component = self.is_component(&name.text);
            let message = if is_component {
                format!("{} is a component, not a {what}", name.text)
            } else {
                format!(
                    "{} is not a {what} of {}; its functions are {}",
                    name.text,
                    self.catalog_name(),
                    known.join(", ")
                )
            };
            invalid(Some(name.at), message)
        })
    }

    /// A function call: `{"call": name, "args": {...}}` (`@call` in v1.0).
    fn function(&mut self, call: &Call, depth: usize) -> Result<Value, ExpressError> {
        let signature = self.function_signature(&call.callee, "function")?;
        let mut args = Map::new();
        let mut position = 0;
        for Arg { key, value } in &call.args {
            let param = match key {
                Some(key) => signature.param(&key.text).ok_or_else(|| {
                    invalid(
                        Some(key.at),
                        format!(
                            "{} has no argument {}: {signature}",
                            signature.name, key.text
                        ),
                    )
                })?,
                None => {
                    let param = signature.params.get(position).ok_or_else(|| {
                        invalid(
                            Some(value.at),
                            format!(
                                "{} takes at most {} argument(s): {signature}",
                                signature.name,
                                signature.params.len()
                            ),
                        )
                    })?;
                    position += 1;
                    param
                }
            };
            if args.contains_key(&param.name) {
                return Err(invalid(
                    Some(value.at),
                    format!("{} is given twice to {}", param.name, signature.name),
                ));
            }
            if value.kind == ExprKind::Placeholder {
                continue;
            }
            let compiled = self.value(value, None, depth)?;
            args.insert(param.name.clone(), compiled);
        }
        for param in &signature.params {
            if param.required && !args.contains_key(&param.name) {
                return Err(invalid(
                    Some(call.at),
                    format!("{} needs its {}: {signature}", signature.name, param.name),
                ));
            }
        }
        let mut object = Map::new();
        object.insert(
            call_key(self.version).to_owned(),
            Value::String(call.callee.text.clone()),
        );
        object.insert("args".to_owned(), Value::Object(args));
        Ok(Value::Object(object))
    }

    /// A check list's rule: `{"condition": call, "message": text}`.
    fn check_rule(&mut self, expr: &Expr, depth: usize) -> Result<Value, ExpressError> {
        match &expr.kind {
            ExprKind::Check { name, args } => {
                let (condition, message) = self.check(name, args.as_deref(), depth)?;
                Ok(object([
                    ("condition", condition),
                    ("message", message.into()),
                ]))
            }
            ExprKind::Reference(name) => match self.definition(name, depth)? {
                Some(definition) => self.check_rule(definition, depth + 1),
                None => Err(invalid(Some(expr.at), format!("{name} is not a check"))),
            },
            _ => Err(invalid(Some(expr.at), "expected a check (?name)")),
        }
    }

    /// A check used as a value: its condition.
    fn condition(
        &mut self,
        name: &Name,
        args: Option<&[Expr]>,
        depth: usize,
    ) -> Result<Value, ExpressError> {
        Ok(self.check(name, args, depth)?.0)
    }

    /// `?name(args...)`: the condition calling `name` (on the component's own value first, when
    /// the function's first parameter is `value` and no binding is written for it), and the
    /// rule's message.
    fn check(
        &mut self,
        name: &Name,
        args: Option<&[Expr]>,
        depth: usize,
    ) -> Result<(Value, String), ExpressError> {
        let signature = self.function_signature(name, "check function")?;
        let written = args.unwrap_or_default();
        let mut compiled = Map::new();
        let mut message = None;
        let first_is_value = signature.params.first().is_some_and(|p| p.name == "value");
        let binds_first = written
            .first()
            .is_some_and(|e| matches!(e.kind, ExprKind::Path(_)));
        let mut next = 0;
        if first_is_value && !binds_first {
            if let Some(own) = &self.own_value {
                compiled.insert("value".to_owned(), own.clone());
                next = 1;
            }
        }
        for expr in written {
            let param = signature.params.get(next);
            next += 1;
            let Some(param) = param else {
                match &expr.kind {
                    ExprKind::String(text) if message.is_none() => {
                        message = Some(text.clone());
                        continue;
                    }
                    _ => {
                        return Err(invalid(
                            Some(expr.at),
                            format!(
                                "?{} takes {} argument(s) and then its message: {signature}",
                                name.text,
                                signature.params.len()
                            ),
                        ));
                    }
                }
            };
            if let ExprKind::String(text) = &expr.kind {
                let typed = param.schema.get("type").and_then(Value::as_str);
                if matches!(typed, Some("integer" | "number" | "boolean")) {
                    message = Some(text.clone());
                    break;
                }
            }
            if expr.kind == ExprKind::Placeholder {
                continue;
            }
            let value = self.value(expr, None, depth)?;
            compiled.insert(param.name.clone(), value);
        }
        let mut condition = Map::new();
        condition.insert(
            call_key(self.version).to_owned(),
            Value::String(name.text.clone()),
        );
        condition.insert("args".to_owned(), Value::Object(compiled));
        let message = message.unwrap_or_else(|| default_message(&name.text));
        Ok((Value::Object(condition), message))
    }
}

/// The message of a check written without one.
fn default_message(check: &str) -> String {
    let mut chars = check.chars();
    let capitalised: String = chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    format!("{capitalised} check failed")
}

/// The values a property schema allows, when it lists them (`enum`, directly or in an `allOf`
/// member; a union may admit more, so its members are left to the validator).
fn enumeration(schema: &Value, depth: usize) -> Option<&Vec<Value>> {
    if depth > MAX_SUBSTITUTION {
        return None;
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return Some(values);
    }
    schema
        .get("allOf")
        .and_then(Value::as_array)
        .and_then(|subs| subs.iter().find_map(|s| enumeration(s, depth + 1)))
}

/// Whether a compiled value is a binding or a function call (which a static property does
/// not take).
fn is_dynamic(value: &Value, version: Version) -> bool {
    value.get(path_key(version)).is_some() || value.get(call_key(version)).is_some()
}

/// A component's arguments, each matched with its parameter.
struct Assigned<'a, 's> {
    /// The properties given, in the order written.
    values: Vec<(&'s signature::Param, &'a Expr)>,
    /// The checks given, wherever they were written.
    checks: Vec<&'a Expr>,
}

/// Matches `call`'s arguments with `signature`'s parameters: positional ones in order (a check
/// or list of checks goes to `checks` and takes no position), `_` taking a position and giving
/// nothing, keyword ones by name.
fn assign<'a, 's>(
    signature: &'s Signature,
    call: &'a Call,
    is_check: impl Fn(&Expr) -> bool,
) -> Result<Assigned<'a, 's>, ExpressError> {
    let checks_param = signature.params.iter().any(|p| p.kind == ParamKind::Checks);
    let mut positions = signature
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Checks);
    let mut out = Assigned {
        values: Vec::new(),
        checks: Vec::new(),
    };
    let mut given: Vec<&str> = Vec::new();
    let take_checks = |expr: &'a Expr, out: &mut Assigned<'a, 's>| match &expr.kind {
        ExprKind::List(items) => out.checks.extend(items.iter()),
        _ => out.checks.push(expr),
    };
    for Arg { key, value } in &call.args {
        let param = match key {
            Some(key) if key.text == "id" => continue,
            Some(key) => signature.param(&key.text).ok_or_else(|| {
                let names: Vec<&str> = signature.params.iter().map(|p| p.name.as_str()).collect();
                invalid(
                    Some(key.at),
                    format!(
                        "{} has no property {}; its properties are {}",
                        signature.name,
                        key.text,
                        names.join(", ")
                    ),
                )
            })?,
            None if checks_param && is_check(value) => {
                take_checks(value, &mut out);
                continue;
            }
            None => positions.next().ok_or_else(|| {
                invalid(
                    Some(value.at),
                    format!(
                        "{} takes at most {} positional argument(s): {signature}",
                        signature.name,
                        signature
                            .params
                            .iter()
                            .filter(|p| p.kind != ParamKind::Checks)
                            .count()
                    ),
                )
            })?,
        };
        if given.contains(&param.name.as_str()) {
            return Err(invalid(
                Some(value.at),
                format!("{} of {} is given twice", param.name, signature.name),
            ));
        }
        given.push(&param.name);
        if value.kind == ExprKind::Placeholder {
            continue;
        }
        if param.kind == ParamKind::Checks {
            take_checks(value, &mut out);
        } else {
            out.values.push((param, value));
        }
    }
    Ok(out)
}

/// The official shape of a whole block's outputs: per unit (a scope, or a whole message), in
/// the order the units began, the messages they make. Also which catalog each message is
/// checked against.
pub(crate) fn assemble(
    outputs: Vec<Output>,
    scopes: &[Scope],
    version: Version,
    catalogs: &[Catalog],
) -> Result<Vec<(Value, usize)>, ExpressError> {
    enum Unit {
        Scope(usize),
        Message(Value, usize),
    }
    #[derive(Default)]
    struct Content {
        components: Vec<Value>,
        data: Vec<(String, Value)>,
    }
    let mut units = Vec::new();
    let mut contents: Vec<Content> = scopes.iter().map(|_| Content::default()).collect();
    for output in outputs {
        match output {
            Output::Opened(scope) => units.push(Unit::Scope(scope)),
            Output::Message { message, catalog } => units.push(Unit::Message(message, catalog)),
            Output::Components { scope, components } => {
                if let Some(content) = contents.get_mut(scope) {
                    for component in components {
                        let id = component.get("id").cloned();
                        match content
                            .components
                            .iter_mut()
                            .find(|c| c.get("id") == id.as_ref())
                        {
                            Some(existing) => *existing = component,
                            None => content.components.push(component),
                        }
                    }
                }
            }
            Output::Data { scope, path, value } => {
                if let Some(content) = contents.get_mut(scope) {
                    content.data.push((path, value));
                }
            }
        }
    }
    let mut messages = Vec::new();
    for unit in units {
        match unit {
            Unit::Message(message, catalog) => messages.push((message, catalog)),
            Unit::Scope(index) => {
                let (Some(scope), Some(content)) = (scopes.get(index), contents.get_mut(index))
                else {
                    continue;
                };
                let content = std::mem::take(content);
                let catalog_id = catalogs
                    .get(scope.catalog)
                    .and_then(Catalog::catalog_id)
                    .map(str::to_owned);
                for message in
                    surface_messages(scope, content.components, content.data, version, catalog_id)?
                {
                    messages.push((message, scope.catalog));
                }
            }
        }
    }
    Ok(messages)
}

/// The messages of one surface.
fn surface_messages(
    scope: &Scope,
    components: Vec<Value>,
    data: Vec<(String, Value)>,
    version: Version,
    catalog_id: Option<String>,
) -> Result<Vec<Value>, ExpressError> {
    let tag = version.message_tag();
    let surface_id = scope.surface_id.as_str();
    let model = data_model(&data);
    let data_update = match data.as_slice() {
        [(path, value)] if path.is_empty() || path.trim_start_matches('/').contains('/') => {
            let pointer = if path.starts_with('/') {
                path.clone()
            } else {
                format!("/{path}")
            };
            message(
                tag,
                "updateDataModel",
                object([
                    ("surfaceId", surface_id.into()),
                    ("path", pointer.into()),
                    ("value", value.clone()),
                ]),
            )
        }
        _ => message(
            tag,
            "updateDataModel",
            object([
                ("surfaceId", surface_id.into()),
                ("path", "/".into()),
                ("value", model.clone()),
            ]),
        ),
    };
    let has_root = components
        .iter()
        .any(|c| c.get("id").and_then(Value::as_str) == Some("root"));
    let has_data = !data.is_empty();
    if scope.update || !has_root {
        if components.is_empty() {
            if has_data {
                return Ok(vec![data_update]);
            }
            return Err(invalid(
                None,
                format!("surface {surface_id} has no component and no data"),
            ));
        }
        if !scope.declared {
            return Err(invalid(
                None,
                "the block has components but no root: name the entry point root, or say which surface they update with surface(...)",
            ));
        }
        let mut messages = vec![message(
            tag,
            "updateComponents",
            object([
                ("surfaceId", surface_id.into()),
                ("components", Value::Array(components)),
            ]),
        )];
        if has_data {
            messages.push(data_update);
        }
        return Ok(messages);
    }
    let mut create = surface_opening(scope, catalog_id.as_deref());
    if version == Version::V10 {
        create.insert("components".to_owned(), Value::Array(components));
        if has_data {
            create.insert("dataModel".to_owned(), model);
        }
        return Ok(vec![message(tag, "createSurface", Value::Object(create))]);
    }
    let mut messages = vec![
        message(tag, "createSurface", Value::Object(create)),
        message(
            tag,
            "updateComponents",
            object([
                ("surfaceId", surface_id.into()),
                ("components", Value::Array(components)),
            ]),
        ),
    ];
    if has_data {
        messages.push(message(
            tag,
            "updateDataModel",
            object([
                ("surfaceId", surface_id.into()),
                ("path", "/".into()),
                ("value", model),
            ]),
        ));
    }
    Ok(messages)
}

/// The object of `members`. Built by hand where a member is a compiled value: `json!` copies
/// every value it is given through serde's serializer.
pub(super) fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

/// The message `{"version": tag, kind: body}`.
pub(super) fn message(tag: &str, kind: &str, body: Value) -> Value {
    object([("version", tag.into()), (kind, body)])
}

/// The body of the `createSurface` of `scope`, without its components and data model: its id,
/// the catalog it is written against, and whether the client sends its data model.
pub(crate) fn surface_opening(scope: &Scope, catalog_id: Option<&str>) -> Map<String, Value> {
    let mut create = Map::new();
    create.insert(
        "surfaceId".to_owned(),
        Value::String(scope.surface_id.clone()),
    );
    if let Some(id) = catalog_id {
        create.insert("catalogId".to_owned(), Value::String(id.to_owned()));
    }
    if let Some(send) = scope.send_data_model {
        create.insert("sendDataModel".to_owned(), Value::Bool(send));
    }
    create
}

/// The data model the assignments build, in order: a map assigned to the whole model is
/// merged into it, any other value set at its path as a renderer sets it (maps made on the way).
pub(crate) fn data_model(data: &[(String, Value)]) -> Value {
    let mut model = Value::Object(Map::new());
    for (path, value) in data {
        let keys: Vec<&str> = path.split('/').filter(|k| !k.is_empty()).collect();
        if keys.is_empty() {
            if let (Value::Object(entries), Value::Object(model)) = (value, &mut model) {
                model.extend(entries.clone());
            }
        } else {
            set_in(&mut model, &keys, value.clone());
        }
    }
    model
}

/// Sets `value` at the path `keys` under `container`, as a renderer sets a data path: in a
/// list a number is an index (the one just past its end appends); anything else on the way is
/// made a map.
fn set_in(container: &mut Value, keys: &[&str], value: Value) {
    let Some((first, rest)) = keys.split_first() else {
        *container = value;
        return;
    };
    if let Value::Array(items) = container
        && let Ok(index) = first.parse::<usize>()
        && index <= items.len()
    {
        if index == items.len() {
            items.push(Value::Null);
        }
        if let Some(slot) = items.get_mut(index) {
            set_in(slot, rest, value);
        }
        return;
    }
    if !container.is_object() {
        *container = Value::Object(Map::new());
    }
    if let Value::Object(map) = container {
        let slot = map.entry((*first).to_owned()).or_insert(Value::Null);
        set_in(slot, rest, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::express::parse;

    fn catalog() -> Catalog {
        Catalog::builtin(Version::V10)
    }

    fn compile_one(text: &str) -> Result<Vec<Output>, ExpressError> {
        let catalogs = [catalog()];
        let mut compiler = Compiler::new(&catalogs, None, DEFAULT_SURFACE)?;
        let statement = parse::statement(text, 0)?;
        compiler.statement(&statement)
    }

    fn components(text: &str) -> Vec<Value> {
        match compile_one(text).unwrap().pop() {
            Some(Output::Components { components, .. }) => components,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn inline_components_are_hoisted_after_their_parent() {
        let out = components(
            "root = Row([Text(\"a\"), Button(Text(\"b\"), _, Event(\"go\"))], \"center\")",
        );
        let ids: Vec<_> = out.iter().filter_map(|c| c["id"].as_str()).collect();
        assert_eq!(
            ids,
            [
                "root",
                "root_children_0",
                "root_children_1",
                "root_children_1_child"
            ]
        );
        assert_eq!(
            out[0]["children"],
            json!(["root_children_0", "root_children_1"])
        );
        assert_eq!(out[0]["justify"], "center");
        assert_eq!(out[2]["action"], json!({"event": {"name": "go"}}));
    }

    #[test]
    fn a_statement_compiles_on_its_own_with_forward_references() {
        let out = components("root = Column([header, body])");
        assert_eq!(
            out,
            [json!({"id": "root", "component": "Column", "children": ["header", "body"]})]
        );
    }

    #[test]
    fn checks_take_the_component_value_and_a_message() {
        let out = components(
            "f = TextField(\"Zip\", $/zip, [?required, ?regex(r\"^\\d+$\", \"digits\")])",
        );
        assert_eq!(
            out[0]["checks"],
            json!([
                {"condition": {"@call": "required", "args": {"value": {"@path": "/zip"}}}, "message": "Required check failed"},
                {"condition": {"@call": "regex", "args": {"value": {"@path": "/zip"}, "pattern": "^\\d+$"}}, "message": "digits"}
            ])
        );
    }

    #[test]
    fn validation_errors_point_at_the_name() {
        let err = compile_one("root = Sparkline([1])").unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ExpressErrorKind::Validation, Some(7))
        );
        let err = compile_one("root = Text(\"a\", tooltip=\"b\")").unwrap_err();
        assert_eq!(err.offset(), Some(17));
        assert!(
            err.message().contains("has no property tooltip"),
            "{}",
            err.message()
        );
        let err = compile_one("root = Button(label)").unwrap_err();
        assert!(
            err.message().contains("needs its action"),
            "{}",
            err.message()
        );
        let err = compile_one("root = Text(\"a\", \"b\", 1, 2)").unwrap_err();
        assert!(err.message().contains("at most 3"), "{}", err.message());
    }

    #[test]
    fn data_models_merge_paths() {
        let model = data_model(&[
            ("/user/name".to_owned(), json!("Ada")),
            ("/user/age".to_owned(), json!(3)),
            (String::new(), json!({"title": "t"})),
        ]);
        assert_eq!(
            model,
            json!({"user": {"name": "Ada", "age": 3}, "title": "t"})
        );
    }

    #[test]
    fn data_models_index_lists_as_renderers_do() {
        let model = data_model(&[
            ("/items".to_owned(), json!([])),
            ("/items/0".to_owned(), json!({"name": "a"})),
            ("/items/1".to_owned(), json!({"name": "b"})),
            ("/items/1/name".to_owned(), json!("c")),
            ("/items/x".to_owned(), json!(1)),
        ]);
        assert_eq!(model, json!({"items": {"x": 1}}));
        let model = data_model(&[
            ("/items".to_owned(), json!([])),
            ("/items/0".to_owned(), json!({"name": "a"})),
            ("/items/1/name".to_owned(), json!("b")),
        ]);
        assert_eq!(model, json!({"items": [{"name": "a"}, {"name": "b"}]}));
    }

    #[test]
    fn default_messages_name_the_check() {
        assert_eq!(default_message("email"), "Email check failed");
    }
}
