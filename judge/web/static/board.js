/* The browser app's side of the boards: each game's renderer (the board.js of its package,
   shared with the report's viewer) is loaded with the kit before this file, from
   /boards.js and /boards/GAME.js; this draws a board with the app's interactive options and
   gives the pages the kit's helpers. The server says what each legal move is and which part
   of the board plays it (`control`); this file knows no rule. Every text from the server is
   set with textContent, never parsed as HTML. */
"use strict";
(function () {
  const K = window.JudgeBoards;

  /* An element with a class and a text (the pages' own short form). */
  function el(tag, cls, text) {
    return K.el(tag, cls ? { "class": cls } : null, text);
  }

  /* Draws `board` into `root` with its game's renderer, or as text; opts: moves (legal,
     with controls), values (shown or not), onMove(moveText), selected / onSelect (a part
     chosen before its move), touched (the parts the last move touched, marked data-last),
     hint (the hinted moves, marked data-hint), owners (whose each side is, in words:
     "your", "optimal's"). A board with no onMove (a watched game) is a still picture. */
  function draw(root, meta, board, opts) {
    root.classList.add("game-" + meta.game);
    const interactive = !!(opts && opts.onMove);
    K.draw(root, meta, board, Object.assign({ moves: [], values: false, onMove: () => {},
      onSelect: () => {}, selected: null, touched: [], hint: null, owners: null }, opts,
    { interactive: interactive }));
  }

  /* Seconds as a chess clock reads them, as the server writes them (judge.clock.reading):
     0:58.3, a fallen flag 0:00.0. */
  function clockReading(seconds) {
    const tenths = Math.max(0, Math.floor(seconds * 10));
    const secs = Math.floor(tenths / 10) % 60;
    return Math.floor(tenths / 600) + ":" + (secs < 10 ? "0" : "") + secs + "." + (tenths % 10);
  }

  window.judgeBoard = { draw: draw, el: el, asMove: K.asMove, worth: K.worth,
    clockReading: clockReading };
})();
