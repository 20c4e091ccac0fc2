import sys


def read_heaps():
    line = sys.stdin.readline()
    numbers = line.split()
    heaps = []
    for number in numbers:
        heaps.append(int(number))
    return heaps


def xor_all(heaps):
    result = 0
    for heap in heaps:
        result = result ^ heap
    return result


def pick_move(heaps):
    x = xor_all(heaps)
    if x == 0:
        for i in range(len(heaps)):
            if heaps[i] != 0:
                return i, 1
    for i in range(len(heaps)):
        new_size = heaps[i] ^ x
        if new_size < heaps[i]:
            return i, heaps[i] - new_size
    return 0, 1


def game_over(heaps):
    for heap in heaps:
        if heap != 0:
            return False
    return True


def main():
    heaps = read_heaps()
    while True:
        if game_over(heaps):
            break
        i, count = pick_move(heaps)
        heaps[i] = heaps[i] - count
        print(str(i + 1) + " " + str(count))
        sys.stdout.flush()
        if game_over(heaps):
            break
        answer = sys.stdin.readline()
        if answer == "":
            break
        parts = answer.split()
        heaps[int(parts[0]) - 1] = heaps[int(parts[0]) - 1] - int(parts[1])


main()
