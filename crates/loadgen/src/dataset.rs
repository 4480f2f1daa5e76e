//! `--dataset FILE`: prompts from a file, in the formats load generators share.
//!
//! - ShareGPT JSON (a list of `{"conversations": [{"from": "human", "value": …}, …]}`, as vLLM's
//!   benchmark reads it): each conversation's first human turn is a prompt, and the length of
//!   the reply after it, where there is one, its output length (in the tokenizer's tokens with
//!   `--tokenizer`, else in words: [`count_lengths`]).
//! - JSONL: a string per line; or `{"prompt": …}` (or `"text"`) with an optional
//!   `"output_len"`; or `{"messages": [{"role": …, "content": …}, …]}`, sent as they are with
//!   `--api chat` (their contents joined for completions).
//!
//! `--dataset-sample N` takes N of them, chosen by the seed; without it every prompt is sent in
//! file order, cycled.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// One prompt of a dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct DatasetPrompt {
    /// The prompt as one text (the messages' contents joined, for completions).
    pub text: String,
    /// The chat messages as given (`role`, `content`); none: one user message of `text`.
    pub messages: Option<Vec<(String, String)>>,
    /// Output tokens to ask for, where the dataset says (a ShareGPT reply's length).
    pub output_len: Option<u32>,
    /// A ShareGPT conversation's human turns from the first on, each with its reply's length:
    /// what a session (`--sessions`) sends turn by turn. Empty for other formats.
    pub turns: Vec<(String, Option<u32>)>,
    /// Its length in tokens, counted once at the start with `--tokenizer`.
    pub length: Option<u32>,
    /// Each turn's reply text, kept from parsing until [`count_lengths`] has measured it (only
    /// the sampled prompts' replies are ever counted), then dropped.
    pub replies: Vec<Option<String>>,
}

/// Parses a dataset: a JSON list (ShareGPT) or JSONL; errors name the file, the item or line,
/// and the field.
pub fn parse_dataset(text: &str, path: &str) -> Result<Vec<DatasetPrompt>, String> {
    let prompts = if text.trim_start().starts_with('[') { sharegpt(text, path)? } else { jsonl(text, path)? };
    if prompts.is_empty() {
        return Err(format!("{path}: no prompts"));
    }
    Ok(prompts)
}

fn sharegpt(text: &str, path: &str) -> Result<Vec<DatasetPrompt>, String> {
    let items: Vec<serde_json::Value> = serde_json::from_str(text).map_err(|e| format!("{path}: not a JSON list of conversations: {e}"))?;
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = |what: &str| format!("{path}, conversation {} (0-based {i}): {what}", i + 1);
        let turns = item.get("conversations").and_then(|c| c.as_array()).ok_or_else(|| at("conversations: expected a list of turns"))?;
        let from = |t: &serde_json::Value| t.get("from").and_then(|f| f.as_str()).unwrap_or_default().to_string();
        let value = |t: &serde_json::Value| t.get("value").and_then(|v| v.as_str()).map(str::to_string);
        let Some(first) = turns.iter().position(|t| from(t) == "human") else {
            return Err(at("no turn from \"human\""));
        };
        let reply = |i: usize| turns.get(i + 1).filter(|t| from(t) == "gpt").and_then(value);
        let (mut human, mut replies) = (Vec::new(), Vec::new());
        for (i, t) in turns.iter().enumerate().skip(first).filter(|(_, t)| from(t) == "human") {
            human.push((value(t).ok_or_else(|| at(&format!("turn {}: value: expected the human turn's text", i + 1)))?, None));
            replies.push(reply(i));
        }
        let text = human[0].0.clone();
        out.push(DatasetPrompt { text, messages: None, output_len: None, turns: human, length: None, replies });
    }
    Ok(out)
}

fn jsonl(text: &str, path: &str) -> Result<Vec<DatasetPrompt>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = |what: String| format!("{path}, line {}: {what}", i + 1);
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| at(format!("not JSON: {e}")))?;
        out.push(jsonl_prompt(&v).map_err(at)?);
    }
    Ok(out)
}

fn jsonl_prompt(v: &serde_json::Value) -> Result<DatasetPrompt, String> {
    if let Some(s) = v.as_str() {
        return Ok(DatasetPrompt { text: s.into(), messages: None, output_len: None, turns: Vec::new(), length: None, replies: Vec::new() });
    }
    let output_len = match v.get("output_len") {
        None | Some(serde_json::Value::Null) => None,
        Some(n) => Some(n.as_u64().filter(|n| (1..=1 << 20).contains(n)).ok_or("output_len: expected a token count from 1 to 1048576")? as u32),
    };
    if let Some(ms) = v.get("messages") {
        let ms = ms.as_array().ok_or("messages: expected a list of {\"role\", \"content\"}")?;
        let mut messages = Vec::new();
        for (j, m) in ms.iter().enumerate() {
            let field = |k: &str| m.get(k).and_then(|x| x.as_str()).map(str::to_string).ok_or_else(|| format!("messages[{j}].{k}: expected a string"));
            messages.push((field("role")?, field("content")?));
        }
        let text = messages.iter().map(|m| m.1.as_str()).collect::<Vec<_>>().join("\n");
        return Ok(DatasetPrompt { text, messages: Some(messages), output_len, turns: Vec::new(), length: None, replies: Vec::new() });
    }
    let text = v.get("prompt").or_else(|| v.get("text")).and_then(|p| p.as_str()).ok_or("expected a string, or an object with \"prompt\" or \"messages\"")?;
    Ok(DatasetPrompt { text: text.into(), messages: None, output_len, turns: Vec::new(), length: None, replies: Vec::new() })
}

