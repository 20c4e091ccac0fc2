// Nim sample bot in Go: perfect normal play (whoever takes the last counter wins), after
// Bouton; the same player as ../../nim/optimal.c and optimal.py.
//
// Reads the heap sizes (line 1), then alternately writes its move "H K" (take K counters
// from heap H, heaps numbered from 1) and reads the opponent's move in the same form,
// keeping the heaps itself. The nim-sum s is the XOR of the heap sizes. When s is not 0 it
// takes the FIRST heap h with (h XOR s) < h down to h XOR s; when s is 0 it is lost against
// perfect play and empties the largest heap, as the judge does. Every move is followed by
// out.Flush(). It exits when standard input ends.
//
// This bot is for normal play only (a bot is not told the variant on the wire: it is part
// of the task statement); ../../nim/optimal_misere.py plays misere.
//
// Limits: every heap size must fit in a uint64, that is at most 18446744073709551615
// (2^64 - 1); a larger number is read as that maximum, so the bot would then play on a
// wrong position. (math/big would lift the limit.) The number of heaps is limited only by
// memory.
//
// Build and run by hand (one file, standard library only, no module needed):
//
//	go build -o nim_optimal bots/languages/nim/optimal.go
//	./nim_optimal        then type  3 4 5  (it answers 1 2) and the opponent's moves;
//	                     Ctrl-D ends.
//
// See protocols/nim.md.
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
)

// readNumbers reads one line of numbers, taking anything that is not a digit as a
// separator (a number too big for a uint64 is read as math.MaxUint64); ok is false at end
// of input.
func readNumbers(in *bufio.Reader) (numbers []uint64, ok bool) {
	line, err := in.ReadString('\n')
	if line == "" && err != nil {
		return nil, false
	}
	var value uint64
	inNumber := false
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] >= '0' && line[i] <= '9' {
			digit := uint64(line[i] - '0')
			if value > (math.MaxUint64-digit)/10 {
				value = math.MaxUint64
			} else {
				value = value*10 + digit
			}
			inNumber = true
		} else if inNumber {
			numbers = append(numbers, value)
			value, inNumber = 0, false
		}
	}
	return numbers, true
}

// choose returns the Bouton move: the heap (0-based) and the counters to take.
func choose(heaps []uint64) (int, uint64) {
	var sum uint64
	for _, h := range heaps {
		sum ^= h
	}
	largest := 0
	for i, h := range heaps {
		if h^sum < h {
			return i, h - (h ^ sum) // parentheses: ^ binds like - in Go
		}
		if h > heaps[largest] {
			largest = i
		}
	}
	return largest, heaps[largest] // lost: every move loses; keep the game short
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	heaps, ok := readNumbers(in)
	if !ok || len(heaps) == 0 {
		return
	}
	for {
		over := true
		for _, h := range heaps {
			if h != 0 {
				over = false
			}
		}
		if !over {
			heap, take := choose(heaps)
			fmt.Fprintf(out, "%d %d\n", heap+1, take)
			if out.Flush() != nil {
				return // the judge has gone away
			}
			heaps[heap] -= take
		}
		// the opponent's move: "H K"
		move, ok := readNumbers(in)
		if !ok || len(move) < 2 {
			return
		}
		if move[0] >= 1 && move[0] <= uint64(len(heaps)) && move[1] <= heaps[move[0]-1] {
			heaps[move[0]-1] -= move[1]
		}
	}
}
