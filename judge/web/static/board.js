/* Drawing the three games' boards. The server says what each legal move is and which part of
   the board plays it (`control`); this file knows no rule, it only draws and reports clicks.
   Every text from the server is set with textContent, never parsed as HTML. */
"use strict";
(function () {
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  /* Marks `node` as the control of legal move `m`: data-move, and the value when shown. */
  function asMove(node, m, values, onMove) {
    node.dataset.move = m.move;
    node.classList.add("legal");
    node.title = m.label;
    if (values && m.value) {
      node.dataset.value = m.value;
      node.dataset.remoteness = m.remoteness === null ? "" : String(m.remoteness);
      node.classList.add("v-" + m.value);
      node.title += ": " + m.value + (m.remoteness === null ? "" : " in " + m.remoteness);
    }
    node.disabled = false;
    node.addEventListener("click", (ev) => { ev.stopPropagation(); onMove(m.move); });
  }

  function find(moves, test) { return moves.filter((m) => test(m.control || {})); }

  function ioiwari(root, meta, b, opts) {
    const ring = el("div", "ring");
    const n = b.pits.length;
    b.pits.forEach((beads, i) => {
      const pit = el("button", "pit", beads);
      pit.disabled = true;
      pit.dataset.pit = String(i + 1);
      const angle = (2 * Math.PI * i) / n - Math.PI / 2;
      pit.style.left = (50 + 38 * Math.cos(angle)) + "%";
      pit.style.top = (50 + 38 * Math.sin(angle)) + "%";
      pit.appendChild(el("span", "pit-label", "pit " + (i + 1)));
      find(opts.moves, (c) => c.pit === i + 1).forEach((m) => asMove(pit, m, opts.values, opts.onMove));
      ring.appendChild(pit);
    });
    const banks = el("div", "banks");
    b.banks.forEach((v, s) => {
      const bank = el("div", "bank" + (b.mover === s && !b.over ? " to-move" : ""),
        "player " + (s + 1) + " bank: " + v);
      bank.dataset.bank = String(s + 1);
      banks.appendChild(bank);
    });
    ring.appendChild(banks);
    root.appendChild(ring);
  }

  function nim(root, meta, b, opts) {
    b.heaps.forEach((size, h) => {
      const row = el("div", "heap");
      row.dataset.heap = String(h + 1);
      row.appendChild(el("span", "heap-label", "heap " + (h + 1) + " (" + size + ")"));
      const count = typeof size === "number" ? size : 0;
      for (let c = 1; c <= count; c++) {
        const counter = el("button", "counter", "");
        counter.disabled = true;
        counter.dataset.counter = String(c);
        find(opts.moves, (x) => x.heap === h + 1 && x.counter === c)
          .forEach((m) => asMove(counter, m, opts.values, opts.onMove));
        row.appendChild(counter);
      }
      root.appendChild(row);
    });
    root.appendChild(el("p", "note", meta.misere ? "misère: who takes the last counter loses"
      : "who takes the last counter wins"));
  }

  function chopsticks(root, meta, b, opts) {
    const sides = [b.left, b.right];
    const selected = opts.selected;
    sides.forEach((hands, s) => {
      const row = el("div", "side" + (b.mover === s && !b.over ? " to-move" : ""));
      row.dataset.side = "LR"[s];
      row.appendChild(el("span", "side-label", meta.sides[s]));
      hands.forEach((v, i) => {
        const hand = el("button", "hand" + (v ? "" : " out"));
        hand.disabled = true;
        hand.dataset.hand = "LR"[s] + (i + 1);
        const fingers = el("span", "fingers");
        if (meta.fingers <= meta.drawn_fingers) {
          for (let f = 0; f < meta.fingers; f++) fingers.appendChild(el("i", f < v ? "up" : "down"));
        }
        hand.appendChild(fingers);
        hand.appendChild(el("span", "count", v ? v : "out"));
        const own = find(opts.moves, (c) => c.hand && c.hand[0] === s && c.hand[1] === i + 1);
        if (own.length) {  // one of the mover's hands: click to choose it, then a target
          hand.disabled = false;
          hand.classList.add("chooser");
          if (selected === i + 1) hand.classList.add("selected");
          hand.addEventListener("click", () => opts.onSelect(selected === i + 1 ? null : i + 1));
        }
        if (selected) {
          find(opts.moves, (c) => c.target && c.target[0] === s && c.target[1] === i + 1 &&
            c.hand[1] === selected).forEach((m) => asMove(hand, m, opts.values, opts.onMove));
        }
        row.appendChild(hand);
      });
      root.appendChild(row);
    });
  }

  const DRAW = { ioiwari: ioiwari, nim: nim, chopsticks: chopsticks };

  /* Draws `board` into `root`; opts: moves (legal, with controls), values (shown or not),
     onMove(moveText), selected / onSelect (the chosen Chopsticks hand). */
  function draw(root, meta, board, opts) {
    root.replaceChildren();
    root.classList.add("game-" + meta.game);
    DRAW[meta.game](root, meta, board, Object.assign({ moves: [], values: false,
      onMove: () => {}, onSelect: () => {}, selected: null }, opts));
  }

  window.judgeBoard = { draw: draw, el: el, asMove: asMove };
})();
