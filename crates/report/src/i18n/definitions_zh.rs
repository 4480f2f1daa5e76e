//! The importers' definitions of a tool's numbers (`Claim::definition`, English in the JSON by
//! design) in Chinese, keyed by the English text: the importers keep one sentence per
//! definition, so the table is the simplest bridge. A definition missing here is a test
//! failure (`every_definition_the_importers_emit_has_a_chinese_entry`), not English in a report.

use credence_messages::{Arg, Message};

/// (English definition, Chinese), sorted by the English text for the binary search.
const DEFINITIONS: [(&str, &str); 39] = [
    (
        "AIPerf counts the records its runtime classifier flagged as a context overflow; that flag is not written to profile_export.jsonl",
        "AIPerf 统计其运行时分类器标记为上下文溢出的记录；该标记不写入 profile_export.jsonl",
    ),
    (
        "AIPerf counts the records whose output length misses the requested one by more than thresholds set in its environment (OSL_MISMATCH_PCT_THRESHOLD, OSL_MISMATCH_MAX_TOKEN_THRESHOLD), which the files do not record",
        "AIPerf 统计输出长度与请求长度之差超过其环境变量所设阈值（OSL_MISMATCH_PCT_THRESHOLD、OSL_MISMATCH_MAX_TOKEN_THRESHOLD）的记录，文件中没有这些阈值",
    ),
    (
        "AIPerf counts the records whose token counts differ from the server's usage by more than a threshold set in its environment (USAGE_PCT_DIFF_THRESHOLD), which the files do not record",
        "AIPerf 统计 token 数与服务端 usage 之差超过其环境变量所设阈值（USAGE_PCT_DIFF_THRESHOLD）的记录，文件中没有该阈值",
    ),
    (
        "AIPerf divides by the profiling phase's window (from its start, before the first request, to its last response; the requests' span when the run was cancelled), not by the span of the requests",
        "AIPerf 除以测量阶段的窗口（从阶段开始、第一个请求之前，到最后一个响应；运行被取消时为请求的时间跨度），而不是请求的时间跨度",
    ),
    (
        "AIPerf divides by the warm-up phase's window (its start to its last response), which only phase_manifest.json records",
        "AIPerf 除以预热阶段的窗口（从阶段开始到最后一个响应），只有 phase_manifest.json 记录了该窗口",
    ),
    (
        "AIPerf's error-adjusted latency: each failed request counts as unbounded (+∞); percentiles by numpy's 'nearest' method",
        "AIPerf 的错误校正延迟：每个失败请求按无穷大（+∞）计；百分位数用 numpy 的 'nearest' 方法",
    ),
    (
        "AIPerf's inter_token_latency is per request (last content chunk − first token) / (output tokens − 1), with output tokens counted by its tokenizer",
        "AIPerf 的 inter_token_latency 按请求计算：（最后一个内容块 − 首 token）/（输出 token 数 − 1），输出 token 数由其分词器统计",
    ),
    (
        "AIPerf: the last response (start + request_latency) minus the first request's start",
        "AIPerf：最后一个响应（start + request_latency）减去第一个请求的开始时间",
    ),
    (
        "a time-weighted statistic of AIPerf's sweep-line curves over the phase window (aiperf/analysis/sweepline.py, with its inter-chunk replay), which credence does not re-implement",
        "AIPerf 扫描线曲线在阶段窗口内的时间加权统计量（aiperf/analysis/sweepline.py，含其数据块间回放），credence 不重新实现",
    ),
    ("credence has no recomputation of this number from per-request data", "credence 不从逐请求数据重算这一数值"),
    ("dispatch delays of the first turn of each conversation", "每个会话第一轮的调度延迟"),
    ("give per_request_lifecycle_metrics.json with it to recompute this", "需同时提供 per_request_lifecycle_metrics.json 才能重算"),
    (
        "guidellm counts every streamed event of the response (request_iterations), not only those carrying tokens",
        "guidellm 统计响应的每个流式事件（request_iterations），而不只是携带 token 的事件",
    ),
    (
        "guidellm measures it against the wall clock when it processed each request, a time the file does not keep",
        "guidellm 按其处理每个请求时的挂钟时间测量，文件中没有保留该时间",
    ),
    (
        "guidellm's ITL is each request's mean gap (last token - first token) / (output tokens - 1), counted once per token after the first; it records no per-token gaps",
        "guidellm 的 ITL 是每个请求的平均间隔（最后一个 token − 首 token）/（输出 token 数 − 1），首 token 之后每个 token 计一次；它不记录逐 token 间隔",
    ),
    (
        "guidellm's TPOT is (last token - request start) / output tokens, so it includes the TTFT, and each request counts once per output token",
        "guidellm 的 TPOT 是（最后一个 token − 请求开始）/ 输出 token 数，因此包含 TTFT，且每个请求按输出 token 数计多次",
    ),
    (
        "guidellm's rate is the mean of a time-weighted distribution of instantaneous rates over the measure window (each event a rate over the half-gaps to its neighbours, events within 0.1 ms merged): events in the window divided by its length",
        "guidellm 的速率是测量窗口内瞬时速率的时间加权分布的均值（每个事件的速率按其与相邻事件的半间隔计算，相距 0.1 ms 以内的事件合并）：即窗口内事件数除以窗口长度",
    ),
    (
        "guidellm's rate of this amount is the mean of a time-weighted distribution of instantaneous rates, each request's amount counted at its end, over the span of those ends (no measure window)",
        "guidellm 这一数量的速率是瞬时速率的时间加权分布的均值，每个请求的数量计在其结束时刻，时间跨度为这些结束时刻的跨度（不使用测量窗口）",
    ),
    ("guidellm: time-weighted number of requests in flight during the measure window", "guidellm：测量窗口内在途请求数的时间加权值"),
    (
        "inference-perf: (last − first per-token time) / (output tokens − 1), with the client's re-tokenized count of the whole text (n + 1 here) unless use_server_output_tokens",
        "inference-perf：（最后一个 − 第一个逐 token 时间）/（输出 token 数 − 1），除非设置 use_server_output_tokens，否则用客户端对全文重新分词的计数（此处为 n + 1）",
    ),
    (
        "inference-perf: every gap between per-token times, pooled; each chunk is re-tokenized alone and all its tokens get its arrival time, so most gaps are 0",
        "inference-perf：合并全部逐 token 时间间隔；每个数据块单独重新分词，其所有 token 都记为该块的到达时间，因此大多数间隔为 0",
    ),
    ("inference-perf: last end − first start", "inference-perf：最后一个结束时间 − 第一个开始时间"),
    ("inference-perf: last start − first start", "inference-perf：最后一个开始时间 − 第一个开始时间"),
    (
        "inference-perf: request latency / output tokens (client count unless use_server_output_tokens; 0 when there are none)",
        "inference-perf：请求延迟 / 输出 token 数（除非设置 use_server_output_tokens，否则用客户端计数；没有输出 token 时为 0）",
    ),
    ("inference-perf: requests / (last start − first start)", "inference-perf：请求数 /（最后一个开始时间 − 第一个开始时间）"),
    (
        "inference-perf: successful requests' counts / (last end − first start), over all requests of the summary",
        "inference-perf：成功请求的计数 /（最后一个结束时间 − 第一个开始时间），时间跨度取该汇总的全部请求",
    ),
    ("inference-perf: the first per-token time − start_time", "inference-perf：第一个逐 token 时间 − start_time"),
    (
        "measured from guidellm's targeted_start, which with a Poisson profile is counted from -1.0 instead of the epoch for requests generated before the start offset",
        "从 guidellm 的 targeted_start 起算；在泊松负载下，开始偏移之前生成的请求的 targeted_start 从 -1.0 而非纪元时间起算",
    ),
    ("requests of this status overlapping the measure window", "与测量窗口重叠的该状态请求"),
    ("start_time − scheduled_time: the scheduled time is not in the per-request file", "start_time − scheduled_time：逐请求文件中没有计划时间"),
    ("the client's re-tokenized count of the whole text", "客户端对全文重新分词的计数"),
    ("the configured value (config.yaml load.stages), an input rather than a measurement", "配置值（config.yaml load.stages），是输入而非测量结果"),
    (
        "the file name does not say which requests it summarises (summary_lifecycle_metrics.json, stage_N_lifecycle_metrics.json)",
        "文件名没有说明它汇总的是哪些请求（summary_lifecycle_metrics.json、stage_N_lifecycle_metrics.json）",
    ),
    ("the per-request records lack what this number is computed from", "逐请求记录缺少计算这一数值所需的数据"),
    (
        "the request generator's delays (scheduler_state.generation_delay_samples) are not in the file",
        "文件中没有请求生成器的延迟（scheduler_state.generation_delay_samples）",
    ),
    (
        "the scheduler also counts requests cancelled before they started, which the file does not list",
        "调度器还统计了开始前即被取消的请求，文件中没有列出这些请求",
    ),
    ("the server's usage.completion_tokens, else the client's count", "服务端的 usage.completion_tokens，没有时用客户端计数"),
    ("the server's usage.prompt_tokens where given, else the client's count", "服务端给出的 usage.prompt_tokens，没有时用客户端计数"),
    ("websocket backends only; 0 for every HTTP request", "仅适用于 websocket 后端；HTTP 请求一律为 0"),
];

