// The game list's filters (bot, result, verdict) and sorting (click a column's header).
// The rows stay in their chunks of a fixed size: the ones shown, in the chosen order, fill
// the chunks from the first; the others are kept aside (out of the page) until shown again.
// Every value comes from the rows' data attributes and is shown as text, never as markup.
(function () {
  "use strict";
  var list = document.getElementById("game-list");
  var head = document.getElementById("game-table");
  if (!list || !head) return;
  var chunks = Array.prototype.slice.call(list.querySelectorAll(".chunk"));
  var bodies = chunks.map(function (c) { return c.querySelector("tbody"); });
  var rows = Array.prototype.slice.call(list.querySelectorAll("tr[data-game]"));
  var size = Math.max(1, bodies.length ? bodies[0].rows.length : 1);
  var order = rows.slice();
  var sorted = {column: -1, ascending: true};

  function botsOf(row) {
    return ["bot", "one", "two"].map(function (k) { return row.getAttribute("data-" + k); })
      .filter(function (v) { return v !== null; });
  }

  function distinct(values) {
    var seen = {};
    return values.filter(function (v) {
      if (Object.prototype.hasOwnProperty.call(seen, "k" + v)) return false;
      seen["k" + v] = true;
      return true;
    }).sort();
  }

  var bar = document.createElement("div");
  bar.id = "game-filter";
  bar.className = "filter";
  var filters = {};

  function choice(name, label, values) {
    var wrap = document.createElement("label");
    wrap.textContent = label + " ";
    var select = document.createElement("select");
    select.id = "filter-" + name;
    var all = document.createElement("option");
    all.value = "";
    all.textContent = "all";
    select.appendChild(all);
    values.forEach(function (v) {
      var option = document.createElement("option");
      option.value = v;
      option.textContent = v;
      select.appendChild(option);
    });
    select.addEventListener("change", apply);
    wrap.appendChild(select);
    bar.appendChild(wrap);
    bar.appendChild(document.createTextNode(" "));
    filters[name] = select;
  }

  choice("bot", "bot", distinct([].concat.apply([], rows.map(botsOf))));
  choice("result", "result", distinct(rows.map(function (r) {
    return r.getAttribute("data-result") || "";
  })));
  choice("verdict", "verdict", distinct(rows.map(function (r) {
    return r.getAttribute("data-verdict") || "";
  })));
  var count = document.createElement("span");
  count.id = "game-count";
  bar.appendChild(count);
  var scroll = list.parentNode;
  scroll.parentNode.insertBefore(bar, scroll);

  function matches(row) {
    var bot = filters.bot.value, result = filters.result.value, verdict = filters.verdict.value;
    return (!bot || botsOf(row).indexOf(bot) >= 0) &&
      (!result || row.getAttribute("data-result") === result) &&
      (!verdict || row.getAttribute("data-verdict") === verdict);
  }

  function apply() {
    var shown = order.filter(matches);
    bodies.forEach(function (body, i) {
      var part = shown.slice(i * size, (i + 1) * size);
      while (body.firstChild) body.removeChild(body.firstChild);
      var fragment = document.createDocumentFragment();
      part.forEach(function (row) { fragment.appendChild(row); });
      body.appendChild(fragment);
      chunks[i].hidden = part.length === 0;
      chunks[i].style.containIntrinsicSize = "auto " + (part.length * 27) + "px";
    });
    list.setAttribute("data-shown", String(shown.length));
    count.textContent = shown.length === rows.length ? rows.length + " games"
      : shown.length + " of " + rows.length + " games";
  }

  function key(row, column) {
    var cell = row.cells[column];
    var text = cell ? cell.textContent.trim() : "";
    return /^-?\d+(\.\d+)?$/.test(text) ? {n: Number(text)} : {t: text};
  }

  function compare(a, b) {  // numbers before text, empty cells last
    if ("n" in a && "n" in b) return a.n - b.n;
    if ("n" in a) return -1;
    if ("n" in b) return 1;
    if (!a.t !== !b.t) return a.t ? -1 : 1;
    return a.t < b.t ? -1 : a.t > b.t ? 1 : 0;
  }

  function sortBy(column) {
    sorted.ascending = sorted.column === column ? !sorted.ascending : true;
    sorted.column = column;
    var keyed = rows.map(function (row, i) { return {row: row, key: key(row, column), i: i}; });
    keyed.sort(function (x, y) {
      var c = compare(x.key, y.key);
      return (sorted.ascending ? c : -c) || x.i - y.i;
    });
    order = keyed.map(function (k) { return k.row; });
    headers.forEach(function (th, i) {
      th.setAttribute("aria-sort", i === column ? (sorted.ascending ? "ascending"
        : "descending") : "none");
    });
    apply();
  }

  var headers = Array.prototype.slice.call(head.querySelectorAll("thead th"));
  headers.forEach(function (th, i) {
    th.setAttribute("tabindex", "0");
    th.setAttribute("role", "button");
    th.setAttribute("aria-sort", "none");
    th.title = "sort by " + th.textContent;
    th.addEventListener("click", function () { sortBy(i); });
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(i); }
    });
  });
  count.textContent = rows.length + " games";
  window.judgeGameList = {shown: function () {
    return Array.prototype.map.call(list.querySelectorAll("tr[data-game]"), function (r) {
      return Number(r.getAttribute("data-game"));
    });
  }};
})();
