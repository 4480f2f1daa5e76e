//! JSON helpers for importers: parse errors with line and column, typed field access whose
//! errors name the key (`ttfts[12]`), and JSON Lines.

use std::path::Path;

use serde_json::Value;

use super::ImportError;

/// Parses a whole file as JSON; a syntax error (truncated file, wrong token) names its line.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Value, ImportError> {
    serde_json::from_slice(bytes).map_err(|e| ImportError::new(path, Some(format!("line {}, column {}", e.line(), e.column())), format!("not valid JSON: {e}")))
}

/// Parses JSON Lines (blank lines skipped); each error names its line.
pub fn parse_lines(path: &Path, bytes: &[u8]) -> Result<Vec<(usize, Value)>, ImportError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ImportError::new(path, None, format!("not UTF-8 text: {e}")))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| ImportError::new(path, Some(format!("line {}", i + 1)), format!("not valid JSON: {e}")))?;
        out.push((i + 1, v));
    }
    Ok(out)
}

/// Typed access to one JSON object, with errors that name the file and the key.
pub struct Fields<'a> {
    pub path: &'a Path,
    pub v: &'a Value,
    /// Where this object is, e.g. `line 3` or `requests[7]`.
    pub at: String,
}

impl<'a> Fields<'a> {
    pub fn new(path: &'a Path, v: &'a Value, at: impl Into<String>) -> Fields<'a> {
        Fields { path, v, at: at.into() }
    }

    fn key(&self, k: &str) -> String {
        if self.at.is_empty() { format!("key {k}") } else { format!("{}, key {k}", self.at) }
    }

    pub fn err(&self, k: &str, expected: &str) -> ImportError {
        let got = match self.v.get(k) {
            None => "it is missing".to_string(),
            Some(x) => format!("found {}", short(x)),
        };
        ImportError::new(self.path, Some(self.key(k)), format!("expected {expected}; {got}"))
    }

    pub fn has(&self, k: &str) -> bool {
        self.v.get(k).is_some_and(|x| !x.is_null())
    }

    pub fn f64(&self, k: &str) -> Result<f64, ImportError> {
        self.v.get(k).and_then(Value::as_f64).ok_or_else(|| self.err(k, "a number"))
    }

    pub fn opt_f64(&self, k: &str) -> Result<Option<f64>, ImportError> {
        match self.v.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(x) => x.as_f64().map(Some).ok_or_else(|| self.err(k, "a number or null")),
        }
    }

    pub fn opt_str(&self, k: &str) -> Option<&'a str> {
        self.v.get(k).and_then(Value::as_str)
    }

    pub fn array(&self, k: &str) -> Result<&'a Vec<Value>, ImportError> {
        self.v.get(k).and_then(Value::as_array).ok_or_else(|| self.err(k, "an array"))
    }

    /// An array of numbers.
    pub fn numbers(&self, k: &str) -> Result<Vec<f64>, ImportError> {
        let a = self.array(k)?;
        a.iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_f64().ok_or_else(|| ImportError::new(self.path, Some(self.key(&format!("{k}[{i}]"))), format!("expected a number; found {}", short(x))))
            })
            .collect()
    }
}

/// A short rendering of a JSON value for error messages.
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 { format!("{}…", s.chars().take(40).collect::<String>()) } else { s }
}
