package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressBar draws a throttled progress bar on stderr. A nil bar does
// nothing.
type progressBar struct {
	w           io.Writer
	label       string // what the bar is for, such as "gen"
	total, done uint64
	unit        string
	start, last time.Time
}

func newProgressBar(w io.Writer, label string, total, offset uint64, unit string) *progressBar {
	now := time.Now()
	return &progressBar{w: w, label: label, total: total, done: offset, unit: unit, start: now, last: now}
}

const progressEvery = 250 * time.Millisecond

func (b *progressBar) add(n uint64) {
	if b == nil {
		return
	}
	b.done += n
	if now := time.Now(); now.Sub(b.last) >= progressEvery {
		b.last = now
		b.draw()
	}
}

func (b *progressBar) draw() {
	frac := float64(b.done) / float64(max(b.total, 1))
	const width = 30
	full := int(frac * width)
	fmt.Fprintf(b.w, "\r%s [%s%s] %3.0f%% %d/%d %s", b.label, strings.Repeat("#", full), strings.Repeat(".", width-full), 100*frac, b.done, b.total, b.unit)
}

// finish draws the full bar and a summary line after a long run (of all
// ranks: the last rank calls it); short runs stay quiet.
func (b *progressBar) finish(elapsed time.Duration) {
	if b == nil || elapsed < progressEvery {
		return
	}
	b.draw()
	fmt.Fprintln(b.w)
	fmt.Fprintf(b.w, "%s: %d %s in %v (%s)\n", b.label, b.total, b.unit, elapsed.Round(time.Millisecond), rate(float64(b.total)/elapsed.Seconds()))
}

// rate writes a rate per second in millions, or in thousands below 0.1 M/s.
func rate(perSecond float64) string {
	if perSecond < 1e5 {
		return fmt.Sprintf("%.1f k/s", perSecond/1e3)
	}
	return fmt.Sprintf("%.1f M/s", perSecond/1e6)
}
