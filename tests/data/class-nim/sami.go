package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	if !sc.Scan() {
		return
	}
	var heaps []uint64
	for _, f := range strings.Fields(sc.Text()) {
		v, _ := strconv.ParseUint(f, 10, 64)
		heaps = append(heaps, v)
	}

	for {
		var x, total uint64
		for _, h := range heaps {
			x ^= h
			total |= h
		}
		if total == 0 {
			return
		}
		idx, take := -1, uint64(0)
		for i, h := range heaps {
			if x != 0 && h^x < h {
				idx, take = i, h-(h^x)
				break
			}
		}
		if idx < 0 {
			// nim-sum is 0, we are lost: take 1 from the first heap with something
			for idx = 0; heaps[idx] == 0; idx++ {
			}
			take = 1
		}
		heaps[idx] -= take
		fmt.Printf("%d %d\n", idx+1, take) // os.Stdout is not buffered in Go

		if !sc.Scan() {
			return
		}
		f := strings.Fields(sc.Text())
		a, _ := strconv.Atoi(f[0])
		b, _ := strconv.ParseUint(f[1], 10, 64)
		heaps[a-1] -= b
	}
}
