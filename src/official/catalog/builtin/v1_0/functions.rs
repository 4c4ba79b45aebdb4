//! The functions of the v1.0 basic catalog (as the released SDK, a2ui-core 0.4.0, enforces it).

use super::super::schema::*;
use super::ct;

/// The `required` function.
pub(super) fn required_fn() -> S {
    object()
        .fact("returnType", "validationResult")
        .prop("@call", constant("required"))
        .prop(
            "args",
            object().prop("value", any()).required(&["value"]).sealed(),
        )
        .required(&["@call", "args"])
}

/// The `regex` function.
pub(super) fn regex_fn() -> S {
    object()
        .fact("returnType", "validationResult")
        .prop("@call", constant("regex"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicString"))
                .prop("pattern", string())
                .required(&["value", "pattern"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `length` function.
pub(super) fn length_fn() -> S {
    object()
        .fact("returnType", "validationResult")
        .prop("@call", constant("length"))
        .prop(
            "args",
            object()
                .any(vec![requires(&["min"]), requires(&["max"])])
                .prop("value", ct("DynamicString"))
                .prop("min", integer().minimum(0))
                .prop("max", integer().minimum(0))
                .required(&["value"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `numeric` function.
pub(super) fn numeric_fn() -> S {
    object()
        .fact("returnType", "validationResult")
        .prop("@call", constant("numeric"))
        .prop(
            "args",
            object()
                .any(vec![requires(&["min"]), requires(&["max"])])
                .prop("value", ct("DynamicNumber"))
                .prop("min", number())
                .prop("max", number())
                .required(&["value"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `email` function.
pub(super) fn email_fn() -> S {
    object()
        .fact("returnType", "validationResult")
        .prop("@call", constant("email"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicString"))
                .required(&["value"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `formatString` function.
pub(super) fn format_string_fn() -> S {
    object()
        .fact("returnType", "string")
        .prop("@call", constant("formatString"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicString"))
                .required(&["value"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `formatNumber` function.
pub(super) fn format_number_fn() -> S {
    object()
        .fact("returnType", "string")
        .prop("@call", constant("formatNumber"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicNumber"))
                .prop("decimals", ct("DynamicNumber"))
                .prop("grouping", ct("DynamicBoolean"))
                .required(&["value"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `formatCurrency` function.
pub(super) fn format_currency_fn() -> S {
    object()
        .fact("returnType", "string")
        .prop("@call", constant("formatCurrency"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicNumber"))
                .prop("currency", ct("DynamicString"))
                .prop("decimals", ct("DynamicNumber"))
                .prop("grouping", ct("DynamicBoolean"))
                .required(&["value", "currency"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `formatDate` function.
pub(super) fn format_date_fn() -> S {
    object()
        .fact("returnType", "string")
        .prop("@call", constant("formatDate"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicValue"))
                .prop("format", ct("DynamicString"))
                .required(&["value", "format"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `pluralize` function.
pub(super) fn pluralize_fn() -> S {
    object()
        .fact("returnType", "string")
        .prop("@call", constant("pluralize"))
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
        .required(&["@call", "args"])
}

/// The `openUrl` function.
pub(super) fn open_url_fn() -> S {
    object()
        .fact("returnType", "void")
        .fact("requiresUserActivation", true)
        .prop("@call", constant("openUrl"))
        .prop(
            "args",
            object()
                .prop(
                    "url",
                    one_of(vec![
                        string().format("uri"),
                        ct("DataBinding"),
                        ct("FunctionCall"),
                    ]),
                )
                .required(&["url"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `and` function.
pub(super) fn and_fn() -> S {
    object()
        .fact("returnType", "boolean")
        .prop("@call", constant("and"))
        .prop(
            "args",
            object()
                .prop("values", list_of(ct("DynamicBoolean")).min_items(2))
                .required(&["values"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `or` function.
pub(super) fn or_fn() -> S {
    object()
        .fact("returnType", "boolean")
        .prop("@call", constant("or"))
        .prop(
            "args",
            object()
                .prop("values", list_of(ct("DynamicBoolean")).min_items(2))
                .required(&["values"])
                .sealed(),
        )
        .required(&["@call", "args"])
}

/// The `not` function.
pub(super) fn not_fn() -> S {
    object()
        .fact("returnType", "boolean")
        .prop("@call", constant("not"))
        .prop(
            "args",
            object()
                .prop("value", ct("DynamicBoolean"))
                .required(&["value"])
                .sealed(),
        )
        .required(&["@call", "args"])
}
