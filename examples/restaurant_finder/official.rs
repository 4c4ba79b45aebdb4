//! The official A2UI validator, used for the after-stream check: the basic catalogs of v0.8, v0.9
//! and v1.0 are built into the crate ([`Catalog::builtin`]), so every version is checked with the
//! official rules on any checkout, with no file to find.

use crate::ui::Version;
use a2ui_stream::official::catalog::{Catalog, Version as SpecVersion};
use a2ui_stream::official::validator::{Validator, rejoin};
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The official validator of one version, or why the built-in catalog gave none.
type Checker = Result<Arc<Validator>, String>;

/// The official validators of the basic catalogs of v0.8, v0.9 and v1.0.
#[derive(Debug)]
pub struct Official {
    v08: Checker,
    v09: Checker,
    v10: Checker,
}

impl Official {
    /// The validators of the built-in basic catalogs, compiled once per process.
    ///
    /// v0.8 and v0.9 are checked as the benchmark checks them, with strict validation removed:
    /// the strict v0.8 schema closes off properties that valid examples of the specification use
    /// (`label` on a booking form's fields, for one). v1.0 is checked as the A2UI SDK checks it,
    /// strict schemas and identifier ids included.
    pub fn builtin() -> &'static Official {
        static OFFICIAL: OnceLock<Official> = OnceLock::new();
        OFFICIAL.get_or_init(|| {
            let compiled = |catalog: Catalog| catalog.validator().map_err(|e| e.to_string());
            let relaxed =
                |v: SpecVersion| compiled(Catalog::builtin(v).without_strict_validation());
            Official {
                v08: relaxed(SpecVersion::V08),
                v09: relaxed(SpecVersion::V09),
                v10: compiled(Catalog::builtin(SpecVersion::V10)),
            }
        })
    }

    fn checker(&self, v: Version) -> Result<&Validator, &str> {
        match v {
            Version::V08 => &self.v08,
            Version::V09 => &self.v09,
            _ => &self.v10,
        }
        .as_deref()
        .map_err(String::as_str)
    }

    /// Which check a run of version `v` gets, for log lines.
    pub fn describe(&self, v: Version) -> String {
        match self.checker(v) {
            Ok(_) => format!(
                "official A2UI validator (built-in {} basic catalog)",
                v.message_tag()
            ),
            Err(why) => format!(
                "no UI check: the built-in {} basic catalog does not compile ({why})",
                v.message_tag()
            ),
        }
    }

    /// Which check runs of every version get, for a server that speaks them all.
    pub fn describe_all(&self) -> String {
        if crate::ui::VERSIONS.iter().all(|v| self.checker(*v).is_ok()) {
            "official A2UI validator (built-in basic catalogs of v0.8, v0.9 and v1.0)".into()
        } else {
            let each: Vec<String> = crate::ui::VERSIONS
                .iter()
                .map(|v| self.describe(*v))
                .collect();
            each.join("; ")
        }
    }

    /// Validates the messages of one answer with all integrity checks, the components the
    /// splitter emitted one by one put back into one list per surface. An answer of a version
    /// whose catalog gave no validator is refused, with the reason.
    pub fn check(&self, v: Version, messages: &[Value]) -> Result<(), String> {
        let validator = self
            .checker(v)
            .map_err(|why| format!("no official validator for {}: {why}", v.message_tag()))?;
        validator
            .validate_with(&Value::Array(rejoin(messages)), true)
            .map_err(|e| e.to_string())
    }
}
