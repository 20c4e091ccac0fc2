/*
 * Nim sample bot in Rust: perfect normal play (whoever takes the last counter wins), after
 * Bouton; the same player as ../../nim/optimal.c and optimal.py.
 *
 * Reads the heap sizes (line 1), then alternately writes its move "H K" (take K counters
 * from heap H, heaps numbered from 1) and reads the opponent's move in the same form,
 * keeping the heaps itself. The nim-sum s is the XOR of the heap sizes. When s is not 0 it
 * takes the FIRST heap h with (h XOR s) < h down to h XOR s; when s is 0 it is lost against
 * perfect play and empties the largest heap, as the judge does. Every move is followed by
 * out.flush(). It exits when standard input ends.
 *
 * This bot is for normal play only (a bot is not told the variant on the wire: it is part
 * of the task statement); ../../nim/optimal_misere.py plays misere.
 *
 * Limits: every heap size must fit in a u64, that is at most 18446744073709551615
 * (2^64 - 1); a larger number is read as that maximum, so the bot would then play on a
 * wrong position. The number of heaps is limited only by memory.
 *
 * Build and run by hand (standard library only, no crates, no Cargo):
 *     rustc -O --edition 2021 -o nim_optimal bots/languages/nim/optimal.rs
 *     ./nim_optimal        then type  3 4 5  (it answers 1 2) and the opponent's moves;
 *                          Ctrl-D ends.
 * See protocols/nim.md.
 */
use std::io::{self, BufRead, Write};

/// Reads one line of numbers, taking anything that is not a digit as a separator (a number
/// too big for a u64 is read as u64::MAX); None at end of input.
fn read_numbers(input: &mut impl BufRead) -> Option<Vec<u64>> {
    let mut line = Vec::new();
    match input.read_until(b'\n', &mut line) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    let mut numbers = Vec::new();
    let mut value: Option<u64> = None;
    for &c in line.iter().chain(std::iter::once(&b' ')) {
        if c.is_ascii_digit() {
            let digit = u64::from(c - b'0');
            let old = value.unwrap_or(0);
            value = Some(old.checked_mul(10).and_then(|v| v.checked_add(digit)).unwrap_or(u64::MAX));
        } else if let Some(v) = value.take() {
            numbers.push(v);
        }
    }
    Some(numbers)
}

/// The Bouton move: (heap, 0-based; counters to take).
fn choose(heaps: &[u64]) -> (usize, u64) {
    let sum = heaps.iter().fold(0, |s, &h| s ^ h);
    let mut largest = 0;
    for (i, &h) in heaps.iter().enumerate() {
        if (h ^ sum) < h {
            return (i, h - (h ^ sum));
        }
        if h > heaps[largest] {
            largest = i;
        }
    }
    (largest, heaps[largest]) // lost: every move loses; keep the game short
}

fn main() {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut heaps = match read_numbers(&mut input) {
        Some(heaps) if !heaps.is_empty() => heaps,
        _ => return,
    };
    loop {
        if heaps.iter().any(|&h| h != 0) {
            let (heap, take) = choose(&heaps);
            if writeln!(out, "{} {}", heap + 1, take).and_then(|_| out.flush()).is_err() {
                return; // the judge has gone away
            }
            heaps[heap] -= take;
        }
        // the opponent's move: "H K"
        let reply = match read_numbers(&mut input) {
            Some(reply) if reply.len() >= 2 => reply,
            _ => return,
        };
        let (heap, take) = (reply[0], reply[1]);
        if heap >= 1 && heap <= heaps.len() as u64 && take <= heaps[(heap - 1) as usize] {
            heaps[(heap - 1) as usize] -= take;
        }
    }
}
