//! Input and output length distributions (`--input-len`, `--output-len`) and the synthetic
//! prompts built from them.
//!
//! Lengths are drawn per request from a generator seeded by (seed, request number), so request
//! k has the same lengths in every run with the same seed, whatever thread sends it.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A distribution of token counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LengthDist {
    Fixed(u32),
    /// Uniform on `lo..=hi`.
    Uniform(u32, u32),
    /// Normal, rounded and clipped to at least 1.
    Normal {
        mean: f64,
        sd: f64,
    },
    /// Log-normal with this median and log-scale sigma (long right tail, like real chats).
    LogNormal {
        median: f64,
        sigma: f64,
    },
}

/// The largest length any distribution yields: a guard against a typo asking for 10⁹ tokens.
const MAX_LEN: u32 = 1 << 20;

impl LengthDist {
    /// `128`, `fixed:128`, `uniform:64-256`, `normal:128,32` or `lognormal:512,0.6`.
    pub fn parse(text: &str) -> Result<LengthDist, String> {
        let bad = || format!("{text:?}: expected N, fixed:N, uniform:LO-HI, normal:MEAN,SD or lognormal:MEDIAN,SIGMA");
        let t = text.trim();
        let num = |s: &str| s.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0);
        let count = |s: &str| s.trim().parse::<u32>().ok().filter(|v| (1..=MAX_LEN).contains(v));
        let d = if let Some(n) = count(t) {
            LengthDist::Fixed(n)
        } else if let Some((kind, args)) = t.split_once(':') {
            match kind {
                "fixed" => LengthDist::Fixed(count(args).ok_or_else(bad)?),
                "uniform" => {
                    let (lo, hi) = args.split_once('-').ok_or_else(bad)?;
                    let (lo, hi) = (count(lo).ok_or_else(bad)?, count(hi).ok_or_else(bad)?);
                    if lo > hi {
                        return Err(format!("{text:?}: the low end is above the high end"));
                    }
                    LengthDist::Uniform(lo, hi)
                }
                "normal" | "lognormal" => {
                    let (a, b) = args.split_once(',').ok_or_else(bad)?;
                    let (a, b) = (num(a).filter(|v| *v >= 1.0).ok_or_else(bad)?, num(b).ok_or_else(bad)?);
                    if kind == "normal" { LengthDist::Normal { mean: a, sd: b } } else { LengthDist::LogNormal { median: a, sigma: b } }
                }
                _ => return Err(bad()),
            }
        } else {
            return Err(bad());
        };
        Ok(d)
    }

    pub fn sample(&self, rng: &mut ChaCha8Rng) -> u32 {
        let v = match *self {
            LengthDist::Fixed(n) => return n,
            LengthDist::Uniform(lo, hi) => return rng.random_range(lo..=hi),
            LengthDist::Normal { mean, sd } => mean + sd * super::schedule::std_normal(rng),
            LengthDist::LogNormal { median, sigma } => median * (sigma * super::schedule::std_normal(rng)).exp(),
        };
        v.round().clamp(1.0, MAX_LEN as f64) as u32
    }

    /// How the manifest describes it.
    pub fn describe(&self) -> String {
        match *self {
            LengthDist::Fixed(n) => format!("fixed {n}"),
            LengthDist::Uniform(lo, hi) => format!("uniform({lo}..{hi})"),
            LengthDist::Normal { mean, sd } => format!("normal(mean={mean}, sd={sd}, min 1)"),
            LengthDist::LogNormal { median, sigma } => format!("lognormal(median={median}, sigma={sigma}, min 1)"),
        }
    }
}

/// The generator for request `k`'s lengths and prompt words.
pub fn request_rng(seed: u64, k: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Stream 0 is the arrival schedule; request k draws from its own stream.
    rng.set_stream(k + 1);
    rng
}

/// Common short English words: each is one token in the usual tokenizers, so a prompt of n
/// words is close to n tokens (the server's usage chunk gives the exact count).
pub(crate) const WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on", "not", "he", "this", "are", "or", "his", "from", "at",
    "which", "but", "have", "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there", "been", "if", "more", "when",
    "will", "would", "who", "so", "no", "time", "out", "up", "about", "into", "than", "them", "only", "other", "new", "some", "could", "these", "two", "may",
    "first", "then", "do", "any", "like", "my", "now", "over", "such", "our", "man", "me", "even", "most", "made", "after", "also", "did", "many", "before",
    "must", "through", "back", "years", "where", "much", "your", "way", "well", "down", "should", "because", "each", "just", "those", "people", "how", "too",
    "little", "state", "good", "very", "make", "world", "still", "own", "see", "work", "long", "get", "here", "between", "both", "life", "being", "under",
    "never", "day", "same", "another", "know", "while", "last", "might", "us", "great", "old", "year", "off", "come", "since", "against", "go", "came",
    "right", "used", "take", "three", "water", "city", "light", "house", "small", "number", "part", "place", "point", "word",
];

