package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// statusLine shows the progress of long work on stderr: on a terminal, one
// line redrawn in place (after a carriage return) at most every
// progressEvery; anywhere else, such as a log file, a plain line at most
// every plainEvery, so that logs read line by line.
type statusLine struct {
	w    io.Writer
	tty  bool
	last time.Time
	open bool // a line is drawn and not yet ended (terminal)
}

const (
	progressEvery = 250 * time.Millisecond
	plainEvery    = 5 * time.Second
)

func newStatusLine(w io.Writer) *statusLine {
	return &statusLine{w: w, tty: isTerminal(w), last: time.Now()}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// show shows text, if enough time has passed since the last, or at once
// with force.
func (s *statusLine) show(text string, force bool) {
	every := plainEvery
	if s.tty {
		every = progressEvery
	}
	now := time.Now()
	if !force && now.Sub(s.last) < every {
		return
	}
	s.last = now
	if s.tty {
		fmt.Fprint(s.w, "\r"+text)
		s.open = true
		return
	}
	fmt.Fprintln(s.w, text)
}

// end ends the line drawn in place, if any.
func (s *statusLine) end() {
	if s.open {
		fmt.Fprintln(s.w)
		s.open = false
	}
}

// progressBar draws a throttled progress bar on stderr (statusLine). A nil
// bar does nothing.
type progressBar struct {
	line        *statusLine
	label       string // what the bar is for, such as "gen"
	total, done uint64
	unit        string
}

func newProgressBar(w io.Writer, label string, total, offset uint64, unit string) *progressBar {
	return &progressBar{line: newStatusLine(w), label: label, total: total, done: offset, unit: unit}
}

func (b *progressBar) add(n uint64) {
	if b == nil {
		return
	}
	b.done += n
	b.line.show(b.text(), false)
}

// draw shows the bar now.
func (b *progressBar) draw() { b.line.show(b.text(), true) }

func (b *progressBar) text() string {
	frac := float64(b.done) / float64(max(b.total, 1))
	const width = 30
	full := int(frac * width)
	return fmt.Sprintf("%s [%s%s] %3.0f%% %d/%d %s", b.label, strings.Repeat("#", full), strings.Repeat(".", width-full), 100*frac, b.done, b.total, b.unit)
}

// finish draws the full bar and a summary line after a long run (of all
// ranks: the last rank calls it); short runs stay quiet.
func (b *progressBar) finish(elapsed time.Duration) {
	if b == nil || elapsed < progressEvery {
		return
	}
	b.draw()
	b.line.end()
	fmt.Fprintf(b.line.w, "%s: %d %s in %v (%s)\n", b.label, b.total, b.unit, elapsed.Round(time.Millisecond), rate(float64(b.total)/elapsed.Seconds()))
}

// rate writes a rate per second in millions, or in thousands below 0.1 M/s.
func rate(perSecond float64) string {
	if perSecond < 1e5 {
		return fmt.Sprintf("%.1f k/s", perSecond/1e3)
	}
	return fmt.Sprintf("%.1f M/s", perSecond/1e6)
}
