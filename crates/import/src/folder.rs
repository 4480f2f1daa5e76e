//! A tool's output folder as input: `credence import reports/` and `credence audit ARTIFACTS/`.
//!
//! The folder is walked (regular files only, symbolic links not followed, at most `MAX_DEPTH`
//! folders down and `MAX_FILES` files), every file is detected from its content, and the files
//! are grouped into runs: a folder holding one per-request file is one run, with the side files
//! (summaries, logs, telemetry) in it and below it; a folder holding several (vLLM result JSONs)
//! makes one run of each. What is not read is set aside with the reason, for the CLI to list.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::detect::{Format, detect, unsupported};
use credence_messages::{Lang, Message};
use super::{ImportError, Input, read};

/// How many folders down the walk goes (AIPerf's `phases/warmup/` is two below its run).
pub const MAX_DEPTH: usize = 6;
/// How many files one folder argument may hold: past that it is not a tool's output folder.
pub const MAX_FILES: usize = 10_000;

/// A file set aside, and why (in the catalog's words: the CLI prints it in the user's language).
#[derive(Debug, Clone)]
pub struct Skipped {
    pub path: PathBuf,
    pub why: Message,
}

/// The files of one run, detected.
pub struct RunFiles {
    /// A name for the run's folder when several runs are written (from its place in the folder).
    pub name: String,
    pub(crate) inputs: Vec<Input>,
}

impl RunFiles {
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.inputs.iter().map(|i| i.path.as_path())
    }
}

/// What the paths hold: the runs, and the files set aside.
pub struct Gathered {
    pub runs: Vec<RunFiles>,
    pub skipped: Vec<Skipped>,
}

/// The formats whose file carries a run's per-request records (one such file is one run).
fn is_request_file(f: Format) -> bool {
    use Format::*;
    matches!(f, Vllm | Sglang | PerfAnalyzer | Aiperf | Llmperf | Guidellm | InferencePerf | MlcEndpoints | MlperfTrace)
}

/// The side files of which a run reads one: the nearest to the run's folder is read.
fn one_per_run(f: Format) -> bool {
    use Format::*;
    matches!(f, AiperfAggregate | AiperfLog | AiperfPhaseManifest | GenaiPerfAggregate | InferencePerfConfig | LlmperfSummary)
}

/// Reads and detects `paths`: folders are walked and grouped into runs; the files named
/// directly make one run (joined to the folder's run when a folder holds exactly one). A file
/// of a known tool that credence does not read is set aside, not refused.
pub fn gather(paths: &[PathBuf], format: Format) -> Result<Gathered, ImportError> {
    let (dirs, files): (Vec<&PathBuf>, Vec<&PathBuf>) = paths.iter().partition(|p| p.is_dir());
    let mut skipped = Vec::new();
    let mut runs = Vec::new();
    for dir in dirs {
        runs.extend(folder_runs(dir, &mut skipped)?);
    }
    let named = named_files(&files, format, &mut skipped)?;
    if !named.is_empty() {
        match runs.as_mut_slice() {
            [] => runs.push(RunFiles { name: "run".into(), inputs: named }),
            [one] => one.inputs.extend(named),
            _ => {
                return Err(ImportError::new(&named[0].path, None, format!("the folders hold {} runs: a file named beside them joins none", runs.len()))
                    .hint("give the file with the folder of its own run"));
            }
        }
    }
    if runs.is_empty() {
        return Err(nothing_read(paths, &skipped));
    }
    Ok(Gathered { runs, skipped })
}

/// The error when no file is left to read: the first file set aside names why.
fn nothing_read(paths: &[PathBuf], skipped: &[Skipped]) -> ImportError {
    match skipped.first() {
        None => ImportError::new(&paths[0], None, "an empty folder: no file to read"),
        Some(s) if skipped.len() == 1 && s.path == paths[0] => ImportError::new(&s.path, None, format!("not read: {}", s.why.render(Lang::En))),
        Some(_) => ImportError::new(&paths[0], None, format!("no file that credence reads ({} set aside)", skipped.len()))
            .hint(skipped.iter().map(|s| format!("{}: {}", s.path.display(), s.why.render(Lang::En))).collect::<Vec<_>>().join("; ")),
    }
}

