package svgplot

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
)

// canvas accumulates the elements of an SVG document.
type canvas struct {
	b bytes.Buffer
}

// attr is an attribute of an element; its value is escaped when written.
type attr struct{ name, value string }

// at returns the attribute name="value".
func at(name, value string) attr { return attr{name, value} }

// px returns the attribute name="v" of a length or coordinate v.
func px(name string, v float64) attr { return attr{name, num(v)} }

// num formats a length or coordinate, rounded to a tenth of a pixel.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// escape returns s with the characters XML reserves replaced by
// references.
func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}

// newCanvas starts a document of w by h pixels on a white background.
func newCanvas(w, h float64) *canvas {
	c := &canvas{}
	c.b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	c.open("svg", at("xmlns", "http://www.w3.org/2000/svg"), at("version", "1.1"),
		px("width", w), px("height", h), at("viewBox", "0 0 "+num(w)+" "+num(h)),
		at("font-family", "sans-serif"), px("font-size", fontSize))
	c.empty("rect", at("class", "background"), px("width", w), px("height", h), at("fill", "white"))
	return c
}

// tag writes the start of an element with its attributes.
func (c *canvas) tag(name string, attrs []attr) {
	c.b.WriteString("<" + name)
	for _, a := range attrs {
		c.b.WriteString(" " + a.name + `="` + escape(a.value) + `"`)
	}
}

// open starts an element that holds others, until close.
func (c *canvas) open(name string, attrs ...attr) {
	c.tag(name, attrs)
	c.b.WriteString(">\n")
}

// close ends the element open started.
func (c *canvas) close(name string) {
	c.b.WriteString("</" + name + ">\n")
}

// empty writes an element without content.
func (c *canvas) empty(name string, attrs ...attr) {
	c.tag(name, attrs)
	c.b.WriteString("/>\n")
}

// text writes a text element that says s.
func (c *canvas) text(s string, attrs ...attr) {
	c.tag("text", attrs)
	c.b.WriteString(">" + escape(s) + "</text>\n")
}

// writeTo ends the document and writes it to w.
func (c *canvas) writeTo(w io.Writer) (int64, error) {
	c.close("svg")
	return c.b.WriteTo(w)
}
