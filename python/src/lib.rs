//! The native half of the `a2ui_stream` Python package: the crate's direct-JSON parser
//! (`official::direct::DirectJsonParser`), its catalogs, the [`Splitter`] and A2UI Express, as
//! Python classes and functions of the module `a2ui_stream._native`.
//!
//! The Python half (`a2ui_stream/*.py`) gives them the names and the part and error types of
//! the official SDK (`a2ui-agent-sdk`). It hands each native parser a [`Kit`]: the Python classes
//! a parser builds its parts and errors from, so that what comes out of Rust is already what the
//! caller gets.
//!
//! No panic crosses into Python: every call into the crate's parsers runs under
//! [`std::panic::catch_unwind`], and a panic becomes the package's parse error at the byte the
//! parser had reached; the parser then refuses further input.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use a2ui_stream::express::{self, CompileOptions, ExpressErrorKind};
use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::direct::{self, DirectErrorKind, DirectJsonParser, Part, RawPart};
use a2ui_stream::{Config, ErrorKind, Event, Framing, Splitter};
use pyo3::exceptions::{PyBaseException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString, PyTuple};
use serde_json::Value;

/// Kind name of a parse error, as the Python errors carry it.
const PARSE: &str = "parse";
/// Kind name of a validation error, as the Python errors carry it.
const VALIDATION: &str = "validation";

/// The Python classes a parser builds its output from: the two part types, the message type
/// (a `dict` subclass, or `dict`) and the error classes. Made once by the Python half.
#[pyclass(frozen, module = "a2ui_stream._native")]
struct Kit {
    /// `TextPart(text)`.
    text_part: Py<PyAny>,
    /// `A2uiPart(a2ui)`.
    a2ui_part: Py<PyAny>,
    /// Called with no argument for an empty message mapping (a `dict` subclass).
    message: Py<PyAny>,
    /// `A2uiParseError(message, kind, offset)`.
    parse_error: Py<PyAny>,
    /// `A2uiValidationError(message, kind, offset)`.
    validation_error: Py<PyAny>,
    /// `SplitError(message, kind, offset)`, for the splitter.
    split_error: Py<PyAny>,
}

#[pymethods]
impl Kit {
    /// The classes, in the order the fields are declared.
    #[new]
    fn new(
        text_part: Py<PyAny>,
        a2ui_part: Py<PyAny>,
        message: Py<PyAny>,
        parse_error: Py<PyAny>,
        validation_error: Py<PyAny>,
        split_error: Py<PyAny>,
    ) -> Kit {
        Kit {
            text_part,
            a2ui_part,
            message,
            parse_error,
            validation_error,
            split_error,
        }
    }
}

impl Kit {
    /// An error instance of `class` (not raised): `class(message, kind, offset)`.
    fn error<'py>(
        py: Python<'py>,
        class: &Py<PyAny>,
        kind: &str,
        offset: Option<u64>,
        message: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        class.bind(py).call1((message, kind, offset))
    }

    /// The part `part` as the Python part types.
    fn part<'py>(&self, py: Python<'py>, part: Part) -> PyResult<Bound<'py, PyAny>> {
        match part {
            Part::Text(text) => self.text_part.bind(py).call1((text,)),
            Part::A2ui(messages) => {
                let list = PyList::empty(py);
                for message in messages {
                    list.append(self.message(py, message)?)?;
                }
                self.a2ui_part.bind(py).call1((list,))
            }
        }
    }

    /// One message: an object becomes the kit's message mapping, anything else plain Python.
    fn message<'py>(&self, py: Python<'py>, value: Value) -> PyResult<Bound<'py, PyAny>> {
        match value {
            Value::Object(map) => {
                let message = self.message.bind(py).call0()?;
                let dict = message.cast::<PyDict>()?;
                for (key, value) in map {
                    dict.set_item(key, to_py(py, value)?)?;
                }
                Ok(message)
            }
            other => to_py(py, other),
        }
    }
}

/// A JSON value as plain Python: `dict`, `list`, `str`, `int`, `float`, `bool`, `None`.
fn to_py(py: Python<'_>, value: Value) -> PyResult<Bound<'_, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, &s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, value) in map {
                dict.set_item(key, to_py(py, value)?)?;
            }
            dict.into_any()
        }
    })
}

