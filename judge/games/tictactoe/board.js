/* Tic-tac-toe's board: the 3x3 grid with its X and O marks. One renderer for the report's
   viewer (a still picture) and the browser app (an empty cell is clicked to mark it).
   state: cells (nine of "x", "o" or ".", row by row), line (the cells of a line of three,
   from 1), mover, over; touched and control: a cell's number, 1 to 9.
   See judge/games/drawing.js for the kit. */
(function () {
  "use strict";
  const K = window.JudgeBoards;

  K.style("tictactoe", `
.tictactoe-board .grid { display: grid; grid-template-columns: repeat(3, 64px);
  grid-auto-rows: 64px; gap: 4px; width: max-content; margin: 0 auto; padding: 4px;
  background: #1d2430; border-radius: 8px; }
.tictactoe-board .cell { box-sizing: border-box; width: 64px; height: 64px; padding: 0;
  margin: 0; display: flex; align-items: center; justify-content: center; border: 0;
  border-radius: 4px; background: #fbfaf6; color: #1d2430; font: inherit; }
.tictactoe-board .cell svg { width: 44px; height: 44px; display: block; }
.tictactoe-board .cell .x { stroke: #c0392b; stroke-width: 7; stroke-linecap: round; fill: none; }
.tictactoe-board .cell .o { stroke: #2456a6; stroke-width: 7; fill: none; }
.tictactoe-board button.cell.legal { cursor: pointer; background: #fff; }
.tictactoe-board button.cell.legal:hover { background: #eef3fb; }
.tictactoe-board .cell.touched { box-shadow: inset 0 0 0 4px #2f5fb3; }
.tictactoe-board .cell.won { background: #fff3bf; }
.tictactoe-board .turn { font-weight: 600; margin: 6px 6px 0; text-align: center; }
`);

  /* The drawing of a mark, X as a cross and O as a ring. */
  function drawing(mark) {
    const svg = K.sv("svg", { viewBox: "0 0 44 44", "aria-hidden": "true" });
    if (mark === "x") {
      svg.appendChild(K.sv("path", { d: "M8 8 L36 36 M36 8 L8 36", "class": "x" }));
    } else {
      svg.appendChild(K.sv("circle", { cx: 22, cy: 22, r: 15, "class": "o" }));
    }
    return svg;
  }

  function status(s) {
    if (!s.over) {
      return (s.mover === 0 ? "X" : "O") + " (player " + (s.mover + 1) + ") to move";
    }
    if (!s.line.length) return "game over: a tie";
    return "game over: " + s.cells[s.line[0] - 1].toUpperCase() + " has three in a row";
  }

  function draw(root, meta, s, opts) {
    const board = K.el("div", { "class": "tictactoe-board" });
    const grid = K.el("div", { "class": "grid", role: "group", "aria-label": "tic-tac-toe grid" });
    for (let n = 1; n <= 9; n++) {
      const row = Math.floor((n - 1) / 3) + 1, col = (n - 1) % 3 + 1;
      const mark = s.cells[n - 1] === "." ? "" : s.cells[n - 1];
      const won = s.line.includes(n);
      const cell = K.part(opts, { "class": "cell" + (won ? " won" : ""), "data-cell": n,
        "data-row": row, "data-col": col, "data-mark": mark,
        role: opts.interactive ? null : "img" });
      if (mark) cell.appendChild(drawing(mark));
      K.movesWhere(opts, (c) => c.cell === n).forEach((m) => K.asMove(cell, m, opts));
      K.mark(cell, opts, n);
      cell.setAttribute("aria-label", "row " + row + ", column " + col + ", " +
        (mark ? mark.toUpperCase() : "empty") + (won ? ", in the line of three" : "") +
        (cell.dataset.move ? ": " + cell.title : ""));
      grid.appendChild(cell);
    }
    board.appendChild(grid);
    board.appendChild(K.el("p", { "class": "turn" }, status(s)));
    root.appendChild(board);
  }

  K.register("tictactoe", draw);
})();
