package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gdi-go/gdi/cypher"
	"github.com/gdi-go/gdi/cypher/value"
)

// millis writes a duration to the microsecond.
func millis(d time.Duration) string { return d.Round(time.Microsecond).String() }

// rowCount writes "1 row" or "N rows".
func rowCount(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// writeTable prints a result as cypher-shell does: a frame, the header,
// the rows with their cells in Cypher notation; then the number of rows
// and the time.
func writeTable(w io.Writer, res *cypher.Result, elapsed time.Duration) error {
	if res.Plan != nil { // EXPLAIN: the plan as it reads, not as quoted strings
		_, err := fmt.Fprintf(w, "%s\n\n", strings.Join(res.Plan, "\n"))
		return err
	}
	var b strings.Builder
	if len(res.Columns) > 0 {
		cells := res.Strings()
		header := make([]string, len(res.Columns))
		widths := make([]int, len(res.Columns))
		for j, c := range res.Columns {
			// A column named by an expression that spans lines stays on one.
			header[j] = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(c)
			widths[j] = utf8.RuneCountInString(header[j])
		}
		for _, row := range cells {
			for j, c := range row {
				widths[j] = max(widths[j], utf8.RuneCountInString(c))
			}
		}
		inner := len(widths) - 1
		for _, n := range widths {
			inner += n + 2
		}
		frame := "+" + strings.Repeat("-", inner) + "+\n"
		line := func(row []string) {
			b.WriteString("|")
			for j, c := range row {
				b.WriteString(" " + c + strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c)) + " |")
			}
			b.WriteString("\n")
		}
		b.WriteString(frame)
		line(header)
		b.WriteString(frame)
		for _, row := range cells {
			line(row)
		}
		if len(cells) > 0 {
			b.WriteString(frame)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s (%s)\n", rowCount(len(res.Rows)), millis(elapsed))
	_, err := io.WriteString(w, b.String())
	return err
}

// resultJSON returns {"columns": [...], "rows": [[...]]} of a result.
func resultJSON(res *cypher.Result) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"columns":`)
	cols, _ := json.Marshal(append([]string{}, res.Columns...))
	b.Write(cols)
	b.WriteString(`,"rows":[`)
	for i, row := range res.Rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for j, v := range row {
			if j > 0 {
				b.WriteByte(',')
			}
			writeJSON(&b, res, v)
		}
		b.WriteByte(']')
	}
	b.WriteString("]}")
	return b.Bytes()
}

// writeJSON writes v as JSON: numbers, strings, booleans, null, arrays,
// objects; a float JSON cannot hold (NaN, ±Inf) as a string; nodes,
// relationships and paths as objects.
func writeJSON(b *bytes.Buffer, res *cypher.Result, v value.Value) {
	str := func(s string) {
		q, _ := json.Marshal(s)
		b.Write(q)
	}
	switch v.Kind() {
	case value.KindNull:
		b.WriteString("null")
	case value.KindBoolean:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case value.KindInteger:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case value.KindFloat:
		f := v.Float()
		switch {
		case math.IsNaN(f):
			str("NaN")
		case math.IsInf(f, 0):
			str(map[bool]string{true: "Infinity", false: "-Infinity"}[f > 0])
		default:
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(s, ".eEn") { // keep it a float: 1.0
				s += ".0"
			}
			b.WriteString(s)
		}
	case value.KindString:
		str(v.Str())
	case value.KindList:
		b.WriteByte('[')
		for i, e := range v.List() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, res, e)
		}
		b.WriteByte(']')
	case value.KindMap:
		b.WriteByte('{')
		i := 0
		for k, e := range v.Map().All() {
			if i > 0 {
				b.WriteByte(',')
			}
			i++
			str(k)
			b.WriteByte(':')
			writeJSON(b, res, e)
		}
		b.WriteByte('}')
	case value.KindNode:
		el, _ := res.Element(v)
		fmt.Fprintf(b, `{"id":%d,"labels":`, uint64(v.Node().ID))
		labels, _ := json.Marshal(append([]string{}, el.Labels...))
		b.Write(labels)
		b.WriteString(`,"properties":`)
		writeJSON(b, res, value.MapValue(el.Properties))
		b.WriteByte('}')
	case value.KindRelationship:
		r := v.Relationship()
		el, _ := res.Element(v)
		fmt.Fprintf(b, `{"id":"%d.%d","type":`, r.ID[0], r.ID[1])
		if len(el.Labels) == 1 {
			str(el.Labels[0])
		} else {
			b.WriteString("null")
		}
		fmt.Fprintf(b, `,"start":%d,"end":%d,"properties":`, uint64(r.Start), uint64(r.End))
		writeJSON(b, res, value.MapValue(el.Properties))
		b.WriteByte('}')
	case value.KindPath:
		p := v.Path()
		b.WriteString(`{"nodes":[`)
		for i, n := range p.Nodes {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, res, value.NodeValue(n))
		}
		b.WriteString(`],"relationships":[`)
		for i, r := range p.Rels {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, res, value.RelValue(r))
		}
		b.WriteString("]}")
	default:
		str(res.Format(v))
	}
}
