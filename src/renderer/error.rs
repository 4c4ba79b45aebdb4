//! Why a message could not be applied: [`RenderError`], the rule it broke ([`RenderErrorKind`]) and the
//! family of that rule ([`Category`]), in the words of the A2UI conformance suites.

use std::fmt;

use crate::{MessageKind, Version};

/// A message that [`RendererState`](super::RendererState) refused. The state is as it was
/// before that message: a message is applied whole or not at all.
///
/// ```
/// use a2ui_stream::renderer::{Category, RenderErrorKind, RendererState};
/// use serde_json::json;
///
/// let mut state = RendererState::new();
/// let update = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": []}});
/// let err = state.apply(&update).unwrap_err();
/// assert_eq!(err.kind(), &RenderErrorKind::UnknownSurface);
/// assert_eq!(err.kind().category(), Category::Integrity);
/// assert_eq!(err.surface_id(), Some("s"));
/// assert_eq!(err.to_string(), "surface s: Surface not found");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError(Box<Said>);

/// What a [`RenderError`] says (boxed, so that a `Result` carrying one stays small).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Said {
    kind: RenderErrorKind,
    /// What the kind says.
    message: String,
    surface_id: Option<String>,
    component_id: Option<String>,
    index: Option<usize>,
}

/// The rule an [`RenderError`] says was broken. Its text (`Display`) says it in the words the A2UI
/// conformance suites expect.
///
/// ```
/// use a2ui_stream::renderer::{RenderErrorKind, RendererState};
/// use serde_json::json;
///
/// let mut state = RendererState::new();
/// let err = state.apply(&json!({"version": "v99.0", "createSurface": {"surfaceId": "s"}})).unwrap_err();
/// assert_eq!(err.kind(), &RenderErrorKind::UnsupportedVersion("v99.0".into()));
/// assert_eq!(err.kind().to_string(), "Unsupported protocol version 'v99.0'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RenderErrorKind {
    /// The message's bytes are not JSON.
    NotJson,
    /// A message (or a batch item) that is not a JSON object.
    NotAnObject,
    /// A `version` this model does not speak (the text as written, or the JSON of a non-string).
    UnsupportedVersion(String),
    /// A message of a kind that only v0.9 and later speak, without a `version`.
    MissingVersion(MessageKind),
    /// A message with more than one action of its version, such as `createSurface` and
    /// `deleteSurface` together.
    MultipleActions {
        /// The first action found.
        first: MessageKind,
        /// Another one.
        second: MessageKind,
    },
    /// A required field is absent.
    MissingField {
        /// Its name (`surfaceId`, `components`, `id`, ...).
        field: &'static str,
    },
    /// A field holds a value of the wrong type.
    WrongType {
        /// Its name.
        field: &'static str,
        /// What it must be, in words ("a string").
        expected: &'static str,
    },
    /// A `createSurface` for a surface that exists.
    SurfaceExists,
    /// An update for a surface that does not exist (v0.9 and later; v0.8 updates make it).
    UnknownSurface,
    /// A catalog id the renderer does not know (only when it was given its catalogs).
    CatalogNotFound(String),
    /// A catalog of another protocol version than the surface or message that names it.
    CatalogVersion {
        /// The catalog's id.
        catalog: String,
        /// The version the catalog speaks.
        catalog_version: Version,
        /// The version of the surface or message.
        expected: Version,
    },
    /// A v1.0 component that names no catalog, on a surface that has no default catalog.
    NoCatalog,
    /// Strict checks: one id twice in one component list.
    DuplicateComponent,
    /// Strict checks: the surface's components lack its root (`root`, or v0.8's
    /// `beginRendering` root).
    MissingRoot(String),
    /// Strict checks: a component refers to an id that no component has.
    DanglingReference {
        /// The id referred to.
        to: String,
    },
    /// Strict checks: a component that cannot be reached from the root.
    Unreachable,
    /// Strict checks: components that refer to each other in a cycle (or one to itself).
    Cycle,
    /// A message nested more than 50 levels deep, or (strict checks) a component tree deeper
    /// than 50.
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// A data-model path that goes through a value that is neither an object nor a list.
    PathThroughScalar {
        /// The path, as written.
        path: String,
    },
    /// A data-model path that names a list item by something other than an index (`0`, `12`).
    NotAnIndex {
        /// The path, as written.
        path: String,
    },
    /// A data-model path with a list index past the limit (10,000).
    IndexTooLarge {
        /// The path, as written.
        path: String,
    },
    /// A v0.8 update that would make the whole data model something other than a map.
    RootNotAMap,
}

