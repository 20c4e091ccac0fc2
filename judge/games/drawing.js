/* The board kit: the registry of the games' board renderers and the helpers they share.
 *
 * The report's viewer and the browser app load this first, then each game's renderer (the
 * board.js of its package, which calls JudgeBoards.register(name, draw)), then their own
 * script. A renderer is one function draw(root, meta, state, opts): it draws into `root`
 * the state the judge computed with the game's rules (Game.board_state, with `mover` and
 * `over`), knowing no rule itself. `meta` holds the facts of the rules (Game.board_meta)
 * and `game`, the renderer's name. `opts`, every part optional:
 *   touched      the parts the last move touched (Game.board_touched): marked
 *   before       the state before the last move (a static drawing may show what it took)
 *   interactive  the board plays moves (the browser app); then also:
 *   moves        the legal moves: {move, label, control (Game.board_control), value...}
 *   values       whether the moves' values are shown
 *   onMove(text) play a move; hint: the hinted moves; selected / onSelect(part): a part
 *                chosen before its move (a hand that taps); owners: whose each seat is
 * The report's viewer draws with no `interactive`: a still picture of each step.
 * Every text is set with textContent, never parsed as markup. */
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const drawers = {};
  const styled = {};

  function setAttrs(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach((k) => {
      const v = attrs[k];
      if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
    });
  }

  /** An HTML element with attributes (`class` among them) and a text. */
  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /** An SVG element with attributes and a text. */
  function sv(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    setAttrs(node, attrs);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  /** Adds a renderer's style sheet to the page, once per name. */
  function style(name, css) {
    if (styled[name]) return;
    styled[name] = true;
    const sheet = el("style", { "data-board": name }, css);
    document.head.appendChild(sheet);
  }

  /** Whether `part` (as the game names it) is among the parts the last move touched. */
  function touches(opts, part) {
    const key = JSON.stringify(part);
    return (opts.touched || []).some((t) => JSON.stringify(t) === key);
  }

  /** Marks `node` as touched by the last move when `part` is: class touched, data-last. */
  function mark(node, opts, part) {
    if (!touches(opts, part)) return;
    node.classList.add("touched", "last");
    node.setAttribute("data-last", "true");
  }

  /** Whether the game's values are final score differences (its scoring, as the page is
   * given it), not win, loss or draw alone. */
  function byDifference(opts) { return opts.scoring === "difference"; }

  /** What a move is worth, as words: the server's ("you win in 3 moves"), or "win in 3",
   * "lose in 5, by 10". */
  function worth(m, opts) {
    if (m.says) return m.says;
    let text = m.value + (m.remoteness === null || m.remoteness === undefined ? "" : " in " + m.remoteness);
    if (byDifference(opts)) text += ", by " + Math.abs(m.final_difference);
    return text;
  }

  /* a value's mark, so that no value is told by colour alone */
  const MARKS = { win: "W", lose: "L", tie: "T", draw: "D" };

  /** Marks `node` as the control of legal move `m`: data-move, the value when shown (its
   * class v-VALUE and its mark W, L, T or D), and data-hint when it is one of the hinted
   * moves; a click plays it. */
  function asMove(node, m, opts) {
    node.dataset.move = m.move;
    node.classList.add("legal");
    node.title = m.label;
    if (opts.values && m.value) {
      node.dataset.value = m.value;
      node.dataset.remoteness = m.remoteness === null ? "" : String(m.remoteness);
      if (byDifference(opts)) node.dataset.difference = String(m.final_difference);
      node.classList.add("v-" + m.value);
      node.title += ": " + worth(m, opts);
      node.appendChild(el("span", { "class": "mark", "aria-hidden": "true" }, MARKS[m.value]));
    }
    if (opts.hint && opts.hint.includes(m.move)) node.dataset.hint = "true";
    node.disabled = false;
    node.addEventListener("click", (ev) => { ev.stopPropagation(); opts.onMove(m.move); });
  }

  /** The legal moves whose control passes `test`. */
  function movesWhere(opts, test) {
    return (opts.moves || []).filter((m) => test(m.control || {}));
  }

  /** A part of the board that may play a move: a button (disabled until a move is put on
   * it) when the board is interactive, else a plain element. */
  function part(opts, attrs, text) {
    if (!opts.interactive) return el("div", attrs, text);
    const node = el("button", Object.assign({ type: "button" }, attrs), text);
    node.disabled = true;
    return node;
  }

  /** The words for whose a seat is: "your", "optimal's", or the side's own name's. */
  function owner(opts, seat, fallback) {
    return opts.owners ? opts.owners[seat] : fallback;
  }

  /* A game with no drawing of its own: its text of the position (the game's `render`);
     in the browser app its moves are played from the move list. */
  function text(root, meta, state) {
    const words = state.text === undefined ? "" : String(state.text);
    root.appendChild(el("pre", { "class": "text-board", "aria-label": "the position: " + words }, words));
    if (state.over) root.appendChild(el("p", { "class": "turn" }, "game over"));
  }

  function register(name, draw) { drawers[name] = draw; }

  /** The renderer of `meta.game`, or the text drawing. */
  function drawerOf(meta) {
    return (meta && !meta.text && drawers[meta.game]) || text;
  }

  /** Draws `state` into `root` (emptied first) with the game's renderer. */
  function draw(root, meta, state, opts) {
    clear(root);
    drawerOf(meta)(root, meta, state, opts || {});
  }

  window.JudgeBoards = {
    register: register, draw: draw, has: (name) => Object.prototype.hasOwnProperty.call(drawers, name),
    el: el, sv: sv, clear: clear, plural: plural, style: style, touches: touches, mark: mark,
    worth: worth, asMove: asMove, movesWhere: movesWhere, part: part, owner: owner, text: text,
  };
})();
