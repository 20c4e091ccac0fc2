/* Watching a bot play live: the server streams each move, judged against perfect play, over
   a WebSocket (docs/web.md); this page draws it. */
"use strict";
(function () {
  const B = window.judgeBoard;
  const config = JSON.parse(document.getElementById("config").textContent);
  const $ = (id) => document.getElementById(id);
  let meta = null;
  let players = [];

  function judged(j) {
    if (j.slow) return "slow: still wins, but in " + j.move_remoteness + " moves instead of " + j.remoteness;
    if (j.mistake) return "MISTAKE: " + j.before + " → " + j.after + "; right: " + j.best_moves.join(", ");
    return "optimal";
  }

  function show(board, position, toMove) {
    const root = $("board");
    root.dataset.position = position;
    root.dataset.toMove = String(toMove);
    B.draw(root, meta, board, {});
  }

  const q = new URLSearchParams();
  ["game", "rules", "position", "bot", "opponent", "seat", "pause"].forEach((k) => q.set(k, config[k]));
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + "/api/watch?" + q.toString());
  $("status").textContent = "starting the bot…";
  socket.onmessage = (message) => {
    const e = JSON.parse(message.data);
    if (e.type === "error") {
      $("status").textContent = e.error;
      $("status").className = "status error";
    } else if (e.type === "start") {
      meta = e.meta;
      players = e.players;
      show(e.board, e.position, e.to_move);
      $("status").textContent = "player 1: " + players[0] + ", player 2: " + players[1];
    } else if (e.type === "move") {
      show(e.board, e.position, e.to_move);
      const item = B.el("li", e.judgement.mistake ? "mistake" : e.judgement.slow ? "slow" : "optimal");
      item.dataset.ply = String(e.ply);
      item.dataset.move = e.move;
      item.dataset.judgement = e.judgement.mistake ? "mistake" : e.judgement.slow ? "slow" : "optimal";
      item.textContent = "player " + e.seat + " (" + players[e.seat - 1] + "): " + e.label +
        " [" + e.move + "]  " + judged(e.judgement) +
        (e.clock === null || e.clock === undefined ? "" : "  (clock " + B.clockReading(e.clock) + ")");
      $("watched").appendChild(item);
    } else if (e.type === "end") {
      $("board").dataset.result = e.result;
      $("status").textContent = e.result === "tie" ? "Game over: a tie"
        : e.result === "void" ? "Game void (judge error)"
        : "Game over: player " + e.result + " (" + players[Number(e.result) - 1] + ") wins";
      const v = $("verdict");
      v.hidden = false;
      v.dataset.code = e.verdict.code;
      v.classList.toggle("ok", e.verdict.code === "ok");  // not an error: shown plainly
      let text = "verdict: " + e.verdict.code + (e.verdict.message ? ": " + e.verdict.message : "");
      e.stderr.forEach((t, s) => { if (t) text += "\n\nstderr of player " + (s + 1) + " (last lines):\n" + t; });
      v.textContent = text;
    }
  };
})();
