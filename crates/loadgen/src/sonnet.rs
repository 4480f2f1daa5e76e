//! `--sonnet`: prompts of real verse, as vLLM's sonnet dataset makes them. Every prompt is
//! lines of Shakespeare's first eighteen sonnets (public domain, `text/sonnets.txt`): with a
//! shared prefix (`--prefix-len`) the poem's opening lines, the same for every request, then
//! lines drawn at random by the request's seed. Natural text tokenizes as prose does, where
//! the synthetic words are one token each by construction.
//!
//! Lengths are exact in the vocabulary's units: whole lines while they fit, then one-token
//! words (or common words without a tokenizer) to the length asked. With a tokenizer the text
//! is encoded once to check the count, so the length recorded is the length built.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::lengths::Vocab;

const TEXT: &str = include_str!("text/sonnets.txt");

/// The poem's lines with their lengths in the vocabulary's units, and the opening every
/// request shares.
#[derive(Debug)]
pub struct Sonnet {
    lines: Vec<(&'static str, u32)>,
    /// The cost of the newline between two lines.
    newline: u32,
    /// The poem's first `opening_len` units, built once (empty without `--prefix-len`).
    opening: String,
}

impl Sonnet {
    /// The poem measured in `vocab`'s units (a tokenizer's tokens, or words), with its opening
    /// of `opening_len` units (0: none).
    pub fn new(vocab: &Vocab, opening_len: u32) -> Sonnet {
        let lines = TEXT.lines().map(|l| (l, vocab.count(l))).collect();
        let newline = vocab.tokenizer().map_or(0, |t| t.count("\n"));
        let mut s = Sonnet { lines, newline, opening: String::new() };
        if opening_len > 0 {
            let opening = s.fill(s.lines.iter().copied(), opening_len, vocab, &mut None).0;
            s.opening = opening;
        }
        s
    }

    /// What a line break costs (a tokenizer's tokens; nothing in words).
    pub fn newline(&self) -> u32 {
        self.newline
    }

    /// The poem's opening lines: the prefix every request shares.
    pub fn opening(&self) -> &str {
        &self.opening
    }

    /// `len` units of lines drawn by `rng`: as many as can fit, and one more to find the end.
    pub fn verse(&self, len: u32, vocab: &Vocab, rng: &mut ChaCha8Rng) -> (String, u32) {
        let n = self.lines.len();
        let (mut picks, mut estimate) = (Vec::new(), 0);
        while estimate <= len {
            let line = self.lines[rng.random_range(0..n)];
            estimate += line.1 + self.newline;
            picks.push(line);
        }
        self.fill(picks.into_iter(), len, vocab, &mut Some(rng))
    }

    /// Whole lines from `lines` while they fit in `len`, then words to `len`; the text and its
    /// length as counted (by the tokenizer itself where there is one).
    fn fill(&self, lines: impl Iterator<Item = (&'static str, u32)>, len: u32, vocab: &Vocab, rng: &mut Option<&mut ChaCha8Rng>) -> (String, u32) {
        let mut kept: Vec<&str> = Vec::new();
        let mut used = 0;
        for (line, cost) in lines {
            let extra = cost + if kept.is_empty() { 0 } else { self.newline };
            if used + extra > len {
                break;
            }
            kept.push(line);
            used += extra;
        }
        let counted = |t: &str| vocab.tokenizer().map_or_else(|| used_words(t), |tk| tk.count(t));
        let mut pad_rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(u64::from(len));
        // Where the lines' counts add up (they do for the usual tokenizers), one encode confirms
        // the text with its words.
        let mut text = kept.join("\n");
        push_words(&mut text, len.saturating_sub(used), vocab, rng.as_deref_mut().unwrap_or(&mut pad_rng));
        let built = counted(&text);
        if built == len {
            return (text, built);
        }
        // A tokenizer merged across a line's end: trust its count, drop lines if over.
        text = kept.join("\n");
        let mut have = counted(&text);
        while have > len && kept.pop().is_some() {
            text = kept.join("\n");
            have = counted(&text);
        }
        push_words(&mut text, len.saturating_sub(have), vocab, rng.as_deref_mut().unwrap_or(&mut pad_rng));
        let built = counted(&text);
        (text, built)
    }
}

/// `n` of the vocabulary's words after `text`, each after a space.
fn push_words(text: &mut String, n: u32, vocab: &Vocab, rng: &mut ChaCha8Rng) {
    for _ in 0..n {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(vocab.word(rng));
    }
}

fn used_words(text: &str) -> u32 {
    text.split_whitespace().count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn verse_has_exactly_the_words_asked_and_the_opening_is_shared() {
        let vocab = Vocab::Words;
        let s = Sonnet::new(&vocab, 40);
        let a = s.opening();
        assert_eq!(used_words(a), 40);
        assert!(a.starts_with("FROM fairest creatures"), "{a}");
        assert_eq!(Sonnet::new(&vocab, 0).opening(), "", "no opening without --prefix-len");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for len in [1, 7, 64, 300, 2000] {
            let (v, n) = s.verse(len, &vocab, &mut rng);
            assert_eq!((n, used_words(&v)), (len, len), "{len}");
        }
        let (x, _) = s.verse(100, &vocab, &mut ChaCha8Rng::seed_from_u64(5));
        assert_eq!(x, s.verse(100, &vocab, &mut ChaCha8Rng::seed_from_u64(5)).0, "fixed by the seed");
        assert!(x.contains('\n'), "whole lines: {x}");
    }
}