/// The families of [`RenderErrorKind`], as the A2UI conformance suites name them (`ValidationError`,
/// `CatalogError`, ...).
///
/// ```
/// use a2ui_stream::renderer::{Category, RenderErrorKind};
/// assert_eq!(RenderErrorKind::SurfaceExists.category(), Category::Integrity);
/// assert_eq!(Category::Integrity.as_str(), "IntegrityError");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// Bytes that are not JSON.
    Parse,
    /// A message that does not have the protocol's shape.
    Validation,
    /// A catalog that is unknown or of another version.
    Catalog,
    /// Surfaces and components that do not fit together.
    Integrity,
    /// Nesting past a limit.
    Recursion,
    /// A data-model path that cannot be followed.
    Data,
}

impl Category {
    /// The suites' name of this family.
    ///
    /// ```
    /// use a2ui_stream::renderer::Category;
    /// assert_eq!(Category::Recursion.as_str(), "RecursionError");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Parse => "ParseError",
            Category::Validation => "ValidationError",
            Category::Catalog => "CatalogError",
            Category::Integrity => "IntegrityError",
            Category::Recursion => "RecursionError",
            Category::Data => "DataError",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl RenderErrorKind {
    /// The family of this rule.
    ///
    /// ```
    /// use a2ui_stream::renderer::{Category, RenderErrorKind};
    /// assert_eq!(RenderErrorKind::NoCatalog.category(), Category::Catalog);
    /// assert_eq!(RenderErrorKind::Cycle.category(), Category::Integrity);
    /// ```
    pub fn category(&self) -> Category {
        match self {
            RenderErrorKind::NotJson => Category::Parse,
            RenderErrorKind::NotAnObject
            | RenderErrorKind::UnsupportedVersion(_)
            | RenderErrorKind::MissingVersion(_)
            | RenderErrorKind::MultipleActions { .. }
            | RenderErrorKind::MissingField { .. }
            | RenderErrorKind::WrongType { .. } => Category::Validation,
            RenderErrorKind::CatalogNotFound(_)
            | RenderErrorKind::CatalogVersion { .. }
            | RenderErrorKind::NoCatalog => Category::Catalog,
            RenderErrorKind::SurfaceExists
            | RenderErrorKind::UnknownSurface
            | RenderErrorKind::DuplicateComponent
            | RenderErrorKind::MissingRoot(_)
            | RenderErrorKind::DanglingReference { .. }
            | RenderErrorKind::Unreachable
            | RenderErrorKind::Cycle => Category::Integrity,
            RenderErrorKind::TooDeep { .. } => Category::Recursion,
            RenderErrorKind::PathThroughScalar { .. }
            | RenderErrorKind::NotAnIndex { .. }
            | RenderErrorKind::IndexTooLarge { .. }
            | RenderErrorKind::RootNotAMap => Category::Data,
        }
    }
}

impl fmt::Display for RenderErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderErrorKind::NotJson => f.write_str("message is not JSON"),
            RenderErrorKind::NotAnObject => f.write_str("A2UI message must be a JSON object"),
            RenderErrorKind::UnsupportedVersion(v) => {
                write!(f, "Unsupported protocol version '{v}'")
            }
            RenderErrorKind::MissingVersion(kind) => write!(
                f,
                "Missing required version field: {} is not a v0.8 message",
                kind.key()
            ),
            RenderErrorKind::MultipleActions { first, second } => write!(
                f,
                "Message contains multiple conflicting update actions: {}, {}",
                first.key(),
                second.key()
            ),
            RenderErrorKind::MissingField { field } => write!(f, "{field} is missing"),
            RenderErrorKind::WrongType { field, expected } => {
                write!(f, "{field} must be {expected}")
            }
            RenderErrorKind::SurfaceExists => f.write_str("Surface already exists"),
            RenderErrorKind::UnknownSurface => f.write_str("Surface not found"),
            RenderErrorKind::CatalogNotFound(id) => write!(f, "Catalog not found: {id}"),
            RenderErrorKind::CatalogVersion {
                catalog,
                catalog_version,
                expected,
            } => write!(
                f,
                "catalog {catalog} speaks protocol version {}, not {}",
                catalog_version.message_tag(),
                expected.message_tag()
            ),
            RenderErrorKind::NoCatalog => {
                f.write_str("component names no catalogId and the surface has no default catalog")
            }
            RenderErrorKind::DuplicateComponent => {
                f.write_str("Duplicate component id in one update")
            }
            RenderErrorKind::MissingRoot(root) => {
                write!(f, "Missing root component: no component has id {root}")
            }
            RenderErrorKind::DanglingReference { to } => {
                write!(f, "Dangling reference to non-existent component {to}")
            }
            RenderErrorKind::Unreachable => f.write_str("component is not reachable from the root"),
            RenderErrorKind::Cycle => {
                f.write_str("Circular reference: components refer to each other in a cycle")
            }
            RenderErrorKind::TooDeep { limit } => {
                write!(f, "Global recursion limit exceeded: depth > {limit}")
            }
            RenderErrorKind::PathThroughScalar { path } => {
                write!(
                    f,
                    "cannot set {path}: it goes through a value that holds no members"
                )
            }
            RenderErrorKind::NotAnIndex { path } => {
                write!(
                    f,
                    "cannot set {path}: a list item is named by something other than an index"
                )
            }
            RenderErrorKind::IndexTooLarge { path } => {
                write!(f, "cannot set {path}: a list index is past 10000")
            }
            RenderErrorKind::RootNotAMap => f.write_str("the data model must stay a map"),
        }
    }
}

