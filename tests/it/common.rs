//! Helpers shared by the integration tests: scratch folders, fixture copies, the real binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A simulated run analyzed in-process, as the studies draw them: its manifest, requests and
/// analysis (`resamples` bootstrap resamples, no telemetry).
pub fn simulated(
    o: &credence::simulate::SimOptions,
    resamples: usize,
) -> (credence::run::Manifest, credence::analyze::requests::RequestView, credence::analyze::Analysis) {
    let sim = credence::simulate::simulate(o).unwrap();
    let view = credence::analyze::requests::RequestView::from_table(&sim.data.requests);
    let opts = credence::analyze::AnalyzeOptions { resamples, ..credence::analyze::AnalyzeOptions::default() };
    let analysis = credence::analyze::analyze_view(&sim.data.manifest, &view, &credence::analyze::attribute::Telemetry::none(), &opts);
    (sim.data.manifest, view, analysis)
}

/// A scratch folder removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!("credence-test-{}-{tag}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixture(name: &str) -> PathBuf {
    repo().join("fixtures").join(name)
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs the real `credence` binary.
pub fn credence(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_credence")).args(args).output().expect("credence runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file under `dir` with its bytes, sorted by relative path.
pub fn dir_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p.strip_prefix(base).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// `credence mock-server` as its own process, on a free port; killed when dropped.
pub struct MockProcess {
    child: std::process::Child,
    pub url: String,
}

impl MockProcess {
    pub fn start(args: &[&str]) -> MockProcess {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_credence"))
            .args(["mock-server", "--port", "0"])
            .args(args)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let url = first.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("mock-server said {first:?}")).to_string();
        MockProcess { child, url }
    }
}

impl Drop for MockProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The numbers of a sentence, sorted: runs of digits with their decimal point and sign.
pub fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (c == '.' && !current.is_empty()) {
            current.push(c);
        } else if !current.is_empty() {
            out.push(current.trim_end_matches('.').to_string());
            current.clear();
        }
    }
    out.sort();
    out
}
