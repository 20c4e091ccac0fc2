/* The judge report's game viewer. It draws the positions that the judge computed with the
 * game's own rules (stored per step in each game's JSON block) with the game's renderer:
 * it knows no rule itself.
 * A game's block is parsed only when the game is opened. Every text a bot wrote is put in
 * the page with textContent, never as markup. */
(function () {
  "use strict";

  var meta = JSON.parse(document.getElementById("report-meta").textContent);
  /* the moves' names by their texts, once for the page where every game names them alike */
  var labelBlock = document.getElementById("move-labels");
  var pageLabels = labelBlock ? JSON.parse(labelBlock.textContent) : null;
  var board = meta.board || {};
  var viewer = document.getElementById("viewer");
  var ui = {};
  ["viewer-title", "game-summary", "step", "board", "caption", "moves", "game-info",
    "stderr", "first", "prev", "next", "last", "close"].forEach(function (id) {
    ui[id] = document.getElementById(id);
  });
  var cache = {};
  var parsed = 0;
  var current = null; // {n, data, step, steps}

  /* ---- small DOM helpers ------------------------------------------------------------ */
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function setAttrs(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (k) {
      if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) {
        node.setAttribute(k, String(attrs[k]));
      }
    });
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  /* ---- data --------------------------------------------------------------------------- */
  function load(n) {
    if (!Object.prototype.hasOwnProperty.call(cache, n)) {
      var block = document.getElementById("game-" + n);
      if (!block) return null;
      cache[n] = JSON.parse(block.textContent);
      parsed += 1;
      viewer.setAttribute("data-parsed", String(parsed));
    }
    return cache[n];
  }
  /** The drawable state of step k: {key: value} from the per-key lists. */
  function stateAt(data, k) {
    var s = {};
    Object.keys(data.b).forEach(function (key) { s[key] = data.b[key][k]; });
    return s;
  }
  function player(data, seat) {
    return "player " + (seat + 1) + " (" + data.p[seat] + ")";
  }
  function ms(value) {
    if (value === null || value === undefined) return "";
    if (value < 1) return "<1 ms";
    if (value < 1000) return value.toFixed(value < 10 ? 1 : 0) + " ms";
    return (value / 1000).toFixed(2) + " s";
  }
  /* l: the move that lost the game; d: the move that turned a won game into a draw */
  var LABEL = {o: "optimal", s: "slow", m: "mistake", l: "lost", d: "lost the win",
    x: "not played", "": ""};
  var CLASS = {o: "optimal", s: "slow", m: "mistake", l: "mistake lost", d: "mistake lost",
    x: "illegal", "": "unjudged"};

  /* ---- boards: drawn by the game's renderer (its package's board.js, inlined before this
     script with the kit, judge/games/drawing.js), or as the game's text --------------- */
  function drawStep(data, k) {
    JudgeBoards.draw(ui.board, board, stateAt(data, k),
      {touched: data.t[k] || [], before: k > 0 ? stateAt(data, k - 1) : null});
  }

  /* ---- the viewer ---------------------------------------------------------------------- */
  function resultText(data) {
    var res = data.res;
    if (res[0] === "none") return "void (judge error)";
    var score = data.sc ? " " + data.sc[0] + "–" + data.sc[1] : "";
    if (data.g !== null && data.g !== undefined) {
      var words = {win: "wins", tie: "ties", loss: "loses"};
      return data.p[data.g] + " " + words[res[data.g]] + score;
    }
    var seat1 = {win: "1–0", tie: "½–½", loss: "0–1"}[res[0]];
    return seat1 + score + " (player 1 " + res[0] + ")";
  }

  function info(dl, term, value, attrs) {
    dl.appendChild(el("dt", null, term));
    dl.appendChild(el("dd", attrs || null, value));
  }

  function open(n, step) {
    var data = load(n);
    if (!data) return false;
    var steps = data.m.length;
    current = {n: n, data: data, step: 0, steps: steps};
    viewer.hidden = false;
    viewer.setAttribute("data-game", String(n));
    document.body.classList.add("viewing");
    ui["viewer-title"].textContent = "Game " + n;
    ui["game-summary"].textContent = data.p[0] + " vs " + data.p[1] + " · start " + data.s +
      " · " + resultText(data);
    var rows = document.querySelectorAll("tr.current");
    for (var r = 0; r < rows.length; r++) rows[r].classList.remove("current");
    var row = document.querySelector('tr[data-game="' + n + '"]');
    if (row) row.classList.add("current");
    buildMoves(data);
    buildInfo(data);
    go(step === undefined ? 0 : step);
    return true;
  }

  function buildMoves(data) {
    clear(ui.moves);
    var start = el("li", {"data-ply": 0, "class": "move start"});
    start.appendChild(el("span", {"class": "mv"}, "start"));
    ui.moves.appendChild(start);
    data.m.forEach(function (m, i) {
      var code = m[3];
      var graded = data.g === null || data.g === undefined || data.g === m[1];
      var li = el("li", {"data-ply": i + 1, "data-seat": m[1], "data-judgement": code,
        "class": "move s" + m[1] + " " + CLASS[code] + (graded ? "" : " opponent"),
        title: m[4] || LABEL[code] || ""});
      li.appendChild(el("span", {"class": "ply"}, (i + 1) + "."));
      li.appendChild(el("span", {"class": "who"}, "P" + (m[1] + 1)));
      /* the move as the game names it ("take 2 from heap 1"), its text on hover */
      var named = data.ml ? data.ml[i] : pageLabels && pageLabels[m[0]];
      li.appendChild(el("span", {"class": "mv", title: named ? m[0] : null}, named || m[0]));
      if (LABEL[code]) li.appendChild(el("span", {"class": "tag " + CLASS[code]}, LABEL[code]));
      var t = ms(m[2]);
      if (t) li.appendChild(el("span", {"class": "time"}, t));
      ui.moves.appendChild(li);
    });
    var end = ending(data);
    if (end) ui.moves.appendChild(el("li", {"class": "end", id: "game-end"}, end));
  }

  /** How the game ended when a player failed (or the judge did), else "". */
  function ending(data) {
    var v = data.v;
    if (v[0] === "ok") return v[1] ? "ended: " + v[1] : "";
    var who = v[2] !== null && v[2] !== undefined ? " " + player(data, v[2]) : "";
    return "ended:" + who + " " + v[0] + (v[1] ? ": " + v[1] : "");
  }

  function buildInfo(data) {
    var dl = ui["game-info"];
    clear(dl);
    [0, 1].forEach(function (seat) {
      info(dl, "player " + (seat + 1), data.p[seat] + (data.g === seat ? " (graded)" : ""),
        {"data-seat": seat, "class": "player"});
    });
    info(dl, "start", data.s);
    info(dl, "result", resultText(data), {id: "game-result"});
    if (data.pf) info(dl, "perfect play", "player 1 " + data.pf[0] + ", player 2 " + data.pf[1]);
    if (data.fin) info(dl, "final position", data.fin);
    var v = data.v;
    var verdict = v[0] + (v[2] !== null && v[2] !== undefined ? " (" + player(data, v[2]) + ")" : "");
    info(dl, "verdict", verdict + (v[1] ? ": " + v[1] : ""), {id: "game-verdict",
      "data-verdict": v[0]});
    info(dl, "game seed", data.seed === undefined ? "none" : data.seed, {id: "game-seed"});
    (data.sl || []).forEach(function (slow, seat) {
      if (slow) info(dl, "slow moves of player " + (seat + 1), slow, {"data-seat": seat, "class": "slow-moves"});
    });
    (data.u || []).forEach(function (used, seat) {
      if (used) info(dl, "used by player " + (seat + 1), used, {"data-seat": seat, "class": "usage"});
    });
    clear(ui.stderr);
    (data.e || []).forEach(function (tail, seat) {
      if (!tail) return;
      var box = el("details", {"class": "stderr", "data-seat": seat, open: "open"});
      box.appendChild(el("summary", null, "stderr of " + player(data, seat) + " (last lines)"));
      box.appendChild(el("pre", {"data-seat": seat}, tail));
      ui.stderr.appendChild(box);
    });
  }

  function go(k) {
    if (!current) return;
    k = Math.max(0, Math.min(current.steps, k));
    current.step = k;
    var data = current.data;
    var state = stateAt(data, k);
    clear(ui.board);
    ui.board.setAttribute("data-step", String(k));
    ui.board.setAttribute("data-mover", state.mover);
    ui.board.setAttribute("data-over", state.over ? "1" : "0");
    drawStep(data, k);
    ui.step.textContent = "step " + k + " / " + current.steps;
    ui.step.setAttribute("data-step", String(k));
    ui.step.setAttribute("data-steps", String(current.steps));
    var items = ui.moves.children;
    for (var i = 0; i < items.length; i++) {
      var on = i === k;
      items[i].classList.toggle("current", on);
      if (on) items[i].setAttribute("aria-current", "step");
      else items[i].removeAttribute("aria-current");
    }
    if (items[k] && items[k].scrollIntoView && !viewer.hidden) {
      items[k].scrollIntoView({block: "nearest"});
    }
    caption(data, k);
    ui.first.disabled = ui.prev.disabled = k === 0;
    ui.next.disabled = ui.last.disabled = k === current.steps;
    if (history.replaceState) {
      history.replaceState(null, "", "#game=" + current.n + (k ? "&step=" + k : ""));
    }
  }

  function caption(data, k) {
    var c = ui.caption;
    clear(c);
    c.className = "caption";
    if (k === 0) {
      c.textContent = "Start " + data.s + ": " + (data.m.length ? player(data, data.m[0][1]) +
        " moves first." : "no move was played; the game " + (ending(data) || "ended") + ".");
      return;
    }
    var m = data.m[k - 1];
    c.classList.add(CLASS[m[3]].split(" ")[0]);
    c.appendChild(el("strong", null, "Move " + k + ": "));
    c.appendChild(document.createTextNode(player(data, m[1]) + " plays " + m[0]));
    var times = [];  // what the move took, and on a clock what it left
    if (m[2] !== null && m[2] !== undefined) times.push(ms(m[2]));
    if (data.c && typeof data.c[k - 1] === "number") {
      times.push(data.c[k - 1].toFixed(3) + " s left on its clock");
    }
    if (times.length) c.appendChild(el("span", {"class": "time"}, " (" + times.join(", ") + ")"));
    var text = m[3] === "x" ? "not played: " + (data.v[1] || data.v[0])
      : m[4] || LABEL[m[3]];
    if (text) c.appendChild(el("span", {"class": "judgement", id: "judgement"}, " — " + text));
    if (k === current.steps && m[3] !== "x" && ending(data)) {
      c.appendChild(el("span", {"class": "ending"}, " Then the game " + ending(data) + "."));
    }
  }

  function close() {
    viewer.hidden = true;
    document.body.classList.remove("viewing");
    current = null;
    if (history.replaceState) history.replaceState(null, "", location.pathname + location.search);
  }

  function fromHash() {
    var m = /^#game=(\d+)(?:&step=(\d+))?$/.exec(location.hash);
    if (m) open(Number(m[1]), m[2] === undefined ? 0 : Number(m[2]));
  }

  ui.first.addEventListener("click", function () { go(0); });
  ui.prev.addEventListener("click", function () { go(current.step - 1); });
  ui.next.addEventListener("click", function () { go(current.step + 1); });
  ui.last.addEventListener("click", function () { go(current.steps); });
  ui.close.addEventListener("click", close);
  ui.moves.addEventListener("click", function (e) {
    var li = e.target.closest ? e.target.closest("li[data-ply]") : null;
    if (li) go(Number(li.getAttribute("data-ply")));
  });
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest('a[href^="#game="]') : null;
    if (!a) return;
    var m = /^#game=(\d+)$/.exec(a.getAttribute("href"));
    if (m && open(Number(m[1]))) e.preventDefault();
  });
  document.addEventListener("keydown", function (e) {
    if (!current || e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = (e.target && e.target.tagName) || "";
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag)) return;
    var to = {ArrowLeft: current.step - 1, ArrowRight: current.step + 1, Home: 0,
      End: current.steps}[e.key];
    if (to !== undefined) {
      e.preventDefault();
      go(to);
    } else if (e.key === "Escape") {
      close();
    }
  });
  window.addEventListener("hashchange", fromHash);
  window.judgeViewer = {open: open, go: go, close: close,
    parsed: function () { return parsed; }};
  fromHash();
})();
