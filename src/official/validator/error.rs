//! What a failed validation says: the rule broken ([`ValidationErrorKind`]), the reference
//! implementation's words, the component at fault and, for v1.0, each fault's place and code
//! ([`ErrorDetail`]).

use std::fmt;

/// A message list failed validation; [`message`](ValidationError::message) says why, in the
/// reference implementation's words.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::validator::Validator;
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {}}), json!(null));
/// let validator = Validator::new(&catalog)?;
/// let twice = json!([{"surfaceUpdate": {"surfaceId": "s", "components": [
///     {"id": "x", "component": {"Text": {}}}, {"id": "x", "component": {"Text": {}}}]}}]);
/// let err = validator.validate(&twice).unwrap_err();
/// assert_eq!(err.to_string(), "Duplicate component ID: x");
/// assert_eq!(err.component(), None);
/// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    kind: ValidationErrorKind,
    message: String,
    /// The component the fault is in, for a self-reference, a cycle or a chain too deep.
    component: Option<String>,
    /// Each fault's place and code (v1.0 schema errors).
    details: Vec<ErrorDetail>,
}

/// Which rule a [`ValidationError`] reports.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::validator::{ValidationErrorKind, Validator};
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {"Text": {}}}), json!(null));
/// let validator = Validator::new(&catalog)?;
/// let twice = json!([{"surfaceUpdate": {"surfaceId": "s", "components": [
///     {"id": "x", "component": {"Text": {}}}, {"id": "x", "component": {"Text": {}}}]}}]);
/// assert_eq!(validator.validate(&twice).unwrap_err().kind(), ValidationErrorKind::DuplicateId);
/// let begin = json!({"beginRendering": {"surfaceId": "s", "root": "r"}});
/// let text = json!({"surfaceUpdate": {"surfaceId": "s", "components": [
///     {"id": "t", "component": {"Text": {}}}]}});
/// let err = validator.validate(&json!([begin, text])).unwrap_err();
/// assert_eq!(err.kind(), ValidationErrorKind::MissingRoot);
/// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValidationErrorKind {
    /// A catalog's schema is not valid JSON Schema, or lacks a definition messages need.
    InvalidSchema,
    /// A message does not match its JSON Schema (`Validation failed: ...`).
    Schema,
    /// Two components of one list share an id.
    DuplicateId,
    /// No component has the surface's root id.
    MissingRoot,
    /// A component refers to an id no component has.
    DanglingReference,
    /// A component refers to itself.
    SelfReference,
    /// Components refer to each other in a cycle.
    Cycle,
    /// A component cannot be reached from the root.
    Unreachable,
    /// Nesting past a limit: JSON depth, reference depth or function-call depth.
    TooDeep,
    /// A data-binding path is not a valid path.
    PathSyntax,
}

impl ValidationError {
    pub(super) fn new(kind: ValidationErrorKind, message: impl Into<String>) -> ValidationError {
        ValidationError {
            kind,
            message: message.into(),
            component: None,
            details: Vec::new(),
        }
    }

    /// The error, with the faults it is made of.
    pub(super) fn with_details(mut self, details: Vec<ErrorDetail>) -> ValidationError {
        self.details = details;
        self
    }

    /// The error, about component `id`.
    pub(super) fn in_component(mut self, id: &str) -> ValidationError {
        self.component = Some(id.to_owned());
        self
    }

    /// Which rule the message breaks.
    pub fn kind(&self) -> ValidationErrorKind {
        self.kind
    }

    /// Where in a stream: never known, as a validator checks messages, not bytes (the shape of
    /// every error of the crate, see [`crate::Error`]).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::validator::Validator;
    /// let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({}), serde_json::json!(null));
    /// let err = Validator::new(&catalog)?.validate(&serde_json::json!({})).unwrap_err();
    /// assert_eq!(err.offset(), None);
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn offset(&self) -> Option<u64> {
        None
    }

    /// The component the fault is in, when it is one component's: the one that refers to
    /// itself, the one a cycle comes back to, or the last one of a chain too deep (the one that
    /// refers past the limit).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::validator::Validator;
    /// use serde_json::json;
    /// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {
    ///     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}}
    /// }}), json!(null));
    /// let validator = Validator::new(&catalog)?;
    /// let loop_ = json!([{"surfaceUpdate": {"surfaceId": "s", "components": [
    ///     {"id": "a", "component": {"Card": {"child": "b"}}},
    ///     {"id": "b", "component": {"Card": {"child": "a"}}}
    /// ]}}]);
    /// let err = validator.validate(&loop_).unwrap_err();
    /// assert_eq!(err.message(), "Circular reference detected involving component 'a'");
    /// assert_eq!(err.component(), Some("a"));
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn component(&self) -> Option<&str> {
        self.component.as_deref()
    }

