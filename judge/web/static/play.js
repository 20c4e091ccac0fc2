/* The play page: one game held by the server (POST /api/sessions), drawn after every answer.
   Moves, values, positions and results all come from the API (docs/web.md). The address is
   the game (rules, start, moves played, opponent): it is kept up to date as moves are played,
   and a reload, Back, Forward or a shared link opens the same game at the same move. */
"use strict";
(function () {
  const B = window.judgeBoard;
  let config = JSON.parse(document.getElementById("config").textContent);
  const $ = (id) => document.getElementById(id);
  const CONTROLS = "#board button, #moves button, #history button, .controls button, .controls input, #import";
  const SVG = "http://www.w3.org/2000/svg";
  let state = null;
  let selected = null;
  let version = 0;
  let busy = false;
  /* A double-click is one intent: the second click of it (its `detail` counts the clicks)
     never reaches a control, even one drawn anew after a fast answer to the first. */
  document.addEventListener("click", (e) => {
    if (e.detail > 1 && e.target instanceof Element &&
        e.target.closest("button, [data-move], [role=button], .hand, .pit, .counter")) {
      e.stopPropagation();
      e.preventDefault();
    }
  }, true);
  let hinted = null;  // {ply, moves, labels}: the hint for the position after `ply` moves
  let ticking = null;  // the clock of the person to move, counted down between answers
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

  /* One request at a time: every control is disabled until its answer is drawn (`quiet`:
     computer against computer, whose steps leave the controls as they are, so that they do
     not flicker at every move; a click meanwhile is refused as busy all the same). */
  async function run(step, quiet) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    if (!quiet) document.querySelectorAll(CONTROLS).forEach((c) => { c.disabled = true; });
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
        move: Number(q.get("move") || 0) }, values: valuesIn(q) });
    }
    const moves = q.get("moves");
    const players = q.get("players");
    return Object.assign(common, { game: decodeURIComponent(location.pathname.split("/")[2] || ""),
      rules: q.get("rules") || "", position: q.get("position") || "",
      moves: moves ? moves.split(",") : [], values: valuesIn(q),
      players: players ? players.split(",") : null });
  }

  /* Values are shown unless in practice (practice=on, or values=off). */
  function valuesIn(q) { return q.get("practice") !== "on" && q.get("values") !== "off"; }

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
    if (s.stepwise) q.set("players", s.opponent); else q.set("opponent", s.opponent);
    if (config.seat === 2) q.set("seat", "2");
    if (!s.values) q.set("practice", "on");
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
    if (!config.stored && config.players) body.players = config.players;
    return api("POST", "/api/sessions", body);
  }

  /* A new game; where perfect play would take too long to show (a big board), it is
     played without values, and the page says so. */
  async function created() {
    try {
      return await create();
    } catch (e) {
      if (e.status !== 413 || !config.values) throw e;
      config = Object.assign({}, config, { values: false });
      const plain = await create();
      say("Values are not shown: " + e.message, "note");
      return plain;
    }
  }

  function start() {
    return run(async () => { say(""); state = await created(); flashed = state.ply; remember(state, false); });
  }

  /* A request on the game; a game the server no longer holds (restarted, ended as idle or
     for room) is opened again from the address, which holds all of it, and asked again. */
  function act(path, body, push, quiet) {
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
    }, quiet);
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
      if (!s.your_turn && playing) return "Waiting for " + who + " (" + seat + ")";
      if (!s.your_turn) return who + " (" + seat + ") is to move here: press “" + advanceText(s) + "”";
      return who === seat ? "Your move, " + seat : "Your move (" + seat + ")";
    }
    if (s.result === "tie") return "Game over: a tie";
    const winner = s.players[Number(s.result) - 1];
    const won = winner === "you" ? "you win" : winner + " wins";
    if (s.verdict && s.verdict.code === "time-forfeit") {
      const loser = s.players[s.verdict.seat];
      return "Game over: " + (loser === "you" ? "you lost on time" : loser + " lost on time; " + won);
    }
    return "Game over: " + won;
  }

  /* The clocks of a game on a clock (judge serve --tc), in words: the running one (the
     person to move, whose thinking the server counts) is counted down here between answers
     (after its free seconds, if any), and when its time is up the page asks the server,
     which ends the game on time. */
  function drawClocks(s) {
    const box = $("clocks");
    if (ticking) { clearInterval(ticking.timer); ticking = null; }
    box.hidden = !s.clocks;
    if (!s.clocks) return;
    s.clocks.forEach((c) => {
      const p = $("clock-" + c.seat);
      p.dataset.running = String(c.running);
      p.dataset.fallen = String(c.fallen);
      p.textContent = c.text + (c.fallen ? " (flag fell)" : c.running ? " (running)" : "");
      if (c.running && c.left !== null) {
        const since = performance.now();
        const name = c.text.slice(0, c.text.lastIndexOf(": ") + 2);
        const tick = () => {
          const spent = (performance.now() - since) / 1000;
          p.textContent = name + B.clockReading(c.left - Math.max(0, spent - c.free)) +
            " (running)";
          if (spent < c.left + c.free + 0.1 || busy) return;  // (0.1 s: the server sees it out)
          clearInterval(ticking.timer);
          ticking = null;
          run(async () => { state = await api("GET", "/api/sessions/" + state.id); });
        };
        ticking = { timer: setInterval(tick, 100) };
      }
    });
  }

  /* The button that lets the computer move where it is to move (after going back). */
  function advanceText(s) { return "Let " + s.players[s.to_move - 1] + " move"; }

  function shareLink(s) {
    const q = new URLSearchParams();
    q.set("rules", s.rules);
    q.set("position", s.position);
    q.set("opponent", s.opponent);
    if (!s.values) q.set("practice", "on");
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
      if (s.values && m.value) button.appendChild(B.el("span", "val", m.says));
      if (s.values && m.grundy !== undefined && m.grundy !== null) {
        button.appendChild(B.el("span", "grundy-after", s.grundy_name + " after: " + m.grundy));
        button.dataset.grundy = String(m.grundy);
      }
      B.asMove(button, m, { values: s.values, scoring: s.scoring, hint: hint && hint.moves,
        onMove: play });
      button.setAttribute("aria-label", button.title);
      list.appendChild(button);
    });
  }

  function drawValue(s) {
    const v = $("value");
    v.replaceChildren();
    if (!s.values || s.value === undefined || !s.says) return;
    v.appendChild(B.el("p", "says", s.says + "."));
    if (s.legend) v.appendChild(B.el("p", "note legend", s.legend));
    v.dataset.value = s.value;
  }

  function drawLast(s) {
    const box = $("last");
    const last = s.last;
    box.textContent = last ? "Last move: " + last.by + " played " + last.label : "";
    if (last) box.dataset.move = last.move; else delete box.dataset.move;
  }

  function drawHistory(s) {
    const list = $("history");
    list.replaceChildren();
    s.history.forEach((h) => {
      const item = B.el("li", h.ply === s.history.length - 1 ? "current" : "");
      item.dataset.position = h.position;
      item.dataset.toMove = String(h.to_move);
      if (s.last && h.ply === s.last.ply) item.dataset.last = "true";
      const before = s.history[h.ply - 1];
      const button = B.el("button", "goto", h.ply === 0 ? "Start" :
        h.ply + ". " + before.by + ": " + before.label);
      button.dataset.ply = String(h.ply);
      button.title = "the position: " + h.position;
      button.disabled = !s.resumable;
      button.addEventListener("click", () => act("goto", { ply: h.ply }, false));
      item.appendChild(button);
      if (before && before.mistake) item.appendChild(B.el("span", "mistake", " a mistake: it changed who wins"));
      list.appendChild(item);
    });
    list.scrollTop = list.scrollHeight;
  }

  /* The value chart (after GamesmanUni's value history), plain SVG: a column per position of
     the game, the start first, its point placed by the value for player 1 (win above the
     middle line, lose below, a tie or draw on it) and its remoteness (0 at the top and
     bottom edges, larger towards the middle: a game heads for an edge as it nears its end);
     the other moves that were available there small dots, each mistake (a move that changed
     who wins) ringed, in Ioiwari by how much player 1 ends ahead. A game with a score
     (Ioiwari) has a second view, after GamesmanUni's win-by chart: the points placed by how
     much player 1 ends ahead with best play from there (above the middle line ahead, on it
     level), the further from it the more. The columns are numbered by
     move; a point's words (who played what, and what it leads to) are its title and, when it
     is pointed at or focused, the line under the chart. Clicked or pressed, a point goes to
     its position. Every text is 12 px or more, and nothing is drawn outside the picture. */
  let chartView = "remoteness";  // or "winby", where the game has a score
  function drawChart(s) {
    const box = $("chart");
    const caption = $("chart-caption");
    box.replaceChildren();
    caption.textContent = "";
    const scored = s.values && s.scoring === "difference";
    $("chart-views").hidden = !scored;
    const winby = scored && chartView === "winby";
    $("view-remoteness").setAttribute("aria-pressed", String(!winby));
    $("view-winby").setAttribute("aria-pressed", String(winby));
    if (!s.values) { box.appendChild(B.el("p", "note", "Values are hidden in practice.")); return; }
    const cols = s.history;
    const all = [].concat(cols, ...cols.map((h) => h.choices || []));
    const counted = all.some((c) => c.remoteness !== null && c.remoteness !== undefined);
    const top = Math.max(1, ...all.map((c) =>
      winby ? Math.abs(c.final_difference || 0) : c.remoteness || 0));
    const left = 40, right = 20, pad = 28, bottom = 40, h = 280, mid = (h - bottom + pad) / 2,
      gap = 12, step = 30;
    const w = Math.max(300, left + right + step * (cols.length - 1) + 20);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("width", String(w));
    svg.setAttribute("height", String(h));
    svg.setAttribute("class", "vh");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-labelledby", "chart-title chart-desc");
    const add = (tag, attrs, text, parent) => {
      const e = document.createElementNS(SVG, tag);
      Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, String(v)));
      if (text !== undefined) e.textContent = text;
      (parent || svg).appendChild(e);
      return e;
    };
    const first = s.players[0];
    const wins = first === "you" ? "you win" : first + " wins";
    const loses = first === "you" ? "you lose" : first + " loses";
    add("title", { id: "chart-title" }, "Value chart");
    add("desc", { id: "chart-desc" }, "A point for the start and for each move: above the " +
      "middle line " + wins + ", below it " + loses + ", on it a tie. " + (winby
        ? "The further from the middle line, the more it ends ahead by, with best play. "
        : counted ? "The nearer the top or bottom edge, the fewer moves to the end. " : "") +
      "Small dots: the other moves that were there.");
    const x = (i) => left + 10 + step * i;
    const y = (c) => {
      if (winby) return mid - (c.final_difference / top) * (mid - pad);
      if (c.value !== "win" && c.value !== "lose") return mid;
      const r = c.remoteness === null || c.remoteness === undefined ? top : c.remoteness;
      const offset = (r / top) * (mid - pad - gap);
      return c.value === "win" ? pad + offset : h - bottom - offset;
    };
    add("line", { x1: left, x2: w - right, y1: mid, y2: mid, class: "axis middle" });
    add("line", { x1: left, x2: left, y1: pad, y2: h - bottom, class: "axis" });
    const tick = (ty, text) => {
      add("line", { x1: left - 4, x2: left, y1: ty, y2: ty, class: "axis" });
      add("text", { x: left - 6, y: ty + 4, class: "tick", "text-anchor": "end" }, text);
    };
    if (winby) {
      [...new Set([top, Math.round(top / 2), 0])].forEach((d) => {
        tick(y({ final_difference: d }), d ? "+" + d : "0");
        if (d) tick(y({ final_difference: -d }), "-" + d);
      });
    } else if (counted) [...new Set([0, Math.round(top / 2), top])].forEach((r) => {
      ["win", "lose"].forEach((v) => {
        tick(y({ value: v, remoteness: r }), String(r));
      });
    });
    add("text", { x: left + 4, y: 14, class: "axis-label" },
      wins + (winby ? " by (at the end, best play)" : counted ? " (moves to the end)" : ""));
    add("text", { x: w - right, y: mid - 4, class: "axis-label", "text-anchor": "end" },
      all.some((c) => c.value === "draw") ? "draw" : "tie");
    add("text", { x: left + 4, y: h - 4, class: "axis-label" }, loses + (winby ? " by" : ""));
    add("path", { d: cols.map((c, i) => (i ? "L" : "M") + x(i) + " " + y(c)).join(""), class: "line" });
    const words = (i) => {
      if (i === 0) {
        const v = cols[0].value;
        return "The start: " + (v === "win" ? wins : v === "lose" ? loses : "a " + v) +
          " with best play.";
      }
      const before = cols[i - 1];
      const played = (before.choices || []).find((c) => c.played) || {};
      return "Move " + i + ", " + before.by + ": " + before.label + ": " + (played.says || "") +
        (before.mistake ? " (a mistake: it changed who wins)" : "") + ".";
    };
    cols.forEach((col, i) => {
      const before = cols[i - 1];
      if (before) {
        (before.choices || []).forEach((c) => {
          if (c.played) return;
          const dot = add("circle", { cx: x(i), cy: y(c), r: 3, class: "sibling v-" + c.value });
          dot.dataset.move = c.move;
          dot.dataset.value = c.value;
          dot.dataset.ply = String(i);
          add("title", {}, "move " + i + ", not played: " + c.label + ": " + c.says, dot);
        });
        if (before.mistake) add("circle", { cx: x(i), cy: y(col), r: 9, class: "changed" });
        if (cols.length <= 60) {
          add("text", { x: x(i), y: h - bottom + 18, class: "move-label", "text-anchor": "middle" },
            String(i));
        }
      }
      const point = add("circle", { cx: x(i), cy: y(col), r: 6, class: "point v-" + col.value,
        tabindex: 0, role: "button" });
      point.dataset.ply = String(i);
      point.dataset.value = col.value;
      const played = before && (before.choices || []).find((c) => c.played);
      if (before) point.dataset.move = before.move;
      if (before && before.mistake) point.dataset.mistake = "true";
      if (scored) point.dataset.difference = String(col.final_difference);
      if (!winby && scored && played) {
        add("text", { x: x(i), y: y(col) - 10, class: "winby", "text-anchor": "middle" },
          (played.final_difference > 0 ? "+" : "") + played.final_difference);
      }
      const said = words(i);
      point.setAttribute("aria-label", said + " Go to the position after it.");
      add("title", {}, said, point);
      const show = () => { caption.textContent = said; };
      point.addEventListener("mouseenter", show);
      point.addEventListener("focus", show);
      const goto = () => { show(); if (s.resumable && i !== s.ply) act("goto", { ply: i }, false); };
      point.addEventListener("click", goto);
      point.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); goto(); }
      });
    });
    caption.textContent = words(cols.length - 1);
    box.appendChild(svg);
    box.scrollLeft = box.scrollWidth;
  }

  /* The rules panel: the game's rules in brief, the variant and its rules, what each seat's
     player does (all from the server, set as text). */
  function drawRules(s) {
    const box = $("rules-text");
    const e = s.explain;
    box.replaceChildren();
    if (!e) return;
    box.appendChild(B.el("p", "variant", s.name + (e.variant ? ", variant " + e.variant : "") +
      ": " + (s.rules || "no rule options")));
    e.summary.forEach((t) => box.appendChild(B.el("p", "", t)));
    e.notes.forEach((t) => box.appendChild(B.el("p", "rule-note", t)));
    const who = B.el("ul", "players-about");
    e.players.forEach((t, i) => who.appendChild(B.el("li", "", "Player " + (i + 1) + ": " + t)));
    box.appendChild(who);
    if (e.protocol) {
      const link = B.el("a", "", "the protocol page");
      link.href = e.protocol;
      const note = B.el("p", "note", "The full rules, as a bot reads them: ");
      note.append(link, ".");
      box.appendChild(note);
    }
  }

  function drawEnd(s) {
    const box = $("end");
    box.hidden = !s.end;
    box.textContent = s.end ? "Why it ended: " + s.end + "." : "";
  }

  /* An impartial game's Grundy value of the position, in the game's words (a nim-sum is
     worked out in binary): the sentence comes from the server. */
  function drawGrundy(s) {
    const box = $("grundy");
    box.hidden = !(s.values && s.grundy !== undefined && s.grundy !== null);
    if (box.hidden) return;
    box.dataset.grundy = String(s.grundy);
    box.textContent = s.grundy_text;
  }

  function owners(s) {
    return s.players.map((p, i) => (p === "you" ? "your" : p === "player " + (i + 1) ? "player " + (i + 1) + "'s" : p + "'s"));
  }

  /* The board is drawn anew after every answer: the part that had the focus (a hand
     chosen with Enter) gets it back, found by what it is (its data-hand, data-pit, ...). */
  const KEYS = ["hand", "move", "pit", "heap", "cell", "column"];

  function focusKey(board) {
    const e = document.activeElement;
    if (!e || e === board || !board.contains(e)) return null;
    const key = KEYS.find((k) => e.dataset[k] !== undefined);
    return key ? [key, e.dataset[key]] : null;
  }

  function refocus(board, key) {
    if (!key) return;
    const found = [...board.querySelectorAll("[data-" + key[0] + "]")]
      .find((e) => e.dataset[key[0]] === key[1] && !e.disabled);
    (found || board).focus();
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
    const focused = focusKey(board);
    B.draw(board, s.meta, s.board, {
      moves: s.your_turn ? s.moves : [], values: s.values, scoring: s.scoring, selected: selected,
      touched: s.last ? s.last.touched : [], hint: hint && hint.moves, owners: owners(s),
      onMove: play,
      onSelect: (hand) => { if (!busy) { selected = hand; render(); } },
    });
    refocus(board, focused);
    board.classList.remove("flash");
    if (s.last && s.last.ply !== flashed) {
      void board.offsetWidth;  // (restarts the highlight's animation)
      board.classList.add("flash");
    }
    $("status").textContent = resultText(s);
    drawClocks(s);
    $("undo").disabled = !s.can_undo;
    $("redo").disabled = !s.can_redo;
    $("hint").disabled = s.over;
    $("new").disabled = false;
    $("practice").disabled = false;
    $("advance").hidden = s.over || s.your_turn;
    $("advance").textContent = advanceText(s);
    $("advance").disabled = false;
    $("practice").checked = !s.values;
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
    drawRules(s);
    drawEnd(s);
    drawGrundy(s);
    drawCvc(s);
    $("download").href = "data:text/plain;charset=utf-8," + encodeURIComponent(s.record);
    $("import").disabled = false;
    if (s.last) flashed = s.last.ply;
  }

  /* Computer against computer: two computer players hold the seats and the page asks the
     server for one move at a time (advance with `one`, the ply checked), at the chosen speed,
     until the game ends or Pause. */
  let playing = false;
  let about = {};

  function chosenPlayers() { return [$("cvc-1").value, $("cvc-2").value]; }

  function drawCvc(s) {
    const button = $("cvc-play");
    button.textContent = playing ? "Pause" : "Play";
    button.setAttribute("aria-pressed", playing ? "true" : "false");
    button.disabled = false;
    const names = chosenPlayers();
    $("cvc-about").textContent = names.map((n, i) => "Player " + (i + 1) + ": " +
      (about[n] || about[n.startsWith("level:") ? "level:N" : "bot"] || n)).join(" ");
    if (s.stepwise && !playing) {
      const seated = s.opponent.split(",");
      [1, 2].forEach((i) => { if ($("cvc-" + i).value !== seated[i - 1]) pick($("cvc-" + i), seated[i - 1]); });
    }
  }

  function pick(select, value) {
    if (![...select.options].some((o) => o.value === value)) {
      const option = B.el("option", "", value);
      option.value = value;
      select.appendChild(option);
    }
    select.value = value;
  }

  async function fillPlayers() {
    let bots = [];
    try {
      const games = await api("GET", "/api/games");
      bots = games.bots || [];
      about = games.about || {};
    } catch (e) { /* the built-in players only */ }
    const names = ["optimal", "tricky"];
    for (let n = 0; n <= 10; n++) names.push("level:" + n);
    [1, 2].forEach((i) => {
      const select = $("cvc-" + i);
      select.replaceChildren();
      names.concat(bots).forEach((n) => {
        const option = B.el("option", "", bots.includes(n) ? "bot " + n : n);
        option.value = n;
        select.appendChild(option);
      });
      select.value = i === 1 ? "optimal" : "tricky";
      select.addEventListener("change", () => { if (state) drawCvc(state); });
    });
    if (state) drawCvc(state);  // (the board is not drawn again: no click is lost)
  }

  function pause(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  async function autoplay() {
    const wanted = chosenPlayers();
    if (!state.stepwise || state.opponent !== wanted.join(",") || state.over) {
      // a new game of these two from the game as it stands (a bot starts from the position)
      const bot = wanted.some((n) => !(n === "optimal" || n === "tricky" || n.startsWith("level:")));
      const moves = state.history.filter((h) => h.move !== undefined).map((h) => h.move);
      const fresh = state.over;
      config = { game: state.name, rules: state.rules,
        position: bot && !fresh ? state.position : state.start,
        moves: bot || fresh ? [] : moves, opponent: "human", seat: 1, values: state.values,
        players: wanted };
      end(false);
      await run(async () => { state = await create(); flashed = state.ply; say(""); remember(state, true); });
    }
    while (playing && state && !state.over) {
      const speed = Math.min(20, Math.max(0.2, Number($("cvc-speed").value) || 2));
      const started = Date.now();
      await act("advance", { one: true }, true, true);
      if (document.body.dataset.busy === "0" && $("message").classList.contains("error")) break;
      await pause(Math.max(0, 1000 / speed - (Date.now() - started)));
    }
    playing = false;
    if (state) render();
  }

  $("cvc-play").addEventListener("click", () => {
    if (!state) return;
    if (playing) { playing = false; render(); return; }
    playing = true;
    render();
    autoplay();
  });

  /* Export and import: the game as text (the server writes it, and reads it back: an
     illegal move is refused with its number). */
  $("export").addEventListener("click", () => { if (state) $("record").value = state.record; });
  $("import").addEventListener("click", () => {
    if (busy) return;
    const text = $("record").value;
    run(async () => {
      const body = { record: text, values: state ? state.values : config.values,
        opponent: config.players ? "human" : config.opponent, seat: config.seat };
      const imported = await api("POST", "/api/sessions", body);
      end(false);
      state = imported;
      flashed = state.ply;
      say("Imported " + state.ply + " moves.");
      remember(state, true);
      config = fromAddress();
    });
  });

  function hint() {
    if (!state || busy || state.over) return;
    run(async () => {
      const h = await api("GET", "/api/sessions/" + state.id + "/hint");
      hinted = h;
      say("Hint: " + h.labels.join(" or ") + ": " + h.says, "hint");
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
      say("");
      state = await created();
      flashed = state.ply;
      remember(state, true);
    });
  });
  /* The link to the position is copied, not followed: the game, its undo and its
     history stay. */
  $("share").addEventListener("click", (e) => {
    e.preventDefault();
    const link = new URL($("share").getAttribute("href"), location.href).href;
    const told = () => say("Link to this position: " + link);
    if (navigator.clipboard) {
      navigator.clipboard.writeText(link).then(() => say("Copied the link to this position: " +
        link), told);
    } else {
      told();
    }
  });
  ["remoteness", "winby"].forEach((view) => $("view-" + view).addEventListener("click", () => {
    chartView = view;
    if (state) drawChart(state);
  }));
  $("undo").addEventListener("click", () => act("undo", {}, false));
  $("redo").addEventListener("click", () => act("redo", {}, false));
  $("advance").addEventListener("click", () => act("advance", {}, true));
  $("practice").addEventListener("change", (e) => act("options", { values: !e.target.checked }, false));
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
  fillPlayers();
})();
