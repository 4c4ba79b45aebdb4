//! What the suite runners share: loading a suite file, naming its cases, matching an error
//! message against a case's `expect_error` pattern, and printing a suite's tally.

use std::path::Path;

use serde_json::Value;

/// One result per case of `suites/<file>` under `conformance_dir`, named by the case's `name`
/// (or its position). A suite that cannot be read or parsed is one failing result.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn run(
    conformance_dir: &Path,
    file: &str,
    run_case: impl Fn(&Value) -> Result<(), String>,
) -> Vec<(String, Result<(), String>)> {
    run_path(&conformance_dir.join("suites").join(file), file, run_case)
}

/// One result per case of the suite at `path`, named by the case's `name` (or its position). A
/// suite that cannot be read or parsed is one failing result, named `file`.
pub fn run_path(
    path: &Path,
    file: &str,
    run_case: impl Fn(&Value) -> Result<(), String>,
) -> Vec<(String, Result<(), String>)> {
    let cases = match load(path) {
        Ok(cases) => cases,
        Err(e) => return vec![(file.to_owned(), Err(e))],
    };
    cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let name = case
                .get("name")
                .and_then(Value::as_str)
                .map_or_else(|| format!("case #{i}"), str::to_owned);
            (name, run_case(case))
        })
        .collect()
}

/// One result per case of the suite at `path`, named as [`run_path`] names them.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn run_file(
    path: &Path,
    run_case: impl Fn(&Value) -> Result<(), String>,
) -> Vec<(String, Result<(), String>)> {
    run_path(path, &path.display().to_string(), run_case)
}

fn load(path: &Path) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: Value = serde_norway::from_str(&lone_surrogates_replaced(&text))
        .map_err(|e| format!("{} is not valid YAML: {e}", path.display()))?;
    match value {
        Value::Array(cases) => Ok(cases),
        _ => Err(format!("{} is not a list of cases", path.display())),
    }
}

/// The YAML text with every escape of a lone UTF-16 surrogate (`"\\ud83d"` not followed by its
/// low half) in a double-quoted scalar written as `\\ufffd`, the replacement character.
///
/// The suites are written for Python, whose strings may hold a lone surrogate: a step that cuts
/// an escaped surrogate pair in two expects the string as far as it goes, ending in the high
/// half. A Rust string cannot hold that half; it holds U+FFFD in its place, as
/// `String::from_utf16_lossy` does, and so does the parser's output. Single-quoted and plain
/// scalars (a chunk's JSON text) are left as they are: there `\\u` is not an escape.
fn lone_surrogates_replaced(text: &str) -> std::borrow::Cow<'_, str> {
    #[derive(PartialEq)]
    enum In {
        Plain,
        Single,
        Double,
    }
    if !text.to_ascii_lowercase().contains("\\ud") {
        return text.into();
    }
    // The UTF-16 unit written by the four hex digits at `at`, if they are that.
    let unit = |at: usize| {
        text.get(at..at + 4)
            .and_then(|digits| u16::from_str_radix(digits, 16).ok())
    };
    let high = |at: usize| {
        text.get(at..at + 2) == Some("\\u")
            && unit(at + 2).is_some_and(|u| (0xD800..0xDC00).contains(&u))
    };
    let low = |at: usize| {
        text.get(at..at + 2) == Some("\\u")
            && unit(at + 2).is_some_and(|u| (0xDC00..0xE000).contains(&u))
    };
    let mut out = String::with_capacity(text.len());
    let mut state = In::Plain;
    // The last character that is not a space or tab ('\n' at the start of a line), and
    // whether a space or tab came after it.
    let mut last = '\n';
    let mut spaced = false;
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        let mut len = c.len_utf8();
        match state {
            In::Plain => {
                let starts =
                    matches!(last, '\n' | '[' | '{' | ',') || (matches!(last, ':' | '-') && spaced);
                if (c == '"' || c == '\'') && starts {
                    state = if c == '"' { In::Double } else { In::Single };
                } else if c == '#' && (spaced || last == '\n') {
                    len = text[at..].find('\n').unwrap_or(text.len() - at);
                }
            }
            In::Single => {
                if c == '\'' {
                    if text[at + 1..].starts_with('\'') {
                        len = 2;
                    } else {
                        state = In::Plain;
                    }
                }
            }
            In::Double => {
                if c == '"' {
                    state = In::Plain;
                } else if high(at) && low(at + 6) {
                    len = 12;
                } else if high(at) || low(at) {
                    out.push_str("\\ufffd");
                    at += 6;
                    continue;
                } else if c == '\\' {
                    len = 1 + text[at + 1..].chars().next().map_or(0, char::len_utf8);
                }
            }
        }
        out.push_str(&text[at..at + len]);
        let piece = &text[at..at + len];
        at += len;
        if piece == " " || piece == "\t" {
            spaced = true;
        } else if let Some(end) = piece.chars().last() {
            last = end;
            spaced = false;
        }
    }
    out.into()
}

/// `Ok` when `message` matches the regular expression `pattern` (searched, as the suites mean
/// it), else why not.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn error_matches(pattern: &str, message: &str) -> Result<(), String> {
    let re = regex::Regex::new(pattern).map_err(|r| format!("bad pattern {pattern:?}: {r}"))?;
    if re.is_match(message) {
        Ok(())
    } else {
        Err(format!("error {message:?} does not match {pattern:?}"))
    }
}

/// Prints the tally of one suite (`<suite>: N passed, N failed`) and its failures; returns the
/// number of failures.
pub fn report(suite: &str, results: &[(String, Result<(), String>)]) -> usize {
    let failed: Vec<_> = results.iter().filter(|(_, r)| r.is_err()).collect();
    for (name, result) in &failed {
        if let Err(why) = result {
            crate::support::say(&format!("FAIL {suite} {name}: {why}"));
        }
    }
    crate::support::say(&format!(
        "{suite}: {} passed, {} failed",
        results.len() - failed.len(),
        failed.len()
    ));
    failed.len()
}

/// Runs the suite file `path` with [`run_file`], reports it under its file name with
/// [`report`], and fails unless it holds `count` cases and none of them failed.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn check_file(path: &Path, count: usize, run_case: impl Fn(&Value) -> Result<(), String>) {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("suite");
    let results = run_file(path, run_case);
    assert_eq!(results.len(), count, "{name} should hold {count} cases");
    assert_eq!(report(name, &results), 0, "{name} failures");
}
