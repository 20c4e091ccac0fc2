import java.io.*;
import java.util.*;

class Main {
    static long[] heaps;

    static int firstWinning(long s) {
        for (int i = 0; i < heaps.length; i++)
            if ((heaps[i] ^ s) < heaps[i]) return i;
        return -1;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        String line = br.readLine();
        if (line == null) return;
        StringTokenizer st = new StringTokenizer(line);
        heaps = new long[st.countTokens()];
        for (int i = 0; i < heaps.length; i++) heaps[i] = Long.parseLong(st.nextToken());

        while (true) {
            long s = 0;
            boolean left = false;
            for (long h : heaps) { s ^= h; if (h > 0) left = true; }
            if (!left) break;
            int idx;
            long amount;
            int w = firstWinning(s);
            if (s != 0 && w >= 0) {
                idx = w;
                amount = heaps[idx] - (heaps[idx] ^ s);
            } else {
                // lost position: take everything from the first heap that has something
                idx = 0;
                while (heaps[idx] == 0) idx++;
                amount = heaps[idx];
            }
            heaps[idx] -= amount;
            out.println((idx + 1) + " " + amount);
            out.flush();

            line = br.readLine();
            if (line == null) break;
            st = new StringTokenizer(line);
            int oh = Integer.parseInt(st.nextToken());
            heaps[oh - 1] -= Long.parseLong(st.nextToken());
        }
    }
}