/// JSON text from Python (what `json.dumps` wrote) as a value; a `ValueError` if it is not JSON.
fn from_json(text: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| PyValueError::new_err(format!("not JSON: {e}")))
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown cause".to_owned())
}

/// A version as Python passes it (`"v1.0"`, `"1.0"`, `"0.9"`, ...).
fn version(text: &str) -> PyResult<Version> {
    Version::parse(text)
        .ok_or_else(|| PyValueError::new_err(format!("unsupported protocol version {text:?}")))
}

/// Identifiers of catalogs: the built-in ones have fixed ids, every other catalog a new one.
static NEXT_ID: AtomicU64 = AtomicU64::new(16);

/// A catalog the parsers check messages with: a built-in basic catalog, or one built from its
/// JSON Schema documents.
#[pyclass(frozen, name = "Catalog", module = "a2ui_stream._native")]
struct PyCatalog {
    inner: Catalog,
    id: u64,
}

#[pymethods]
impl PyCatalog {
    /// The basic catalog of protocol version `version` (`"0.8"`, `"0.9"` or `"1.0"`, with or
    /// without a leading `v`), built into the library.
    #[staticmethod]
    fn basic(version_text: &str) -> PyResult<PyCatalog> {
        let v = version(version_text)?;
        let id = match v {
            Version::V08 => 0,
            Version::V09 => 1,
            _ => 2,
        };
        Ok(PyCatalog {
            inner: Catalog::builtin(v),
            id,
        })
    }

