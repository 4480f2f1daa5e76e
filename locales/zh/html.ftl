## HTML 报告自身的选项文字（报告的句子与表格与 PDF 出自同一批消息）。

html-contents = 目录
html-run = 运行
html-shade = 阴影
html-dropped = 剔除的预热段与收尾段
html-zoom_hint = 在任一时间线上选取一段即可同时缩放全部时间线；连按两次复原。
html-reset = 复原缩放
html-scatter = 按发送时间的请求
html-scatter_note = 显示 { $total } 个请求中的 { $shown } 个（已抽样；每段保留最慢、最快与失败的请求）。
html-metric = 指标
html-color_by = 分色依据
html-status = 状态
html-phase = 阶段
html-ok = 成功
html-error = 失败
html-warmup = 预热
html-steady = 稳态
html-episode = 异常时段
html-other = 其他
html-base = 基线
html-candidate = 候选
html-low = 低可信度运行
html-estimate = 估计值
html-output_tokens_per_s = 输出 token 吞吐量
html-requests_per_s = 请求吞吐量
html-error_rate = 错误率
