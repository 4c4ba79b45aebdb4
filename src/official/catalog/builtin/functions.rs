//! The functions of the v0.9 and v1.0 basic catalogs, written once: the two versions give each
//! function the same arguments and differ in how a call is written (`"call"` in v0.9, `"@call"`
//! in v1.0), in how the return type is said (a `returnType` member in v0.9, a fact beside the
//! schema in v1.0, `validationResult` for the checks v0.9 says return a `boolean`) and in a few
//! details noted where they are.

use super::Version;
use super::schema::*;

/// What a function returns.
#[derive(Clone, Copy)]
enum Returns {
    /// A check's result: `boolean` in v0.9, `validationResult` in v1.0.
    Check,
    /// This type in both versions.
    Type(&'static str),
}

/// The basic catalog's functions of `version` (v0.9 or v1.0), in the catalog's order, their
/// common types referred to with `ct`.
pub(super) fn functions(version: Version, ct: fn(&str) -> S) -> Vec<(&'static str, S)> {
    let v10 = version >= Version::V10;
    let f = |name: &'static str, returns: Returns, args: S| {
        (name, function(version, name, returns, args))
    };
    let value_only = |schema: &str| {
        object()
            .prop("value", ct(schema))
            .required(&["value"])
            .sealed()
    };
    let bounded = |value: &str, bound: S| {
        object()
            .any(vec![requires(&["min"]), requires(&["max"])])
            .prop("value", ct(value))
            .prop("min", bound.clone())
            .prop("max", bound)
            .required(&["value"])
            .sealed()
    };
    let booleans = || {
        object()
            .prop("values", list_of(ct("DynamicBoolean")).min_items(2))
            .required(&["values"])
            .sealed()
    };
    // Two argument lists name their members in another order in each version.
    let in_order =
        |v09: [&'static str; 2], v10_order: [&'static str; 2]| if v10 { v10_order } else { v09 };
    let url = if v10 {
        one_of(vec![
            string().format("uri"),
            ct("DataBinding"),
            ct("FunctionCall"),
        ])
    } else {
        string().format("uri")
    };
    let open_url_args = object().prop("url", url).required(&["url"]);
    vec![
        f(
            "required",
            Returns::Check,
            // v0.9 closes the arguments to other members by `additionalProperties`.
            {
                let args = object().prop("value", any()).required(&["value"]);
                if v10 { args.sealed() } else { args.closed() }
            },
        ),
        f(
            "regex",
            Returns::Check,
            object()
                .prop("value", ct("DynamicString"))
                .prop("pattern", string())
                .required(&["value", "pattern"])
                .sealed(),
        ),
        f(
            "length",
            Returns::Check,
            bounded("DynamicString", integer().minimum(0)),
        ),
        f(
            "numeric",
            Returns::Check,
            bounded("DynamicNumber", number()),
        ),
        f("email", Returns::Check, value_only("DynamicString")),
        f(
            "formatString",
            Returns::Type("string"),
            value_only("DynamicString"),
        ),
        f(
            "formatNumber",
            Returns::Type("string"),
            object()
                .prop("value", ct("DynamicNumber"))
                .prop("decimals", ct("DynamicNumber"))
                .prop("grouping", ct("DynamicBoolean"))
                .required(&["value"])
                .sealed(),
        ),
        f(
            "formatCurrency",
            Returns::Type("string"),
            object()
                .prop("value", ct("DynamicNumber"))
                .prop("currency", ct("DynamicString"))
                .prop("decimals", ct("DynamicNumber"))
                .prop("grouping", ct("DynamicBoolean"))
                .required(&in_order(["currency", "value"], ["value", "currency"]))
                .sealed(),
        ),
        f(
            "formatDate",
            Returns::Type("string"),
            object()
                .prop("value", ct("DynamicValue"))
                .prop("format", ct("DynamicString"))
                .required(&in_order(["format", "value"], ["value", "format"]))
                .sealed(),
        ),
        f(
            "pluralize",
            Returns::Type("string"),
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
        ),
        // v1.0 takes a bound or computed URL too, and says the call needs a user's gesture.
        (
            "openUrl",
            if v10 {
                function(
                    version,
                    "openUrl",
                    Returns::Type("void"),
                    open_url_args.sealed(),
                )
                .fact("requiresUserActivation", true)
            } else {
                function(
                    version,
                    "openUrl",
                    Returns::Type("void"),
                    open_url_args.closed(),
                )
            },
        ),
        f("and", Returns::Type("boolean"), booleans()),
        f("or", Returns::Type("boolean"), booleans()),
        f(
            "not",
            Returns::Type("boolean"),
            value_only("DynamicBoolean"),
        ),
    ]
}

/// The schema of a call of function `name` of `version`, taking `args`.
fn function(version: Version, name: &str, returns: Returns, args: S) -> S {
    let v10 = version >= Version::V10;
    let returns = match returns {
        Returns::Check if v10 => "validationResult",
        Returns::Check => "boolean",
        Returns::Type(t) => t,
    };
    if v10 {
        object()
            .fact("returnType", returns)
            .prop("@call", constant(name))
            .prop("args", args)
            .required(&["@call", "args"])
    } else {
        object()
            .prop("call", constant(name))
            .prop("args", args)
            .prop("returnType", constant(returns))
            .required(&["call", "args"])
            .sealed()
    }
}
