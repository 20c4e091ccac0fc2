/* The play page: one game held by the server (POST /api/sessions), drawn after every answer.
   Moves, values, positions and results all come from the API (docs/web.md). */
"use strict";
(function () {
  const B = window.judgeBoard;
  const config = JSON.parse(document.getElementById("config").textContent);
  const $ = (id) => document.getElementById(id);
  let state = null;
  let selected = null;
  let version = 0;

  async function api(method, path, body) {
    const response = await fetch(path, {
      method: method, headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  function say(text, cls) {
    const m = $("message");
    m.textContent = text || "";
    m.className = "message" + (cls ? " " + cls : "");
  }

  async function run(step) {
    document.body.dataset.busy = "1";
    try {
      await step();
    } catch (e) {
      say(e.message, "error");
    } finally {
      document.body.dataset.busy = "0";
      render();
    }
  }

  function start() {
    const body = config.stored
      ? { run: config.stored.run, number: config.stored.number, move: config.stored.move,
          opponent: config.opponent, values: config.values }
      : { game: config.game, rules: config.rules, position: config.position,
          opponent: config.opponent, seat: config.seat, values: config.values };
    return run(async () => { state = await api("POST", "/api/sessions", body); say(""); });
  }

  function act(path, body) {
    if (!state) return Promise.resolve();
    selected = null;
    return run(async () => {
      state = await api("POST", "/api/sessions/" + state.id + "/" + path, body || {});
      say("");
    });
  }

  function resultText(s) {
    if (!s.over) {
      const who = s.players[s.to_move - 1];
      return (s.your_turn ? "Your move, " : "Waiting for ") + who + " (player " + s.to_move + ")";
    }
    if (s.result === "tie") return "Game over: a tie" + (s.verdict ? "" : "");
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

  function drawMoves(s) {
    const list = $("moves");
    list.replaceChildren();
    if (!s.your_turn) return;
    s.moves.forEach((m) => {
      const button = B.el("button", "move");
      button.appendChild(B.el("span", "label", m.label));
      if (s.values && m.value) {
        const r = m.remoteness === null ? "" : " " + m.remoteness;
        button.appendChild(B.el("span", "val", m.value + r));
      }
      B.asMove(button, m, s.values, (text) => act("move", { move: text }));
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
    if (s.difference !== undefined) text += ", best score difference " + s.difference;
    if (s.outcome) text += ", outcome class " + s.outcome;
    v.appendChild(B.el("span", "", text));
    v.dataset.value = s.value;
  }

  function drawHistory(s) {
    const list = $("history");
    list.replaceChildren();
    s.history.forEach((h) => {
      const item = B.el("li", h.ply === s.history.length - 1 ? "current" : "");
      item.dataset.position = h.position;
      item.dataset.toMove = String(h.to_move);
      const button = B.el("button", "goto", h.ply === 0 ? "start" : "after move " + h.ply);
      button.dataset.ply = String(h.ply);
      button.addEventListener("click", () => act("goto", { ply: h.ply }));
      item.appendChild(button);
      item.appendChild(B.el("span", "pos", " " + h.position));
      if (h.move !== undefined) {
        item.appendChild(B.el("span", "mv", " → " + h.label + (h.mistake ? " (changed the value)" : "")));
      }
      list.appendChild(item);
    });
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

  function render() {
    if (!state) return;
    const s = state;
    const board = $("board");
    version += 1;
    board.dataset.position = s.position;
    board.dataset.toMove = String(s.to_move);
    board.dataset.version = String(version);
    if (s.over && s.result) board.dataset.result = s.result; else delete board.dataset.result;
    B.draw(board, s.meta, s.board, {
      moves: s.your_turn ? s.moves : [], values: s.values, selected: selected,
      onMove: (text) => act("move", { move: text }),
      onSelect: (hand) => { selected = hand; render(); },
    });
    $("status").textContent = resultText(s);
    $("undo").disabled = !s.can_undo;
    $("redo").disabled = !s.can_redo;
    $("hint").disabled = s.over;
    $("advance").hidden = s.over || s.your_turn;
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
    drawHistory(s);
    drawChart(s);
  }

  $("new").addEventListener("click", () => { if (state) api("DELETE", "/api/sessions/" + state.id).catch(() => {}); start(); });
  $("undo").addEventListener("click", () => act("undo"));
  $("redo").addEventListener("click", () => act("redo"));
  $("advance").addEventListener("click", () => act("advance"));
  $("values").addEventListener("change", (e) => act("options", { values: e.target.checked }));
  $("hint").addEventListener("click", () => run(async () => {
    const hint = await api("GET", "/api/sessions/" + state.id + "/hint");
    say("Hint: " + hint.moves.join(", ") + " (" + hint.value +
      (hint.remoteness === null ? "" : " in " + hint.remoteness) + ")", "hint");
    document.querySelectorAll("#moves [data-move]").forEach((b) => {
      b.classList.toggle("hinted", hint.moves.includes(b.dataset.move));
    });
  }));
  window.judgePlay = { state: () => state };
  start();
})();
