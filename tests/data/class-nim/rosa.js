'use strict';
const readline = require('node:readline');

async function main() {
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let piles;

  for await (const text of input) {
    if (!text.trim()) continue;
    const nums = text.trim().split(' ').map(BigInt);
    if (piles === undefined) piles = nums;
    else piles[Number(nums[0]) - 1] -= nums[1];

    let x = 0n;
    let left = 0n;
    for (const p of piles) {
      x ^= p;
      left += p;
    }
    if (left === 0n) break;

    let j = 0;
    let amount;
    if (x === 0n) {
      while (piles[j] === 0n) j++;
      amount = piles[j];          // cannot win from here, just empty a pile
    } else {
      while ((piles[j] ^ x) >= piles[j]) j++;
      amount = piles[j] - (piles[j] ^ x);
    }
    piles[j] -= amount;
    console.log(`${j + 1} ${amount}`);
    if (piles.every((p) => p === 0n)) break;
  }
  input.close();
}

main();
