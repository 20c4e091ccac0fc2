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

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  /* What a move is worth, as words: "win in 3", "lose in 5, by 10". */
  function worth(m) {
    let text = m.value + (m.remoteness === null || m.remoteness === undefined ? "" : " in " + m.remoteness);
    if (m.final_difference !== undefined) text += ", by " + Math.abs(m.final_difference);
    return text;
  }

  /* Marks `node` as the control of legal move `m`: data-move, the value when shown, and
     data-hint when it is one of the hinted moves. */
  function asMove(node, m, opts) {
    node.dataset.move = m.move;
    node.classList.add("legal");
    node.title = m.label;
    if (opts.values && m.value) {
      node.dataset.value = m.value;
      node.dataset.remoteness = m.remoteness === null ? "" : String(m.remoteness);
      if (m.final_difference !== undefined) node.dataset.difference = String(m.final_difference);
      node.classList.add("v-" + m.value);
      node.title += ": " + worth(m);
    }
    if (opts.hint && opts.hint.includes(m.move)) node.dataset.hint = "true";
    node.disabled = false;
    node.addEventListener("click", (ev) => { ev.stopPropagation(); opts.onMove(m.move); });
  }

  function find(moves, test) { return moves.filter((m) => test(m.control || {})); }

  function label(node, text) { node.setAttribute("aria-label", text + (node.title ? ": " + node.title : "")); }

  function markLast(node) { node.dataset.last = "true"; node.classList.add("last"); }

  function ioiwari(root, meta, b, opts) {
    const ring = el("div", "ring");
    const n = b.pits.length;
    const last = opts.last || {};
    b.pits.forEach((beads, i) => {
      const pit = el("button", "pit", beads);
      pit.disabled = true;
      pit.dataset.pit = String(i + 1);
      const angle = (2 * Math.PI * i) / n - Math.PI / 2;
      pit.style.left = (50 + 38 * Math.cos(angle)) + "%";
      pit.style.top = (50 + 38 * Math.sin(angle)) + "%";
      pit.appendChild(el("span", "pit-label", "pit " + (i + 1)));
      find(opts.moves, (c) => c.pit === i + 1).forEach((m) => asMove(pit, m, opts));
      if (last.pit === i + 1) markLast(pit);
      label(pit, "pit " + (i + 1) + ", " + plural(beads, "bead"));
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
    const last = opts.last || {};
    b.heaps.forEach((size, h) => {
      const row = el("div", "heap");
      row.dataset.heap = String(h + 1);
      if (last.heap === h + 1) markLast(row);
      row.appendChild(el("span", "heap-label", "heap " + (h + 1) + " (" + size + ")"));
      const count = typeof size === "number" ? size : 0;
      for (let c = 1; c <= count; c++) {
        const counter = el("button", "counter", "");
        counter.disabled = true;
        counter.dataset.counter = String(c);
        find(opts.moves, (x) => x.heap === h + 1 && x.counter === c)
          .forEach((m) => asMove(counter, m, opts));
        label(counter, "heap " + (h + 1) + ", counter " + c + " of " + count);
        row.appendChild(counter);
      }
      root.appendChild(row);
    });
    root.appendChild(el("p", "note", meta.misere ? "misère: who takes the last counter loses"
      : "who takes the last counter wins"));
  }

  function handName(i, hands) {
    if (hands === 2) return ["left", "right"][i] + " hand";
    return "hand " + (i + 1);
  }

  function chopsticks(root, meta, b, opts) {
    const sides = [b.left, b.right];
    const selected = opts.selected;
    const last = opts.last || {};
    const touched = (s, i) => [last.hand, last.target].some((h) => h && h[0] === s && h[1] === i + 1);
    sides.forEach((hands, s) => {
      const row = el("div", "side" + (b.mover === s && !b.over ? " to-move" : ""));
      row.dataset.side = "LR"[s];
      if (last.side === s) markLast(row);
      row.appendChild(el("span", "side-label", meta.sides[s]));
      const owner = opts.owners ? opts.owners[s] : meta.sides[s] + "'s";
      hands.forEach((v, i) => {
        const hand = el("button", "hand" + (v ? "" : " out"));
        hand.disabled = true;
        hand.dataset.hand = "LR"[s] + (i + 1);
        const fingers = el("span", "fingers");
        fingers.setAttribute("aria-hidden", "true");
        if (meta.fingers <= meta.drawn_fingers) {
          for (let f = 0; f < meta.fingers; f++) fingers.appendChild(el("i", f < v ? "up" : "down"));
        }
        hand.appendChild(fingers);
        hand.appendChild(el("span", "count", v ? v : "out"));
        const own = find(opts.moves, (c) => c.hand && c.hand[0] === s && c.hand[1] === i + 1);
        let action = "";
        if (own.length) {  // one of the mover's hands: click to choose it, then a target
          hand.disabled = false;
          hand.classList.add("chooser");
          if (selected === i + 1) hand.classList.add("selected");
          if (opts.hint && own.some((m) => opts.hint.includes(m.move))) hand.dataset.hint = "true";
          hand.addEventListener("click", () => opts.onSelect(selected === i + 1 ? null : i + 1));
          action = selected === i + 1 ? " (chosen: now choose the hand it taps)" : " (choose it to tap with)";
        }
        if (selected) {
          find(opts.moves, (c) => c.target && c.target[0] === s && c.target[1] === i + 1 &&
            c.hand[1] === selected).forEach((m) => asMove(hand, m, opts));
        }
        if (touched(s, i)) markLast(hand);
        hand.setAttribute("aria-label", owner + " " + handName(i, hands.length) + ", " +
          (v ? plural(v, "finger") : "out") + action + (hand.dataset.move ? ": " + hand.title : ""));
        row.appendChild(hand);
      });
      root.appendChild(row);
    });
  }

  /* A game with no drawing of its own: its text of the position (the game's `render`);
     its moves are played from the move list. */
  function text(root, meta, b) {
    const pre = el("pre", "text-board", b.text === undefined ? "" : String(b.text));
    pre.setAttribute("aria-label", "the position: " + (b.text || ""));
    root.appendChild(pre);
  }

  const DRAW = { ioiwari: ioiwari, nim: nim, chopsticks: chopsticks };

  /* Draws `board` into `root`; opts: moves (legal, with controls), values (shown or not),
     onMove(moveText), selected / onSelect (the chosen Chopsticks hand), last (the control of
     the last move, marked data-last), hint (the hinted moves, marked data-hint), owners
     (whose each side is, in words: "your", "optimal's"). */
  function draw(root, meta, board, opts) {
    root.replaceChildren();
    root.classList.add("game-" + meta.game);
    (DRAW[meta.game] || text)(root, meta, board, Object.assign({ moves: [], values: false,
      onMove: () => {}, onSelect: () => {}, selected: null, last: null, hint: null,
      owners: null }, opts));
  }

  window.judgeBoard = { draw: draw, el: el, asMove: asMove, worth: worth };
})();