/// `n` prompts chosen by `seed` (a seeded shuffle, then the first `n`): the same seed picks the
/// same prompts in the same order.
pub fn sample(mut prompts: Vec<DatasetPrompt>, n: usize, seed: u64) -> Result<Vec<DatasetPrompt>, String> {
    if n == 0 || n > prompts.len() {
        return Err(format!("--dataset-sample {n}: the dataset has {} prompts (choose 1 to {0})", prompts.len()));
    }
    prompts.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ 0x5341_4d50_4c45));
    prompts.truncate(n);
    Ok(prompts)
}

/// Measures the prompts about to be sent, once: each ShareGPT reply's length becomes its turn's
/// output length (at least 1) and the reply text is dropped; with a tokenizer (`exact`) each
/// prompt's own length is recorded too. `count` is the tokenizer's count, or words without one.
pub fn count_lengths(prompts: &mut [DatasetPrompt], count: impl Fn(&str) -> u32, exact: bool) {
    for p in prompts {
        for (turn, reply) in p.turns.iter_mut().zip(std::mem::take(&mut p.replies)) {
            turn.1 = reply.map(|r| count(&r).max(1));
        }
        if let Some(first) = p.turns.first() {
            p.output_len = first.1;
        }
        if exact {
            p.length = Some(count(&p.text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharegpt_gives_the_first_human_turn_and_its_reply_length() {
        let text = r#"[{"id": "a", "conversations": [{"from": "system", "value": "be brief"}, {"from": "human", "value": "hello there"}, {"from": "gpt", "value": "one two three"}]},
                       {"id": "b", "conversations": [{"from": "human", "value": "alone"}]}]"#;
        let words = |t: &str| t.split_whitespace().count() as u32;
        let mut p = parse_dataset(text, "s.json").unwrap();
        count_lengths(&mut p, words, false);
        assert_eq!(p[0].text, "hello there");
        assert_eq!((p[0].output_len, p[0].length), (Some(3), None));
        assert_eq!(p[1].output_len, None);
        assert!(p.iter().all(|p| p.replies.is_empty()), "reply texts are dropped once counted");
        let many = r#"[{"conversations": [{"from": "human", "value": "a"}, {"from": "gpt", "value": "b c"}, {"from": "human", "value": "d e"}]}]"#;
        let mut m = parse_dataset(many, "s.json").unwrap();
        count_lengths(&mut m, words, false);
        assert_eq!(m[0].turns, vec![("a".to_string(), Some(2)), ("d e".to_string(), None)]);
        // A tokenizer's count (here: characters) gives the reply lengths and the prompt's own.
        let mut p = parse_dataset(text, "s.json").unwrap();
        count_lengths(&mut p, |t: &str| t.len() as u32, true);
        assert_eq!((p[0].output_len, p[0].length), (Some(13), Some(11)));
        let e = parse_dataset(r#"[{"conversations": [{"from": "gpt", "value": "x"}]}]"#, "s.json").unwrap_err();
        assert!(e.contains("s.json, conversation 1") && e.contains("human"), "{e}");
    }

    #[test]
    fn jsonl_takes_strings_prompts_and_messages() {
        let text = "\"plain\"\n{\"prompt\": \"p\", \"output_len\": 9}\n\n{\"messages\": [{\"role\": \"system\", \"content\": \"s\"}, {\"role\": \"user\", \"content\": \"u\"}]}\n";
        let p = parse_dataset(text, "d.jsonl").unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!((p[1].text.as_str(), p[1].output_len), ("p", Some(9)));
        assert_eq!(p[2].messages.as_ref().unwrap()[1], ("user".to_string(), "u".to_string()));
        let e = parse_dataset("{\"prompt\": \"p\"}\n{\"messages\": [{\"role\": \"user\"}]}\n", "d.jsonl").unwrap_err();
        assert!(e.contains("d.jsonl, line 2: messages[0].content"), "{e}");
        assert!(parse_dataset("{\"prompt\": 3}\n", "d.jsonl").unwrap_err().contains("line 1"));
    }

    #[test]
    fn a_sample_is_fixed_by_the_seed() {
        let all: Vec<DatasetPrompt> = (0..50).map(|i| DatasetPrompt { text: i.to_string(), messages: None, output_len: None, turns: Vec::new(), length: None, replies: Vec::new() }).collect();
        let a = sample(all.clone(), 10, 1).unwrap();
        assert_eq!(a, sample(all.clone(), 10, 1).unwrap());
        assert_ne!(a, sample(all.clone(), 10, 2).unwrap());
        assert!(sample(all, 51, 1).is_err());
    }
}
