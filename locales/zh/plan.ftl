## `credence plan`：方案依据的假定、无方案可行时的原因，以及表格用词。
## 百分比以百分数传入；basis 为 measured（实测）或 assumed（假定）。

plan-title = 试验设计：在 { $tolerance } % 容差下检出 { $effect } % 的变化，功效 { $power } %
plan-pilot = 试验运行：{ $runs ->
       *[other] { $runs } 次
    }，稳态请求共 { $requests } 个（{ $rate } req/s；每次运行稳态 { $steady } s，预热 { $warmup } s）
plan-column = { $column ->
        [metric] 指标
        [within] 运行内变异系数
        [between] 运行间变异系数
        [runs] 每组运行次数
        [run] 每次时长
        [requests] 每次请求数
        [power] 功效
       *[cost] 总耗时
    }
plan-basis = { $basis ->
        [assumed] （假定）
       *[measured] （实测）
    }
plan-designs = 可行方案：每种运行时长下达到目标功效所需的最少运行次数{ $basis ->
        [assumed] （功效依赖假定的运行间变异系数）
       *[measured] {""}
    }
plan-recommended = * 推荐：总耗时最少的方案，每次运行另计 { $cost } 固定开销（两组都计入）
plan-assumptions = 依据的假定：

plan-cannot-tell = 这组试验运行无法给出方案：要达到 { $power } % 的功效，每组需要的请求数超过试验运行 { $requests } 个请求的 { $limit } 倍{ $closest }。请先做至少 { $need } 个请求的试验运行，再重新规划
plan-no-design = 每组最多 { $max } 次运行的方案都达不到 { $power } % 的功效{ $closest }：与效应（{ $effect } %）和容差（{ $tolerance } %）之差相比，运行间方差（{ $basis ->
        [assumed] 假定值
       *[measured] 实测值
    }）过大{ $basis ->
        [assumed] ；请用 2 次或更多试验运行实测它
       *[measured] {""}
    }
plan-closest = （可及范围内最好的方案为每组 { $runs } 次、每次 { $duration } s，功效 { $power } %）

plan-between-measured = 运行间方差为实测值（Kalibera–Jones 方法，基于 { $runs } 次试验运行，自由度 { $df ->
       *[other] { $df }
    }；运行次数少，估计较粗）
plan-between-assumed = 运行间方差为假定值：单次试验运行测不出它，按 { $cv } % 的运行间变异系数（--between-run-cv）规划，所有功效和方案都依赖这一假定
plan-within-sampling = 运行内抽样方差取自每次试验运行的块自助法，随稳态长度按 1/长度 下降；方案中的运行不短于试验运行
plan-within-df = 试验运行对运行内噪声的估计约有 { $df } 个自由度（取最不确定的指标）。因此每个功效都在该噪声的可能取值上取平均（保证度），而不只按点估计计算：否则，碰巧把噪声测低的试验运行会规划出过小的试验
plan-within-known = 运行内噪声按已知处理（其自由度未测得）
plan-compare-rule = 比较命令（credence compare）的判定规则：95 % 置信区间整体超出容差才判为退化（运行间离散只进入区间，不移动容差）；区间把各次运行的离散与 { $cv } % 的运行间先验（相当于 { $df } 个自由度）合并
plan-power-method = 功效按对数比的正态近似计算；方案每组最多使用试验运行请求数的 { $limit } 倍，且每组至少 2 次运行
plan-same-setup = 服务端、负载和发送速率与试验运行相同（稳态窗口 { $rate } req/s，每次运行预热 { $warmup } s）
## A duration in the designs table: seconds, minutes or hours.
plan-span = { $unit ->
        [s] { $n } s
        [min] { $n } 分钟
       *[h] { $n } 小时
    }
