import random
import sys


class Board:
    def __init__(self, rules_line, position_line):
        self.max = 5
        for word in rules_line.split():
            key, _, value = word.partition("=")
            if key == "fingers":
                self.max = int(value)
        text = position_line.strip()[1:-1].split()
        self.me_left = text[0] == "L"
        hands = list(map(int, text[1:]))
        middle = len(hands) // 2
        self.left, self.right = hands[:middle], hands[middle:]

    def sides(self):
        return (self.left, self.right) if self.me_left else (self.right, self.left)

    def tap(self, attacker, target, i, j):
        target[j] += attacker[i]
        if target[j] > self.max:
            target[j] = 0

    def finished(self):
        return not any(self.left) or not any(self.right)


def main():
    board = Board(sys.stdin.readline(), sys.stdin.readline())
    rng = random.Random(1)
    while not board.finished():
        me, opp = board.sides()
        options = [(i, j) for i, x in enumerate(me) if x for j, y in enumerate(opp) if y]
        kills = [(i, j) for i, j in options if me[i] + opp[j] > board.max]
        i, j = kills[0] if kills else rng.choice(options)
        board.tap(me, opp, i, j)
        print(f"{i + 1} {j + 1}", flush=True)
        if board.finished():
            break
        text = sys.stdin.readline().split()
        if not text:
            break
        board.tap(opp, me, int(text[0]) - 1, int(text[1]) - 1)


main()
