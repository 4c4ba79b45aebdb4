//! The basic catalogs of v0.8, v0.9 and v1.0, built into the crate: [`Catalog::builtin`].
//!
//! Each version's facts (its message schema, common types, components with their properties,
//! types, enums and required members, functions) are written as Rust with the vocabulary of
//! [`schema`]: in the version's module, except the components and functions of v0.9 and v1.0,
//! which are much the same and are written once, as functions of the version, in [`components`]
//! and [`functions`]. The prose of the official files (descriptions, titles) is left out. Where
//! each fact comes from is said at the top of its module; `tests/builtin_catalogs.rs`
//! checks, against the official files, that the schemas are theirs keyword for keyword and that
//! examples and suite messages get the same verdicts and words from both.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::{Catalog, Version};

mod components;
mod functions;
mod schema;
mod v0_8;
mod v0_9;
mod v1_0;

impl Catalog {
    /// The basic catalog of `version`, built into the crate, so that messages can be validated
    /// with no file at hand. It validates as the official files do:
    ///
    /// * v0.8: the specification's `server_to_client.json` and
    ///   `standard_catalog_definition.json`, as [`Catalog::basic`] reads them;
    /// * v0.9: its `server_to_client.json`, `common_types.json` and basic `catalog.json`, as
    ///   [`Catalog::basic`] reads them;
    /// * v1.0: the message schema, common types and basic catalog as the released SDK
    ///   (a2ui-core 0.4.0) enforces them, with `"@path"` and `"@call"` bindings.
    ///
    /// Every call for a version hands out a copy of the same catalog, which shares its compiled
    /// [`validator`](Catalog::validator): the schemas are compiled once per process.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use serde_json::json;
    ///
    /// let catalog = Catalog::builtin(Version::V10);
    /// assert!(catalog.component_names().any(|name| name == "Button"));
    /// let validator = catalog.validator()?;
    /// let surface = json!({"version": "v1.0", "createSurface": {
    ///     "surfaceId": "s",
    ///     "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
    ///     "components": [
    ///         {"id": "root", "component": "Column", "children": ["greeting"]},
    ///         {"id": "greeting", "component": "Text", "text": {"@path": "/user/name"}}]}});
    /// assert!(validator.validate(&surface).is_ok());
    ///
    /// let mut unknown = surface.clone();
    /// unknown["createSurface"]["components"][1]["component"] = json!("Marquee");
    /// let err = validator.validate(&unknown).unwrap_err();
    /// assert!(err.message().contains("Unknown component: Marquee"));
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn builtin(version: Version) -> Catalog {
        static V08: OnceLock<Catalog> = OnceLock::new();
        static V09: OnceLock<Catalog> = OnceLock::new();
        static V10: OnceLock<Catalog> = OnceLock::new();
        let (cell, make): (&OnceLock<Catalog>, fn() -> Catalog) = match version {
            Version::V08 => (&V08, || {
                Catalog::new(
                    Version::V08,
                    v0_8::messages(),
                    v0_8::catalog(),
                    Value::Object(Map::new()),
                )
            }),
            Version::V09 => (&V09, || {
                let (catalog, order) = v0_9::catalog();
                Catalog::new(
                    Version::V09,
                    v0_9::messages(),
                    catalog,
                    v0_9::common_types(),
                )
                .with_declared_order(order)
            }),
            Version::V10 => (&V10, || {
                let (catalog, order) = v1_0::catalog();
                Catalog::new(
                    Version::V10,
                    v1_0::messages(),
                    catalog,
                    v1_0::common_types(),
                )
                .with_declared_order(order)
            }),
        };
        cell.get_or_init(make).clone()
    }
}

/// The names of the basic catalog's icons, as v0.9 and v1.0 list them.
const ICONS: [&str; 59] = [
    "accountCircle",
    "add",
    "arrowBack",
    "arrowForward",
    "attachFile",
    "calendarToday",
    "call",
    "camera",
    "check",
    "close",
    "delete",
    "download",
    "edit",
    "event",
    "error",
    "fastForward",
    "favorite",
    "favoriteOff",
    "folder",
    "help",
    "home",
    "info",
    "locationOn",
    "lock",
    "lockOpen",
    "mail",
    "menu",
    "moreVert",
    "moreHoriz",
    "notificationsOff",
    "notifications",
    "pause",
    "payment",
    "person",
    "phone",
    "photo",
    "play",
    "print",
    "refresh",
    "rewind",
    "search",
    "send",
    "settings",
    "share",
    "shoppingCart",
    "skipNext",
    "skipPrevious",
    "star",
    "starHalf",
    "starOff",
    "stop",
    "upload",
    "visibility",
    "visibilityOff",
    "volumeDown",
    "volumeMute",
    "volumeOff",
    "volumeUp",
    "warning",
];

/// The icons v0.9 added to those of v0.8: the media controls.
const MEDIA_ICONS: [&str; 11] = [
    "fastForward",
    "pause",
    "play",
    "rewind",
    "skipNext",
    "skipPrevious",
    "stop",
    "volumeDown",
    "volumeMute",
    "volumeOff",
    "volumeUp",
];

/// The icon names of v0.8: [`ICONS`] without the [`MEDIA_ICONS`], in the same order.
fn icons_without_media() -> Vec<&'static str> {
    ICONS
        .into_iter()
        .filter(|name| !MEDIA_ICONS.contains(name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_version_has_its_basic_components_and_compiles() {
        for (version, count) in [(Version::V08, 18), (Version::V09, 18), (Version::V10, 18)] {
            let catalog = Catalog::builtin(version);
            assert_eq!(catalog.version(), version);
            assert_eq!(catalog.component_names().count(), count, "{version:?}");
            assert!(
                catalog
                    .catalog_id()
                    .is_some_and(|id| id.starts_with("https://a2ui.org/"))
            );
            assert!(catalog.validator().is_ok(), "{version:?}");
        }
    }

    #[test]
    fn copies_share_one_compiled_validator() {
        let a = Catalog::builtin(Version::V09).validator().ok();
        let b = Catalog::builtin(Version::V09).validator().ok();
        assert!(
            a.zip(b)
                .is_some_and(|(a, b)| std::sync::Arc::ptr_eq(&a, &b))
        );
    }
}
