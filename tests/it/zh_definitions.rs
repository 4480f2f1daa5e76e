//! Every definition that the importers write beside a claim is a catalog message, worded in
//! every language: imports each peer and sample fixture (a test across the import and
//! messages crates, so it lives here).

use std::path::{Path, PathBuf};

use credence::import::detect::Format;
use credence::import::{ImportOptions, import};
use credence_messages::Lang;

/// The file groups of every peer and sample fixture, as an audit is given them: each
/// directory's files together, and each summary alone (its definitions then say what is
/// missing).
fn fixture_groups() -> Vec<(Vec<PathBuf>, Format)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let files = |dir: &Path| -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
        out.extend(std::fs::read_dir(dir.join("logs")).into_iter().flatten().flatten().map(|e| e.path()));
        out.retain(|p| p.is_file() && !["harness.json", "inputs.json", "tool-stdout.txt", "README.md", "validation.json"].iter().any(|n| p.ends_with(n)));
        out.retain(|p| {
            !p.extension().is_some_and(|x| x == "csv" || x == "txt") || p.ends_with("mlperf_log_detail.txt") || p.ends_with("mlperf_log_summary.txt")
        });
        out.sort();
        out
    };
    let mut groups = Vec::new();
    for tool in ["peers/aiperf-0.13.0", "peers/guidellm-0.8.1", "peers/inference-perf-0.7.0", "samples/mlperf_loadgen"] {
        for case in std::fs::read_dir(root.join(tool)).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
            let all = files(&case);
            let format = if tool.contains("guidellm") { Format::Guidellm } else { Format::Auto };
            groups.extend(
                all.iter()
                    .filter(|p| p.to_string_lossy().contains("summary") || p.ends_with("profile_export_aiperf.json"))
                    .map(|p| (vec![p.clone()], format)),
            );
            groups.push((all, format));
        }
    }
    let llmperf = root.join("samples/llmperf");
    for provider in ["groq_70b", "together_70b"] {
        let group = ["individual", "summary"].map(|k| llmperf.join(format!("leaderboard_{k}_{provider}.json")));
        groups.push((group.to_vec(), Format::Auto));
    }
    groups
}

#[test]
fn every_definition_the_importers_emit_is_a_message_in_every_language() {
    let mut seen = 0;
    for (paths, format) in fixture_groups() {
        if paths.is_empty() {
            continue;
        }
        let Ok(result) = import(&paths, format, &ImportOptions::default(), true) else { continue };
        for c in &result.claims {
            if let Some(d) = &c.definition {
                seen += 1;
                assert!(credence_messages::ids().contains(&d.0.id.as_str()), "{:?} (of {} in {paths:?}) is not in locales/*/definitions.ftl", d.0.id, c.key);
                let (en, zh) = (d.0.render(Lang::En), d.0.render(Lang::Zh));
                assert!(en != zh && !zh.contains('{') && !en.contains('{'), "{:?} renders as {en:?} / {zh:?}", d.0.id);
            }
        }
    }
    assert!(seen > 1000, "only {seen} definitions seen: the fixtures no longer import");
}

