## The report's words beside the sentences of the analysis: ids are `<group>-<name>`,
## and the view looks a word up by `<group>.<name>`. Arguments are filled in as written.

## The charts' titles, axes and legends.
chart-achieved_axis = 实际 req/s（稳态窗口）
chart-cdf_e2e = E2E 累积分布
chart-cdf_itl = ITL 累积分布
chart-cdf_tpot = TPOT 累积分布
chart-cdf_ttft = TTFT 累积分布
chart-cdf_y = 请求占比 %
chart-cdf_y_itl = 间隔占比 %
chart-change = 变化
chart-client_cpu = 压测客户端 CPU
chart-client_cpu_axis = 单核占用 %
chart-client_lag = 压测客户端发送延迟（每秒 P99）
chart-completed = 完成 req/s
chart-concurrency = 并发数
chart-concurrency_axis = 在途请求数
chart-concurrency_mean = 平均在途请求数
chart-forest = 相对变化（候选 / 基线 − 1）及 95 % 置信区间；灰色：±τ
chart-gpu_clock = GPU SM 时钟
chart-gpu_memory = GPU 显存占用
chart-gpu_memory_axis = 占总量 %
chart-gpu_power = GPU 功耗
chart-gpu_temperature = GPU 温度
chart-gpu_utilization = GPU 利用率
chart-hist_e2e = E2E 直方图
chart-hist_itl = ITL 直方图
chart-hist_tpot = TPOT 直方图
chart-hist_ttft = TTFT 直方图
chart-hist_x = ms，对数分箱
chart-hist_x_log = ms，对数分箱（对数坐标）
chart-hist_y = 请求数
chart-hist_y_itl = 间隔数
chart-latency_e2e = 每窗口 E2E（对数坐标）
chart-latency_tpot = 每窗口 TPOT（对数坐标）
chart-latency_ttft = 每窗口 TTFT（对数坐标）
chart-limit = 功耗上限
chart-maximum = 最大值
chart-ms_log = ms（对数坐标）
chart-offered = 计划 req/s（给定）
chart-power = 功耗
chart-rated_maximum = 额定最大值
chart-requests_axis = req/s
chart-retransmits = TCP 重传
chart-seconds = 自首次发送起的秒数
chart-seconds_sample = 自首个采样起的秒数
chart-sent = 发送 req/s（实际）
chart-slowdown = 降频温度
chart-sm_clock = SM 时钟
chart-sweep = 延迟与实际请求吞吐量（每档一个点）
chart-throughput = 请求吞吐量：给定速率与实际速率
chart-under_load = 负载判定阈值
chart-utilization = 利用率
chart-hottest_thread = { $host } 最忙线程
chart-segments_axis = 报文段/s
chart-of_gpu = { $gpu }：{ $what }
chart-temperature = 温度

## The comparison's arms.
cmp-arm_base_title = 基线组
cmp-arm_cand_title = 候选组

## Conditions: clean windows against episodes.
cond-cause_separator = ；
cond-cause_windows = { $cause }（{ $windows }）
cond-clean_note = { $s } s、{ $n } 个请求（{ $windows }）；排除 { $ex } s、{ $exn } 个请求（占稳态窗口的 { $share } %）。
cond-clean_title = 干净窗口
cond-episode_note = 时段内共 { $s } s、{ $n } 个请求：{ $windows }。
cond-excluded = { $ex } s、{ $exn } 个请求（占稳态窗口的 { $share } %）：{ $causes }
cond-excluded_label = 已排除
cond-headline = 单位 ms。干净窗口内（{ $s } s）：P50 { $p50 } · P99 { $p99 }；实测：P50 { $mp50 } · P99 { $mp99 }
cond-note = 有环境原因的时段从稳态窗口中单独划出，并按测得的滞后向两侧各扩展一个 5 s 归因窗口。每个条件的置信区间都按该条件自己的时间分组做块自助法得到。对照表给出点估计的比值；影响的置信区间见“发现”一节。
cond-run_title = 运行 { $run }
cond-throughput = 请求吞吐量
cond-throughput_rps = 请求吞吐量（req/s）
cond-windows = { $n } 个窗口

