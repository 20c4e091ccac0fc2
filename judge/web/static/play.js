/* The play page: one game held by the server (POST /api/sessions), drawn after every answer.
   Moves, values, positions and results all come from the API (docs/web.md). The address is
   the game (rules, start, moves played, opponent): it is kept up to date as moves are played,
   and a reload, Back, Forward or a shared link opens the same game at the same move. */
"use strict";
(function () {
  const B = window.judgeBoard;
  let config = JSON.parse(document.getElementById("config").textContent);
  const $ = (id) => document.getElementById(id);
  const CONTROLS = "#board button, #moves button, #history button, .controls button, .controls input";
  let state = null;
  let selected = null;
  let version = 0;
  let busy = false;
  let hinted = null;  // {ply, moves, labels}: the hint for the position after `ply` moves
  let flashed = 0;  // the last move already highlighted (a move is flashed once)

  async function api(method, path, body, keepalive) {
    const response = await fetch(path, {
      method: method, headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body), keepalive: !!keepalive,
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  function say(text, cls) {
    const m = $("message");
    m.textContent = text || "";
    m.className = "message" + (cls ? " " + cls : "");
  }

  /* One request at a time: every control is disabled until its answer is drawn. */
  async function run(step) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    document.querySelectorAll(CONTROLS).forEach((c) => { c.disabled = true; });
    try {
      await step();
    } catch (e) {
      say(e.message, "error");
    } finally {
      busy = false;
      document.body.dataset.busy = "0";
      $("new").disabled = false;
      render();
    }
  }

  /* The game an address gives: /play/GAME?rules=&position=&moves=&opponent=&seat=&values=,
     or a stored game /run/RUN/game/N?move=K. Every value is checked by the server. */
  function fromAddress() {
    const q = new URLSearchParams(location.search);
    const stored = location.pathname.match(/^\/run\/(\d+)\/game\/(\d+)$/);
    const common = { opponent: q.get("opponent") || "human", seat: Number(q.get("seat") || 1) };
    if (stored) {
      return Object.assign(common, { stored: { run: Number(stored[1]), number: Number(stored[2]),
        move: Number(q.get("move") || 0) }, values: (q.get("values") || "on") === "on" });
    }
    const moves = q.get("moves");
    return Object.assign(common, { game: decodeURIComponent(location.pathname.split("/")[2] || ""),
      rules: q.get("rules") || "", position: q.get("position") || "",
      moves: moves ? moves.split(",") : [], values: q.get("values") === "on" });
  }

  /* The address of the game as it stands. */
  function addressOf(s) {
    if (config.stored && !config.branched) {
      const q = new URLSearchParams(location.search);
      q.set("move", String(s.ply));
      return location.pathname + "?" + q.toString();
    }
    const q = new URLSearchParams();
    q.set("rules", s.rules);
    q.set("position", s.start);
    const moves = s.history.filter((h) => h.move !== undefined).map((h) => h.move);
    if (moves.length && s.resumable) q.set("moves", moves.join(","));
    q.set("opponent", s.opponent);
    if (config.seat === 2) q.set("seat", "2");
    if (s.values) q.set("values", "on");
    return "/play/" + encodeURIComponent(s.name) + "?" + q.toString();
  }

  function remember(s, push) {
    const url = addressOf(s);
    if (url === location.pathname + location.search) return;
    if (push) history.pushState(null, "", url); else history.replaceState(null, "", url);
  }

  function create() {
    const body = config.stored
      ? { run: config.stored.run, number: config.stored.number, move: config.stored.move,
          opponent: config.opponent, values: config.values }
      : { game: config.game, rules: config.rules, position: config.position,
          moves: config.moves || [], opponent: config.opponent, seat: config.seat,
          values: config.values };
    return api("POST", "/api/sessions", body);
  }

  function start() {
    return run(async () => { state = await create(); flashed = state.ply; say(""); remember(state, false); });
  }

  /* A request on the game; a game the server no longer holds (restarted, ended as idle or
     for room) is opened again from the address, which holds all of it, and asked again. */
  function act(path, body, push) {
    if (!state || busy) return Promise.resolve();
    selected = null;
    return run(async () => {
      const ask = () => api("POST", "/api/sessions/" + state.id + "/" + path,
        Object.assign({}, body || {}, path === "goto" || path === "options" ? {} : { ply: state.ply }));
      try {
        state = await ask();
      } catch (e) {
        if (e.status === 409) {  // the game moved on (in another tab): show it as it is now
          state = await api("GET", "/api/sessions/" + state.id);
          throw e;
        }
        if (e.status !== 404 && e.status !== 410) throw e;
        config = fromAddress();
        state = await create();
        state = await ask();
      }
      say("");
      if (push && config.stored) config.branched = true;
      remember(state, push);
      if (path === "move") $("board").focus();
    });
  }

  function play(text) { return act("move", { move: text }, true); }

  function end(keepalive) {
    if (!state) return;
    api("POST", "/api/sessions/" + state.id + "/end", {}, keepalive).catch(() => {});
  }

  function resultText(s) {
    if (!s.over) {
      const who = s.players[s.to_move - 1];
      const seat = "player " + s.to_move;
      if (!s.your_turn) return "Waiting for " + who + " (" + seat + ")";
      return who === seat ? "Your move, " + seat : "Your move (" + seat + ")";
    }
    if (s.result === "tie") return "Game over: a tie";
    const winner = s.players[Number(s.result) - 1];
    return "Game over: player " + s.result + " (" + winner + ") wins";
  }

  function shareLink(s) {
    const q = new URLSearchParams();
    q.set("rules", s.rules);
    q.set("position", s.position);
    q.set("opponent", s.opponent);
    if (s.values) q.set("values", "on");
    return "/play/" + encodeURIComponent(s.name) + "?" + q.toString();
  }

  function hintNow(s) { return hinted && hinted.ply === s.ply ? hinted : null; }

  function drawMoves(s) {
    const list = $("moves");
    list.replaceChildren();
    if (!s.your_turn) return;
    const hint = hintNow(s);
    s.moves.forEach((m) => {
      const button = B.el("button", "move");
      button.appendChild(B.el("span", "label", m.label));
      if (s.values && m.value) button.appendChild(B.el("span", "val", B.worth(m)));
      B.asMove(button, m, { values: s.values, hint: hint && hint.moves, onMove: play });
      button.setAttribute("aria-label", button.title);
      list.appendChild(button);
    });
  }

  function drawValue(s) {
    const v = $("value");
    v.replaceChildren();
    if (!s.values || s.value === undefined) return;
    const word = B.el("span", "badge v-" + s.value, s.value);
    v.appendChild(B.el("span", "", "Position: "));
    v.appendChild(word);
    let text = " for player " + s.to_move;
    if (s.remoteness !== null && s.remoteness !== undefined) text += ", remoteness " + s.remoteness;
    if (s.final_difference !== undefined) text += ", final score difference " + s.final_difference;
    if (s.outcome) text += ", outcome class " + s.outcome;
    v.appendChild(B.el("span", "", text));
    v.dataset.value = s.value;
  }

  function drawLast(s) {
    const box = $("last");
    const last = s.last;
    box.textContent = last ? "Last move: player " + last.seat + " (" + last.by + "), " + last.label : "";
    if (last) box.dataset.move = last.move; else delete box.dataset.move;
  }

  function drawHistory(s) {
    const list = $("history");
    list.replaceChildren();
    s.history.forEach((h) => {
      const item = B.el("li", h.ply === s.history.length - 1 ? "current" : "");
      item.dataset.position = h.position;
      item.dataset.toMove = String(h.to_move);
      if (s.last && h.ply === s.last.ply - 1) item.dataset.last = "true";
      const button = B.el("button", "goto", h.ply === 0 ? "start" : "after move " + h.ply);
      button.dataset.ply = String(h.ply);
      button.disabled = !s.resumable;
      button.addEventListener("click", () => act("goto", { ply: h.ply }, false));
      item.appendChild(button);
      item.appendChild(B.el("span", "pos", " " + h.position));
      if (h.move !== undefined) {
        item.appendChild(B.el("span", "mv", " → " + h.label + (h.mistake ? " (changed the value)" : "")));
      }
      list.appendChild(item);
    });
    list.scrollTop = list.scrollHeight;
  }

  /* The value history as an inline SVG: one point per position, above the middle line when
     player 1 wins, below when player 2 wins, on it for a draw or tie; the farther from the
     line, the longer the game still lasts (remoteness). Moves that changed the value are
     ringed. */
  function drawChart(s) {
    const box = $("chart");
    box.replaceChildren();
    if (!s.values) { box.appendChild(B.el("p", "note", "Show values to see the chart.")); return; }
    const ns = "http://www.w3.org/2000/svg";
    const pts = s.history;
    const top = Math.max(1, ...pts.map((p) => p.remoteness || 0));
    const w = 320, h = 200, pad = 24;
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("class", "vh");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "value history: player 1's value at each position");
    const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, pts.length - 1);
    const y = (p) => {
      const r = p.remoteness === null ? 0 : p.remoteness;
      const side = p.value === "win" ? -1 : p.value === "lose" ? 1 : 0;
      return h / 2 + side * (8 + (r / top) * (h / 2 - pad - 8));
    };
    const add = (tag, attrs, text) => {
      const e = document.createElementNS(ns, tag);
      Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
      if (text) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
    add("line", { x1: pad, x2: w - pad, y1: h / 2, y2: h / 2, class: "axis" });
    add("text", { x: 2, y: 12, class: "axis-label" }, "player 1 wins");
    add("text", { x: 2, y: h - 4, class: "axis-label" }, "player 2 wins");
    let path = "";
    pts.forEach((p, i) => { path += (i ? "L" : "M") + x(i) + " " + y(p); });
    add("path", { d: path, class: "line" });
    pts.forEach((p, i) => {
      if (p.mistake) add("circle", { cx: x(i + 1 < pts.length ? i + 1 : i), cy: y(pts[Math.min(i + 1, pts.length - 1)]), r: 7, class: "changed" });
      const dot = add("circle", { cx: x(i), cy: y(p), r: 4, class: "dot v-" + p.value });
      dot.dataset.ply = String(p.ply);
      dot.dataset.value = p.value;
      const t = document.createElementNS(ns, "title");
      t.textContent = (p.ply ? "after move " + p.ply : "start") + ": " + p.value + " for player 1" +
        (p.remoteness === null ? "" : " in " + p.remoteness);
      dot.appendChild(t);
    });
    box.appendChild(svg);
  }

  function owners(s) {
    return s.players.map((p, i) => (p === "you" ? "your" : p === "player " + (i + 1) ? "player " + (i + 1) + "'s" : p + "'s"));
  }

  function render() {
    if (!state) return;
    const s = state;
    const board = $("board");
    const hint = hintNow(s);
    version += 1;
    board.dataset.position = s.position;
    board.dataset.toMove = String(s.to_move);
    board.dataset.version = String(version);
    board.dataset.ply = String(s.ply);
    if (s.over && s.result) board.dataset.result = s.result; else delete board.dataset.result;
    B.draw(board, s.meta, s.board, {
      moves: s.your_turn ? s.moves : [], values: s.values, selected: selected,
      last: s.last ? s.last.control : null, hint: hint && hint.moves, owners: owners(s),
      onMove: play,
      onSelect: (hand) => { if (!busy) { selected = hand; render(); } },
    });
    board.classList.remove("flash");
    if (s.last && s.last.ply !== flashed) {
      void board.offsetWidth;  // (restarts the highlight's animation)
      board.classList.add("flash");
    }
    $("status").textContent = resultText(s);
    $("undo").disabled = !s.can_undo;
    $("redo").disabled = !s.can_redo;
    $("hint").disabled = s.over;
    $("new").disabled = false;
    $("values").disabled = false;
    $("advance").hidden = s.over || s.your_turn;
    $("advance").disabled = false;
    $("values").checked = s.values;
    $("share").href = shareLink(s);
    const verdict = $("verdict");
    if (s.verdict) {
      verdict.hidden = false;
      verdict.textContent = s.verdict.code + ": " + s.verdict.message +
        (s.verdict.stderr ? "\n\nthe bot's stderr (last lines):\n" + s.verdict.stderr : "");
    } else {
      verdict.hidden = true;
    }
    drawMoves(s);
    drawValue(s);
    drawLast(s);
    drawHistory(s);
    drawChart(s);
    if (s.last) flashed = s.last.ply;
  }

  function hint() {
    if (!state || busy || state.over) return;
    run(async () => {
      const h = await api("GET", "/api/sessions/" + state.id + "/hint");
      hinted = h;
      say("Hint: " + h.labels.join(", ") + " (" + h.value +
        (h.remoteness === null ? "" : " in " + h.remoteness) + ")", "hint");
    });
  }

  /* Back and Forward through the moves of the history entry the address names: the game is
     opened again from the address. */
  function goTo(ply) {
    if (!state || !state.resumable) return;
    if (ply < 0 || (ply > state.ply && !state.can_redo)) return;
    act("goto", { ply: ply }, false);
  }

  $("new").addEventListener("click", () => {
    if (busy) return;
    end(false);
    config = Object.assign({}, config, { moves: [], branched: false });
    run(async () => {
      state = await create();
      flashed = state.ply;
      say("");
      remember(state, true);
    });
  });
  $("undo").addEventListener("click", () => act("undo", {}, false));
  $("redo").addEventListener("click", () => act("redo", {}, false));
  $("advance").addEventListener("click", () => act("advance", {}, true));
  $("values").addEventListener("change", (e) => act("options", { values: e.target.checked }, false));
  $("hint").addEventListener("click", hint);
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || busy || !state) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const key = e.key;
    if (key === "u" && state.can_undo) act("undo", {}, false);
    else if (key === "r" && state.can_redo) act("redo", {}, false);
    else if (key === "h") hint();
    else if (key === "ArrowLeft") goTo(state.ply - 1);
    else if (key === "ArrowRight") goTo(state.ply + 1);
    else return;
    e.preventDefault();
  });
  window.addEventListener("popstate", () => {
    end(false);
    config = fromAddress();
    start();
  });
  /* Leaving the page (reload, another address, closing the tab) ends its game: a reload
     costs no game slot. A page restored from the back/forward cache opens it again. */
  window.addEventListener("pagehide", () => end(true));
  window.addEventListener("pageshow", (e) => { if (e.persisted) { config = fromAddress(); start(); } });
  window.judgePlay = { state: () => state };
  start();
})();
