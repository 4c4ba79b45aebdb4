//! Schema errors in the words of Python's `jsonschema`, which the reference implementation
//! reports, and values written as Python writes them.

use std::fmt::Write as _;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

use super::{DetailCode, ErrorDetail};

pub(super) fn push_schema_errors(
    schema: &jsonschema::Validator,
    instance: &Value,
    base: &str,
    out: &mut Vec<String>,
) {
    if schema.is_valid(instance) {
        return;
    }
    for err in schema.iter_errors(instance) {
        let path = dotted_path(err.instance_path().as_str());
        out.push(located(base, &path, &worded(&err)));
    }
}

/// `base.path: message`, or `base: message` at the top.
fn located(base: &str, path: &str, message: &str) -> String {
    if path.is_empty() {
        format!("{base}: {message}")
    } else {
        format!("{base}.{path}: {message}")
    }
}

/// The error in words, a closed object's unexpected members named alone.
fn worded(err: &jsonschema::ValidationError<'_>) -> String {
    let message = describe(err);
    let closed = message.contains("Unevaluated properties are not allowed")
        || message.contains("Additional properties are not allowed");
    if closed {
        if let (Some(open), Some(close)) = (message.find('('), message.rfind(')')) {
            if open < close {
                return message.get(open + 1..close).unwrap_or_default().to_owned();
            }
        }
    }
    message
}

/// Like [`push_schema_errors`], and each error as a detail too: placed at `detail_base` and
/// the path within `instance` (a missing member at its own place), with the code of the
/// keyword that failed.
pub(super) fn push_schema_details(
    schema: &jsonschema::Validator,
    instance: &Value,
    base: &str,
    detail_base: &str,
    out: &mut Vec<String>,
    details: &mut Vec<ErrorDetail>,
) {
    if schema.is_valid(instance) {
        return;
    }
    for err in schema.iter_errors(instance) {
        let path = dotted_path(err.instance_path().as_str());
        let message = worded(&err);
        out.push(located(base, &path, &message));
        let mut place: Vec<&str> = [detail_base, path.as_str()]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect();
        let (code, missing) = match err.kind() {
            ValidationErrorKind::Required { property } => {
                (DetailCode::MissingField, property.as_str())
            }
            ValidationErrorKind::Type { .. } => (DetailCode::TypeMismatch, None),
            ValidationErrorKind::AdditionalProperties { .. }
            | ValidationErrorKind::UnevaluatedProperties { .. } => (DetailCode::ExtraField, None),
            _ => (DetailCode::InvalidValue, None),
        };
        place.extend(missing);
        details.push(ErrorDetail::new(place.join("."), code, message));
    }
}

/// `/a/0/b~1c` as `a.0.b/c`.
fn dotted_path(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

pub(super) fn sub_errors(kind: &ValidationErrorKind) -> Vec<&jsonschema::ValidationError<'static>> {
    match kind {
        ValidationErrorKind::AnyOf { context }
        | ValidationErrorKind::OneOfNotValid { context }
        | ValidationErrorKind::OneOfMultipleValid { context } => context.iter().flatten().collect(),
        _ => Vec::new(),
    }
}

