// One handout page: both models' heatmaps, and a step slider that moves both. Everything
// drawn comes from the Traces in <script id="attnviz-data"> (attnviz.decoding.trace_json),
// and the interface text from its "text". Needs Plotly (plotly.min.js beside the page, or
// inlined) and nothing else: no request leaves the page.
(function () {
  "use strict";
  const page = JSON.parse(document.getElementById("attnviz-data").textContent);
  const text = page.text;
  const slider = document.getElementById("step");
  const steps = Math.max(...page.models.map((m) => m.trace.output_tokens.length));
  const FRAME = "#d62728"; // the framed row: red on the blue scale
  const config = { displaylogo: false, responsive: true, modeBarButtonsToRemove: ["toImage"] };
  slider.max = String(steps - 1);

  const range = (n) => Array.from({ length: n }, (_, i) => i);
  const fixed = (x, digits) => (x === null ? "−∞" : x.toFixed(digits));
  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const child of children) node.append(child);
    return node;
  };

  function frame(row, width) {
    return {
      type: "rect", xref: "x", yref: "y", x0: -0.5, x1: width - 0.5, y0: row - 0.5,
      y1: row + 0.5, line: { color: FRAME, width: 3 },
    };
  }

  function drawHeatmap(i, trace) {
    const src = trace.source_tokens, out = trace.output_tokens;
    const hover = out.map((o) => src.map((s) => `${s} → ${o}`));
    Plotly.newPlot(`heatmap-${i}`, [{
      type: "heatmap", z: trace.weights, x: range(src.length), y: range(out.length),
      text: hover, colorscale: page.colorscale, zmin: 0, zmax: 1, xgap: 1, ygap: 1,
      hovertemplate: "%{text}<br>α = %{z:.3f}<extra></extra>",
      colorbar: { thickness: 12, title: { text: "α" } },
    }], {
      xaxis: { tickvals: range(src.length), ticktext: src, side: "top", tickangle: -45 },
      yaxis: { tickvals: range(out.length), ticktext: out, autorange: "reversed" },
      shapes: [frame(0, src.length)],
      margin: { l: 90, r: 10, t: 90, b: 10 }, height: 140 + 32 * out.length,
      font: { family: "system-ui, 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif" },
    }, config);
  }

  function drawBars(i, trace, row) {
    const src = trace.source_tokens;
    Plotly.react(`bars-${i}`, [{
      type: "bar", x: range(src.length), y: trace.weights[row], marker: { color: "#1f77b4" },
      hovertemplate: "%{customdata}<br>α = %{y:.3f}<extra></extra>", customdata: src,
    }], {
      xaxis: { tickvals: range(src.length), ticktext: src, tickangle: -45 },
      yaxis: { range: [0, 1], title: { text: "α" } },
      margin: { l: 50, r: 10, t: 10, b: 70 }, height: 220,
    }, config);
  }

  function candidates(trace, row) {
    const chosen = trace.output_tokens[row];
    const body = el("tbody");
    for (const c of trace.candidates[row]) {
      const bar = el("span", { class: "bar", style: `width:${(100 * c.prob).toFixed(1)}%` });
      const tr = el("tr", c.token === chosen ? { class: "chosen" } : {},
        el("td", {}, c.token), el("td", { class: "num" }, c.prob.toFixed(3)),
        el("td", { class: "barcell" }, bar));
      body.append(tr);
    }
    return el("table", { class: "candidates" },
      el("thead", {}, el("tr", {}, el("th", {}, text.word), el("th", {}, text.probability),
        el("th", {}, ""))), body);
  }

  // alpha_tj = exp e_tj / sum_k exp e_tk, with this step's numbers: the source word the step
  // weighed most written out, then every source word's e, exp(e - max) and alpha.
  function formula(trace, row) {
    const e = trace.scores[row], a = trace.weights[row], src = trace.source_tokens;
    const finite = e.filter((x) => x !== null);
    const top = Math.max(...finite);
    const top_j = a.indexOf(Math.max(...a));
    const t = row + 1;
    const sum = e.map((x) => (x === null ? null : `exp(${fixed(x, 2)})`)).filter((x) => x);
    const box = el("div", { class: "formula" });
    box.innerHTML =
      `α<sub>${t},j</sub> = exp e<sub>${t},j</sub> / Σ<sub>k</sub> exp e<sub>${t},k</sub>` +
      `<br>α<sub>${t},${top_j + 1}</sub> = exp(${fixed(e[top_j], 2)}) / ` +
      `(${sum.join(" + ")}) = <b>${a[top_j].toFixed(3)}</b>` +
      ` <span class="muted">(${escapeHtml(src[top_j])})</span>`;
    const body = el("tbody");
    src.forEach((s, j) => {
      const ex = e[j] === null ? 0 : Math.exp(e[j] - top);
      body.append(el("tr", j === top_j ? { class: "chosen" } : {},
        el("td", { class: "num" }, String(j + 1)), el("td", {}, s),
        el("td", { class: "num" }, fixed(e[j], 3)), el("td", { class: "num" }, ex.toFixed(3)),
        el("td", { class: "num" }, a[j].toFixed(3))));
    });
    const head = el("tr", {}, el("th", {}, "j"), el("th", {}, text.source_word),
      el("th", {}, "e"), el("th", {}, "exp(e − max e)"), el("th", {}, "α"));
    const prob = el("p", {});
    prob.innerHTML = `p(y<sub>${t}</sub> = ${escapeHtml(trace.output_tokens[row])}) = ` +
      `<b>${trace.probs[row].toFixed(3)}</b>`;
    return [box, el("table", { class: "numbers" }, el("thead", {}, head), body), prob];
  }

  function escapeHtml(s) {
    const d = document.createElement("div");
    d.textContent = s;
    return d.innerHTML;
  }

  function show(t) {
    document.getElementById("step-label").textContent = fill(text.step_of, { t: t + 1, n: steps });
    page.models.forEach((m, i) => {
      const trace = m.trace;
      const last = trace.output_tokens.length - 1;
      const row = Math.min(t, last);
      const words = document.querySelectorAll(`#words-${i} .token`);
      words.forEach((w, k) => w.classList.toggle("current", k === row));
      const note = document.getElementById(`finished-${i}`);
      note.hidden = t <= last;
      if (trace.weights) {
        Plotly.relayout(`heatmap-${i}`, { shapes: [frame(row, trace.source_tokens.length)] });
        drawBars(i, trace, row);
        document.getElementById(`formula-${i}`).replaceChildren(...formula(trace, row));
      }
      document.getElementById(`candidates-${i}`).replaceChildren(candidates(trace, row));
      document.body.dataset.step = String(t);
    });
  }

  page.models.forEach((m, i) => {
    if (m.trace.weights) drawHeatmap(i, m.trace);
  });
  slider.addEventListener("input", () => show(Number(slider.value)));
  show(0);
  document.body.dataset.ready = "1";
})();
