/* The league page: the leaderboard polled every few seconds (GET /api/league), a bot's
   rating history drawn as SVG (GET /api/league/bot?name=NAME), links to the stored-game
   viewer, and uploads (POST /api/league/upload, JSON). Every name and text from the
   server is set with textContent. */
"use strict";
(function () {
  const POLL_MS = 3000;
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = ["#2a6fdb", "#d1495b", "#2e9e5b", "#e08e0b", "#7b4fbf", "#555"];
  let shown = null; // the bot whose history is shown
  let seen = -1; // the games count of the last board drawn

  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  function link(text, href) {
    // a game's link is the app's own viewer address; anything else is shown as text
    if (typeof href === "string" && /^\/run\/[0-9]+\/game\/[0-9]+$/.test(href)) {
      return el("a", text, { href: href });
    }
    return el("span", text);
  }

  function row(cells) {
    const tr = document.createElement("tr");
    cells.forEach((c) => {
      const td = document.createElement("td");
      if (c instanceof Node) td.appendChild(c); else td.textContent = String(c);
      tr.appendChild(td);
    });
    return tr;
  }

  function drawBoard(data) {
    const body = document.querySelector("#leaderboard tbody");
    body.replaceChildren();
    data.leaderboard.forEach((s) => {
      const name = el("a", s.label, { href: "#bot", "data-name": s.name });
      name.addEventListener("click", (ev) => { ev.preventDefault(); showBot(s.name); });
      const notes = s.broken ? "broken: " + s.broken :
        s.anchor ? "anchor (" + s.placement + ")" : "";
      body.appendChild(row([s.rank, name, s.rating.toFixed(1),
        s.mu.toFixed(1) + " ± " + s.sigma.toFixed(1), s.games,
        s.wins + "/" + s.ties + "/" + s.losses,
        s.accuracy === null ? "" : (100 * s.accuracy).toFixed(1) + "%", notes]));
    });
    const recent = document.getElementById("recent");
    recent.replaceChildren();
    data.recent.forEach((g) => {
      const li = el("li");
      li.appendChild(link("game " + g.game, g.link));
      li.appendChild(document.createTextNode(": " + g.players.join(" vs ") + " from " +
        g.start + ", " + g.results.join("-")));
      recent.appendChild(li);
    });
    document.getElementById("league-status").textContent = "league " + data.league + ", " +
      data.game + ": " + data.games + " games" + (data.running ? ", playing" : ", not playing");
  }

  async function poll() {
    try {
      const r = await fetch("/api/league", { headers: { accept: "application/json" } });
      const data = await r.json();
      if (!r.ok) throw new Error(data.error || r.statusText);
      drawBoard(data);
      if (shown && data.games !== seen) showBot(shown);
      seen = data.games;
    } catch (e) {
      document.getElementById("league-status").textContent = "cannot read the league: " +
        e.message;
    }
    setTimeout(tick, POLL_MS);
  }

  function tick() {
    if (document.hidden) setTimeout(tick, POLL_MS); else poll();
  }

  function drawChart(versions) {
    const svg = document.getElementById("chart");
    svg.replaceChildren();
    const W = 640, H = 220, L = 40, B = 20;
    const points = versions.flatMap((v) => v.history);
    if (!points.length) {
      const t = document.createElementNS(SVG, "text");
      t.setAttribute("x", 10); t.setAttribute("y", 20);
      t.textContent = "no rated games yet";
      svg.appendChild(t);
      return;
    }
    const games = points.map((p) => p.game), ratings = points.map((p) => p.rating);
    const g0 = Math.min(...games), g1 = Math.max(...games);
    const r0 = Math.min(...ratings), r1 = Math.max(...ratings);
    const x = (g) => L + (W - L - 10) * (g1 === g0 ? 0.5 : (g - g0) / (g1 - g0));
    const y = (r) => 10 + (H - B - 10) * (r1 === r0 ? 0.5 : (r1 - r) / (r1 - r0));
    [[r1, y(r1)], [r0, y(r0)]].forEach(([value, at]) => {
      const t = document.createElementNS(SVG, "text");
      t.setAttribute("x", 2); t.setAttribute("y", at + 4);
      t.textContent = value.toFixed(1);
      svg.appendChild(t);
    });
    const axis = document.createElementNS(SVG, "text");
    axis.setAttribute("x", L); axis.setAttribute("y", H - 4);
    axis.textContent = "games " + g0 + " to " + g1 + " (rating after each)";
    svg.appendChild(axis);
    versions.forEach((v, i) => {
      if (!v.history.length) return;
      const line = document.createElementNS(SVG, "polyline");
      line.setAttribute("points", v.history.map((p) => x(p.game) + "," + y(p.rating)).join(" "));
      line.setAttribute("stroke", COLORS[i % COLORS.length]);
      line.setAttribute("fill", "none");
      line.setAttribute("stroke-width", "2");
      const title = document.createElementNS(SVG, "title");
      title.textContent = v.label;
      line.appendChild(title);
      svg.appendChild(line);
    });
  }

  async function showBot(name) {
    shown = name;
    const r = await fetch("/api/league/bot?name=" + encodeURIComponent(name));
    const data = await r.json();
    if (!r.ok) return;
    document.getElementById("bot").hidden = false;
    document.getElementById("bot-name").textContent = name + ": rating history";
    drawChart(data.versions);
    const body = document.querySelector("#bot-games tbody");
    body.replaceChildren();
    data.versions.forEach((v) => v.history.slice().reverse().forEach((s) => {
      body.appendChild(row([link("game " + s.game, s.link), v.label, s.opponent, s.result,
        s.rating.toFixed(1)]));
    }));
  }

  document.getElementById("upload").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const form = ev.target, out = document.getElementById("upload-result");
    const file = form.elements.file.files[0];
    if (!file) return;
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const r = await fetch("/api/league/upload", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: form.elements.name.value, token: form.elements.token.value,
          filename: file.name, source: await file.text() }),
      });
      const data = await r.json().catch(() => ({ error: r.statusText }));
      out.textContent = r.ok ? "added " + data.added +
        (data.retired.length ? " (" + data.retired.join(", ") + " retires)" : "") :
        "refused: " + (data.error || r.statusText);
    } catch (e) {
      out.textContent = "refused: " + e.message;
    } finally {
      button.disabled = false;
    }
  });

  poll();
})();
