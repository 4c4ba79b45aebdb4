//! The functions of the v0.9 basic catalog (`specification/v0_9/catalogs/basic/catalog.json`).

use super::super::schema::*;
use super::ct;

/// The `required` function.
pub(super) fn required_fn() -> S {
    object()
        .prop("call", constant("required"))
        .prop(
            "args",
            object().prop("value", any()).required(&["value"]).closed(),
        )
        .prop("returnType", constant("boolean"))
        .required(&["call", "args"])
        .sealed()
}

/// The `regex` function.
pub(super) fn regex_fn() -> S {
    object()
        .prop("call", constant("regex"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicString"))
                .prop("pattern", string())
                .required(&["value", "pattern"])
                .sealed(),
        )
        .prop("returnType", constant("boolean"))
        .required(&["call", "args"])
        .sealed()
}

/// The `length` function.
pub(super) fn length_fn() -> S {
    object()
        .prop("call", constant("length"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicString"))
                .prop("min", integer().minimum(0))
                .prop("max", integer().minimum(0))
                .required(&["value"])
                .any(vec![requires(&["min"]), requires(&["max"])])
                .sealed(),
        )
        .prop("returnType", constant("boolean"))
        .required(&["call", "args"])
        .sealed()
}

/// The `numeric` function.
pub(super) fn numeric_fn() -> S {
    object()
        .prop("call", constant("numeric"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicNumber"))
                .prop("min", number())
                .prop("max", number())
                .required(&["value"])
                .any(vec![requires(&["min"]), requires(&["max"])])
                .sealed(),
        )
        .prop("returnType", constant("boolean"))
        .required(&["call", "args"])
        .sealed()
}

/// The `email` function.
pub(super) fn email_fn() -> S {
    object()
        .prop("call", constant("email"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicString"))
                .required(&["value"])
                .sealed(),
        )
        .prop("returnType", constant("boolean"))
        .required(&["call", "args"])
        .sealed()
}

/// The `formatString` function.
pub(super) fn format_string_fn() -> S {
    object()
        .prop("call", constant("formatString"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicString"))
                .required(&["value"])
                .sealed(),
        )
        .prop("returnType", constant("string"))
        .required(&["call", "args"])
        .sealed()
}

/// The `formatNumber` function.
pub(super) fn format_number_fn() -> S {
    object()
        .prop("call", constant("formatNumber"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicNumber"))
                .prop("decimals", ct("DynamicNumber"))
                .prop("grouping", ct("DynamicBoolean"))
                .required(&["value"])
                .sealed(),
        )
        .prop("returnType", constant("string"))
        .required(&["call", "args"])
        .sealed()
}

/// The `formatCurrency` function.
pub(super) fn format_currency_fn() -> S {
    object()
        .prop("call", constant("formatCurrency"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicNumber"))
                .prop("currency", ct("DynamicString"))
                .prop("decimals", ct("DynamicNumber"))
                .prop("grouping", ct("DynamicBoolean"))
                .required(&["currency", "value"])
                .sealed(),
        )
        .prop("returnType", constant("string"))
        .required(&["call", "args"])
        .sealed()
}

/// The `formatDate` function.
pub(super) fn format_date_fn() -> S {
    object()
        .prop("call", constant("formatDate"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicValue"))
                .prop("format", ct("DynamicString"))
                .required(&["format", "value"])
                .sealed(),
        )
        .prop("returnType", constant("string"))
        .required(&["call", "args"])
        .sealed()
}

/// The `pluralize` function.
pub(super) fn pluralize_fn() -> S {
    object()
        .prop("call", constant("pluralize"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicNumber"))
                .prop("zero", ct("DynamicString"))
                .prop("one", ct("DynamicString"))
                .prop("two", ct("DynamicString"))
                .prop("few", ct("DynamicString"))
                .prop("many", ct("DynamicString"))
                .prop("other", ct("DynamicString"))
                .required(&["value", "other"])
                .sealed(),
        )
        .prop("returnType", constant("string"))
        .required(&["call", "args"])
        .sealed()
}

/// The `openUrl` function.
pub(super) fn open_url_fn() -> S {
    object()
        .prop("call", constant("openUrl"))
        .prop(
            "args",
            object()
                .prop("url", string().format("uri"))
                .required(&["url"])
                .closed(),
        )
        .prop("returnType", constant("void"))
        .required(&["call", "args"])
        .sealed()
}

/// The `and` function.
pub(super) fn and_fn() -> S {
    object()
        .prop("call", constant("and"))
        .prop(
            "args",
            object()
                .prop("values", list_of(ct("DynamicBoolean")).min_items(2))
                .required(&["values"])
                .sealed(),
        )
        .prop("returnType", constant("boolean"))
        .required(&["call", "args"])
        .sealed()
}

/// The `or` function.
pub(super) fn or_fn() -> S {
    object()
        .prop("call", constant("or"))
        .prop(
            "args",
            object()
                .prop("values", list_of(ct("DynamicBoolean")).min_items(2))
                .required(&["values"])
                .sealed(),
        )
        .prop("returnType", constant("boolean"))
        .required(&["call", "args"])
        .sealed()
}

/// The `not` function.
pub(super) fn not_fn() -> S {
    object()
        .prop("call", constant("not"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicBoolean"))
                .required(&["value"])
                .sealed(),
        )
        .prop("returnType", constant("boolean"))
        .required(&["call", "args"])
        .sealed()
}
