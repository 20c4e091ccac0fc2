/*
 * Ioiwari sample bot in Java: one-step greedy (the same player as ../../ioiwari/greedy.c
 * and greedy.py).
 *
 * Reads the seven pit counts, then alternately writes its pit and reads the opponent's pit,
 * keeping the board itself. It plays the pit that adds the most to its own bank minus what
 * the same move gives the opponent, looking no further; ties go to the lowest pit. Every
 * move is followed by out.flush(). It exits when standard input ends.
 *
 * The file name must match the public class: keep it Greedy.java, class Greedy.
 *
 * Build and run by hand (javac writes Greedy.class into the folder given with -d):
 *     javac -d /tmp/greedy bots/languages/ioiwari/Greedy.java
 *     java -cp /tmp/greedy Greedy      then type  4 3 2 4 2 3 2  and the opponent's pits;
 *                                      Ctrl-D ends.
 * See protocols/ioiwari.md.
 *
 * Self-contained on purpose (bots run confined), so the sowing rule is a copy of the one
 * in judge/games/ioiwari.py.
 */
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.StringTokenizer;

public class Greedy {
    static final int PITS = 7;
    static final int FULL = 5; // a pit never holds more: sowing past a full pit takes a bead out instead

    /** Play `pit` (1..7) on `board` in place; returns the mover's gain minus the opponent's. */
    static int sow(int[] board, int pit) {
        int i = pit - 1;
        int hand = board[i];
        int gain = 0;
        board[i] = 0;
        while (hand > 1) {
            i = (i + 1) % PITS;
            if (board[i] == FULL) {
                board[i]--;
                gain++;
            } else {
                board[i]++;
                hand--;
            }
        }
        i = (i + 1) % PITS;
        if (board[i] >= 1 && board[i] < FULL) { // the last bead captures the pit
            gain += board[i] + 1;
            board[i] = 0;
        } else { // the last bead goes to the opponent
            gain--;
        }
        return gain;
    }

    /** The pit with the largest immediate gain, the lowest of them on a tie; 0 if none. */
    static int choose(int[] board) {
        int bestPit = 0, bestGain = 0;
        for (int pit = 1; pit <= PITS; pit++) {
            if (board[pit - 1] == 0)
                continue;
            int gain = sow(board.clone(), pit);
            if (bestPit == 0 || gain > bestGain) {
                bestPit = pit;
                bestGain = gain;
            }
        }
        return bestPit;
    }

    private static BufferedReader in;
    private static StringTokenizer tokens = new StringTokenizer("");

    /** The next whitespace-separated number, reading further lines as needed; null at the
     *  end of input or at something that is not a number (like scanf failing in greedy.c). */
    static Integer nextInt() throws IOException {
        while (!tokens.hasMoreTokens()) {
            String line = in.readLine();
            if (line == null)
                return null;
            tokens = new StringTokenizer(line);
        }
        try {
            return Integer.valueOf(tokens.nextToken());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public static void main(String[] args) throws IOException {
        in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(System.out, false); // no autoflush: we flush ourselves
        int[] board = new int[PITS];
        for (int i = 0; i < PITS; i++) {
            Integer pits = nextInt();
            if (pits == null)
                return;
            board[i] = pits;
        }
        for (;;) {
            int pit = choose(board);
            if (pit != 0) { // the board is not empty: our move
                out.print(pit + "\n"); // "\n", not println: the protocol wants no carriage return
                out.flush();
                sow(board, pit);
            }
            Integer answer = nextInt();
            if (answer == null) // end of input: the game is over
                return;
            if (answer >= 1 && answer <= PITS)
                sow(board, answer);
        }
    }
}
