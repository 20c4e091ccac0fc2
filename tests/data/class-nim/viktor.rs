// Viktor - Nim bot (normal play, Bouton's theorem)
use std::io::{stdin, stdout, Write};

struct Nim {
    piles: Vec<u128>,
}

impl Nim {
    fn over(&self) -> bool {
        !self.piles.iter().any(|&p| p != 0)
    }

    fn take(&mut self, pile: usize, n: u128) {
        self.piles[pile] -= n;
    }

    fn choose(&self) -> (usize, u128) {
        let mut x = 0u128;
        for p in &self.piles {
            x ^= *p;
        }
        let mut largest = 0;
        for (i, &p) in self.piles.iter().enumerate() {
            if x != 0 && p ^ x < p {
                return (i, p - (p ^ x));
            }
            if p > self.piles[largest] {
                largest = i;
            }
        }
        (largest, 1) // lost position, stall with one counter
    }
}

fn read_numbers() -> Option<Vec<u128>> {
    let mut s = String::new();
    if stdin().read_line(&mut s).ok()? == 0 {
        return None;
    }
    Some(s.split_whitespace().filter_map(|t| t.parse().ok()).collect())
}

fn main() {
    let mut game = match read_numbers() {
        Some(v) => Nim { piles: v },
        None => return,
    };
    let out = stdout();
    while !game.over() {
        let (p, n) = game.choose();
        game.take(p, n);
        let mut lock = out.lock();
        writeln!(lock, "{} {}", p + 1, n).unwrap();
        lock.flush().unwrap();
        drop(lock);
        match read_numbers() {
            Some(m) if m.len() >= 2 => game.take(m[0] as usize - 1, m[1]),
            _ => break,
        }
    }
}