    /// A catalog from JSON text: the catalog document, and optionally the message schema and
    /// the common types schema of its version (the built-in ones otherwise).
    #[staticmethod]
    #[pyo3(signature = (version_text, catalog_json, messages_json=None, common_types_json=None))]
    fn from_schemas(
        version_text: &str,
        catalog_json: &str,
        messages_json: Option<&str>,
        common_types_json: Option<&str>,
    ) -> PyResult<PyCatalog> {
        let v = version(version_text)?;
        let builtin = Catalog::builtin(v);
        let messages = match messages_json {
            Some(text) => from_json(text)?,
            None => builtin.s2c_schema().clone(),
        };
        let common = match common_types_json {
            Some(text) => from_json(text)?,
            None => builtin.common_types_schema().clone(),
        };
        let inner = Catalog::new(v, messages, from_json(catalog_json)?, common);
        // Compile the schemas now, so that a bad catalog fails here rather than in a parser.
        inner
            .validator()
            .map_err(|e| PyValueError::new_err(format!("the catalog does not compile: {e}")))?;
        Ok(PyCatalog {
            inner,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// The protocol version: `"0.8"`, `"0.9"` or `"1.0"`.
    #[getter]
    fn version(&self) -> &'static str {
        self.inner.version().as_str()
    }

    /// The catalog's id (`catalogId`), if it declares one.
    #[getter]
    fn catalog_id(&self) -> Option<&str> {
        self.inner.catalog_id()
    }

    /// The names of the components the catalog declares.
    fn component_names(&self) -> Vec<String> {
        self.inner.component_names().map(str::to_owned).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Catalog(version={:?}, catalog_id={:?})",
            self.inner.version().as_str(),
            self.inner.catalog_id().unwrap_or_default()
        )
    }
}

/// The catalogs of an Express call as one slice for the rest of the process, made once per
/// list of catalogs (Express parsers borrow their catalogs).
fn catalog_slice(catalogs: &[Bound<'_, PyCatalog>]) -> PyResult<&'static [Catalog]> {
    static SLICES: OnceLock<Mutex<HashMap<Vec<u64>, &'static [Catalog]>>> = OnceLock::new();
    let key: Vec<u64> = catalogs.iter().map(|c| c.get().id).collect();
    let mut slices = SLICES
        .get_or_init(Default::default)
        .lock()
        .map_err(|_| PyRuntimeError::new_err("the catalog table is poisoned"))?;
    if let Some(slice) = slices.get(&key) {
        return Ok(slice);
    }
    let owned: Vec<Catalog> = catalogs.iter().map(|c| c.get().inner.clone()).collect();
    let slice: &'static [Catalog] = Box::leak(owned.into_boxed_slice());
    slices.insert(key, slice);
    Ok(slice)
}

/// What one step of a parser made: the items (parts, or error instances in their place) and
/// whether any of them is an error.
type Fed<'py> = (Bound<'py, PyList>, bool);

/// The items of a stream still to be handed out: a call hands out its items up to the first
/// error and raises that error, with the items before it as its `partial_results`; the items
/// after it come first from the next call. Nothing is lost and the order stays the stream's.
#[derive(Default)]
struct Queue {
    pending: Vec<Py<PyAny>>,
}

impl Queue {
    /// `fed` after what is pending: the list to return, or the first error to raise.
    fn deliver<'py>(&mut self, py: Python<'py>, fed: Fed<'py>) -> PyResult<Bound<'py, PyList>> {
        let (list, failed) = fed;
        if !failed && self.pending.is_empty() {
            return Ok(list);
        }
        let mut items: Vec<Bound<'py, PyAny>> = self
            .pending
            .drain(..)
            .map(|item| item.into_bound(py))
            .collect();
        items.extend(list.iter());
        let Some(at) = items
            .iter()
            .position(|item| item.is_instance_of::<PyBaseException>())
        else {
            return PyList::new(py, items);
        };
        let after = items.split_off(at + 1);
        self.pending = after.into_iter().map(Bound::unbind).collect();
        let error = items.pop().unwrap_or_else(|| py.None().into_bound(py));
        error.setattr("partial_results", PyList::new(py, items)?)?;
        Err(PyErr::from_value(error))
    }
}

/// The crate's direct-JSON streaming parser for one response, the base of the Python
/// `DirectJsonParser` (whose `__init__` calls `_configure`).
#[pyclass(subclass, module = "a2ui_stream._native")]
#[derive(Default)]
struct DirectParser {
    /// What the parser is made from, until the first chunk says whether the response is wrapped.
    setup: Option<DirectSetup>,
    /// The parser, from the first chunk on, and whether its response is wrapped.
    parser: Option<(Guarded<DirectJsonParser>, bool)>,
    queue: Queue,
}

/// See [`DirectParser::setup`].
struct DirectSetup {
    validator: std::sync::Arc<a2ui_stream::official::validator::Validator>,
    progressive_keys: Vec<String>,
    mode: Emission,
    kit: Py<Kit>,
}

/// One of the crate's streaming parsers behind a Python object: it runs every call under
/// `catch_unwind` and stops for good at a panic, and counts the bytes taken, for the offset of
/// an error that has no place of its own.
struct Guarded<P> {
    parser: Option<P>,
    kit: Py<Kit>,
    fed: u64,
}

impl<P> Guarded<P> {
    fn new(parser: P, kit: Py<Kit>) -> Self {
        Guarded {
            parser: Some(parser),
            kit,
            fed: 0,
        }
    }

    /// The next chunk: its text handed to `feed`, or an error for a lone surrogate.
    fn feed<'py, E>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyString>,
        feed: impl FnOnce(&mut P, &str) -> Vec<Result<Part, E>>,
        error: impl Fn(Python<'py>, &Kit, &E) -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<Fed<'py>> {
        let Ok(text) = chunk.to_cow() else {
            return self.failed(py, "the chunk is not valid Unicode (a lone surrogate)");
        };
        let len = text.len() as u64;
        self.run(py, len, |p| feed(p, &text), error)
    }

    /// Runs `step` on the parser under `catch_unwind`, then builds the Python items, an error
    /// made by `error` in its place.
    fn run<'py, E>(
        &mut self,
        py: Python<'py>,
        len: u64,
        step: impl FnOnce(&mut P) -> Vec<Result<Part, E>>,
        error: impl Fn(Python<'py>, &Kit, &E) -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<Fed<'py>> {
        let Some(parser) = self.parser.as_mut() else {
            return self.failed(py, "the parser stopped at an internal error");
        };
        let out = match catch_unwind(AssertUnwindSafe(|| step(parser))) {
            Ok(out) => out,
            Err(payload) => {
                self.parser = None;
                let text = format!("internal error: {}", panic_text(payload.as_ref()));
                return self.failed(py, &text);
            }
        };
        self.fed = self.fed.saturating_add(len);
        let kit = self.kit.get();
        let list = PyList::empty(py);
        let mut failed = false;
        for item in out {
            match item {
                Ok(part) => list.append(kit.part(py, part)?)?,
                Err(e) => {
                    failed = true;
                    list.append(error(py, kit, &e)?)?;
                }
            }
        }
        Ok((list, failed))
    }

    /// One parse error at the byte reached, alone.
    fn failed<'py>(&self, py: Python<'py>, message: &str) -> PyResult<Fed<'py>> {
        let kit = self.kit.get();
        let error = Kit::error(py, &kit.parse_error, PARSE, Some(self.fed), message)?;
        Ok((PyList::new(py, [error])?, true))
    }
}

/// The Python error for an error of the direct-JSON parser.
fn direct_error<'py>(
    py: Python<'py>,
    kit: &Kit,
    e: &a2ui_stream::official::direct::DirectError,
) -> PyResult<Bound<'py, PyAny>> {
    let (class, kind) = match e.kind() {
        DirectErrorKind::Validation => (&kit.validation_error, VALIDATION),
        _ => (&kit.parse_error, PARSE),
    };
    Kit::error(py, class, kind, e.offset(), e.message())
}