/// The files named on the command line, read and detected (a format given applies to a single
/// file); the known files that credence does not read are set aside.
fn named_files(files: &[&PathBuf], format: Format, skipped: &mut Vec<Skipped>) -> Result<Vec<Input>, ImportError> {
    let mut inputs = Vec::new();
    for p in files {
        let bytes = read(p)?;
        let f = if format == Format::Auto || files.len() > 1 {
            detect(p, &bytes).map_err(|e| {
                if format == Format::Auto {
                    e
                } else {
                    e.hint(format!("with several files, each is detected from its content; the format {} given first applies to none of them", format.name()))
                }
            })?
        } else {
            format
        };
        match f {
            Format::Unsupported(key) => skipped.push(Skipped { path: p.to_path_buf(), why: unsupported(key) }),
            _ => inputs.push(Input { path: p.to_path_buf(), bytes, format: f }),
        }
    }
    Ok(inputs)
}

/// The runs of one folder.
fn folder_runs(root: &Path, skipped: &mut Vec<Skipped>) -> Result<Vec<RunFiles>, ImportError> {
    let mut files = Vec::new();
    walk(root, 0, &mut files, skipped)?;
    let mut inputs = Vec::new();
    for p in files {
        let bytes = read(&p)?;
        match detect(&p, &bytes) {
            Ok(Format::Unsupported(key)) => skipped.push(Skipped { path: p, why: unsupported(key) }),
            Ok(format) => inputs.push(Input { path: p, bytes, format }),
            Err(e) => skipped.push(Skipped { path: p, why: e.words.unwrap_or_else(|| Message::new("as-written").text("text", e.message)) }),
        }
    }
    let mut runs = group(root, inputs, skipped);
    for run in &mut runs {
        one_of_each(root, run, skipped);
        // In the walk's order, as a shell's `FOLDER/*` lists them: the same run either way.
        run.inputs.sort_by(|a, b| a.path.cmp(&b.path));
    }
    Ok(runs)
}

/// Collects the regular files under `dir`, in name order; symbolic links are not followed.
fn walk(dir: &Path, depth: usize, files: &mut Vec<PathBuf>, skipped: &mut Vec<Skipped>) -> Result<(), ImportError> {
    let cannot = |e: std::io::Error| ImportError::new(dir, None, format!("cannot read the folder: {e}"));
    let mut entries: Vec<_> = std::fs::read_dir(dir).map_err(cannot)?.collect::<Result<_, _>>().map_err(cannot)?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let kind = e.file_type().map_err(cannot)?;
        if kind.is_symlink() {
            skipped.push(Skipped { path, why: Message::new("skip-symlink") });
        } else if kind.is_dir() {
            if depth + 1 > MAX_DEPTH {
                skipped.push(Skipped { path, why: Message::new("skip-too-deep").int("depth", MAX_DEPTH) });
            } else {
                walk(&path, depth + 1, files, skipped)?;
            }
        } else if kind.is_file() {
            if files.len() == MAX_FILES {
                return Err(ImportError::new(dir, None, format!("more than {MAX_FILES} files: not a tool's output folder"))
                    .hint("give the folder of one benchmark's output"));
            }
            files.push(path);
        }
    }
    Ok(())
}

