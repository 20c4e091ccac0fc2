/* Ioiwari's board: seven pits in a circle, both banks in the middle. One renderer for the
   report's viewer (a still picture) and the browser app (a pit is clicked to sow it).
   state: pits (pit 1 first), banks, mover, over; meta: pits, max_beads;
   touched and control: a pit's number. See judge/games/drawing.js for the kit. */
(function () {
  "use strict";
  const K = window.JudgeBoards;

  K.style("ioiwari", `
.ioiwari-board { position: relative; width: min(320px, calc(100vw - 3em)); aspect-ratio: 1;
  margin: 0 auto; }
.ioiwari-board .ring-line { position: absolute; inset: 12%; border: 10px solid #d8cdb5;
  border-radius: 50%; }
.ioiwari-board .pit { position: absolute; transform: translate(-50%, -50%); width: 64px;
  height: 64px; border-radius: 50%; padding: 0; margin: 0; display: flex;
  flex-direction: column; align-items: center; justify-content: center; font: inherit;
  color: #1d2430; background: #efe3c8; border: 2px solid #b9a57f; }
.ioiwari-board .pit svg { width: 34px; height: 34px; display: block; }
.ioiwari-board .pit .bead { fill: #6b4a2b; stroke: #3f2a16; stroke-width: 1; }
.ioiwari-board .pit .count { font-size: 18px; font-weight: 700; }
.ioiwari-board .pit-label { font-size: 11px; line-height: 1; }
.ioiwari-board .pit.legal { border-color: #000; cursor: pointer; }
.ioiwari-board .pit.touched { border: 4px solid #2f5fb3; }
.ioiwari-board .centre { position: absolute; left: 50%; top: 50%;
  transform: translate(-50%, -50%); text-align: center; }
.ioiwari-board .banks { display: flex; gap: 8px; justify-content: center; }
.ioiwari-board .bank { width: 64px; padding: 2px; border: 2px solid #b9a57f;
  border-radius: 12px; background: #efe3c8; font-size: 11px; }
.ioiwari-board .bank.to-move { border: 4px solid #2f5fb3; font-weight: 700; }
.ioiwari-board .bank-count { display: block; font-size: 24px; font-weight: 700; }
.ioiwari-board .turn { margin: 4px 0 0; font-size: 13px; font-weight: 600; }
.ioiwari-board .sowing { font-size: 11px; color: #5b6577; }
`);

  /* where the beads of a pit holding 1 to 5 sit, around its middle */
  const BEAD_SPOTS = [[], [[0, 0]], [[-9, 0], [9, 0]], [[-9, 7], [9, 7], [0, -9]],
    [[-9, -9], [9, -9], [-9, 9], [9, 9]], [[-10, -10], [10, -10], [-10, 10], [10, 10], [0, 0]]];

  function beads(count) {
    const spots = BEAD_SPOTS[count];
    if (!spots) return K.el("span", { "class": "count" }, count);
    const svg = K.sv("svg", { viewBox: "-17 -17 34 34", "aria-hidden": "true" });
    spots.forEach((p) => svg.appendChild(K.sv("circle", { cx: p[0], cy: p[1], r: 6.5,
      "class": "bead" })));
    return svg;
  }

  function draw(root, meta, s, opts) {
    const board = K.el("div", { "class": "ioiwari-board", role: "group",
      "aria-label": "Ioiwari board" });
    board.appendChild(K.el("div", { "class": "ring-line", "aria-hidden": "true" }));
    const n = s.pits.length;
    s.pits.forEach((count, i) => {
      const pit = K.part(opts, { "class": "pit", "data-pit": i + 1, "data-beads": count });
      const angle = (2 * Math.PI * i) / n - Math.PI / 2;
      pit.style.left = (50 + 38 * Math.cos(angle)).toFixed(2) + "%";
      pit.style.top = (50 + 38 * Math.sin(angle)).toFixed(2) + "%";
      pit.appendChild(beads(count));
      pit.appendChild(K.el("span", { "class": "pit-label" }, "pit " + (i + 1)));
      K.movesWhere(opts, (c) => c.pit === i + 1).forEach((m) => K.asMove(pit, m, opts));
      K.mark(pit, opts, i + 1);
      pit.setAttribute("aria-label", "pit " + (i + 1) + ", " + K.plural(count, "bead") +
        (pit.title ? ": " + pit.title : ""));
      board.appendChild(pit);
    });
    const centre = K.el("div", { "class": "centre" });
    const banks = K.el("div", { "class": "banks" });
    s.banks.forEach((count, seat) => {
      const bank = K.el("div", { "class": "bank" + (!s.over && s.mover === seat ? " to-move" : ""),
        "data-bank": seat + 1, "data-beads": count,
        "aria-label": "player " + (seat + 1) + " bank: " + count });
      bank.appendChild(K.el("span", null, "player " + (seat + 1)));
      bank.appendChild(K.el("span", { "class": "bank-count" }, count));
      bank.appendChild(K.el("span", null, "bank"));
      banks.appendChild(bank);
    });
    centre.appendChild(banks);
    centre.appendChild(K.el("p", { "class": "turn" },
      s.over ? "game over" : "player " + (s.mover + 1) + " to move"));
    centre.appendChild(K.el("span", { "class": "sowing" }, "sowing ↻"));
    board.appendChild(centre);
    root.appendChild(board);
  }

  K.register("ioiwari", draw);
})();
