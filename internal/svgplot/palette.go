package svgplot

// colours are the colours of the series in turn: the palette of Okabe and
// Ito, which readers with colour blindness can tell apart, with grey and
// brown added before its yellow, which is faint on white.
var colours = []string{
	"#0072B2", // blue
	"#D55E00", // vermillion
	"#009E73", // bluish green
	"#CC79A7", // reddish purple
	"#E69F00", // orange
	"#56B4E9", // sky blue
	"#000000", // black
	"#7F7F7F", // grey
	"#8C510A", // brown
	"#F0E442", // yellow
}

// dashes are the dash patterns (stroke-dasharray) of the series: solid
// for the first len(colours), then the next pattern for the next.
var dashes = []string{"", "8 4", "2 3", "8 3 2 3"}

// style is the way a series is drawn.
type style struct{ colour, dash string }

// styleOf returns the style of the i-th series. The first
// len(colours) × len(dashes) series all differ.
func styleOf(i int) style {
	return style{colours[i%len(colours)], dashes[i/len(colours)%len(dashes)]}
}

// attrs returns the stroke attributes of s.
func (s style) attrs() []attr {
	a := []attr{at("fill", "none"), at("stroke", s.colour), px("stroke-width", lineWidth)}
	if s.dash != "" {
		a = append(a, at("stroke-dasharray", s.dash))
	}
	return a
}