impl RenderError {
    pub(super) fn new(kind: RenderErrorKind) -> RenderError {
        RenderError(Box::new(Said {
            message: kind.to_string(),
            kind,
            surface_id: None,
            component_id: None,
            index: None,
        }))
    }

    /// The error, said of surface `id` unless it already names one.
    pub(super) fn surface(mut self, id: &str) -> RenderError {
        self.0.surface_id.get_or_insert_with(|| id.to_owned());
        self
    }

    /// The error, said of component `id` unless it already names one.
    pub(super) fn component(mut self, id: &str) -> RenderError {
        self.0.component_id.get_or_insert_with(|| id.to_owned());
        self
    }

    /// The error, said of the batch's message number `index`.
    pub(super) fn at(mut self, index: usize) -> RenderError {
        self.0.index.get_or_insert(index);
        self
    }

    /// The rule that was broken.
    ///
    /// ```
    /// use a2ui_stream::renderer::{RenderErrorKind, RendererState};
    /// let mut state = RendererState::new();
    /// let err = state.apply(&serde_json::json!([1])).unwrap_err();
    /// assert_eq!(err.kind(), &RenderErrorKind::NotAnObject);
    /// ```
    pub fn kind(&self) -> &RenderErrorKind {
        &self.0.kind
    }

    /// Where in a stream: never known, as a renderer applies messages, not bytes (the shape of
    /// every error of the crate, see [`crate::Error`]); [`index`](RenderError::index) says
    /// which message of a batch.
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// let err = RendererState::new().apply(&serde_json::json!([1])).unwrap_err();
    /// assert_eq!(err.offset(), None);
    /// ```
    pub fn offset(&self) -> Option<u64> {
        None
    }

    /// What happened, in words.
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// let err = RendererState::new().apply(&serde_json::json!([1])).unwrap_err();
    /// assert_eq!(err.message(), err.kind().to_string());
    /// ```
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The surface the message was for, when it names one.
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// let create = json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}});
    /// state.apply(&create).unwrap();
    /// assert_eq!(state.apply(&create).unwrap_err().surface_id(), Some("s"));
    /// ```
    pub fn surface_id(&self) -> Option<&str> {
        self.0.surface_id.as_deref()
    }

    /// The component at fault, when one is.
    ///
    /// ```
    /// use a2ui_stream::renderer::{RenderErrorKind, RendererState};
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// let update = json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "a"}]}});
    /// let err = state.apply(&update).unwrap_err();
    /// assert_eq!(err.kind(), &RenderErrorKind::MissingField { field: "component" });
    /// assert_eq!(err.component_id(), Some("a"));
    /// ```
    pub fn component_id(&self) -> Option<&str> {
        self.0.component_id.as_deref()
    }

    /// For [`RendererState::apply_batch`](super::RendererState::apply_batch), the position of
    /// the message that failed (the ones before it were applied).
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// let batch = json!([{"deleteSurface": {"surfaceId": "a"}}, {"deleteSurface": {}}]);
    /// assert_eq!(state.apply_batch(&batch).unwrap_err().index(), Some(1));
    /// ```
    pub fn index(&self) -> Option<usize> {
        self.0.index
    }
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.0.index {
            write!(f, "message {i}: ")?;
        }
        if let Some(s) = &self.0.surface_id {
            write!(f, "surface {s}: ")?;
        }
        if let Some(c) = &self.0.component_id {
            write!(f, "component {c}: ")?;
        }
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for RenderError {}
