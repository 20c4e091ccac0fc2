import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Scanner;

/** Nim player by Priya. Heaps are BigIntegers so any size works. */
class NimBot {
    private final List<BigInteger> piles = new ArrayList<>();

    private BigInteger xorAll() {
        BigInteger x = BigInteger.ZERO;
        for (BigInteger p : piles) x = x.xor(p);
        return x;
    }

    private boolean done() {
        for (BigInteger p : piles) if (p.signum() > 0) return false;
        return true;
    }

    private void remove(int i, BigInteger k) {
        piles.set(i, piles.get(i).subtract(k));
    }

    private String move() {
        BigInteger x = xorAll();
        int pick = -1;
        BigInteger k = BigInteger.ONE;
        for (int i = 0; i < piles.size() && x.signum() != 0; i++) {
            BigInteger target = piles.get(i).xor(x);
            if (target.compareTo(piles.get(i)) < 0) {
                pick = i;
                k = piles.get(i).subtract(target);
                break;
            }
        }
        if (pick < 0) { // nim-sum 0, take one from the first pile that is not empty
            pick = 0;
            while (piles.get(pick).signum() == 0) pick++;
        }
        remove(pick, k);
        return (pick + 1) + " " + k;
    }

    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        NimBot bot = new NimBot();
        if (!sc.hasNextLine()) return;
        for (String w : sc.nextLine().trim().split("\\s+")) bot.piles.add(new BigInteger(w));
        while (!bot.done()) {
            System.out.println(bot.move());
            System.out.flush();
            if (!sc.hasNextInt()) break;
            int h = sc.nextInt();
            bot.remove(h - 1, sc.nextBigInteger());
        }
    }
}