#[pymethods]
impl DirectParser {
    /// An empty parser: `_configure` makes it ready (the arguments are the subclass's).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> DirectParser {
        DirectParser::default()
    }

    /// Checks with `catalog`, closes strings early under `progressive_keys`, hands out every
    /// ready message again when it changes (`changed_only` false) or only what is new.
    fn _configure(
        &mut self,
        catalog: &Bound<'_, PyCatalog>,
        progressive_keys: Vec<String>,
        changed_only: bool,
        kit: Py<Kit>,
    ) -> PyResult<()> {
        let validator = catalog
            .get()
            .inner
            .validator()
            .map_err(|e| PyValueError::new_err(format!("the catalog does not compile: {e}")))?;
        let mode = if changed_only {
            Emission::ChangedOnly
        } else {
            Emission::Official
        };
        self.setup = Some(DirectSetup {
            validator,
            progressive_keys,
            mode,
            kit,
        });
        self.parser = None;
        Ok(())
    }

    /// Takes the next chunk of the response; returns the parts it made ready.
    ///
    /// Args:
    ///     chunk: The next piece of the model's text.
    ///     wrapped: Whether the response has its A2UI in `<a2ui-json>` tags (True) or is all
    ///         JSON payload (False); fixed by the first chunk.
    ///
    /// Raises:
    ///     A2uiParseError: A block that does not read as JSON (at its close tag).
    ///     A2uiValidationError: Messages the catalog rejects.
    ///     ValueError: If `wrapped` differs from the first chunk's.
    #[pyo3(signature = (chunk, wrapped = true))]
    fn parse_chunk<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyString>,
        wrapped: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let fed =
            self.started(py, wrapped)?
                .feed(py, chunk, |p, text| p.feed(text), direct_error)?;
        self.queue.deliver(py, fed)
    }

    /// Ends the response: the text held back as a possible tag start goes out.
    ///
    /// Raises:
    ///     A2uiParseError: If a block was left open (wrapped responses).
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let wrapped = self.parser.as_ref().is_none_or(|(_, wrapped)| *wrapped);
        let fed = self
            .started(py, wrapped)?
            .run(py, 0, |p| p.finish(), direct_error)?;
        self.queue.deliver(py, fed)
    }
}

impl DirectParser {
    /// The parser, made at the first call for a response `wrapped` or not; a `ValueError` when
    /// a later call says otherwise than the first.
    fn started(
        &mut self,
        py: Python<'_>,
        wrapped: bool,
    ) -> PyResult<&mut Guarded<DirectJsonParser>> {
        if self.parser.is_none() {
            let setup = self.setup.as_ref().ok_or_else(not_configured)?;
            let parser = DirectJsonParser::new(
                setup.validator.clone(),
                setup.progressive_keys.clone(),
                setup.mode,
            );
            let parser = if wrapped { parser } else { parser.unwrapped() };
            let guarded = Guarded::new(parser, setup.kit.clone_ref(py));
            self.parser = Some((guarded, wrapped));
        }
        match &mut self.parser {
            Some((guarded, first)) if *first == wrapped => Ok(guarded),
            Some((_, first)) => Err(PyValueError::new_err(format!(
                "A response is either wrapped or not; the first chunk said {}",
                if *first { "True" } else { "False" }
            ))),
            None => Err(not_configured()),
        }
    }
}

