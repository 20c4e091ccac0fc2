/*
 * Chopsticks sample bot in C: a uniformly random tap (the same player as random.py, with
 * its own generator, so the two do not play the same games).
 *
 * Reads the rules line and the position line, e.g.
 *     hands=3/3 fingers=5 knockout=cutoff misere=off attack=tapped split=off swap=off
 *     (L 1 1 1 1 1 1)
 * then alternately writes its move and reads the opponent's, keeping the position itself.
 * Each move is a tap "H T" (its hand H taps the opponent's hand T) chosen uniformly among
 * its live hands and the opponent's live hands; every move is followed by fflush(stdout).
 * It is meant for the default rules, but it reads the hands, fingers, knockout and attack
 * keys and takes in the opponent's splits ("split v1 .. vk"), and since it only taps, its
 * moves are legal under every rule set. At most 16 hands a side. The generator is seeded
 * from the environment variable BOT_SEED (a number) when it is set, and from a fixed seed
 * otherwise, so a game can be replayed exactly. It exits when standard input ends.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o chopsticks_random bots/chopsticks/random.c
 *     BOT_SEED=7 ./chopsticks_random     then type the two lines above and the opponent's
 *                                        moves; Ctrl-D ends.
 * See protocols/chopsticks.md.
 *
 * Self-contained on purpose (bots run confined), so the tap rule is written again here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HANDS 16
#define LINE 1024

static int fingers = 5, rollover = 0, tapping = 0;

/* What a hand holds when it would hold `total` fingers (0: out of play). */
static int land(int total)
{
    if (rollover)
        return total % fingers;
    return total <= fingers ? total : 0;
}

/* The mover's hand i taps the opponent's hand j (0-based). */
static void tap(int *mover, int *other, int i, int j)
{
    if (tapping)
        mover[i] = land(mover[i] + other[j]);
    else
        other[j] = land(other[j] + mover[i]);
}

static int alive(const int *hands, int count)
{
    int n = 0;
    for (int i = 0; i < count; i++)
        n += hands[i] != 0;
    return n;
}

/* A small generator of our own, so that a seed gives the same game on every C library. */
static unsigned long long state;

static unsigned next_random(unsigned bound)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((state >> 33) % bound);
}

int main(void)
{
    char line[LINE];
    int hands[2] = {3, 3}, left[MAX_HANDS], right[MAX_HANDS];
    int *me, *you, mine, yours;
    const char *seed = getenv("BOT_SEED");

    state = seed ? strtoull(seed, NULL, 10) : 2001;
    if (!fgets(line, sizeof line, stdin))
        return 0;
    for (char *token = strtok(line, " \t\r\n"); token; token = strtok(NULL, " \t\r\n")) {
        if (strncmp(token, "hands=", 6) == 0) {
            char *slash = strchr(token, '/');
            hands[0] = atoi(token + 6);
            hands[1] = slash ? atoi(slash + 1) : hands[0];
        } else if (strncmp(token, "fingers=", 8) == 0) {
            fingers = atoi(token + 8);
        } else if (strcmp(token, "knockout=rollover") == 0) {
            rollover = 1;
        } else if (strcmp(token, "attack=tapping") == 0) {
            tapping = 1;
        }
    }
    if (hands[0] < 1 || hands[0] > MAX_HANDS || hands[1] < 1 || hands[1] > MAX_HANDS)
        return 1;

    char side;
    if (scanf(" (%c", &side) != 1)
        return 0;
    for (int i = 0; i < hands[0] + hands[1]; i++)
        if (scanf("%d", i < hands[0] ? &left[i] : &right[i - hands[0]]) != 1)
            return 1;
    if (!fgets(line, sizeof line, stdin)) /* the rest of the position line: ")" */
        return 0;
    int is_left = side == 'L' || side == 'l';
    me = is_left ? left : right;
    you = is_left ? right : left;
    mine = is_left ? hands[0] : hands[1];
    yours = is_left ? hands[1] : hands[0];

    for (;;) {
        if (alive(me, mine) && alive(you, yours)) {
            int pick = (int)next_random((unsigned)(alive(me, mine) * alive(you, yours)));
            int i = 0, j = 0;
            for (int k = 0; k < mine * yours; k++) {
                i = k / yours;
                j = k % yours;
                if (me[i] && you[j] && pick-- == 0)
                    break;
            }
            printf("%d %d\n", i + 1, j + 1);
            fflush(stdout);
            tap(me, you, i, j);
        }
        if (!fgets(line, sizeof line, stdin))
            return 0;
        if (strncmp(line, "split", 5) == 0) { /* the opponent's hands, as they are now */
            char *rest = line + 5;
            for (int k = 0; k < yours; k++)
                you[k] = (int)strtol(rest, &rest, 10);
        } else {
            int h, t;
            if (sscanf(line, "%d %d", &h, &t) != 2 || h < 1 || h > yours || t < 1 || t > mine)
                return 1;
            tap(you, me, h - 1, t - 1);
        }
    }
}