## The methodology appendix.
method-attribution = 异常：以稳态窗口的中位数和 MAD 为参照，计算每个 5 s 窗口的稳健 z 值。原因：由遥测检测器找出（NVML 降频原因位和违规计数、功耗、显存、其他进程、压测客户端 CPU 和发送延迟、网络计数器、服务端队列）。异常与时段在 ±2 s 内匹配。
method-attribution_term = 归因
method-grade_term = 可信度等级
method-intervals = 置信水平 { $confidence } %。请求相互独立时，用精确的顺序统计量区间（轻度相关时按有效观测数计算）。请求相关时，按 { $groups } s 分组做平稳块自助法；块数较少时按 t/z 放宽，并校正块自助法的一阶方差偏差。错误率用 Wilson 区间。种子 { $seed }，重抽样 { $resamples } 次。
method-intervals_term = 置信区间
method-itl = 相邻两个流式数据块之间的每个间隔；一个数据块可能包含多个 token。
method-percentiles_term = 分位数
method-service = 结束时刻减去计划发送时刻：包含客户端自身的滞后，因此协调遗漏体现在这里，而不体现在 E2E 中。
method-steady = 对每个窗口的 TTFT 和 TPOT 中位数取对数后做 PELT 变点检测（{ $penalty } 惩罚），等价阈值 { $delta } %；并在窗口内用 MSER-5 和 Mann–Kendall/Pettitt 交叉验证。
method-steady_term = 稳态
method-tpot = （结束时刻 − 首 token 时刻）/（输出 token 数 − 1）。
method-ttft = 首 token 延迟（TTFT），从实际发送时刻起算（首个 token 时刻减去发送时刻）。

## A fixed note of the analysis.
quantile-type7 = Hyndman–Fan 第 7 类（线性插值，与 numpy 默认相同）

## A fixed note of the analysis.
replication-single = 单次运行，配置本身的影响与运行间噪声无法区分

## The telemetry audit.
telemetry-basis-clock_only = 仅依据 SM 时钟
telemetry-basis-power_at_limit = 功耗达到上限，无原因位
telemetry-basis-reason_bits = 依据原因位
telemetry-episode-a_throttle = ，属于降频故障
telemetry-episode-what = { $label }{ $fault }（{ $basis }）
telemetry-evidence-bits = 原因位 { $bits }
telemetry-evidence-clock = SM 时钟中位数 { $median } MHz（最低 { $min }），负载下最高值为 { $highest } MHz（{ $change } %）
telemetry-evidence-no_bits = 未采集原因位
telemetry-evidence-power = 功耗最高 { $max } W，上限 { $limit } W（{ $share }）
telemetry-evidence-power_no_limit = 功耗最高 { $max } W（未采集上限）
telemetry-evidence-temp = 温度最高 { $max } °C
telemetry-evidence-util = 平均利用率 { $mean } %
telemetry-headline-capture = 采集
telemetry-headline-capture_value = 仅 GPU 遥测，共 { $seconds } s，起始于 { $date } { $time } UTC；没有请求记录
telemetry-headline-clock = 负载下的 SM 时钟
telemetry-headline-clock_of_gpu = { $gpu }：中位数 { $median } MHz，变异系数 { $cv }
telemetry-headline-episodes = 异常时段
telemetry-headline-episodes_value = 负载下 { $n } 个：降频 { $throttles } 个，功耗受限或时钟下降 { $others } 个
telemetry-headline-gpus = GPU
telemetry-headline-gpus_value = { $n } 块：{ $loaded } 块处于负载下，{ $aside } 块未纳入分析
telemetry-headline-no_gpu_under_load = 没有处于负载下的 GPU
telemetry-not_available = —
telemetry-seconds_of_samples = { $seconds } s（{ $samples } 个样本）
telemetry-sep = ；
telemetry-stability-clock = { $median }（{ $min }–{ $max }）MHz
telemetry-stability-insufficient = 数据不足：{ $note }
telemetry-stability-stable = 稳定
telemetry-stability-unstable = 不稳定

