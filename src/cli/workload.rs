//! `bench`'s workload flags: shared prefixes, trace replay, conversations and the prefix-cache
//! reset, checked against each other before a request is sent.

use std::path::PathBuf;
use std::sync::Arc;

use crate::bench::lengths::Vocab;
use crate::bench::sonnet::Sonnet;
use crate::bench::tokens::TokenWords;
use crate::bench::workload::{Adapters, Sessions, SharedPrefix, Trace, parse_trace};
use crate::error::CliError;

#[derive(Debug, Clone, Default, clap::Args)]
pub struct WorkloadFlags {
    /// Shared system prompts: G of them (--prefix-len words each); every request opens with
    /// one, drawn by the seed, as SGLang's generated-shared-prefix workload does.
    #[arg(long, value_name = "G")]
    pub prefix_groups: Option<u32>,
    /// With --prefix-groups: words (tokens with --tokenizer) per shared system prompt; with
    /// --sonnet, the poem's opening lines every request shares.
    #[arg(long, value_name = "L", hide_short_help = true)]
    pub prefix_len: Option<u32>,
    /// Prompts of verse: lines of Shakespeare's sonnets drawn by the seed, --input-len long
    /// (vLLM's sonnet dataset); with --prefix-len L the poem's first L words (tokens) open
    /// every prompt.
    #[arg(long, hide_short_help = true)]
    pub sonnet: bool,
    /// Replay a Mooncake trace (JSONL: timestamp in ms, input_length, output_length,
    /// hash_ids): its schedule and lengths, equal hash ids as identical prompt blocks.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// With --trace: time runs this many times faster, e.g. 2x.
    #[arg(long, default_value = "1x", hide_short_help = true)]
    pub trace_speed: String,
    /// With --trace: tokens per hash id (words, about one token each, without --tokenizer).
    #[arg(long, default_value_t = 512, hide_short_help = true)]
    pub trace_block: u32,
    /// Conversations: N sessions, each of --turns turns whose prompts carry the earlier turns
    /// and the server's replies (needs --api chat). Open loop: --session-rate new sessions a
    /// second (--rate says the same); closed loop: --concurrency sessions at once.
    #[arg(long, value_name = "N")]
    pub sessions: Option<u64>,
    /// With --sessions: new sessions a second, open loop (Poisson unless --arrival says).
    #[arg(long, value_name = "R", conflicts_with = "rate", hide_short_help = true)]
    pub session_rate: Option<f64>,
    /// With --sessions: turns per session, T or LO-HI (uniform, by the seed).
    #[arg(long, default_value = "3", hide_short_help = true)]
    pub turns: String,
    /// With --sessions: the pause between a reply's end and the next turn, e.g. 2s.
    #[arg(long, default_value = "0s", hide_short_help = true)]
    pub think_time: String,
    /// Empty the server's prefix cache before the run (and before each run of a sweep, a
    /// series or a capacity search): vLLM's POST /reset_prefix_cache, else SGLang's POST
    /// /flush_cache. Recorded in run.json; a server with neither endpoint is exit 2.
    #[arg(long)]
    pub reset_prefix_cache: bool,
    /// LoRA adapters, e.g. a,b,c: each request names one as its model (a conversation keeps
    /// one); recorded per request, and the analysis splits by adapter.
    #[arg(long, value_name = "NAMES")]
    pub lora: Option<String>,
    /// Keep every distinct prompt sent in OUT/prompts.jsonl (each request's prompt_hash names
    /// its line), so that the run can be repeated prompt for prompt. Held in memory until the
    /// run ends.
    #[arg(long, hide_short_help = true)]
    pub store_prompts: bool,
    /// With --lora: random (by the seed) or round-robin.
    #[arg(long, default_value = "random", hide_short_help = true)]
    pub lora_assignment: String,
    /// Exact token lengths, with a model's tokenizer.json (or its folder).
    ///
    /// --input-len, --prefix-len and --trace-block then count its tokens exactly, and each
    /// request records its intended length. Read locally; nothing is fetched.
    #[arg(long, value_name = "PATH")]
    pub tokenizer: Option<PathBuf>,
    /// With --tokenizer and --api completions: send prompts as token ids.
    #[arg(long, hide_short_help = true)]
    pub prompt_token_ids: bool,
}

/// What the workload flags asked for, checked.
#[derive(Debug, Clone, Default)]
pub struct Workload {
    pub prefix: Option<SharedPrefix>,
    pub trace: Option<Arc<Trace>>,
    pub sessions: Option<Sessions>,
    pub adapters: Option<Adapters>,
    /// Words, or a tokenizer's one-token words (`--tokenizer`).
    pub vocab: Vocab,
    /// `--sonnet`: verse, measured in the vocabulary's units.
    pub sonnet: Option<Arc<Sonnet>>,
}

/// Which other flags are set, for the conflicts.
pub struct Others {
    pub chat: bool,
    pub load_given: bool,
    pub dataset: bool,
    pub sweep_or_search: bool,
}