/// The error for a parser used before `_configure` (a subclass whose `__init__` skipped it).
fn not_configured() -> PyErr {
    PyRuntimeError::new_err("the parser was not configured")
}

/// Parses a whole response at once, as the SDK's `parse_response`; returns `(parts, error)`
/// with exactly one of them `None`.
#[pyfunction]
fn direct_parse_response<'py>(
    py: Python<'py>,
    content: &str,
    catalog: &Bound<'py, PyCatalog>,
    wrapped: bool,
    kit: &Bound<'py, Kit>,
) -> PyResult<Bound<'py, PyTuple>> {
    let kit = kit.get();
    let validator = catalog
        .get()
        .inner
        .validator()
        .map_err(|e| PyValueError::new_err(format!("the catalog does not compile: {e}")))?;
    let result = catch_unwind(AssertUnwindSafe(|| {
        direct::parse_response(content, &validator, wrapped)
    }));
    match result {
        Ok(Ok(parts)) => {
            let list = PyList::empty(py);
            for part in parts {
                list.append(kit.part(py, part)?)?;
            }
            (list, py.None()).into_pyobject(py)
        }
        Ok(Err(e)) => {
            let (class, kind) = match e.kind() {
                DirectErrorKind::Validation => (&kit.validation_error, VALIDATION),
                _ => (&kit.parse_error, PARSE),
            };
            let error = Kit::error(py, class, kind, e.offset(), e.message())?;
            (py.None(), error).into_pyobject(py)
        }
        Err(payload) => {
            let text = format!("internal error: {}", panic_text(payload.as_ref()));
            let error = Kit::error(py, &kit.parse_error, PARSE, None, &text)?;
            (py.None(), error).into_pyobject(py)
        }
    }
}

/// Splits a response into its text and its blocks' raw payloads, as the SDK's `unwrap`: one
/// `(is_text, text, is_final)` per part.
#[pyfunction]
fn direct_unwrap(content: &str) -> PyResult<Vec<(bool, String, bool)>> {
    let parts = catch_unwind(AssertUnwindSafe(|| direct::unwrap(content))).map_err(|payload| {
        PyRuntimeError::new_err(format!("internal error: {}", panic_text(payload.as_ref())))
    })?;
    Ok(parts
        .into_iter()
        .map(|part| match part {
            RawPart::Text(text) => (true, text, true),
            RawPart::A2uiRaw { raw, is_final } => (false, raw, is_final),
        })
        .collect())
}

/// Writes text and raw payloads back into one response, as the SDK's `wrap`: the parts as
/// `(is_text, text, is_final)`.
#[pyfunction]
fn direct_wrap(parts: Vec<(bool, String, bool)>) -> String {
    let parts: Vec<RawPart> = parts
        .into_iter()
        .map(|(is_text, text, is_final)| {
            if is_text {
                RawPart::Text(text)
            } else {
                RawPart::A2uiRaw {
                    raw: text,
                    is_final,
                }
            }
        })
        .collect();
    direct::wrap(&parts)
}

/// The snake-case name of a splitter error's kind.
fn split_kind(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::UnexpectedByte { .. } => "unexpected_byte",
        ErrorKind::InvalidUtf8 => "invalid_utf8",
        ErrorKind::ControlCharacterInString => "control_character_in_string",
        ErrorKind::InvalidEscape => "invalid_escape",
        ErrorKind::NumberOutOfRange => "number_out_of_range",
        ErrorKind::NotAnObject => "not_an_object",
        ErrorKind::MessageTooLarge { .. } => "message_too_large",
        ErrorKind::TooDeep { .. } => "too_deep",
        ErrorKind::HeldTextTooLong { .. } => "held_text_too_long",
        ErrorKind::Unterminated { .. } => "unterminated",
        _ => "other",
    }
}

