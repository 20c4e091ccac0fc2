import sys


class NimGame:
    def __init__(self, piles):
        self.piles = list(piles)

    def over(self):
        return all(p == 0 for p in self.piles)

    def take(self, pile, amount):
        self.piles[pile] -= amount

    def nim_sum(self):
        value = 0
        for p in self.piles:
            value = value ^ p
        return value

    def best_move(self):
        value = self.nim_sum()
        if value != 0:
            for index, p in enumerate(self.piles):
                target = p ^ value
                if target < p:
                    return index, p - target
        biggest = max(range(len(self.piles)), key=lambda k: self.piles[k])
        return biggest, 1


def main():
    game = NimGame(map(int, sys.stdin.readline().split()))
    while not game.over():
        pile, amount = game.best_move()
        game.take(pile, amount)
        sys.stdout.write(f"{pile + 1} {amount}\n")
        sys.stdout.flush()
        if game.over():
            break
        reply = sys.stdin.readline().split()
        if len(reply) < 2:
            break
        game.take(int(reply[0]) - 1, int(reply[1]))


main()