/// Groups a folder's files into runs (see the module's comment). A side file joins the run of
/// the nearest folder at or above its own that holds one per-request file; with exactly one
/// run in the folder every side file joins it; with none, the side files make one run (a
/// summary alone, which `audit` checks).
fn group(root: &Path, inputs: Vec<Input>, skipped: &mut Vec<Skipped>) -> Vec<RunFiles> {
    let parent = |i: &Input| i.path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut per_dir: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for i in inputs.iter().filter(|i| is_request_file(i.format)) {
        *per_dir.entry(parent(i)).or_default() += 1;
    }
    let (requests, sides): (Vec<Input>, Vec<Input>) = inputs.into_iter().partition(|i| is_request_file(i.format));
    if requests.is_empty() {
        return if sides.is_empty() { Vec::new() } else { vec![RunFiles { name: run_name(root, root), inputs: sides }] };
    }
    let single = requests.len() == 1;
    let mut runs: Vec<RunFiles> = requests
        .into_iter()
        .map(|i| {
            let alone = per_dir[&parent(&i)] > 1;
            let name = if alone { run_name(root, &i.path.with_extension("")) } else { run_name(root, &parent(&i)) };
            RunFiles { name, inputs: vec![i] }
        })
        .collect();
    for side in sides {
        let home = side.path.ancestors().skip(1).take_while(|a| a.starts_with(root)).find_map(|a| per_dir.get(a).map(|n| (a.to_path_buf(), *n)));
        match home {
            _ if single => runs[0].inputs.push(side),
            Some((dir, 1)) => runs.iter_mut().find(|r| parent(&r.inputs[0]) == dir).expect("the folder's run").inputs.push(side),
            Some((dir, n)) => {
                skipped.push(Skipped { path: side.path, why: Message::new("skip-ambiguous").int("n", n).text("dir", dir.display().to_string()) })
            }
            None => skipped.push(Skipped { path: side.path, why: Message::new("skip-no-run") }),
        }
    }
    unique_names(&mut runs);
    runs
}

/// A run's name from its place under `root`: the relative path with `/` as `-`, or the root's
/// own name.
fn run_name(root: &Path, at: &Path) -> String {
    let rel = at.strip_prefix(root).unwrap_or(at);
    let text = if rel.as_os_str().is_empty() {
        root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    } else {
        rel.to_string_lossy().replace(['/', '\\'], "-")
    };
    let clean: String = text.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect();
    if clean.is_empty() || clean.starts_with('.') { format!("run{clean}") } else { clean }
}

/// Makes the run names distinct (`name`, `name-2`, …).
fn unique_names(runs: &mut [RunFiles]) {
    let mut seen = std::collections::BTreeSet::new();
    for r in runs.iter_mut() {
        let base = r.name.clone();
        let mut k = 1;
        while !seen.insert(r.name.clone()) {
            k += 1;
            r.name = format!("{base}-{k}");
        }
    }
}

/// Of the side files a run reads one of (a summary, a log, a config), keeps the nearest to the
/// run's folder and sets the others aside (AIPerf's per-phase summaries under `phases/`).
fn one_of_each(root: &Path, run: &mut RunFiles, skipped: &mut Vec<Skipped>) {
    let depth = |p: &Path| p.strip_prefix(root).map_or(usize::MAX, |r| r.components().count());
    let mut kept: BTreeMap<&'static str, (usize, PathBuf)> = BTreeMap::new();
    for i in run.inputs.iter().filter(|i| one_per_run(i.format)) {
        let candidate = (depth(&i.path), i.path.clone());
        let slot = kept.entry(i.format.name()).or_insert_with(|| candidate.clone());
        if candidate < *slot {
            *slot = candidate;
        }
    }
    let (keep, drop): (Vec<Input>, Vec<Input>) =
        std::mem::take(&mut run.inputs).into_iter().partition(|i| !one_per_run(i.format) || kept[i.format.name()].1 == i.path);
    run.inputs = keep;
    for i in drop {
        let read = &kept[i.format.name()].1;
        let why = Message::new("skip-another").text("format", i.format.name()).text("path", read.display().to_string());
        skipped.push(Skipped { path: i.path, why });
    }
}
