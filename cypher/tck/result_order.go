package tck

import (
	"fmt"
	"strings"
)

// compareAnyOrder matches the rows as multisets, and names the first
// expected row that is missing and the first row that is not expected.
func compareAnyOrder(have, want []row, listsUnordered bool) error {
	used := make([]bool, len(have))
	var missing []int
	for i, w := range want {
		j := indexUnused(have, used, func(h row) bool { return sameRow(w, h, listsUnordered) })
		if j < 0 {
			missing = append(missing, i)
			continue
		}
		used[j] = true
	}
	var extra []int
	for j, u := range used {
		if !u {
			extra = append(extra, j)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return nil
	}
	var msg []string
	if len(have) != len(want) {
		msg = append(msg, fmt.Sprintf("got %d rows, want %d", len(have), len(want)))
	}
	if len(missing) > 0 {
		msg = append(msg, fmt.Sprintf("row %d missing: %s%s", missing[0]+1, want[missing[0]], more(len(missing))))
	}
	if len(extra) > 0 {
		msg = append(msg, fmt.Sprintf("unexpected row %d: %s%s", extra[0]+1, have[extra[0]], more(len(extra))))
	}
	return fmt.Errorf("%s", strings.Join(msg, "; "))
}

// compareInOrder compares the rows one by one, and names the first that
// differs.
func compareInOrder(have, want []row, listsUnordered bool) error {
	for i := 0; i < len(have) && i < len(want); i++ {
		if !sameRow(have[i], want[i], listsUnordered) {
			msg := fmt.Sprintf("row %d is %s, want %s", i+1, have[i], want[i])
			if compareAnyOrder(have, want, listsUnordered) == nil {
				msg += " (the rows agree in another order)"
			}
			return fmt.Errorf("%s", msg)
		}
	}
	switch {
	case len(have) > len(want):
		return fmt.Errorf("got %d rows, want %d; unexpected row %d: %s", len(have), len(want), len(want)+1, have[len(want)])
	case len(have) < len(want):
		return fmt.Errorf("got %d rows, want %d; row %d missing: %s", len(have), len(want), len(have)+1, want[len(have)])
	}
	return nil
}

// more says how many other rows are in the same case.
func more(n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (and %d more)", n-1)
}
