## The one line a command prints on the terminal (stderr) after it wrote its file.
cli-wrote-report = 已写入 { $path }（{ $bytes } 字节，可信度 { $grade }）
cli-wrote-audit = 已写入 { $path }（{ $bytes } 字节）：{ $outcome }
cli-audit-claims = 工具声称值 { $claims } 项，复现 { $reproduced } 项，不一致 { $differ } 项
cli-audit-telemetry = 仅 GPU 遥测：GPU { $gpus } 块，负载中 { $loaded } 块，未计入 { $aside } 块；时段 { $episodes } 个；无法运行任何基于请求的检查
cli-history-store = 历史记录目录 { $dir }：新增 { $added } 次运行，{ $present } 次已存在
