## The HTML report's own controls (the report's sentences and tables come from the same
## messages as the PDF's).

html-contents = Contents
html-run = Run
html-shade = Shade
html-dropped = dropped warmup and ramp-down
html-zoom_hint = Drag across any timeline to zoom them all; double-click to reset.
html-reset = Reset zoom
html-scatter = Requests by send time
html-scatter_note = { $shown } of { $total } requests shown (thinned; each slice's slowest, fastest and failed requests kept).
html-metric = Metric
html-color_by = Colour
html-status = status
html-phase = phase
html-ok = succeeded
html-error = failed
html-warmup = warmup
html-steady = steady
html-episode = episode
html-other = other
html-base = base
html-candidate = candidate
html-low = LOW run
html-estimate = estimate
html-output_tokens_per_s = output tokens/s
html-requests_per_s = requests/s
html-error_rate = error rate
