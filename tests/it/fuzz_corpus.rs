//! Replays every fuzz input the repository keeps through the same functions the fuzz targets
//! call (`credence::fuzzing`), without the fuzzer: each input must pass the target's checks.
//! Per target: the small seeds in git (`fuzz/seeds/<target>/`), the input of every crash the
//! fuzzer found (`fuzz/regressions/<target>/`), and the minimized corpus, kept as one
//! gzip-compressed tar per target (`fuzz/corpus-archives/<target>.tar.gz`) and read here in
//! memory. `fuzzing` is a default feature so that `cargo test` builds and runs this.

use std::io::Read;
use std::path::{Path, PathBuf};

use credence::fuzzing::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of `dir`, each as (path, bytes), in name order; none if `dir` is missing.
fn files_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    paths.sort();
    paths.into_iter().map(|p| (p.display().to_string(), std::fs::read(&p).unwrap())).collect()
}

/// The number in an octal field of a tar header (NUL- or space-terminated).
fn octal(field: &[u8]) -> usize {
    let text = std::str::from_utf8(field).expect("a tar number is ASCII");
    let digits = text.trim_matches(|c: char| c == '\0' || c == ' ');
    usize::from_str_radix(digits, 8).unwrap_or_else(|_| panic!("a tar number is octal, not {digits:?}"))
}

/// The regular files of a ustar archive (what `fuzz/run.sh` writes), each as (name, bytes).
/// Directory entries are skipped; any other kind of entry is refused, so that a repacked
/// archive in another format fails here rather than being read wrong.
fn tar_files(tar: &[u8], archive: &str) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut at = 0;
    while at + 512 <= tar.len() && tar[at..at + 512].iter().any(|&b| b != 0) {
        let header = &tar[at..at + 512];
        let field = |range: std::ops::Range<usize>| String::from_utf8_lossy(&header[range]).trim_end_matches('\0').to_string();
        let (prefix, name) = (field(345..500), field(0..100));
        let name = if prefix.is_empty() { name } else { format!("{prefix}/{name}") };
        let size = octal(&header[124..136]);
        let body = at + 512;
        match header[156] {
            b'0' | b'\0' => files.push((format!("{archive}:{name}"), tar[body..body + size].to_vec())),
            b'5' => {}
            kind => panic!("{archive}: entry {name} is of tar type {:?}; only files and folders are expected", kind as char),
        }
        at = body + size.div_ceil(512) * 512;
    }
    files
}

/// The minimized corpus of `target`, read from its archive.
fn archived_corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let path = fuzz_dir().join("corpus-archives").join(format!("{target}.tar.gz"));
    let compressed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: every target keeps a corpus archive", path.display()));
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(compressed.as_slice()).read_to_end(&mut tar).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    tar_files(&tar, &path.display().to_string())
}

/// Runs `target` on every input; a failing input is named before the panic goes on.
fn replay(name: &str, target: fn(&[u8]), inputs: &[(String, Vec<u8>)]) {
    for (origin, data) in inputs {
        if std::panic::catch_unwind(|| target(data)).is_err() {
            panic!("fuzz target {name} fails on {origin}");
        }
    }
}

#[test]
fn every_target_passes_its_seeds_regressions_and_corpus() {
    let root = fuzz_dir();
    for (name, target) in TARGETS {
        let seeds = files_in(&root.join("seeds").join(name));
        assert!(!seeds.is_empty(), "fuzz/seeds/{name}/ is empty or missing: every target keeps seeds in git");
        replay(name, *target, &seeds);
        replay(name, *target, &files_in(&root.join("regressions").join(name)));
        let corpus = archived_corpus(name);
        assert!(corpus.len() > seeds.len(), "fuzz/corpus-archives/{name}.tar.gz holds {} inputs, fewer than the seeds", corpus.len());
        replay(name, *target, &corpus);
    }
}

#[test]
fn every_fuzz_target_has_a_binary() {
    let root = fuzz_dir().join("fuzz_targets");
    for (name, _) in TARGETS {
        let source = std::fs::read_to_string(root.join(format!("{name}.rs"))).unwrap_or_default();
        assert!(source.contains(&format!("credence::fuzzing::{name}(")), "fuzz/fuzz_targets/{name}.rs does not call credence::fuzzing::{name}");
    }
}

/// The archive reader above against `tar` itself: a ustar archive of two files and a folder,
/// one file longer than a block, reads back to exactly those files.
#[test]
fn the_archive_reader_reads_what_tar_writes() {
    let dir = std::env::temp_dir().join(format!("credence-fuzz-tar-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("t")).unwrap();
    let long: Vec<u8> = (0..1300u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(dir.join("t/a"), b"{}").unwrap();
    std::fs::write(dir.join("t/b"), &long).unwrap();
    let out = std::process::Command::new("tar").args(["--format=ustar", "--sort=name", "-C"]).arg(&dir).args(["-cf", "-", "t"]).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "tar failed: {}", String::from_utf8_lossy(&out.stderr));
    let files = tar_files(&out.stdout, "x");
    assert_eq!(files, vec![("x:t/a".to_string(), b"{}".to_vec()), ("x:t/b".to_string(), long)]);
}
