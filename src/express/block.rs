//! Compiling a whole block: its options, and the steps from text to checked messages.

use serde_json::Value;

use super::compile::{self, Compiler, DEFAULT_SURFACE};
use super::parse::{self, Statement};
use super::reader::StatementReader;
use super::{ExpressError, ExpressErrorKind};
use crate::official::catalog::{Catalog, Version};

/// What [`compile`](super::compile) emits: the protocol version and the surface a block without
/// `surface(...)` is for.
///
/// ```
/// use a2ui_stream::express::{CompileOptions, compile};
/// use a2ui_stream::official::catalog::{Catalog, Version};
///
/// let options = CompileOptions::default().with_version(Version::V09).with_surface_id("main");
/// let messages = compile("root = Text(\"Hi\")", &[Catalog::builtin(Version::V09)], &options)?;
/// let kinds: Vec<_> = messages.iter().filter_map(|m| m.as_object()?.keys().find(|k| *k != "version").cloned()).collect();
/// assert_eq!(kinds, ["createSurface", "updateComponents"]);
/// assert_eq!(messages[0]["createSurface"]["surfaceId"], "main");
/// assert_eq!(messages[0]["version"], "v0.9");
/// # Ok::<(), a2ui_stream::express::ExpressError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileOptions {
    version: Option<Version>,
    surface_id: String,
}

impl Default for CompileOptions {
    /// The first catalog's version, surface `default_surface`.
    fn default() -> Self {
        CompileOptions {
            version: None,
            surface_id: DEFAULT_SURFACE.to_owned(),
        }
    }
}

impl CompileOptions {
    /// Emits `version` (v0.9 or v1.0) instead of the first catalog's version.
    ///
    /// ```
    /// # use a2ui_stream::express::CompileOptions;
    /// use a2ui_stream::official::catalog::Version;
    /// let options = CompileOptions::default().with_version(Version::V09);
    /// assert_eq!(options.version(), Some(Version::V09));
    /// ```
    pub fn with_version(mut self, version: Version) -> Self {
        self.version = Some(version);
        self
    }

    /// Compiles a block without `surface(...)` for surface `id` instead of `default_surface`.
    ///
    /// ```
    /// # use a2ui_stream::express::CompileOptions;
    /// assert_eq!(CompileOptions::default().with_surface_id("main").surface_id(), "main");
    /// ```
    pub fn with_surface_id(mut self, id: impl Into<String>) -> Self {
        self.surface_id = id.into();
        self
    }

    /// The version asked for; `None` for the first catalog's.
    ///
    /// ```
    /// # use a2ui_stream::express::CompileOptions;
    /// assert_eq!(CompileOptions::default().version(), None);
    /// ```
    pub fn version(&self) -> Option<Version> {
        self.version
    }

    /// The surface of a block without `surface(...)`.
    ///
    /// ```
    /// # use a2ui_stream::express::CompileOptions;
    /// assert_eq!(CompileOptions::default().surface_id(), "default_surface");
    /// ```
    pub fn surface_id(&self) -> &str {
        &self.surface_id
    }
}

/// Every statement of `text`, read and parsed.
pub(crate) fn statements(text: &str) -> Result<Vec<Statement>, ExpressError> {
    let mut reader = StatementReader::new();
    let mut read = reader.feed(text.as_bytes());
    read.extend(reader.finish());
    let mut out = Vec::with_capacity(read.len());
    for statement in read {
        let statement = statement?;
        out.push(parse::statement(&statement.text, statement.offset)?);
    }
    Ok(out)
}

/// [`compile`](super::compile): reads, compiles, assembles and checks a whole block.
pub(crate) fn compile_block(
    text: &str,
    catalogs: &[Catalog],
    options: &CompileOptions,
) -> Result<Vec<Value>, ExpressError> {
    let statements = statements(text)?;
    if statements.is_empty() {
        return Err(ExpressError::of(
            ExpressErrorKind::Parse,
            Some(text.len() as u64),
            "expected a statement: the block is empty",
        ));
    }
    let mut compiler = Compiler::new(catalogs, options.version, &options.surface_id)?;
    let mut outputs = Vec::new();
    let mut rest = statements.as_slice();
    while let Some((first, after)) = rest.split_first() {
        // A `surface(...)` statement opens a scope; the definitions of the statements up to
        // the next one are known to all of them.
        let segment_start = if matches!(first, Statement::Surface(_)) {
            outputs.extend(compiler.statement(first)?);
            after
        } else {
            rest
        };
        let len = segment_start
            .iter()
            .position(|s| matches!(s, Statement::Surface(_)))
            .unwrap_or(segment_start.len());
        let (segment, next) = segment_start.split_at(len);
        for statement in segment {
            compiler.learn(statement);
        }
        for statement in segment {
            outputs.extend(compiler.statement(statement)?);
        }
        rest = next;
    }
    let messages = compile::assemble(outputs, compiler.scopes(), compiler.version(), catalogs)?;
    if messages.is_empty() {
        return Err(ExpressError::of(
            ExpressErrorKind::Validation,
            None,
            "the block compiles to no message: it has no component, data, surface or call",
        ));
    }
    let messages = validate(messages, catalogs)?;
    Ok(messages.into_iter().map(|(message, _)| message).collect())
}