/// One schema error in the words of Python's `jsonschema`.
pub(super) fn describe(err: &jsonschema::ValidationError<'_>) -> String {
    let instance: &Value = err.instance();
    let inst = py_repr(instance);
    match err.kind() {
        ValidationErrorKind::Required { property } => {
            format!("{} is a required property", py_repr(property))
        }
        ValidationErrorKind::Type { kind } => {
            let names: Vec<String> = match kind {
                TypeKind::Single(t) => vec![format!("'{t}'")],
                TypeKind::Multiple(set) => set.iter().map(|t| format!("'{t}'")).collect(),
            };
            format!("{inst} is not of type {}", names.join(", "))
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("{} was expected", py_repr(expected_value))
        }
        ValidationErrorKind::Enum { options } => {
            format!("{inst} is not one of {}", py_repr(options))
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            format!(
                "Additional properties are not allowed ({})",
                unexpected_list(unexpected)
            )
        }
        ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            format!(
                "Unevaluated properties are not allowed ({})",
                unexpected_list(unexpected)
            )
        }
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            format!("{inst} is not valid under any of the given schemas")
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            format!("{inst} is valid under each of more than one of the given schemas")
        }
        ValidationErrorKind::MinItems { limit } | ValidationErrorKind::MinLength { limit } => {
            if *limit == 1 {
                format!("{inst} should be non-empty")
            } else {
                format!("{inst} is too short")
            }
        }
        ValidationErrorKind::MaxItems { limit } | ValidationErrorKind::MaxLength { limit } => {
            if *limit == 0 {
                format!("{inst} is expected to be empty")
            } else {
                format!("{inst} is too long")
            }
        }
        ValidationErrorKind::MinProperties { limit } => {
            if *limit == 1 {
                format!("{inst} should be non-empty")
            } else {
                format!("{inst} does not have enough properties")
            }
        }
        ValidationErrorKind::MaxProperties { limit } => {
            if *limit == 0 {
                format!("{inst} is expected to be empty")
            } else {
                format!("{inst} has too many properties")
            }
        }
        ValidationErrorKind::Pattern { pattern } => {
            format!(
                "{inst} does not match {}",
                py_repr(&Value::String(pattern.clone()))
            )
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("{inst} is less than the minimum of {}", py_repr(limit))
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("{inst} is greater than the maximum of {}", py_repr(limit))
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!(
                "{inst} is less than or equal to the minimum of {}",
                py_repr(limit)
            )
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!(
                "{inst} is greater than or equal to the maximum of {}",
                py_repr(limit)
            )
        }
        ValidationErrorKind::Format { format } => {
            format!(
                "{inst} is not a {}",
                py_repr(&Value::String(format.clone()))
            )
        }
        ValidationErrorKind::UniqueItems => format!("{inst} has non-unique elements"),
        ValidationErrorKind::FalseSchema => format!("False schema does not allow {inst}"),
        ValidationErrorKind::Not { schema } => {
            format!("{inst} should not be valid under {}", py_repr(schema))
        }
        ValidationErrorKind::Contains => {
            format!("{inst} does not contain items matching the given schema")
        }
        ValidationErrorKind::PropertyNames { error } => describe(error),
        _ => err.to_string(),
    }
}

fn unexpected_list(names: &[String]) -> String {
    let quoted: Vec<String> = names
        .iter()
        .map(|n| py_repr(&Value::String(n.clone())))
        .collect();
    let verb = if quoted.len() == 1 { "was" } else { "were" };
    format!("{} {verb} unexpected", quoted.join(", "))
}

/// A JSON value written as Python's `repr` writes the equivalent Python value
/// (`'text'`, `True`, `None`, `{'k': 1}`), as the reference error messages quote values (see
/// the test `repr_matches_python`).
pub(super) fn py_repr(value: &Value) -> String {
    let mut out = String::new();
    write_repr(value, &mut out);
    out
}

fn write_repr(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => {
            if n.is_f64() {
                match n.as_f64() {
                    Some(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 => {
                        let _ = write!(out, "{f:.1}");
                    }
                    Some(f) => {
                        let _ = write!(out, "{f}");
                    }
                    None => {
                        let _ = write!(out, "{n}");
                    }
                }
            } else {
                let _ = write!(out, "{n}");
            }
        }
        Value::String(s) => {
            let quote = if s.contains('\'') && !s.contains('"') {
                '"'
            } else {
                '\''
            };
            out.push(quote);
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        let _ = write!(out, "\\x{:02x}", c as u32);
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(&Value::String(k.clone()), out);
                out.push_str(": ");
                write_repr(v, out);
            }
            out.push('}');
        }
    }
}
