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

fn load(path: &Path) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: Value = serde_norway::from_str(&text)
        .map_err(|e| format!("{} is not valid YAML: {e}", path.display()))?;
    match value {
        Value::Array(cases) => Ok(cases),
        _ => Err(format!("{} is not a list of cases", path.display())),
    }
}

/// `Ok` when `message` matches the regular expression `pattern` (searched, as the suites mean
/// it), else why not.
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
