// One step of a lesson handout: its picture, a plotly figure drawn from the JSON in
// <script id="attnviz-data"> by the plotly.min.js beside the page. No request leaves the page.
(function () {
  "use strict";
  const page = JSON.parse(document.getElementById("attnviz-data").textContent);
  if (page.figure) {
    const config = { displaylogo: false, responsive: true, modeBarButtonsToRemove: ["toImage"] };
    Plotly.newPlot("picture", page.figure.data, page.figure.layout, config);
  }
  document.body.dataset.ready = "1";
})();