/// Prose between A2UI blocks, from the splitter.
#[pyclass(frozen, get_all, module = "a2ui_stream._native")]
struct TextEvent {
    /// The text (bytes that are not UTF-8 replaced by U+FFFD).
    text: String,
}

#[pymethods]
impl TextEvent {
    fn __repr__(&self) -> String {
        format!("TextEvent(text={:?})", self.text)
    }
}

/// One standalone A2UI message, from the splitter.
#[pyclass(frozen, get_all, module = "a2ui_stream._native")]
struct MessageEvent {
    /// The message's kind in snake case (`create_surface`, `update_components`, ...).
    kind: String,
    /// The message as compact JSON text.
    json: String,
    /// Its `version`, if it carries one.
    version: Option<String>,
    /// The surface it is about, if it names one.
    surface_id: Option<String>,
    /// The id of the one component a component message carries.
    component_id: Option<String>,
}

#[pymethods]
impl MessageEvent {
    /// The message as a Python `dict`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, from_json(&self.json)?)
    }

    fn __repr__(&self) -> String {
        format!("MessageEvent(kind={:?}, json={:?})", self.kind, self.json)
    }
}

/// The snake-case name of a message kind (from its `Debug` name).
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The crate's splitter: each A2UI message (each component of a component list) as it closes.
#[pyclass(name = "Splitter", module = "a2ui_stream._native")]
struct PySplitter {
    splitter: Option<Splitter>,
    kit: Py<Kit>,
    queue: Queue,
}

#[pymethods]
impl PySplitter {
    /// A splitter for tagged prose (`bare` false) or a stream that is all JSON, reading the
    /// slips models make when `lenient`.
    #[new]
    #[pyo3(signature = (kit, bare=false, lenient=false, split_data_depth=None, dedup_components=true))]
    fn new(
        kit: Py<Kit>,
        bare: bool,
        lenient: bool,
        split_data_depth: Option<usize>,
        dedup_components: bool,
    ) -> PySplitter {
        let defaults = Config::default();
        let config = Config {
            framing: if bare { Framing::Bare } else { Framing::Tagged },
            lenient,
            dedup_components,
            split_data_depth: split_data_depth.unwrap_or(defaults.split_data_depth),
            ..defaults
        };
        PySplitter {
            splitter: Some(Splitter::with_config(config)),
            kit,
            queue: Queue::default(),
        }
    }

    /// The next chunk of bytes: the events it completed, up to the first error (raised).
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyBytes>,
    ) -> PyResult<Bound<'py, PyList>> {
        let bytes = chunk.as_bytes();
        let fed = self.run(py, |s| s.feed(bytes).collect())?;
        self.queue.deliver(py, fed)
    }

    /// The end of the stream, as `feed` answers.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let fed = self.run(py, |s| s.finish().collect())?;
        self.queue.deliver(py, fed)
    }
}

impl PySplitter {
    /// Runs `step` under `catch_unwind`, then builds the Python events.
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        step: impl FnOnce(&mut Splitter) -> Vec<Result<Event, a2ui_stream::Error>>,
    ) -> PyResult<Fed<'py>> {
        let kit = self.kit.get();
        let offset = self.splitter.as_ref().map_or(0, Splitter::offset);
        let Some(splitter) = self.splitter.as_mut() else {
            let e = Kit::error(
                py,
                &kit.split_error,
                "internal",
                Some(offset),
                "the splitter stopped at an internal error",
            )?;
            return Ok((PyList::new(py, [e])?, true));
        };
        let out = match catch_unwind(AssertUnwindSafe(|| step(splitter))) {
            Ok(out) => out,
            Err(payload) => {
                self.splitter = None;
                let text = format!("internal error: {}", panic_text(payload.as_ref()));
                let e = Kit::error(py, &kit.split_error, "internal", Some(offset), &text)?;
                return Ok((PyList::new(py, [e])?, true));
            }
        };
        let list = PyList::empty(py);
        let mut failed = false;
        for item in out {
            match item {
                Ok(Event::Text(bytes)) => list.append(TextEvent {
                    text: String::from_utf8_lossy(&bytes).into_owned(),
                })?,
                Ok(Event::Message(m)) => list.append(MessageEvent {
                    kind: snake(&format!("{:?}", m.kind())),
                    json: m.as_str().to_owned(),
                    version: m.version().map(str::to_owned),
                    surface_id: m.surface_id().map(str::to_owned),
                    component_id: m.component_id().map(str::to_owned),
                })?,
                Err(e) => {
                    failed = true;
                    let kind = split_kind(e.kind());
                    list.append(Kit::error(
                        py,
                        &kit.split_error,
                        kind,
                        e.offset(),
                        e.message(),
                    )?)?;
                }
            }
        }
        Ok((list, failed))
    }
}

