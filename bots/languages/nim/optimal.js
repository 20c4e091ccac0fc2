/*
 * Nim sample bot in JavaScript (Node.js): perfect normal play (whoever takes the last
 * counter wins), after Bouton; the same player as ../../nim/optimal.c and optimal.py.
 *
 * Reads the heap sizes (line 1), then alternately writes its move "H K" (take K counters
 * from heap H, heaps numbered from 1) and reads the opponent's move in the same form,
 * keeping the heaps itself. The nim-sum s is the XOR of the heap sizes. When s is not 0 it
 * takes the FIRST heap h with (h XOR s) < h down to h XOR s; when s is 0 it is lost against
 * perfect play and empties the largest heap, as the judge does. It exits when standard
 * input ends.
 *
 * Interactive: the readline module hands over each line as soon as it arrives, and the
 * move is written at once. Node has no flush(): process.stdout.write() on a pipe or a file
 * is synchronous on Linux, so every move has left the process when write() returns.
 *
 * This bot is for normal play only (a bot is not told the variant on the wire: it is part
 * of the task statement); ../../nim/optimal_misere.py plays misere.
 *
 * Heaps may be arbitrarily large: they are BigInts (a plain JavaScript number is exact
 * only up to 2^53). The number of heaps is limited only by memory.
 *
 * Run by hand (no build step, no npm packages):
 *     node bots/languages/nim/optimal.js      then type  3 4 5  (it answers 1 2) and the
 *                                             opponent's moves; Ctrl-D ends.
 * See protocols/nim.md.
 */
"use strict";

const readline = require("readline");

/* The numbers of one line, taking anything that is not a digit as a separator. */
function numbers(line) {
    return (line.match(/[0-9]+/g) || []).map(BigInt);
}

/* The Bouton move: [heap (0-based), counters to take]. */
function choose(heaps) {
    const sum = heaps.reduce((s, h) => s ^ h, 0n);
    let largest = 0;
    for (let i = 0; i < heaps.length; i++) {
        if ((heaps[i] ^ sum) < heaps[i])
            return [i, heaps[i] - (heaps[i] ^ sum)];
        if (heaps[i] > heaps[largest])
            largest = i;
    }
    return [largest, heaps[largest]]; // lost: every move loses; keep the game short
}

let heaps = null;

/* Our move, unless the heaps are all empty. */
function play() {
    if (heaps.every((h) => h === 0n))
        return;
    const [heap, take] = choose(heaps);
    process.stdout.write(`${heap + 1} ${take}\n`);
    heaps[heap] -= take;
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

/* Stop early (the input is not what the protocol promises), as the C bot does: closing the
 * interface alone would leave node waiting on the open standard input. */
function stop() {
    input.close();
    process.stdin.destroy();
}

input.on("line", (line) => {
    if (heaps === null) { // line 1: the heaps
        heaps = numbers(line);
        if (heaps.length === 0)
            stop();
        else
            play();
        return;
    }
    const move = numbers(line); // the opponent's move: "H K"
    if (move.length < 2) {
        stop();
        return;
    }
    const [heap, take] = move;
    if (heap >= 1n && heap <= BigInt(heaps.length) && take <= heaps[Number(heap) - 1])
        heaps[Number(heap) - 1] -= take;
    play();
});
/* At the end of input readline closes itself; with nothing left to do, node exits 0. */