/// What synthetic prompts are made of: common English words, about one token each, or with
/// `--tokenizer` words that the model's tokenizer makes exactly one token each.
#[derive(Debug, Clone, Default)]
pub enum Vocab {
    #[default]
    Words,
    Tokens(std::sync::Arc<crate::tokens::TokenWords>),
}

impl Vocab {
    /// A word drawn by `rng`.
    pub fn word(&self, rng: &mut ChaCha8Rng) -> &str {
        match self {
            Vocab::Words => WORDS[rng.random_range(0..WORDS.len())],
            Vocab::Tokens(t) => t.word(rng),
        }
    }

    /// The tokenizer, where lengths are exact.
    pub fn tokenizer(&self) -> Option<&crate::tokens::TokenWords> {
        match self {
            Vocab::Words => None,
            Vocab::Tokens(t) => Some(t),
        }
    }

    /// The length of a text this vocabulary did not build (a dataset's prompt, a reply): its
    /// tokens with a tokenizer, else its words.
    pub fn count(&self, text: &str) -> u32 {
        self.tokenizer().map_or_else(|| text.split_whitespace().count() as u32, |t| t.count(text))
    }
}

/// A synthetic prompt of `words` words. With common words it opens with the request number, so
/// no two requests share a prefix beyond the first word and a prefix cache cannot flatter
/// TTFT; a tokenizer's words need no such tag (two prompts of random words from hundreds share
/// no cache block of 16 by chance), and it would cost tokens.
pub fn synthetic_prompt(k: u64, words: u32, rng: &mut ChaCha8Rng, vocab: &Vocab) -> String {
    // Room for words of about 7 bytes and their spaces: no regrowth for most prompts.
    let mut p = String::with_capacity(words as usize * 8);
    match vocab {
        Vocab::Words => p.push_str(&k.to_string()),
        Vocab::Tokens(_) => p.push_str(vocab.word(rng)),
    }
    for _ in 1..words {
        p.push(' ');
        p.push_str(vocab.word(rng));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form_and_refuses_nonsense() {
        assert_eq!(LengthDist::parse("128"), Ok(LengthDist::Fixed(128)));
        assert_eq!(LengthDist::parse("fixed:64"), Ok(LengthDist::Fixed(64)));
        assert_eq!(LengthDist::parse("uniform:10-20"), Ok(LengthDist::Uniform(10, 20)));
        assert_eq!(LengthDist::parse("normal:100,10"), Ok(LengthDist::Normal { mean: 100.0, sd: 10.0 }));
        assert_eq!(LengthDist::parse("lognormal:512,0.6"), Ok(LengthDist::LogNormal { median: 512.0, sigma: 0.6 }));
        for bad in ["0", "uniform:20-10", "normal:100", "zipf:1,2", "", "fixed:-3", "uniform:1-9999999999"] {
            assert!(LengthDist::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn samples_follow_the_distribution() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let draw = |d: LengthDist, rng: &mut ChaCha8Rng| -> Vec<f64> { (0..20_000).map(|_| d.sample(rng) as f64).collect() };
        let u = draw(LengthDist::Uniform(10, 20), &mut rng);
        assert!(u.iter().all(|v| (10.0..=20.0).contains(v)));
        assert!((u.iter().sum::<f64>() / u.len() as f64 - 15.0).abs() < 0.1);
        let n = draw(LengthDist::Normal { mean: 200.0, sd: 20.0 }, &mut rng);
        let mean = n.iter().sum::<f64>() / n.len() as f64;
        let sd = (n.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n.len() as f64).sqrt();
        assert!((mean - 200.0).abs() < 0.6 && (sd - 20.0).abs() < 0.6, "{mean} {sd}");
        let mut l = draw(LengthDist::LogNormal { median: 512.0, sigma: 0.6 }, &mut rng);
        l.sort_by(f64::total_cmp);
        let median = l[l.len() / 2];
        assert!((median / 512.0 - 1.0).abs() < 0.03, "median {median}");
    }

    #[test]
    fn request_k_draws_the_same_whatever_the_order() {
        let a: Vec<u32> = (0..5).map(|k| LengthDist::Uniform(1, 1000).sample(&mut request_rng(9, k))).collect();
        let b: Vec<u32> = (0..5).rev().map(|k| LengthDist::Uniform(1, 1000).sample(&mut request_rng(9, k))).collect();
        assert_eq!(a, b.into_iter().rev().collect::<Vec<_>>());
        let p = synthetic_prompt(7, 50, &mut request_rng(9, 7), &Vocab::Words);
        assert_eq!(p.split_whitespace().count(), 50);
        assert!(p.starts_with("7 "));
    }
}