## The templates' headings, column names and fixed words (`tpl.md_` the Markdown's own).
tpl-col_achieved = 实际速率 req/s
tpl-col_base = 基线
tpl-col_below_90 = 低于最高值的 90 %
tpl-col_below_highest = 低于最高值
tpl-col_bytes = 字节
tpl-col_candidate = 候选
tpl-col_check = 检查项
tpl-col_claim = 工具声称值
tpl-col_credence = credence（稳态，95 %）
tpl-col_credence_whole_run = credence（全部请求，95 %）
tpl-col_definition = 定义
tpl-col_duration = 持续时间
tpl-col_errors_pct = 错误率 %
tpl-col_estimate = 估计值 [95 % 置信区间]
tpl-col_evidence = 证据
tpl-col_fact = 事实
tpl-col_file = 文件
tpl-col_gate = 门槛
tpl-col_grade = 可信度
tpl-col_item = 项目
tpl-col_key = 键
tpl-col_loaded = 负载时长
tpl-col_metric = 指标
tpl-col_offered = 给定速率 req/s
tpl-col_rate = 速率
tpl-col_reason = 原因
tpl-col_recomputed = 重算值
tpl-col_run = 运行
tpl-col_seconds = 秒
tpl-col_sm_clock = SM 时钟中位数（最小–最大）
tpl-col_status = 状态
tpl-col_term = 术语
tpl-col_tool = 工具值
tpl-col_value = 值
tpl-col_verdict = 判定
tpl-col_reproduction = 复现情况
tpl-col_what = 时段
tpl-col_why = 原因
tpl-cond_col_cause = 原因
tpl-cond_col_inside = 时段内
tpl-cond_col_inside_outside = 时段内 / 时段外
tpl-cond_col_metric = 指标
tpl-cond_col_outside = 时段外（干净）
tpl-cond_h_contrast = 各时段内外对比
tpl-credibility_badge = 可信度：
tpl-distributions_note = 仅统计稳态窗口。红线标出报告中的分位数。
tpl-distributions_note_whole_run = 统计全部请求（数据源没有时间戳，无法划出稳态窗口）。红线标出报告中的分位数。
tpl-grade_HIGH = 高
tpl-grade_LOW = 低
tpl-grade_MEDIUM = 中
tpl-h_appendix = 附录
tpl-h_audit = 工具声称值核验
tpl-h_checks = 可信度检查
tpl-h_clock_stability = 负载下的时钟稳定性
tpl-h_comparison_details = 对比详情
tpl-h_conditions = 条件：
tpl-h_decide = 无法判断的指标还需要多少数据
tpl-h_distributions = 分布
tpl-h_environment = 环境快照
tpl-h_environment_changed = 实测环境差异：仅作参考，不是切换项
tpl-h_episodes = 异常时段
tpl-h_findings = 发现
tpl-h_gates = 有效性门槛
tpl-h_gpu_telemetry = GPU 遥测
tpl-h_key_metrics = 关键指标
tpl-h_methodology = 方法说明
tpl-h_provenance = 数据来源
tpl-h_set_aside = 未纳入分析的 GPU
tpl-h_timelines = 时间序列
tpl-h_unexplained = 未解释的异常
tpl-h_what_changed = 两份运行清单的差异
tpl-h_by_adapter = 按适配器
tpl-col_adapter = 适配器
tpl-md_col_changed = 变化项
tpl-md_col_environment = 实测值（不是切换项）
tpl-md_details_checks = 检查，{ $title }
tpl-md_details_comparison = 对比详情：方法、全部门槛、如何判定、清单差异
tpl-md_details_conditions = 各次运行的条件
tpl-md_details_metrics = 各次运行的关键指标
tpl-md_finding = - **{ $title }**（`{ $cause }`，{ $strength }）：{ $episodes }。影响：{ $effect }。建议措施：{ $action }
tpl-md_key_metrics = 关键指标，{ $title }
tpl-md_ms_intervals = （ms，95 % 置信区间）
tpl-md_unexplained = 未解释：
tpl-no_cause = 未发现原因。
tpl-none_all_loaded = 无：所有 GPU 均处于负载下。
tpl-nothing_differs = 两份运行清单没有差异。
tpl-row_action = 建议措施
tpl-row_cause = 原因标识
tpl-row_effect = 影响
tpl-row_episodes = 时段
tpl-row_evidence = 证据
tpl-row_link = 关联强度
tpl-status_FAIL = 失败
tpl-status_NOT_CHECKED = 未检查
tpl-status_PASS = 通过
tpl-status_WARN = 警告
tpl-sweep_note = 每一档均按其自身的稳态窗口分析；区间为 95 % 置信区间。（客户端受限）：该档中压测客户端报告自身已接近极限。后文依次给出各档的指标表和发现；时间序列和分布图取最高一档。
tpl-under_load = 负载判定：

