## 被审计工具的运行级事实为何得出该结果。工具或其日志写下的内容（有效性判定词、日志中的计数、
## incomplete_reason）按原样给出。

fact-detail = （{ $text }）
fact-mlperf-conditions-unrecorded = 日志给出 { $validity }，但没有记录任何判定条件
fact-mlperf-validity = 日志给出 { $validity }；按其判定条件应为 { $expected }{ $failed }
fact-mlperf-failed = （未满足：{ $items }）
fact-mlperf-min-queries = 完成 { $queries } 个查询，最低要求 { $min } 个
fact-mlperf-truncated = 日志在任何 result_* 键之前结束：运行没有完成，或日志被截断
fact-mlperf-summary-matches = 汇总文件给出 { $summary }，明细日志给出 { $detail }
fact-llmperf-error-rate = 该工具自身的错误率为 { $rate } %；其百分位数只涵盖成功的请求
fact-aiperf-errors-uncounted = 汇总文件统计了 { $claimed } 个错误{ $detail }；需要 profile_export.jsonl 才能清点
fact-aiperf-errors-counted = 汇总文件统计了 { $claimed } 个错误{ $detail }；profile_export.jsonl 中有 { $records } 条带错误的测量阶段记录
fact-aiperf-cancelled = AIPerf 称本次运行已取消、不完整{ $why }：{ $records }{ $in_flight }
fact-records-held = profile_export.jsonl 中有 { $n } 条测量阶段记录；
fact-in-flight-logged = 据 logs/aiperf.log（{ $counts }），已发送但未完成的 { $lost } 个请求不在任何文件和统计量中
fact-in-flight-unlogged = 运行中被取消的请求不在任何文件和统计量中，只有 logs/aiperf.log 记录其数量：提供该文件即可查看
fact-aiperf-cut-per-log = 汇总文件称 is_complete: true，但据 logs/aiperf.log（{ $line }），阶段结束时仍在处理的 { $cancelled } 个请求被取消，profile_export.jsonl 和所有统计量中都没有它们
fact-aiperf-cancelled-records = 汇总文件称 is_complete: true，但有 { $records } 条测量阶段记录被取消（was_cancelled）
fact-aiperf-complete-logged = is_complete: true，与 logs/aiperf.log 一致（{ $line }）
fact-aiperf-complete-clean = is_complete: true，logs/aiperf.log 表明没有请求被取消
fact-aiperf-complete-unchecked = 汇总文件称 is_complete: true，此处无法核对：{ $limit }AIPerf 不把运行中被取消的请求写入 profile_export.jsonl 和汇总文件，只有 logs/aiperf.log 记录其数量（提供该文件即可核对）
fact-phase-limit-grace = 本阶段限时 { $duration } s，宽限期 { $grace } s，结束时仍在处理的请求会被取消；
fact-phase-limit = 本阶段限时 { $duration } s；
fact-phase = { $phase ->
        [warmup] 预热阶段
        [profiling] 测量阶段
       *[other] { $phase }
    }
fact-phase-manifest-uncounted = phase_manifest.json 列出 { $listed } 个{ $phase }请求；需要 profile_export.jsonl 才能清点
fact-phase-manifest-counted = phase_manifest.json 列出 { $listed } 个{ $phase }请求；profile_export.jsonl 中有 { $records } 条{ $phase }记录
## 引自日志的一行：行号，以及日志原文。
fact-log-line = 第 { $line } 行：{ $text }
