//! `--tokenizer`: prompts of exact token lengths. The model's own `tokenizer.json` is read with
//! Hugging Face's reference implementation, and its vocabulary gives the words (ASCII letters)
//! that it makes into exactly one token, both at a text's start and after a space. A prompt of
//! n such words, space-separated, is then n tokens, with no encoding on the send path: building
//! an 8,192-token prompt costs what a word prompt costs.
//!
//! A self-check at load encodes a long sample and compares token for token, so a tokenizer for
//! which the rule does not hold (a normalizer that merges words, say) is refused, never used
//! approximately. Nothing is fetched: a missing file is an error naming the path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tokenizers::Tokenizer;

/// Fewer one-token words than this and prompts would repeat too often to tell apart. With 16,
/// two random prompts share a cache block of 16 tokens with odds of 16^-16; small test
/// tokenizers (the peers' has 47 such words) must still build prompts.
const MIN_WORDS: usize = 16;
/// Words in the load-time self-check.
const CHECK_WORDS: usize = 2048;

/// A tokenizer and the words it makes into one token each.
pub struct TokenWords {
    tokenizer: Tokenizer,
    /// Sorted, so that the same tokenizer gives the same prompts for the same seed.
    words: Vec<String>,
    /// Each word's token id at a text's start and after a space.
    ids: BTreeMap<String, (u32, u32)>,
    /// Tokens the tokenizer adds to a text of its own (a BOS, say): a completions prompt's cost
    /// beyond its words.
    added: u32,
    /// The file read, as given.
    pub source: String,
}

impl std::fmt::Debug for TokenWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TokenWords({}, {} one-token words)", self.source, self.words.len())
    }
}

/// `path` itself, or the `tokenizer.json` in the model folder it names.
fn tokenizer_file(path: &Path) -> Result<PathBuf, String> {
    let file = if path.is_dir() { path.join("tokenizer.json") } else { path.to_path_buf() };
    if !file.is_file() {
        let what = if path.is_dir() { "the folder holds no tokenizer.json" } else { "no such file (give a tokenizer.json or a model folder that holds one)" };
        return Err(format!("--tokenizer {}: {what}", path.display()));
    }
    Ok(file)
}

impl TokenWords {
    /// Reads a tokenizer and finds its one-token words; errors name the file.
    pub fn load(path: &Path) -> Result<TokenWords, String> {
        let file = tokenizer_file(path)?;
        let name = file.display().to_string();
        let tokenizer = Tokenizer::from_file(&file).map_err(|e| format!("{name}: cannot load the tokenizer: {e}"))?;
        let ids = one_token_words(&tokenizer, &name)?;
        if ids.len() < MIN_WORDS {
            return Err(format!("{name}: only {} words are one token each (at least {MIN_WORDS} are needed to build prompts of exact length)", ids.len()));
        }
        let added = count_of(&tokenizer, "a", true, &name)?.saturating_sub(count_of(&tokenizer, "a", false, &name)?);
        let words = ids.keys().cloned().collect();
        let t = TokenWords { tokenizer, words, ids, added, source: path.display().to_string() };
        t.self_check(&name)?;
        Ok(t)
    }

    /// A one-token word drawn by `rng`.
    pub fn word(&self, rng: &mut ChaCha8Rng) -> &str {
        &self.words[rng.random_range(0..self.words.len())]
    }

    /// Tokens the tokenizer adds to a whole prompt (with its special tokens on).
    pub fn added(&self) -> u32 {
        self.added
    }

    /// The tokens of any text, without special tokens (a dataset's prompt, a server's reply).
    pub fn count(&self, text: &str) -> u32 {
        self.encode(text, false).len() as u32
    }

    /// The ids of any text, with the tokenizer's special tokens or without.
    pub fn encode(&self, text: &str, special: bool) -> Vec<u32> {
        self.tokenizer.encode_fast(text, special).map_or_else(|_| Vec::new(), |e| e.get_ids().to_vec())
    }

