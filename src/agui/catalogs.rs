//! Catalog negotiation: name a catalog by the id the client knows.

use super::events::RunAgentInput;
use crate::MessageKind;
use serde_json::Value;

/// Ids under which renderers know the same catalog. The first of each group is the spec's (the
/// one `@a2ui/lit` knows), the second CopilotKit's (`@copilotkit/a2ui-renderer` 1.74).
const ALIASES: &[&[&str]] = &[&[
    "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
    "https://a2ui.org/specification/v0_9/basic_catalog.json",
]];

/// The catalog ids a client said it renders (empty when it said nothing).
///
/// Renderers know the same basic catalog under different ids: `@a2ui/lit` by the spec's
/// `https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json`, CopilotKit's
/// `@copilotkit/a2ui-renderer` by `https://a2ui.org/specification/v0_9/basic_catalog.json`, and a
/// renderer refuses a `createSurface` naming a catalog it does not know ("Catalog not found").
/// [`ClientCatalogs`] reads which ids the client named in its run input and renames a surface's
/// catalog to the client's alias of it.
///
/// A client names its catalogs in either of two places of a `RunAgentInput`:
/// - `forwardedProps.a2uiClientCapabilities`: the A2UI client capabilities, flat as in v0.8
///   (`{"supportedCatalogIds": [...]}`) or by version as in v0.9 (`{"v0.9": {...}}`);
/// - `context`: CopilotKit sends no capabilities object; it describes its catalog in a context
///   entry ("A2UI catalog capabilities: ...") that lists the ids it renders, one URL per line.
///
/// ```
/// use a2ui_stream::agui::ClientCatalogs;
/// use a2ui_stream::agui::events::RunAgentInput;
/// use serde_json::json;
///
/// let input: RunAgentInput = serde_json::from_value(json!({
///     "threadId": "t", "runId": "r", "messages": [], "tools": [], "context": [], "state": {},
///     "forwardedProps": {"a2uiClientCapabilities": {"v0.9": {"supportedCatalogIds": [
///         "https://a2ui.org/specification/v0_9/basic_catalog.json"]}}}
/// })).unwrap();
/// let catalogs = ClientCatalogs::from_input(&input);
/// let mut create = json!({"version": "v0.9", "createSurface": {"surfaceId": "s",
///     "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}});
/// assert!(catalogs.rename(&mut create));
/// assert_eq!(create["createSurface"]["catalogId"], "https://a2ui.org/specification/v0_9/basic_catalog.json");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientCatalogs {
    ids: Vec<String>,
}

/// Pushes the strings of a `supportedCatalogIds` list.
fn push_list(ids: &mut Vec<String>, list: Option<&Value>) {
    if let Some(Value::Array(list)) = list {
        ids.extend(list.iter().filter_map(Value::as_str).map(str::to_owned));
    }
}

impl ClientCatalogs {
    /// The ids named in `input` (see [`ClientCatalogs`] for where they are looked for).
    ///
    /// ```
    /// use a2ui_stream::agui::ClientCatalogs;
    /// use a2ui_stream::agui::events::{Context, RunAgentInput};
    ///
    /// let mut input = RunAgentInput::default();
    /// input.context.push(Context::new(
    ///     "A2UI catalog capabilities: available catalog IDs and custom component definitions the client can render.",
    ///     "Available A2UI catalog:\n- https://a2ui.org/specification/v0_9/basic_catalog.json (basic catalog)",
    /// ));
    /// let catalogs = ClientCatalogs::from_input(&input);
    /// assert_eq!(catalogs.ids(), ["https://a2ui.org/specification/v0_9/basic_catalog.json"]);
    /// ```
    pub fn from_input(input: &RunAgentInput) -> Self {
        let mut ids = Vec::new();
        if let Some(caps) = input
            .forwarded_props
            .as_ref()
            .and_then(|p| p.get("a2uiClientCapabilities"))
        {
            push_list(&mut ids, caps.get("supportedCatalogIds"));
            if let Value::Object(by_version) = caps {
                for v in by_version.values() {
                    push_list(&mut ids, v.get("supportedCatalogIds"));
                }
            }
        }
        for c in &input.context {
            if !c.description.contains("A2UI catalog") {
                continue;
            }
            for word in c.value.split_whitespace() {
                let word = word.trim_matches(|ch: char| "()[],;\"'".contains(ch));
                if word.starts_with("https://") || word.starts_with("http://") {
                    ids.push(word.to_owned());
                }
            }
        }
        ids.dedup();
        ClientCatalogs { ids }
    }

    /// The ids, in the order the client named them.
    ///
    /// ```
    /// assert!(a2ui_stream::agui::ClientCatalogs::default().ids().is_empty());
    /// ```
    pub fn ids(&self) -> &[String] {
        &self.ids
    }

    /// The id to name `catalog_id` by for this client: itself when the client named it or named
    /// nothing, else the client's alias of the same catalog, else itself.
    pub(crate) fn name_for<'a>(&'a self, catalog_id: &'a str) -> &'a str {
        if self.ids.is_empty() || self.ids.iter().any(|i| i == catalog_id) {
            return catalog_id;
        }
        ALIASES
            .iter()
            .find(|group| group.contains(&catalog_id))
            .and_then(|group| {
                self.ids
                    .iter()
                    .find(|i| group.contains(&i.as_str()))
                    .map(String::as_str)
            })
            .unwrap_or(catalog_id)
    }

    /// Renames the catalog a `createSurface` (or a v0.8 `beginRendering`) names to the name
    /// this client knows it by (the client's alias of the same catalog when it named one);
    /// `true` when it changed.
    ///
    /// ```
    /// use a2ui_stream::agui::ClientCatalogs;
    /// use serde_json::json;
    /// let mut other = json!({"deleteSurface": {"surfaceId": "s"}});
    /// assert!(!ClientCatalogs::default().rename(&mut other));
    /// ```
    pub fn rename(&self, message: &mut Value) -> bool {
        for kind in [MessageKind::CreateSurface, MessageKind::BeginRendering] {
            let Some(Value::String(id)) = message
                .get_mut(kind.key())
                .and_then(|b| b.get_mut("catalogId"))
            else {
                continue;
            };
            let name = self.name_for(id);
            if name != id {
                *id = name.to_owned();
                return true;
            }
        }
        false
    }
}
