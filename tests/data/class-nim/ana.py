# Nim bot - Ana
# Strategy: always leave the opponent a position whose xor is 0 (Bouton)
import sys


class NimPlayer:
    def __init__(self, piles):
        self.piles = piles

    def xor_all(self):
        x = 0
        for p in self.piles:
            x ^= p
        return x

    def apply(self, pile, amount):
        self.piles[pile] -= amount

    def finished(self):
        return all(p == 0 for p in self.piles)

    def best_move(self):
        x = self.xor_all()
        if x != 0:
            for idx, p in enumerate(self.piles):
                target = p ^ x
                if target < p:
                    return idx, p - target
        # losing position: empty the biggest pile so the game ends fast
        big = max(range(len(self.piles)), key=lambda k: self.piles[k])
        return big, self.piles[big]


def main():
    first = sys.stdin.readline()
    if not first.strip():
        return
    player = NimPlayer([int(v) for v in first.split()])
    while not player.finished():
        pile, amount = player.best_move()
        print(pile + 1, amount)
        sys.stdout.flush()
        player.apply(pile, amount)
        line = sys.stdin.readline()
        if not line:
            break  # opponent took the last counter
        h, k = line.split()
        player.apply(int(h) - 1, int(k))


main()