    /// Why validation failed.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// let update = serde_json::json!([{"version": "v0.9",
    ///     "updateDataModel": {"surfaceId": "s", "path": "/a/~2", "value": 1}}]);
    /// let err = Catalog::builtin(Version::V09).validator()?.validate(&update).unwrap_err();
    /// assert_eq!(err.message(), "Invalid path syntax: '/a/~2'");
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Each fault the error is made of, with its place and a code, for the v1.0 checks of
    /// messages and components (empty for the other rules and versions, whose words say it
    /// all). A fault in a message is placed from the list, `messages.<index>.<member>...`; a
    /// fault in a component is placed within the component (`chartType`), and the
    /// [`message`](Self::message) names the component.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::validator::{DetailCode, Validator};
    /// use serde_json::json;
    /// let messages = json!({"$defs": {"CreateSurfaceMessage": {"type": "object",
    ///     "required": ["createSurface", "version"],
    ///     "properties": {"version": {"const": "v1.0"}, "createSurface": {"type": "object"}}}}});
    /// let validator = Catalog::new(Version::V10, messages, json!({}), json!({})).validator()?;
    /// let err = validator.validate(&json!({"createSurface": {"surfaceId": "s"}})).unwrap_err();
    /// let detail = &err.details()[0];
    /// assert_eq!((detail.path(), detail.code()), ("messages.0.version", DetailCode::MissingField));
    /// assert_eq!(detail.code().as_str(), "missing_field");
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn details(&self) -> &[ErrorDetail] {
        &self.details
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ValidationError {}

/// One fault of a v1.0 message or component: where it is and what is wrong, as the A2UI
/// conformance suites name them; see [`ValidationError::details`].
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::validator::{DetailCode, Validator};
/// use serde_json::json;
/// let messages = json!({"$defs": {"CreateSurfaceMessage": {"type": "object", "properties": {
///     "createSurface": {"type": "object", "properties": {"surfaceId": {"type": "string"}}}}}}});
/// let validator = Catalog::new(Version::V10, messages, json!({}), json!({})).validator()?;
/// let err = validator.validate(&json!({"version": "v1.0", "createSurface": {"surfaceId": 7}})).unwrap_err();
/// let detail = &err.details()[0];
/// assert_eq!(detail.path(), "messages.0.createSurface.surfaceId");
/// assert_eq!(detail.code(), DetailCode::TypeMismatch);
/// assert_eq!(detail.message(), "7 is not of type 'string'");
/// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorDetail {
    path: String,
    code: DetailCode,
    message: String,
}

impl ErrorDetail {
    pub(super) fn new(path: String, code: DetailCode, message: String) -> ErrorDetail {
        ErrorDetail {
            path,
            code,
            message,
        }
    }

    /// Where the fault is: member names and list indices joined by dots (`messages.0.version`,
    /// `children`); a missing member is named in its own place.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What kind of fault it is.
    pub fn code(&self) -> DetailCode {
        self.code
    }

    /// The fault in words (Python `jsonschema`'s, as in [`ValidationError::message`]).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ErrorDetail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({})",
            self.path,
            self.message,
            self.code.as_str()
        )
    }
}

/// The kind of an [`ErrorDetail`], named as the A2UI conformance suites name it.
///
/// ```
/// use a2ui_stream::official::validator::DetailCode;
/// assert_eq!(DetailCode::InvalidValue.as_str(), "invalid_value");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DetailCode {
    /// A required member is missing (`missing_field`).
    MissingField,
    /// A value is not of the type asked for (`type_mismatch`).
    TypeMismatch,
    /// A member the schema does not allow (`extra_field`).
    ExtraField,
    /// A value the schema does not allow: not one of an enum, not the constant, an unknown
    /// component type, ... (`invalid_value`).
    InvalidValue,
    /// A component id that is not a Unicode identifier (UAX #31) (`invalid_identifier`).
    InvalidIdentifier,
}

impl DetailCode {
    /// The code as the suites write it: `missing_field`, `type_mismatch`, `extra_field`,
    /// `invalid_value` or `invalid_identifier`.
    pub fn as_str(self) -> &'static str {
        match self {
            DetailCode::MissingField => "missing_field",
            DetailCode::TypeMismatch => "type_mismatch",
            DetailCode::ExtraField => "extra_field",
            DetailCode::InvalidValue => "invalid_value",
            DetailCode::InvalidIdentifier => "invalid_identifier",
        }
    }
}
