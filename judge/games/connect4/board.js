/* Connect Four's board: the rows x columns of discs, on a board of any size up to 42 cells.
   One renderer for the report's viewer (a still picture) and the browser app (a column that
   is not full is a button that drops a disc into it). The board takes the width it is given,
   at most 52 px a column, so that it never needs scrolling sideways, even 42 columns wide.
   state: cells ("x", "o" or ".", row by row from the top), line (the cells of a winning
   line, each [row, column] from 1), mover, over; meta: rows, cols, connect;
   touched: the cell the disc fell to, [row, column]; control: {column}.
   See judge/games/drawing.js for the kit. */
(function () {
  "use strict";
  const K = window.JudgeBoards;
  /* the most columns whose numbers are written under the board */
  const NUMBERED = 21;

  K.style("connect4", `
.connect4-board { box-sizing: border-box; width: 100%; margin: 0 auto; }
.connect4-board .frame { display: flex; padding: 3px; border-radius: 8px; background: #2456a6; }
.connect4-board .column { box-sizing: border-box; flex: 1 1 0; min-width: 0; min-height: 44px;
  margin: 0; padding: 0; display: flex; flex-direction: column; justify-content: flex-end;
  border: 3px solid transparent; border-radius: 6px; background: transparent; font: inherit;
  color: inherit; }
.connect4-board button.column.legal { cursor: pointer; }
.connect4-board button.column.legal:hover { background: #3a6fc4; }
/* a valued column: its value's outline, then a white ring that parts it from the blue frame
   (the values' colours stand 1:1 against it), and its mark above the discs */
.connect4-board button.column[data-value] { box-shadow: inset 0 0 0 3px #fff; }
.connect4-board .column .mark { order: -1; align-self: center; margin: 4px 0 2px; }
.connect4-board .slot { box-sizing: border-box; width: 100%; aspect-ratio: 1; padding: 9%; }
.connect4-board .disc { position: relative; width: 100%; height: 100%; border-radius: 50%;
  background: #fbfaf6; box-shadow: inset 0 2px 3px rgba(0, 0, 0, 0.35); }
.connect4-board .disc.x { background: #d63a2f; }
.connect4-board .disc.o { background: #f4c430; }
.connect4-board .slot.won .disc::after { content: ""; position: absolute; inset: 30%;
  border-radius: 50%; background: #1d2430; }
.connect4-board .slot.touched .disc { outline: 3px solid #fff; }
.connect4-board .numbers { display: flex; padding: 0 3px; }
.connect4-board .numbers span { flex: 1 1 0; min-width: 0; text-align: center;
  font-size: 0.75rem; color: #4b5567; }
.connect4-board .turn { font-weight: 600; margin: 6px 6px 0; }
`);

  const NAME = { x: "X", o: "O" };

  function status(meta, s) {
    if (!s.over) {
      return NAME["xo"[s.mover]] + " (player " + (s.mover + 1) + ") to move, " +
        meta.connect + " in a row wins";
    }
    if (!s.line.length) return "game over: a tie";
    const first = s.line[0];
    return "game over: " + NAME[s.cells[(first[0] - 1) * meta.cols + first[1] - 1]] + " has " +
      meta.connect + " in a row";
  }

  function draw(root, meta, s, opts) {
    const rows = meta.rows, cols = meta.cols;
    const board = K.el("div", { "class": "connect4-board", role: "group",
      "aria-label": "Connect Four board, " + rows + " rows by " + cols + " columns" });
    board.style.maxWidth = (cols * 52 + 6) + "px";
    const frame = K.el("div", { "class": "frame" });
    const won = new Set(s.line.map((p) => p[0] + "," + p[1]));
    for (let c = 1; c <= cols; c++) {
      const marks = [];
      for (let r = rows; r >= 1; r--) {
        const cell = s.cells[(r - 1) * cols + c - 1];
        if (cell !== ".") marks.push(NAME[cell]);
      }
      const full = marks.length === rows;
      const column = full ? K.el("div", { "class": "column", role: "img" })
        : K.part(opts, { "class": "column", role: opts.interactive ? null : "img" });
      column.dataset.column = String(c);
      column.dataset.discs = String(marks.length);
      for (let r = 1; r <= rows; r++) {
        const cell = s.cells[(r - 1) * cols + c - 1];
        const slot = K.el("div", { "class": "slot" + (won.has(r + "," + c) ? " won" : ""),
          "data-row": r, "data-col": c, "data-disc": cell === "." ? "" : cell });
        K.mark(slot, opts, [r, c]);
        slot.appendChild(K.el("div", { "class": "disc" + (cell === "." ? "" : " " + cell),
          "aria-hidden": "true" }));
        column.appendChild(slot);
      }
      if (!full) K.movesWhere(opts, (x) => x.column === c).forEach((m) => K.asMove(column, m, opts));
      column.setAttribute("aria-label", "column " + c + ", " + K.plural(marks.length, "disc") +
        (marks.length ? " (" + marks.join(", ") + " from the bottom)" : "") +
        (full ? ", full" : "") + (column.dataset.move ? ": " + column.title : ""));
      frame.appendChild(column);
    }
    board.appendChild(frame);
    if (cols <= NUMBERED) {
      const numbers = K.el("div", { "class": "numbers", "aria-hidden": "true" });
      for (let c = 1; c <= cols; c++) numbers.appendChild(K.el("span", null, c));
      board.appendChild(numbers);
    }
    board.appendChild(K.el("p", { "class": "turn" }, status(meta, s)));
    root.appendChild(board);
  }

  K.register("connect4", draw);
})();
