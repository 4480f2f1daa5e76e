## The one line a command prints on the terminal (stderr) after it wrote its file.
cli-wrote-report = 已写入 { $path }（{ $bytes } 字节，可信度：{ $grade }）
cli-wrote-audit = 已写入 { $path }（{ $bytes } 字节）：{ $outcome }
cli-audit-claims = 工具声称值 { $claims } 项，复现 { $reproduced } 项，不一致 { $differ } 项
cli-audit-telemetry = 仅 GPU 遥测：GPU { $gpus } 块，负载中 { $loaded } 块，未计入 { $aside } 块；时段 { $episodes } 个；无法运行任何基于请求的检查
cli-history-store = 历史记录目录 { $dir }：新增 { $added } 次运行，{ $present } 次已存在
cli-baseline-saved = 已保存基线 { $name }：{ $runs } 次运行，位于 { $path }{ $single ->
        [yes] （只有一次运行，运行间噪声为假定值，未经测量；请至少保存 3 次运行）
       *[no] {""}
    }

## 读取目录时跳过的文件（`import`、`audit`，以及交给 `report`、`compare`、`plan` 或 `baseline` 的工具目录），每个一行，写到 stderr。
cli-skipped = 已跳过 { $path }：{ $why }
skip-unsupported = { $file ->
        [aiperf-raw] AIPerf 的原始导出（profile_export_raw.jsonl，含每一条 SSE 消息；请改为导入 profile_export.jsonl）
        [aiperf-csv] AIPerf 的 CSV 汇总（profile_export_aiperf.csv）：已读取内容相同的 profile_export_aiperf.json
        [aiperf-console] AIPerf 的控制台表格（profile_export_console.txt）：profile_export_aiperf.json 含有相同的数值
        [inference-perf-validation] inference-perf 的 validation.json（它对自身报告的检查；credence 自己检查这些报告）
        [aiperf-ready] AIPerf 的结果就绪标记（.aiperf_results_ready.json）
        [aiperf-inputs] AIPerf 的 inputs.json（它发送的请求内容）
       *[unknown-json] 未知的 JSON 文件
    }
skip-unknown-json = 不属于任何已知压测格式的 JSON 文件
skip-unrecognised = 无法从内容识别文件格式
skip-symlink = 符号链接：不跟随
skip-too-deep = 超过 { $depth } 层的子目录：未搜索
skip-ambiguous = 与 { $n } 次运行的文件同在 { $dir } 中：无法判断它属于哪次运行
skip-no-run = 所在目录及其上级目录中都没有逐请求文件：它不属于任何运行
skip-another = 本次运行已读取另一个 { $format } 文件：{ $path }
