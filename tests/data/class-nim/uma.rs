use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let first = match lines.next() {
        Some(Ok(l)) => l,
        _ => return,
    };
    let mut heaps: Vec<u64> = first
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();

    loop {
        if heaps.iter().all(|&h| h == 0) {
            break;
        }
        let s = heaps.iter().fold(0, |a, &b| a ^ b);
        let (i, k) = match heaps.iter().position(|&h| (h ^ s) < h) {
            Some(i) => (i, heaps[i] - (heaps[i] ^ s)),
            // xor is zero, no good move: empty the first non-empty heap
            None => {
                let i = heaps.iter().position(|&h| h > 0).unwrap();
                (i, heaps[i])
            }
        };
        heaps[i] -= k;
        print!("{} {}\n", i + 1, k);
        io::stdout().flush().unwrap();

        let line = match lines.next() {
            Some(Ok(l)) => l,
            _ => break,
        };
        let v: Vec<u64> = line.split_whitespace().map(|w| w.parse().unwrap()).collect();
        if v.len() < 2 {
            break;
        }
        heaps[v[0] as usize - 1] -= v[1];
    }
}