/// Checks the messages against the validator of the catalog each belongs to, and hands them
/// back in their order (moved into each catalog's list and out again, never copied).
pub(crate) fn validate(
    messages: Vec<(Value, usize)>,
    catalogs: &[Catalog],
) -> Result<Vec<(Value, usize)>, ExpressError> {
    let invalid = |e: crate::official::validator::ValidationError| {
        ExpressError::of(
            ExpressErrorKind::Validation,
            None,
            format!("the compiled messages do not validate: {}", e.message()),
        )
    };
    let mut slots: Vec<Option<(Value, usize)>> = messages.into_iter().map(Some).collect();
    for (index, catalog) in catalogs.iter().enumerate() {
        let mut positions = Vec::new();
        let mut mine = Vec::new();
        for (position, slot) in slots.iter_mut().enumerate() {
            if matches!(slot, Some((_, c)) if *c == index)
                && let Some((message, _)) = slot.take()
            {
                positions.push(position);
                mine.push(message);
            }
        }
        if mine.is_empty() {
            continue;
        }
        let list = Value::Array(mine);
        let verdict = catalog.validator().map_err(invalid)?.validate(&list);
        if let Value::Array(mine) = list {
            for (position, message) in positions.into_iter().zip(mine) {
                if let Some(slot) = slots.get_mut(position) {
                    *slot = Some((message, index));
                }
            }
        }
        verdict.map_err(invalid)?;
    }
    Ok(slots.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::express::compile::Output;

    /// A stream: statements compiled one by one as the reader completes them, byte by byte,
    /// with nothing known ahead.
    fn streamed(text: &str, catalogs: &[Catalog]) -> Vec<Value> {
        let mut reader = StatementReader::new();
        let mut compiler = Compiler::new(catalogs, None, DEFAULT_SURFACE).unwrap();
        let mut outputs: Vec<Output> = Vec::new();
        let mut compile = |read: Vec<Result<super::super::reader::StatementText, ExpressError>>,
                           outputs: &mut Vec<Output>| {
            for statement in read {
                let statement = statement.unwrap();
                let parsed = parse::statement(&statement.text, statement.offset).unwrap();
                outputs.extend(compiler.statement(&parsed).unwrap());
            }
        };
        for byte in text.as_bytes() {
            compile(reader.feed(std::slice::from_ref(byte)), &mut outputs);
        }
        compile(reader.finish(), &mut outputs);
        let messages =
            compile::assemble(outputs, compiler.scopes(), compiler.version(), catalogs).unwrap();
        messages.into_iter().map(|(m, _)| m).collect()
    }

    #[test]
    fn statement_by_statement_is_the_whole_compile() {
        let text = "ctx = {id: $/id}\n/* the card */ root = Card(Column([title, Button(Text(\"Go\"), \"primary\",\n Event(\"go\", ctx))]))\ntitle = Text($/name, \"caption\") # forward\n$/name = \"Ada\"; $/id = 7\nopenUrl(\"https://a2ui.org\")";
        let catalogs = [Catalog::builtin(Version::V10)];
        let whole = compile_block(text, &catalogs, &CompileOptions::default()).unwrap();
        assert_eq!(streamed(text, &catalogs), whole);
        assert_eq!(whole.len(), 2);
        assert_eq!(whole[1]["callRendererFunction"]["functionCallId"], "call_1");
    }

    #[test]
    fn the_restaurant_card_streams_byte_by_byte() {
        let root = std::env::var_os("A2UI_SHARED").map_or_else(
            || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
            std::path::PathBuf::from,
        );
        let file = root.join("a2ui-express/20_restaurant-card.underscore.a2ui");
        let Ok(text) = std::fs::read_to_string(&file) else {
            return; // the shared data is not there
        };
        let catalogs = [Catalog::builtin(Version::V10)];
        let whole = compile_block(&text, &catalogs, &CompileOptions::default()).unwrap();
        assert_eq!(streamed(&text, &catalogs), whole);
    }

    #[test]
    fn an_empty_block_is_a_parse_error() {
        let catalogs = [Catalog::builtin(Version::V10)];
        let err = compile_block(" # nothing\n", &catalogs, &CompileOptions::default()).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ExpressErrorKind::Parse, Some(11))
        );
        let err = compile_block("x = 1", &catalogs, &CompileOptions::default()).unwrap_err();
        assert_eq!(err.kind(), ExpressErrorKind::Validation);
    }
}
