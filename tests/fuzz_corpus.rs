//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/`) and the inputs of every crash
//! the fuzzer found (`fuzz/regressions/<target>/`) through the same functions the fuzz targets
//! call (`credence::fuzzing`), without the fuzzer: each input must pass the target's checks.

use std::path::{Path, PathBuf};

use credence::fuzzing::TARGETS;

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

/// Runs `target` on every file of `dir`; a failing input is named before the panic goes on.
fn replay(name: &str, target: fn(&[u8]), dir: &Path) -> usize {
    let files = files_in(dir);
    for file in &files {
        let data = std::fs::read(file).unwrap();
        if std::panic::catch_unwind(|| target(&data)).is_err() {
            panic!("fuzz target {name} fails on {}", file.display());
        }
    }
    files.len()
}

#[test]
fn every_target_passes_its_corpus_and_regressions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (name, target) in TARGETS {
        let corpus = replay(name, *target, &root.join("corpus").join(name));
        assert!(corpus > 0, "fuzz/corpus/{name}/ is empty or missing: every target keeps a corpus");
        replay(name, *target, &root.join("regressions").join(name));
    }
}

#[test]
fn every_fuzz_target_has_a_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    for (name, _) in TARGETS {
        let source = std::fs::read_to_string(root.join(format!("{name}.rs"))).unwrap_or_default();
        assert!(source.contains(&format!("credence::fuzzing::{name}(")), "fuzz/fuzz_targets/{name}.rs does not call credence::fuzzing::{name}");
    }
}
