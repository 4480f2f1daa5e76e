//! JSON helpers for importers: parse errors with line and column, typed field access whose
//! errors name the key (`ttfts[12]`), and JSON Lines.

use std::path::Path;

use serde_json::Value;

use super::ImportError;

/// Parses a whole file as JSON; a syntax error (truncated file, wrong token) names its line.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Value, ImportError> {
    let quoted = quote_python_floats(bytes);
    serde_json::from_slice(quoted.as_deref().unwrap_or(bytes))
        .map_err(|e| ImportError::new(path, Some(format!("line {}, column {}", e.line(), e.column())), format!("not valid JSON: {e}")))
}

/// Python's `json.dump` writes `NaN`, `Infinity` and `-Infinity` for such floats by default,
/// which is not JSON. Outside strings they become the strings `"NaN"`, `"Infinity"` and
/// `"-Infinity"`: an optional number reads them as missing, and a required one is refused
/// with the value named. `None` when the text has none (nothing is copied then).
pub fn quote_python_floats(bytes: &[u8]) -> Option<Vec<u8>> {
    const TOKENS: [&[u8]; 3] = [b"-Infinity", b"Infinity", b"NaN"];
    let mut out: Option<Vec<u8>> = None;
    let (mut in_string, mut escaped, mut i) = (false, false, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            (escaped, in_string) = (!escaped && b == b'\\', escaped || b != b'"');
        } else if b == b'"' {
            in_string = true;
        } else if let Some(t) = TOKENS.iter().find(|t| bytes[i..].starts_with(t)) {
            let o = out.get_or_insert_with(|| bytes[..i].to_vec());
            o.push(b'"');
            o.extend_from_slice(t);
            o.push(b'"');
            i += t.len();
            continue;
        }
        if let Some(o) = out.as_mut() {
            o.push(b);
        }
        i += 1;
    }
    out
}

/// A string that `quote_python_floats` made of a non-finite Python float.
pub fn is_python_nonfinite(v: &Value) -> bool {
    matches!(v.as_str(), Some("NaN" | "Infinity" | "-Infinity"))
}

/// Parses JSON Lines (blank lines skipped); each error names its line.
pub fn parse_lines(path: &Path, bytes: &[u8]) -> Result<Vec<(usize, Value)>, ImportError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ImportError::new(path, None, format!("not UTF-8 text: {e}")))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let quoted = quote_python_floats(line.as_bytes());
        let v: Value = serde_json::from_slice(quoted.as_deref().unwrap_or(line.as_bytes()))
            .map_err(|e| ImportError::new(path, Some(format!("line {}", i + 1)), format!("not valid JSON: {e}")))?;
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

    /// A number, or Python's `NaN`/`Infinity` as a non-finite float for the caller to judge.
    pub fn number(&self, k: &str) -> Result<f64, ImportError> {
        self.v.get(k).and_then(number).ok_or_else(|| self.err(k, "a number"))
    }

    pub fn opt_f64(&self, k: &str) -> Result<Option<f64>, ImportError> {
        match self.v.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(x) if is_python_nonfinite(x) => Ok(None),
            Some(x) => x.as_f64().map(Some).ok_or_else(|| self.err(k, "a number or null")),
        }
    }

    pub fn opt_str(&self, k: &str) -> Option<&'a str> {
        self.v.get(k).and_then(Value::as_str)
    }

    pub fn array(&self, k: &str) -> Result<&'a Vec<Value>, ImportError> {
        self.v.get(k).and_then(Value::as_array).ok_or_else(|| self.err(k, "an array"))
    }

    /// An array of numbers; Python's `NaN` and `Infinity` read as non-finite floats, for the
    /// caller to judge where they matter.
    pub fn numbers(&self, k: &str) -> Result<Vec<f64>, ImportError> {
        numbers_at(self.path, self.array(k)?, &self.key(k))
    }
}

/// The numbers of array `a` (found at `at`), Python's non-finite floats included.
pub fn numbers_at(path: &Path, a: &[Value], at: &str) -> Result<Vec<f64>, ImportError> {
    a.iter()
        .enumerate()
        .map(|(i, x)| number(x).ok_or_else(|| ImportError::new(path, Some(format!("{at}[{i}]")), format!("expected a number; found {}", short(x)))))
        .collect()
}

/// A JSON number, or Python's `NaN`, `Infinity` and `-Infinity` as floats.
pub fn number(v: &Value) -> Option<f64> {
    match v.as_str() {
        Some("NaN") => Some(f64::NAN),
        Some("Infinity") => Some(f64::INFINITY),
        Some("-Infinity") => Some(f64::NEG_INFINITY),
        _ => v.as_f64(),
    }
}

/// A short rendering of a JSON value for error messages.
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 { format!("{}…", s.chars().take(40).collect::<String>()) } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_floats_outside_strings_are_quoted() {
        let text = br#"{"a": NaN, "b": [Infinity, -Infinity, 1.5], "c": "NaN \" Infinity", "d": null}"#;
        let quoted = quote_python_floats(text).unwrap();
        let v: Value = serde_json::from_slice(&quoted).unwrap();
        assert!(is_python_nonfinite(&v["a"]) && is_python_nonfinite(&v["b"][0]) && v["b"][1] == "-Infinity");
        assert_eq!(v["b"][2], 1.5);
        assert_eq!(v["c"], "NaN \" Infinity", "strings are left alone");
        assert!(quote_python_floats(br#"{"a": 1, "s": "NaN"}"#).is_none(), "valid JSON is not copied");
    }

    #[test]
    fn an_optional_nan_is_missing_and_a_required_one_is_named() {
        let path = Path::new("result.json");
        let v = parse(path, br#"{"ttft": NaN, "e2e": Infinity}"#).unwrap();
        let f = Fields::new(path, &v, "requests[3]");
        assert_eq!(f.opt_f64("ttft").unwrap(), None);
        let err = f.f64("e2e").unwrap_err().to_string();
        assert!(err.contains("requests[3], key e2e") && err.contains("Infinity"), "{err}");
    }
}