/// Compile options from Python's arguments.
fn options(version_text: Option<&str>, surface_id: Option<&str>) -> PyResult<CompileOptions> {
    let mut options = CompileOptions::default();
    if let Some(v) = version_text {
        options = options.with_version(version(v)?);
    }
    if let Some(id) = surface_id {
        options = options.with_surface_id(id);
    }
    Ok(options)
}

/// Why an Express call failed: the library's error, or a panic caught at the boundary.
enum Failure {
    /// The error the library returned.
    Express(express::ExpressError),
    /// A panic's text.
    Panic(String),
}

impl Failure {
    /// The failure as the kit's error instance (a panic is a parse error with no place).
    fn to_py<'py>(&self, py: Python<'py>, kit: &Kit) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Failure::Express(e) => express_error(py, kit, e),
            Failure::Panic(text) => Kit::error(py, &kit.parse_error, PARSE, None, text),
        }
    }
}

/// An Express error as the kit's error instance.
fn express_error<'py>(
    py: Python<'py>,
    kit: &Kit,
    e: &express::ExpressError,
) -> PyResult<Bound<'py, PyAny>> {
    let (class, kind) = match e.kind() {
        ExpressErrorKind::Validation => (&kit.validation_error, VALIDATION),
        _ => (&kit.parse_error, PARSE),
    };
    Kit::error(py, class, kind, e.offset(), e.message())
}

/// Runs `f` under `catch_unwind`.
fn guarded<T>(f: impl FnOnce() -> Result<T, express::ExpressError>) -> Result<T, Failure> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result.map_err(Failure::Express),
        Err(payload) => Err(Failure::Panic(format!(
            "internal error: {}",
            panic_text(payload.as_ref())
        ))),
    }
}

/// Compiles one Express block (without its tags) to A2UI messages; returns `(messages, error)`
/// with exactly one of them `None`.
#[pyfunction]
#[pyo3(signature = (text, catalogs, kit, version_text=None, surface_id=None))]
fn express_compile<'py>(
    py: Python<'py>,
    text: &str,
    catalogs: Vec<Bound<'py, PyCatalog>>,
    kit: &Bound<'py, Kit>,
    version_text: Option<&str>,
    surface_id: Option<&str>,
) -> PyResult<Bound<'py, PyTuple>> {
    let slice = catalog_slice(&catalogs)?;
    let options = options(version_text, surface_id)?;
    let kit = kit.get();
    match guarded(|| express::compile(text, slice, &options)) {
        Ok(messages) => {
            let list = PyList::empty(py);
            for m in messages {
                list.append(kit.message(py, m)?)?;
            }
            (list, py.None()).into_pyobject(py)
        }
        Err(e) => (py.None(), e.to_py(py, kit)?).into_pyobject(py),
    }
}

/// Writes A2UI messages (JSON text of a list) as Express; returns `(text, error)` with exactly
/// one of them `None`.
#[pyfunction]
fn express_decompile<'py>(
    py: Python<'py>,
    messages_json: &str,
    catalogs: Vec<Bound<'py, PyCatalog>>,
    kit: &Bound<'py, Kit>,
) -> PyResult<Bound<'py, PyTuple>> {
    let slice = catalog_slice(&catalogs)?;
    let messages = match from_json(messages_json)? {
        Value::Array(items) => items,
        other => vec![other],
    };
    match guarded(|| express::decompile(&messages, slice)) {
        Ok(text) => (text, py.None()).into_pyobject(py),
        Err(e) => (py.None(), e.to_py(py, kit.get())?).into_pyobject(py),
    }
}