impl WorkloadFlags {
    /// The workload, or exit 2 naming the flags that cannot go together.
    pub fn workload(&self, others: &Others) -> Result<Workload, CliError> {
        // A dataset feeds sessions too (a ShareGPT conversation's human turns).
        let chosen = [self.prefix_groups.is_some() || self.prefix_len.is_some(), self.trace.is_some(), self.sessions.is_some() || others.dataset];
        if chosen.iter().filter(|c| **c).count() > 1 {
            return Err(CliError::bad_input("--prefix-groups, --trace and --sessions or --dataset each choose the prompts: give one of them"));
        }
        // A trace's schedule fixes the load that a sweep's or a search's step would set.
        // (`--until` may stop it early: run.json then says how much of it was replayed.)
        if self.trace.is_some() && others.sweep_or_search {
            return Err(CliError::bad_input(
                "--trace replays the trace on its own schedule, which fixes the load: it cannot be combined with --sweep or --find-capacity (--trace-speed replays it faster)",
            ));
        }
        if self.sonnet && (self.prefix_groups.is_some() || self.trace.is_some() || self.sessions.is_some() || others.dataset) {
            return Err(CliError::bad_input(
                "--sonnet chooses the prompts (its opening lines are the shared prefix: --prefix-len L): drop --prefix-groups, --trace, --sessions and --dataset",
            ));
        }
        let vocab = self.vocab(others)?;
        let prefix = self.prefix()?;
        let sonnet = self.sonnet.then(|| Arc::new(Sonnet::new(&vocab, prefix.map_or(0, |p| p.len))));
        Ok(Workload { prefix, trace: self.trace(others)?, sessions: self.sessions(others)?, adapters: self.adapters()?, vocab, sonnet })
    }

    fn vocab(&self, others: &Others) -> Result<Vocab, CliError> {
        let Some(path) = &self.tokenizer else {
            return if self.prompt_token_ids {
                Err(CliError::bad_input("--prompt-token-ids needs --tokenizer PATH to make the ids"))
            } else {
                Ok(Vocab::Words)
            };
        };
        if self.prompt_token_ids && others.chat {
            return Err(CliError::bad_input("--prompt-token-ids sends a completions prompt as ids: the chat API takes messages (use --api completions)"));
        }
        Ok(Vocab::Tokens(Arc::new(TokenWords::load(path).map_err(CliError::bad_input)?)))
    }

    fn adapters(&self) -> Result<Option<Adapters>, CliError> {
        let Some(list) = &self.lora else { return Ok(None) };
        let names: Vec<String> = list.split(',').map(|n| n.trim().to_string()).collect();
        if names.iter().any(String::is_empty) {
            return Err(CliError::bad_input(format!("--lora {list:?}: expected adapter names separated by commas, e.g. a,b,c")));
        }
        let round_robin = match self.lora_assignment.as_str() {
            "random" => false,
            "round-robin" => true,
            other => return Err(CliError::bad_input(format!("--lora-assignment {other:?}: expected random or round-robin"))),
        };
        Ok(Some(Adapters { names, round_robin }))
    }

    fn prefix(&self) -> Result<Option<SharedPrefix>, CliError> {
        match (self.prefix_groups, self.prefix_len) {
            (None, None) => Ok(None),
            // The sonnet's one prefix: its opening lines.
            (None, Some(len)) if self.sonnet && len > 0 => Ok(Some(SharedPrefix { groups: 1, len })),
            (Some(groups), Some(len)) if groups > 0 && len > 0 => Ok(Some(SharedPrefix { groups, len })),
            (Some(_), Some(_)) => Err(CliError::bad_input("--prefix-groups and --prefix-len must be at least 1")),
            _ => Err(CliError::bad_input("give --prefix-groups G and --prefix-len L together")),
        }
    }

    fn trace(&self, others: &Others) -> Result<Option<Arc<Trace>>, CliError> {
        let Some(path) = &self.trace else { return Ok(None) };
        if others.load_given {
            return Err(CliError::bad_input("--trace sets the schedule: drop --rate and --concurrency (--trace-speed scales its time)"));
        }
        let speed = self.trace_speed.trim().trim_end_matches(['x', 'X']).parse::<f64>().ok().filter(|s| s.is_finite() && *s > 0.0);
        let speed = speed.ok_or_else(|| CliError::bad_input(format!("--trace-speed {:?}: expected a positive factor, e.g. 2x", self.trace_speed)))?;
        if self.trace_block == 0 {
            return Err(CliError::bad_input("--trace-block must be at least 1"));
        }
        let text = std::fs::read_to_string(path).map_err(|e| CliError::bad_input(format!("{}: cannot read: {e}", path.display())))?;
        let entries = parse_trace(&text, &path.display().to_string(), self.trace_block).map_err(CliError::bad_input)?;
        Ok(Some(Arc::new(Trace { path: path.display().to_string(), entries, block: self.trace_block, speed })))
    }

    fn sessions(&self, others: &Others) -> Result<Option<Sessions>, CliError> {
        let Some(count) = self.sessions else { return Ok(None) };
        if !others.chat {
            return Err(CliError::bad_input("--sessions carries each conversation's history in chat messages: add --api chat"));
        }
        let (turns, think_s) = conversation_flags(count, &self.turns, &self.think_time)?;
        Ok(Some(Sessions { count, turns, think_s }))
    }
}

/// `--sessions N --turns T|LO-HI --think-time D` (bench and simulate alike), checked: the
/// turns' range and the think time in seconds.
pub fn conversation_flags(count: u64, turns: &str, think_time: &str) -> Result<((u32, u32), f64), CliError> {
    if count == 0 {
        return Err(CliError::bad_input("--sessions must be at least 1"));
    }
    let bad = || CliError::bad_input(format!("--turns {turns:?}: expected T or LO-HI, from 1 to 999"));
    let turn = |t: &str| t.trim().parse::<u32>().ok().filter(|t| (1..1000).contains(t)).ok_or_else(bad);
    let range = match turns.split_once('-') {
        Some((lo, hi)) => (turn(lo)?, turn(hi)?),
        None => (turn(turns)?, turn(turns)?),
    };
    if range.0 > range.1 {
        return Err(bad());
    }
    Ok((range, crate::cli::args::delay_flag("--think-time", think_time)?.as_secs_f64()))
}
