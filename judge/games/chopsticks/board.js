/* Chopsticks' board: each side's hands with their raised fingers. One renderer for the
   report's viewer (a still picture) and the browser app (a hand of the mover is chosen,
   then the hand it taps; splits and swaps are played from the move list).
   state: left, right (fingers per hand, 0: out), mover, over; meta: fingers,
   drawn_fingers, sides; touched: [side, hand] pairs (side 0 is Left, hands from 1);
   control: {hand: [side, hand], target: [side, hand]}. See judge/games/drawing.js. */
(function () {
  "use strict";
  const K = window.JudgeBoards;
  const LETTERS = "LR";

  K.style("chopsticks", `
.chopsticks-board .side { padding: 6px; border-radius: 8px; border: 2px solid transparent;
  margin-bottom: 6px; }
.chopsticks-board .side.to-move { border-color: #2f5fb3; background: #f3f7fe; }
.chopsticks-board .side-label { font-weight: 600; font-size: 0.9rem; margin-bottom: 4px; }
.chopsticks-board .hands { display: flex; flex-wrap: wrap; gap: 10px; }
.chopsticks-board .hand { display: flex; flex-direction: column; align-items: center;
  min-width: 4em; min-height: 44px; padding: 4px; margin: 0; border-radius: 8px;
  border: 2px solid transparent; background: #fff; color: #1d2430; font: inherit; }
.chopsticks-board button.hand { border-color: #666; }
.chopsticks-board .hand.out { border-style: dashed; }
.chopsticks-board .hand.out svg { opacity: 0.45; }
.chopsticks-board .hand.chooser { border-color: #36f; cursor: pointer; }
.chopsticks-board .hand.selected { outline: 3px solid #36f; }
.chopsticks-board .hand.legal { border-color: #000; cursor: pointer; }
.chopsticks-board .hand.touched { border-color: #2f5fb3; }
.chopsticks-board .palm { fill: #f1c9a5; stroke: #b98a62; stroke-width: 1.5; }
.chopsticks-board .finger.up { fill: #f1c9a5; stroke: #b98a62; stroke-width: 1.5; }
.chopsticks-board .finger.down { fill: #e3d5c8; stroke: #c8b6a4; stroke-width: 1; }
.chopsticks-board .hand-count { font-size: 14px; font-weight: 700; text-anchor: middle;
  fill: #1d2430; }
.chopsticks-board .hand-label { font-size: 0.8rem; color: #4b5567;
  font-family: ui-monospace, Menlo, Consolas, monospace; }
.chopsticks-board .turn { font-weight: 600; margin: 6px 6px 0; }
`);

  /* A hand of `fingers` fingers, `value` of them raised (0: out); many fingers as a number. */
  function handSvg(value, fingers, drawn) {
    const many = fingers > Math.min(drawn || 20, 10);
    const w = many ? 64 : Math.max(52, 10 * fingers + 14), h = 82;
    const svg = K.sv("svg", { viewBox: "0 0 " + w + " " + h, width: w, height: h,
      "class": "hand-svg", "aria-hidden": "true" });
    svg.appendChild(K.sv("rect", { x: 4, y: 42, width: w - 8, height: 36, rx: 12, "class": "palm" }));
    if (many) {
      svg.appendChild(K.sv("text", { x: w / 2, y: 66, "class": "hand-count" },
        value ? value + "/" + fingers : "out"));
      return svg;
    }
    const step = (w - 14) / fingers;
    for (let f = 0; f < fingers; f++) {
      const up = f < value;
      svg.appendChild(K.sv("rect", { x: (7 + f * step + 1).toFixed(1), y: up ? 4 : 30,
        width: (step - 2).toFixed(1), height: up ? 44 : 16, rx: 3.5,
        "class": up ? "finger up" : "finger down" }));
    }
    if (!value) svg.appendChild(K.sv("text", { x: w / 2, y: 66, "class": "hand-count" }, "out"));
    return svg;
  }

  function handName(i, hands) {
    return hands === 2 ? ["left", "right"][i] + " hand" : "hand " + (i + 1);
  }

  function draw(root, meta, s, opts) {
    const board = K.el("div", { "class": "chopsticks-board" });
    const names = meta.sides || ["Left", "Right"];
    const selected = opts.selected;
    [s.left, s.right].forEach((hands, seat) => {
      const letter = LETTERS[seat];
      const moving = !s.over && s.mover === seat;
      const row = K.el("div", { "class": "side" + (moving ? " to-move" : ""),
        "data-side": letter, "data-seat": seat });
      row.appendChild(K.el("div", { "class": "side-label" },
        names[seat] + " (player " + (seat + 1) + ")" + (moving ? " to move" : "")));
      const owner = K.owner(opts, seat, names[seat] + "'s");
      const line = K.el("div", { "class": "hands" });
      hands.forEach((v, i) => {
        const hand = K.part(opts, { "class": "hand" + (v ? "" : " out"), "data-side": letter,
          "data-hand": letter + (i + 1), "data-fingers": v });
        if (!opts.interactive) {
          hand.title = names[seat] + " hand " + (i + 1) + ": " + (v ? K.plural(v, "finger") : "out");
        }
        hand.appendChild(handSvg(v, meta.fingers || 5, meta.drawn_fingers));
        hand.appendChild(K.el("span", { "class": "hand-label" }, letter + (i + 1) + ": " + v));
        const own = K.movesWhere(opts, (c) => c.hand && c.hand[0] === seat && c.hand[1] === i + 1);
        let action = "";
        if (own.length) {  // one of the mover's hands: choose it, then the hand it taps
          hand.disabled = false;
          hand.classList.add("chooser");
          if (selected === i + 1) hand.classList.add("selected");
          if (opts.hint && own.some((m) => opts.hint.includes(m.move))) hand.dataset.hint = "true";
          hand.addEventListener("click", () => opts.onSelect(selected === i + 1 ? null : i + 1));
          action = selected === i + 1 ? " (chosen: now choose the hand it taps)"
            : " (choose it to tap with)";
        }
        if (selected) {
          K.movesWhere(opts, (c) => c.target && c.target[0] === seat && c.target[1] === i + 1 &&
            c.hand[1] === selected).forEach((m) => K.asMove(hand, m, opts));
        }
        K.mark(hand, opts, [seat, i + 1]);
        hand.setAttribute("aria-label", owner + " " + handName(i, hands.length) + ", " +
          (v ? K.plural(v, "finger") : "out") + action +
          (hand.dataset.move ? ": " + hand.title : ""));
        line.appendChild(hand);
      });
      row.appendChild(line);
      board.appendChild(row);
    });
    if (s.over) board.appendChild(K.el("p", { "class": "turn" }, "game over"));
    root.appendChild(board);
  }

  K.register("chopsticks", draw);
})();
