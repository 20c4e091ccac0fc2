// Tomas: nim with math/big so heaps of any size work
package main

import (
	"bufio"
	"fmt"
	"math/big"
	"os"
	"strings"
)

var out = bufio.NewWriter(os.Stdout)

func nimSum(piles []*big.Int) *big.Int {
	s := new(big.Int)
	for _, p := range piles {
		s.Xor(s, p)
	}
	return s
}

func pickMove(piles []*big.Int) (int, *big.Int) {
	s := nimSum(piles)
	best := 0
	for i, p := range piles {
		t := new(big.Int).Xor(p, s)
		if s.Sign() != 0 && t.Cmp(p) < 0 {
			return i, new(big.Int).Sub(p, t)
		}
		if p.Cmp(piles[best]) > 0 {
			best = i
		}
	}
	return best, new(big.Int).Set(piles[best]) // lost: remove the largest pile
}

func main() {
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadString('\n')
	if len(line) == 0 && err != nil {
		return
	}
	var piles []*big.Int
	for _, w := range strings.Fields(line) {
		n, _ := new(big.Int).SetString(w, 10)
		piles = append(piles, n)
	}
	for {
		i, k := pickMove(piles)
		if k.Sign() == 0 {
			return // every pile is empty
		}
		piles[i].Sub(piles[i], k)
		fmt.Fprintf(out, "%d %s\n", i+1, k.String())
		out.Flush()

		var h int
		var take big.Int
		if _, err := fmt.Fscan(in, &h, &take); err != nil {
			return
		}
		piles[h-1].Sub(piles[h-1], &take)
	}
}
