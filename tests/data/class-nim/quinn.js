// quinn - nim bot for node
// BigInt because heaps can be huge (and ^ on normal numbers is only 32 bits)
const readline = require('readline');

const rl = readline.createInterface({ input: process.stdin, terminal: false });
let heaps = null;

function xorOf(arr) {
  return arr.reduce((acc, h) => acc ^ h, 0n);
}

function decide(arr) {
  const s = xorOf(arr);
  if (s !== 0n) {
    const i = arr.findIndex((h) => (h ^ s) < h);
    return [i, arr[i] - (arr[i] ^ s)];
  }
  // losing, take one from the largest heap
  let big = 0;
  arr.forEach((h, i) => { if (h > arr[big]) big = i; });
  return [big, 1n];
}

function myTurn() {
  if (heaps.every((h) => h === 0n)) {
    rl.close();
    return;
  }
  const [i, k] = decide(heaps);
  heaps[i] -= k;
  process.stdout.write(`${i + 1} ${k}\n`);
}

rl.on('line', (line) => {
  const parts = line.trim().split(/\s+/).filter((p) => p.length > 0);
  if (parts.length === 0) return;
  if (heaps === null) {
    heaps = parts.map((p) => BigInt(p));
  } else {
    heaps[Number(parts[0]) - 1] -= BigInt(parts[1]);
  }
  myTurn();
});