## The view's sentences.
view-change_percent = 变化 { $peak } %
view-effect = { $metric } 时段内相对时段外：{ $change }{ $ci }；样本数：时段内 { $inside }，时段外 { $outside }
view-effect_ci = {" "}[{ $lo }, { $hi }]（95 %，{ $method }，种子 { $seed }，重抽样 { $resamples } 次）
view-effect_none = 无法测量
view-errors_cancelled = ；另有 { $n } 个被压测客户端取消，未计入
view-errors_line = { $requests } 个请求中 { $errors } 个失败：{ $rate } %
view-every_detector = 所有检测器均有所需证据。
view-findings_none = { $ran ->
        [0] 无法判断原因：所有检测器都缺少证据，均未能运行（见下文）。
       *[other] 未发现原因：{ $ran } 个检测器具备所需证据，均未发现问题；另有 { $lacking } 个检测器缺少证据，未能运行（见下文）。
    }
view-findings_none_all = 所有检测器均未发现问题。
view-from_zero_baseline = 自零基线上升
view-grade_rule = 任一检查失败为低；至少 3 次运行且全部检查通过为高；其余为中（单次运行最高为中）
view-not_available = —
view-censored = > { $lo }（{ $share } % 的请求{ $before ->
        [first_token] 在首个 token 前
       *[end] 在完成前
    }超时或被取消）
view-insufficient = ~{ $v }（数据不足）
view-insufficient_bound = ~{ $v }（≥ { $lo }，数据不足）
view-kind_comparison = 对比
view-kind_replicated = 重复运行
view-kind_single = 单次运行
view-kind_sweep = 负载扫描
view-load_concurrency = 并发 { $n }
view-load_rate = { $arrival }，{ $rate } req/s
view-metric_service = 自计划发送起的 E2E
view-metric_ttfot = 首个输出 token 延迟
view-metrics_note = 估计值及其 95 % 置信区间，单位 ms，仅统计稳态窗口。“~估计值（≥ 下界，数据不足）”表示样本过少，无法给出双侧区间，只能确认下界。
view-metrics_note_whole_run = 估计值及其 95 % 置信区间，单位 ms，统计全部请求（数据源没有时间戳，无法划出稳态窗口）。“~估计值（≥ 下界，数据不足）”表示样本过少，无法给出双侧区间，只能确认下界。
view-named_checks = 各项检查
view-no_detector = 没有运行任何原因检测器：没有可供归因的请求时间线。
view-no_interval = 无区间
view-no_request_records = 没有请求记录
view-not_checked = 未检查（缺少证据）：{ $items }。
view-prov_error = 错误（{ $kind }，{ $n } 次）
view-prov_label = 标签 { $key }
view-prov_source = { $tool } { $tool_version }（运行目录格式 { $format }）；来源：{ $kind } { $name }{ $version }
view-source_kind = { $kind ->
        [collector] 采集器
        [importer] 导入器
        [simulator] 模拟器
       *[other] { $kind }
    }
