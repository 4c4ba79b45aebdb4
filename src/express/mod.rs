//! A2UI Express: the compact format a model can write instead of JSON, one statement per
//! component (`title = Text($/name, "h3")`), compiled to A2UI v0.9 and v1.0 messages.
//!
//! Enabled by the `express` cargo feature.

pub(crate) mod compile;
pub(crate) mod parse;
pub(crate) mod reader;
pub(crate) mod signature;

mod block;
mod decompile;
mod literal;
mod prompt;
mod response;
mod stream;

pub use block::CompileOptions;
pub use decompile::decompile;
pub use prompt::{prompt, prompt_allowing};
pub use response::{parse_response, unwrap, wrap};
pub use stream::ExpressParser;

/// The error of every Express operation: its kind, the byte where it went wrong, and what
/// happened.
pub type ExpressError = crate::Error<ExpressErrorKind>;

/// The rule an [`ExpressError`] says was broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExpressErrorKind {
    /// Text the format cannot read (the grammar's rule is in the message).
    Parse,
    /// Text that reads but names something the catalog does not declare, or compiles to
    /// messages the catalog rejects.
    Validation,
}

/// Compiles one block of Express `text` (the content between `<a2ui>` tags, without them) into
/// the A2UI messages it stands for, written against `catalogs` (the first is the one a surface
/// uses unless `surface("id", "catalogId")` names another), and checks them with the
/// catalogs' validators.
///
/// The messages are those of the official compiler: per surface, in the order the block
/// begins them, a `createSurface` holding the components and the data model (v1.0), or
/// `createSurface`, `updateComponents` and `updateDataModel` (v0.9); an `updateDataModel`
/// for a block of data assignments only; `deleteSurface` and `callRendererFunction` where
/// those statements stand. The version is `options`' or else the first catalog's.
///
/// Errors: [`ExpressErrorKind::Parse`] for text the grammar does not admit (and for a block
/// with no statement), at the offending byte; [`ExpressErrorKind::Validation`] for a name the
/// catalog does not declare, a property given twice or a required one missing, or messages the
/// catalog's validator rejects.
///
/// ```
/// use a2ui_stream::express::{CompileOptions, compile};
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use serde_json::json;
///
/// let text = r#"
///     root = Card(Column([title, Text("Welcome", "caption")]))
///     title = Text($/name)
///     $/name = "Ada"
/// "#;
/// let messages = compile(text, &[Catalog::builtin(Version::V10)], &CompileOptions::default())?;
/// let surface = &messages[0]["createSurface"];
/// assert_eq!(surface["surfaceId"], "default_surface");
/// assert_eq!(surface["components"][0], json!({"id": "root", "component": "Card", "child": "root_child"}));
/// assert_eq!(surface["components"][3]["text"], json!({"@path": "/name"}));
/// assert_eq!(surface["dataModel"], json!({"name": "Ada"}));
///
/// let err = compile("root = Text(\"Hi\"", &[Catalog::builtin(Version::V10)], &CompileOptions::default())
///     .unwrap_err();
/// assert_eq!(err.to_string(), "at byte 16: expected ',' or ')' to close the call of Text, found the end of the statement");
/// # Ok::<(), a2ui_stream::express::ExpressError>(())
/// ```
pub fn compile(
    text: &str,
    catalogs: &[crate::official::catalog::Catalog],
    options: &CompileOptions,
) -> Result<Vec<serde_json::Value>, ExpressError> {
    block::compile_block(text, catalogs, options)
}
