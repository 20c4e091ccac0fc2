import sys


def read_heaps():
    line = sys.stdin.readline()
    heaps = []
    for number in line.split():
        heaps.append(int(number))
    return heaps


def xor_all(heaps):
    result = 0
    for heap in heaps:
        result = result ^ heap
    return result


def largest(heaps):
    best = 0
    for i in range(len(heaps)):
        if heaps[i] > heaps[best]:
            best = i
    return best


def pick_move(heaps):
    x = xor_all(heaps)
    if x == 0:
        # losing: take one from the largest heap and hope
        return largest(heaps), 1
    for i in range(len(heaps)):
        new_size = heaps[i] ^ x
        if new_size < heaps[i]:
            return i, heaps[i] - new_size
    return largest(heaps), 1


def apply_move(heaps, i, count):
    heaps[i] = heaps[i] - count


def main():
    heaps = read_heaps()
    while any(heaps):
        i, count = pick_move(heaps)
        apply_move(heaps, i, count)
        print(str(i + 1) + " " + str(count))
        sys.stdout.flush()
        if not any(heaps):
            break
        answer = sys.stdin.readline()
        if answer == "":
            break
        parts = answer.split()
        apply_move(heaps, int(parts[0]) - 1, int(parts[1]))


main()
