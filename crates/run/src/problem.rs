//! Findings of `validate` and the loader: what is wrong, where, and what was expected.

use std::fmt;

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// Rows a problem was seen on: the first few row numbers (0-based) and the total count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RowRef {
    pub first: Vec<u64>,
    pub count: u64,
}

/// One problem in a run directory.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    pub severity: Severity,
    /// File inside the run directory, e.g. `requests.parquet` or `run.json`.
    pub file: String,
    pub column: Option<String>,
    pub rows: Option<RowRef>,
    pub message: String,
    /// What a valid value looks like, e.g. `first_token_ns >= sent_ns`.
    pub expected: Option<String>,
}

impl Problem {
    pub fn error(file: &str, message: impl Into<String>) -> Problem {
        Problem { severity: Severity::Error, file: file.to_string(), column: None, rows: None, message: message.into(), expected: None }
    }

    pub fn warning(file: &str, message: impl Into<String>) -> Problem {
        Problem { severity: Severity::Warning, ..Problem::error(file, message) }
    }

    pub fn column(mut self, column: &str) -> Problem {
        self.column = Some(column.to_string());
        self
    }

    pub fn rows(mut self, rows: RowRef) -> Problem {
        self.rows = Some(rows);
        self
    }

    pub fn expected(mut self, expected: impl Into<String>) -> Problem {
        self.expected = Some(expected.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(c) = &self.column {
            write!(f, ": column {c}")?;
        }
        if let Some(r) = &self.rows {
            let list: Vec<String> = r.first.iter().map(u64::to_string).collect();
            if r.count == 1 {
                write!(f, ", row {}", list.join(", "))?;
            } else if r.count as usize == r.first.len() {
                write!(f, ", rows {}", list.join(", "))?;
            } else {
                write!(f, ", rows {}, ... ({} rows)", list.join(", "), r.count)?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(e) = &self.expected {
            write!(f, " (expected {e})")?;
        }
        Ok(())
    }
}

/// Collects the rows that fail one check, keeping the first few for the message.
#[derive(Debug, Default)]
pub struct RowCollector {
    first: Vec<u64>,
    count: u64,
    /// A short description of the first offending value.
    pub detail: Option<String>,
}

impl RowCollector {
    const KEEP: usize = 5;

    pub fn push(&mut self, row: usize) {
        if self.first.len() < Self::KEEP {
            self.first.push(row as u64);
        }
        self.count += 1;
    }

    /// Records the row, and the detail text if this is the first offending row.
    pub fn push_with(&mut self, row: usize, detail: impl FnOnce() -> String) {
        if self.count == 0 {
            self.detail = Some(detail());
        }
        self.push(row);
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn into_rows(self) -> Option<RowRef> {
        (self.count > 0).then_some(RowRef { first: self.first, count: self.count })
    }
}