/// A definition in Chinese; None for one the table lacks (the test finds those).
pub fn definition(english: &str) -> Option<String> {
    if let Some(status) = english.strip_prefix("the records listed under requests.") {
        return Some(format!("列在 requests.{status} 下的记录"));
    }
    if let Some(k) = english.strip_prefix("the records carry no stage id: give inference-perf.partial.stage_").and_then(|r| r.split_once('.')).map(|x| x.0) {
        return Some(format!("记录中没有阶段编号：需提供 inference-perf.partial.stage_{k}.yaml（其 run.time 确定阶段 {k} 的请求）才能重算"));
    }
    DEFINITIONS.binary_search_by(|e| e.0.cmp(english)).ok().map(|i| DEFINITIONS[i].1.to_string())
}

/// A definition in Chinese, or as written when the table lacks it.
pub fn definition_or_english(english: &str) -> String {
    definition(english).unwrap_or_else(|| english.to_string())
}

/// `m` with every tool definition (`audit-definition`) in Chinese.
pub fn with_chinese_definitions(m: &Message) -> Message {
    let mut out = m.clone();
    for (name, arg) in out.args.iter_mut() {
        match arg {
            Arg::Text(t) if m.id == "audit-definition" && name == "definition" => *t = definition_or_english(t),
            Arg::Msg(inner) => **inner = with_chinese_definitions(inner),
            Arg::List { items, .. } => items.iter_mut().for_each(|i| *i = with_chinese_definitions(i)),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_for_the_binary_search() {
        for pair in DEFINITIONS.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{:?} must come before {:?}", pair[1].0, pair[0].0);
        }
    }

    #[test]
    fn worded_patterns_keep_their_names() {
        assert_eq!(definition("the records listed under requests.errored").unwrap(), "列在 requests.errored 下的记录");
        let stage = "the records carry no stage id: give inference-perf.partial.stage_1.yaml (its run.time places stage 1's requests) to recompute this";
        assert!(definition(stage).unwrap().contains("inference-perf.partial.stage_1.yaml"));
    }
}