view-prov_version = ，版本 { $v }
view-rate_errors = { $id }：错误率（%）
view-rate_requests = { $id }：请求吞吐量（req/s）
view-rate_tokens = { $id }：输出 token 吞吐量（tokens/s）
view-row_errors = 错误
view-row_throughput = 请求与 token 吞吐量
view-row_tpot = 每 token 输出时间（TPOT）
view-row_ttfot = 首个输出 token 延迟
view-row_ttft = 首 token 延迟（TTFT）
view-run_prefix = 运行{" "}
view-strength = { $label }：该时段有 { $overlap } % 的时间与延迟、请求吞吐量或错误率的异常重叠；相关系数 { $corr }
view-strength_lag = （滞后 { $lag } s）
view-strength_moderate = 中等
view-strength_strong = 强
view-strength_weak = 弱
view-sut_model = 模型 { $model }
view-sut_parallelism = 并行方式 { $p }
view-sut_unknown = 未记录被测系统
view-telemetry_only = 仅 GPU 遥测
view-throughput_line = { $requests } req/s，输出 { $tokens } tokens/s
view-timeline_note = 横轴为自首次发送起的秒数。灰色：舍弃的预热段和收尾段。红色：各项发现对应的异常时段。
view-title_benchmark = 压测报告
view-title_comparison = 对比报告
view-undated = 未注明日期
view-unexplained = { $id }：{ $series } 在 { $start } s 至 { $end } s 之间{ $change }（稳健 z 值 { $z }）；没有检测器找到原因
view-unknown = 未知
view-unknown_note = 未知：{ $note }
view-title_audit_of = 审计：{ $source }
view-file_as_format = { $file }（{ $format }）
view-title_sut = { $what }：{ $sut }
view-sut_pair = { $model }（{ $engine }）
view-load_swept = { $arrival }，负载从 { $from } 逐档升至 { $to } req/s
view-load_swept_sessions = （对话：每秒 { $from } 至 { $to } 个会话）
view-parenthesized = { $text }（{ $note }）
view-p50_p99_ms = 单位 ms：P50 { $p50 } · P99 { $p99 }
view-episode_of = { $span }，{ $source }
view-row_stopped = 停止条件
view-row_slo = 服务等级目标
view-row_goodput = 有效吞吐
slo-objective = { $metric } ≤ { $threshold } ms：{ $verdict ->
        [met] 达标
        [violated] 未达标
       *[undecided] 置信区间无法判定
    }（{ $estimate } ms）
slo-goodput = 每秒 { $goodput } 个请求满足全部目标：占请求的 { $attainment } %，失败请求计为未满足{ $limited }
slo-limited = ；{ $metric } 最先不达标
view-row_cache = 前缀缓存
view-row_turns = 各轮 TTFT
cache-hit-rate = 提示词中 { $rate } % 的 token 由缓存提供{ $server }
cache-server = （整次运行的服务端计数：{ $rate } %）
cache-turn = 第 { $turn } 轮：P50 { $ttft } ms，共 { $n } 个请求{ $cached }
cache-turn-cached = ，提示词 { $rate } % 来自缓存
view-row_adapters = 按适配器
adapter-split = { $adapter }：P50 TTFT { $ttft } ms，P50 TPOT { $tpot } ms，共 { $n } 个请求
view-row_prompt_lengths = 提示词长度
prompt-lengths = { $exact ->
        [exact] 精确（按分词器构造）
       *[approximate] 近似（按单词构造，未给 `--tokenizer`）
    }：构造 { $intended } 个 token，服务端计为 { $server } 个（中位数，相差 { $difference } %）。{ $n } 个请求中，{ $beyond } % 相差超过 1 %
view-row_runs = 运行
view-runs_line = 共 { $n } 次运行；以下关键数字取自第一次运行（{ $first }）
view-row_sweep = 负载扫描
view-step_title = { $rate } req/s 一档（运行 { $id }）
view-sweep_top_step = 负载扫描的最高一档（{ $rate } req/s）。
view-arm_title = { $arm }：{ $grade }
view-effect_no_ci = （{ $note }）
view-yes = 是
view-no = 否
