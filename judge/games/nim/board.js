/* Nim's board: a row of counters per heap. One renderer for the report's viewer (a still
   picture, the counters just taken shown as ghosts) and the browser app (clicking counter c
   of a heap takes it and every counter after it).
   state: heaps (a huge one as a string), mover, over; meta: misere;
   touched: a heap's number; control: {heap, counter}. See judge/games/drawing.js. */
(function () {
  "use strict";
  const K = window.JudgeBoards;
  /* counters drawn one by one in a still picture; more are summed up as "…" */
  const MAX_COUNTERS = 40;

  K.style("nim", `
.nim-board .heap { display: flex; align-items: center; gap: 10px; padding: 4px 6px;
  margin: 2px 0; border-radius: 6px; }
.nim-board .heap.touched { background: #eef3fb; }
.nim-board .heap-label { min-width: 4.2em; color: #5b6577; font-size: 0.9rem; }
.nim-board .counters { display: flex; flex-wrap: wrap; gap: 3px; flex: 1; min-height: 16px; }
.nim-board .counter { width: 14px; height: 14px; border-radius: 50%; background: #6b4a2b;
  box-shadow: inset -2px -2px 0 rgba(0, 0, 0, 0.25); }
.nim-board button.counter { width: 44px; height: 44px; padding: 0; margin: 0;
  border: 1px solid #555; background: #cba; box-shadow: none; }
.nim-board button.counter.legal { background: #dcb; cursor: pointer; }
.nim-board .counter.taken { background: transparent; border: 2px dashed #c7a58a;
  box-shadow: none; }
.nim-board .more { color: #5b6577; }
.nim-board .heap-count { font-weight: 700; font-variant-numeric: tabular-nums;
  white-space: nowrap; }
.nim-board .turn { font-weight: 600; margin: 6px 6px 0; }
.nim-board .rule { color: #595959; font-size: .9em; margin: 4px 6px 0; }
`);

  function draw(root, meta, s, opts) {
    const board = K.el("div", { "class": "nim-board" });
    s.heaps.forEach((count, i) => {
      const h = i + 1;
      const huge = typeof count !== "number";
      const before = opts.before ? opts.before.heaps[i] : count;
      const taken = !huge && typeof before === "number" ? before - count : 0;
      const row = K.el("div", { "class": "heap", "data-heap": h, "data-count": count });
      K.mark(row, opts, h);
      row.appendChild(K.el("span", { "class": "heap-label" }, "heap " + h));
      const line = K.el("span", { "class": "counters" });
      const shown = opts.interactive && !huge ? count
        : huge ? MAX_COUNTERS : Math.min(count, MAX_COUNTERS);
      for (let c = 1; c <= shown; c++) {
        const counter = K.part(opts, { "class": "counter", "data-counter": c });
        if (opts.interactive) {
          K.movesWhere(opts, (x) => x.heap === h && x.counter === c)
            .forEach((m) => K.asMove(counter, m, opts));
          counter.setAttribute("aria-label", "heap " + h + ", counter " + c + " of " + count +
            (counter.title ? ": " + counter.title : ""));
        }
        line.appendChild(counter);
      }
      const ghosts = Math.max(0, Math.min(taken, MAX_COUNTERS - shown));
      for (let g = 0; g < ghosts; g++) line.appendChild(K.el("span", { "class": "counter taken" }));
      if (shown < count || huge) line.appendChild(K.el("span", { "class": "more" }, "…"));
      row.appendChild(line);
      row.appendChild(K.el("span", { "class": "heap-count" },
        String(count) + (taken > 0 ? "  (−" + taken + ")" : "")));
      board.appendChild(row);
    });
    board.appendChild(K.el("p", { "class": "turn" }, s.over ? "game over"
      : "player " + (s.mover + 1) + " to move"));
    board.appendChild(K.el("p", { "class": "rule" }, meta.misere
      ? "misère: who takes the last counter loses" : "who takes the last counter wins"));
    root.appendChild(board);
  }

  K.register("nim", draw);
})();