/// The system prompt that teaches a model Express for `catalogs`, with example turns (JSON text
/// of a list of lists of messages); returns `(text, error)` with exactly one of them `None`.
#[pyfunction]
fn express_prompt<'py>(
    py: Python<'py>,
    catalogs: Vec<Bound<'py, PyCatalog>>,
    examples_json: &str,
    kit: &Bound<'py, Kit>,
) -> PyResult<Bound<'py, PyTuple>> {
    let slice = catalog_slice(&catalogs)?;
    let examples: Vec<Vec<Value>> = serde_json::from_str(examples_json)
        .map_err(|e| PyValueError::new_err(format!("examples: {e}")))?;
    match guarded(|| express::prompt(slice, &examples)) {
        Ok(text) => (text, py.None()).into_pyobject(py),
        Err(e) => (py.None(), e.to_py(py, kit.get())?).into_pyobject(py),
    }
}

/// The crate's streaming Express parser for one response, the base of the Python
/// `ExpressParser` (whose `__init__` calls `_configure`).
#[pyclass(subclass, module = "a2ui_stream._native")]
#[derive(Default)]
struct ExpressParser {
    parser: Option<Guarded<express::ExpressParser<'static>>>,
    queue: Queue,
}

#[pymethods]
impl ExpressParser {
    /// An empty parser: `_configure` makes it ready (the arguments are the subclass's).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> ExpressParser {
        ExpressParser::default()
    }

    /// A parser for a response written in Express against `catalogs`.
    #[pyo3(signature = (catalogs, kit, wrapped=true, version_text=None, surface_id=None))]
    fn _configure(
        &mut self,
        py: Python<'_>,
        catalogs: Vec<Bound<'_, PyCatalog>>,
        kit: Py<Kit>,
        wrapped: bool,
        version_text: Option<&str>,
        surface_id: Option<&str>,
    ) -> PyResult<()> {
        let slice = catalog_slice(&catalogs)?;
        let options = options(version_text, surface_id)?;
        match guarded(|| express::ExpressParser::new(slice, options)) {
            Ok(parser) => {
                let parser = if wrapped { parser } else { parser.unwrapped() };
                self.parser = Some(Guarded::new(parser, kit));
                Ok(())
            }
            Err(e) => Err(PyErr::from_value(e.to_py(py, kit.get())?)),
        }
    }

    /// Takes the next chunk; returns the parts it made ready.
    ///
    /// Raises:
    ///     A2uiParseError / A2uiValidationError: A statement that does not read or compile.
    fn parse_chunk<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyList>> {
        let fed = self
            .configured()?
            .feed(py, chunk, |p, text| p.feed(text), express_error)?;
        self.queue.deliver(py, fed)
    }

    /// Ends the response: the statement still open is compiled, held text goes out.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let fed = self
            .configured()?
            .run(py, 0, express::ExpressParser::finish, express_error)?;
        self.queue.deliver(py, fed)
    }
}

impl ExpressParser {
    fn configured(&mut self) -> PyResult<&mut Guarded<express::ExpressParser<'static>>> {
        self.parser.as_mut().ok_or_else(not_configured)
    }
}

/// The module `a2ui_stream._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Kit>()?;
    m.add_class::<PyCatalog>()?;
    m.add_class::<DirectParser>()?;
    m.add_class::<PySplitter>()?;
    m.add_class::<TextEvent>()?;
    m.add_class::<MessageEvent>()?;
    m.add_class::<ExpressParser>()?;
    m.add_function(wrap_pyfunction!(direct_parse_response, m)?)?;
    m.add_function(wrap_pyfunction!(direct_unwrap, m)?)?;
    m.add_function(wrap_pyfunction!(direct_wrap, m)?)?;
    m.add_function(wrap_pyfunction!(express_compile, m)?)?;
    m.add_function(wrap_pyfunction!(express_decompile, m)?)?;
    m.add_function(wrap_pyfunction!(express_prompt, m)?)?;
    Ok(())
}