    /// The token ids of a prompt built from one-token words, by lookup; `None` for any other
    /// text, which the tokenizer then encodes.
    pub fn ids_of(&self, text: &str) -> Vec<u32> {
        let looked_up: Option<Vec<u32>> = text.split(' ').enumerate().map(|(i, w)| self.ids.get(w).map(|ids| if i == 0 { ids.0 } else { ids.1 })).collect();
        looked_up.unwrap_or_else(|| self.encode(text, false))
    }

    /// A long sample of words must encode to exactly the ids looked up, one token a word.
    fn self_check(&self, name: &str) -> Result<(), String> {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let sample: Vec<&str> = (0..CHECK_WORDS).map(|_| self.word(&mut rng)).collect();
        let text = sample.join(" ");
        let encoded = self.tokenizer.encode_fast(text.as_str(), false).map_err(|e| format!("{name}: cannot encode: {e}"))?;
        if encoded.get_ids() != self.ids_of(&text).as_slice() {
            return Err(format!(
                "{name}: {CHECK_WORDS} one-token words joined by spaces encode to {} tokens, not one each: this tokenizer cannot build prompts of exact length",
                encoded.len()
            ));
        }
        Ok(())
    }
}

fn count_of(tokenizer: &Tokenizer, text: &str, special: bool, name: &str) -> Result<u32, String> {
    tokenizer.encode_fast(text, special).map(|e| e.len() as u32).map_err(|e| format!("{name}: cannot encode: {e}"))
}

/// The vocabulary's words of ASCII letters that encode to one token alone and after a space.
fn one_token_words(tokenizer: &Tokenizer, name: &str) -> Result<BTreeMap<String, (u32, u32)>, String> {
    let mut out = BTreeMap::new();
    let one = |text: &str| -> Result<Option<u32>, String> {
        let e = tokenizer.encode_fast(text, false).map_err(|e| format!("{name}: cannot encode: {e}"))?;
        Ok((e.len() == 1).then(|| e.get_ids()[0]))
    };
    let mut vocab: Vec<(String, u32)> = tokenizer.get_vocab(false).into_iter().collect();
    vocab.sort_by_key(|(_, id)| *id);
    for (_, id) in vocab {
        let Ok(text) = tokenizer.decode(&[id], false) else { continue };
        let word = text.trim_start();
        if word.is_empty() || !word.bytes().all(|b| b.is_ascii_alphabetic()) || out.contains_key(word) {
            continue;
        }
        if let (Some(bare), Some(spaced)) = (one(word)?, one(&format!(" {word}"))?) {
            out.insert(word.to_string(), (bare, spaced));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/tokenizer/tokenizer.json")
    }

    #[test]
    fn every_prompt_has_exactly_the_tokens_asked_for() {
        let t = TokenWords::load(&fixture()).unwrap();
        assert_eq!(t.added(), 1, "the fixture adds a BOS");
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in [1usize, 2, 7, 100, 999] {
            let prompt: Vec<&str> = (0..n).map(|_| t.word(&mut rng)).collect();
            let text = prompt.join(" ");
            assert_eq!(t.count(&text) as usize, n, "{text}");
            assert_eq!(t.tokenizer.encode(text.as_str(), true).unwrap().len(), n + 1);
            assert_eq!(t.ids_of(&text), t.tokenizer.encode(text.as_str(), false).unwrap().get_ids());
        }
    }

    #[test]
    fn other_text_is_encoded_and_a_missing_file_is_named() {
        let t = TokenWords::load(&fixture()).unwrap();
        assert_eq!(t.ids_of("Hello, world!").len() as u32, t.count("Hello, world!"));
        assert!(t.count("Hello, world!") > 2);
        let err = TokenWords::load(Path::new("/nonexistent/tok.json")).unwrap_err();
        assert!(err.contains("/nonexistent/tok.json") && err.contains("no such file"), "{err}");
        let dir = std::env::temp_dir();
        let err = TokenWords::load(&dir).unwrap_err();
        assert!(err.contains("holds no tokenizer.json"), "{err}");
        let bad = dir.join(format!("credence-bad-tokenizer-{}.json", std::process::id()));
        std::fs::write(&bad, "{\"model\": 3}").unwrap();
        let err = TokenWords::load(&bad).unwrap_err();
        std::fs::remove_file(&bad).ok();
        assert!(err.contains("cannot load the tokenizer"), "{err}");
    }
}
