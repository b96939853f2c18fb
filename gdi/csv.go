package gdi

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
)

// SortType tells a bulk loader how the lines of a CSV file are ordered, so
// that it may search the file faster. It never changes the result.
type SortType uint8

// Sort types. The zero SortType is invalid (ErrState).
const (
	NoSorting    SortType = iota + 1 // any order (all loaders)
	AscSorting                       // ascending application-level IDs (vertex loaders)
	DescSorting                      // descending application-level IDs (vertex loaders)
	Grouped                          // lines of one vertex are adjacent (vertex property loader)
	OriginTarget                     // ascending by origin, then target (edge loader)
	TargetOrigin                     // ascending by target, then origin (edge loader)
)

func (s SortType) String() string {
	names := [...]string{NoSorting: "GDI_NO_SORTING", AscSorting: "GDI_ASC_SORTING", DescSorting: "GDI_DESC_SORTING",
		Grouped: "GDI_GROUPED", OriginTarget: "GDI_ORIGIN_TARGET", TargetOrigin: "GDI_TARGET_ORIGIN"}
	if s >= NoSorting && s <= TargetOrigin {
		return names[s]
	}
	return fmt.Sprintf("SortType(%d)", uint8(s))
}

// Assert is a set of assertions a program makes about the circumstances of
// a bulk load, which a backend may use to go faster. The specification
// defines no assertion yet, so 0 is the only valid value; anything else
// returns ErrAssert.
type Assert uint32

// CSVFile names a CSV file and describes its layout. The format (section
// 14): one object per line, lines ending in "\n" or "\r\n", fields
// separated by FieldDelimiter, elements of a multi-element value separated
// by ElementDelimiter (not used for Char and Byte values), an empty field
// for a missing property, backslash escapes, Base64 for Byte values and
// application-level IDs (see ParseCSVValue).
type CSVFile struct {
	// FS is the file system to read Path from. If nil, Path is a path of
	// the operating system as os.Open takes it: absolute, or relative to
	// the working directory of each rank. If not nil, Path is an io/fs
	// path in FS.
	FS   fs.FS
	Path string

	Header           bool // the first line is a header and is skipped
	FieldDelimiter   byte // one ASCII character, see ValidDelimiters
	ElementDelimiter byte // one ASCII character, see ValidDelimiters
	Sort             SortType
	Assert           Assert

	// TextIDs makes the loader take application-level IDs as the bytes of
	// their unescaped text instead of decoding them from Base64, as real
	// data sets (LDBC SNB, generated files) write them. It is an extension
	// of this binding; the specification knows only Base64 IDs.
	TextIDs bool
}

// ValidDelimiters checks the delimiters of f: each must be an ASCII
// character other than '\n', '\r', '\\', 'n', 'r' and 't' (which escapes
// need), and the two must differ. It returns ErrDelimiter otherwise.
func (f CSVFile) ValidDelimiters() error {
	for _, d := range []byte{f.FieldDelimiter, f.ElementDelimiter} {
		switch {
		case d >= 0x80, d == '\n', d == '\r', d == '\\', d == 'n', d == 'r', d == 't':
			return Errorf(ErrDelimiter, "delimiter %q cannot be used", d)
		}
	}
	if f.FieldDelimiter == f.ElementDelimiter {
		return Errorf(ErrDelimiter, "field and element delimiter are both %q", f.FieldDelimiter)
	}
	return nil
}

// VertexCSV is the request of CSVLoader.LoadVertexCSV. The file has the
// application-level ID in the first column and one column per entry of
// PropertyTypes after it; every vertex gets all of Labels. Sort may be
// NoSorting, AscSorting or DescSorting.
type VertexCSV struct {
	CSVFile
	PropertyTypes []PropertyType
	Labels        []Label
}

// VertexPropertiesCSV is the request of CSVLoader.LoadVertexPropertiesCSV.
// The file has two columns: the application-level ID of a vertex with
// label Label, and one value of PropertyType. Sort may be NoSorting,
// AscSorting, DescSorting or Grouped.
type VertexPropertiesCSV struct {
	CSVFile
	PropertyType PropertyType
	Label        Label
}

// EdgeCSV is the request of CSVLoader.LoadEdgeCSV. The file has the
// application-level IDs of origin (a vertex with OriginLabel) and target
// (with TargetLabel) in the first two columns, then one column per entry of
// PropertyTypes; LabelNone as OriginLabel or TargetLabel means vertices
// without labels. Every edge gets Direction and all of Labels. Sort may be
// NoSorting, OriginTarget or TargetOrigin.
type EdgeCSV struct {
	CSVFile
	Direction     DirectionType
	PropertyTypes []PropertyType
	Labels        []Label
	OriginLabel   Label
	TargetLabel   Label
}

// CSVLoader is implemented by a Database that can load CSV files in bulk
// (specification section 14). It is optional. Every method is collective,
// with the same request on every rank, needs a quiet database, and has a
// barrier. How the ranks share the reading is up to the backend; every rank
// must be able to open the file.
//
// Common errors: ErrNoSuchFile if the file cannot be opened (ErrAccess if
// permission is denied); ErrObjectMismatch for a handle of another
// database; ErrState for a bad Sort or Direction; ErrDelimiter; ErrAssert;
// ErrFileFormat (nothing loaded) if a line has the wrong number of fields or
// a field cannot be parsed. Data that cannot be stored (a value outside the
// size limit of its property type, an unknown vertex, a second value of a
// single-entity type) is skipped, the rest is loaded, and the call returns
// WarnNotAllDataLoaded. Running out of memory (ErrNoMemory) stops the load
// where it happens: the lines before stay loaded, whole.
type CSVLoader interface {
	// LoadVertexCSV creates one vertex per line.
	LoadVertexCSV(req VertexCSV) error
	// LoadVertexPropertiesCSV adds one property per line to existing
	// vertices. Lines of unknown vertices are skipped.
	LoadVertexPropertiesCSV(req VertexPropertiesCSV) error
	// LoadEdgeCSV creates one edge per line between existing vertices.
	// Lines naming unknown vertices are skipped.
	LoadEdgeCSV(req EdgeCSV) error
}

// The helpers below parse the text of CSV files as the specification
// describes it, so that every backend reads files identically. A backend
// splits the file into lines (at "\n", dropping a preceding "\r"), splits
// each line with SplitCSVLine, and turns each field into a Value with
// ParseCSVValue; application-level IDs are Byte values.

// SplitCSVLine splits a line, without its line ending, into fields at every
// fieldDelim that is not escaped by a backslash. The fields keep their
// escapes; ParseCSVValue resolves them.
func SplitCSVLine(line string, fieldDelim byte) []string {
	return splitEscaped(line, fieldDelim)
}

func splitEscaped(s string, delim byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the next byte is escaped, whatever it is
		case delim:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// UnescapeCSV resolves the escapes of a field or element: \\ is a
// backslash, \n a newline, \r a carriage return, \t a tab, and a backslash
// before any other character (a delimiter) stands for that character. A
// backslash at the end returns ErrFileFormat.
func UnescapeCSV(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			return "", Errorf(ErrFileFormat, "field %q ends in a lone backslash", s)
		}
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// ParseCSVValue parses a field, as returned by SplitCSVLine, into a Value
// of datatype d. present is false for an empty field, which means that the
// object lacks the property. Char fields are the unescaped text, one element
// per byte; Byte fields are standard Base64 (RFC 4648) of the bytes. Other
// datatypes may hold several elements separated by elemDelim: integers and
// floats in decimal without a plus sign or leading zeros, Bool as 1, true,
// 0 or false, Decimal as for ParseDecimal, Date as yyyy-MM-dd, Time as
// hh:mm:ss.SSS, Datetime as ±hhmm yyyy-MM-dd hh:mm:ss.SSS. A malformed
// field returns ErrFileFormat (wrapping the datatype's own code where there
// is one).
func ParseCSVValue(d Datatype, field string, elemDelim byte) (v Value, present bool, err error) {
	if !d.Valid() {
		return Value{}, false, Errorf(ErrDatatype, "datatype %d", uint8(d))
	}
	if field == "" {
		return Value{}, false, nil
	}
	switch d {
	case Char:
		s, err := UnescapeCSV(field)
		return Chars(s), err == nil, err
	case Byte:
		s, err := UnescapeCSV(field)
		if err != nil {
			return Value{}, false, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return Value{}, false, Errorf(ErrFileFormat, "bad Base64 %q: %v", s, err)
		}
		return Bytes(b), true, nil
	}
	raw := make([]byte, 0, d.size())
	for _, e := range splitEscaped(field, elemDelim) {
		s, err := UnescapeCSV(e)
		if err != nil {
			return Value{}, false, err
		}
		raw, err = appendCSVElement(raw, d, s)
		if err != nil {
			return Value{}, false, err
		}
	}
	return Value{d, string(raw)}, true, nil
}

func badElement(d Datatype, s string, cause error) error {
	if cause != nil {
		return Errorf(ErrFileFormat, "%q is not a valid %v element: %w", s, d, cause)
	}
	return Errorf(ErrFileFormat, "%q is not a valid %v element", s, d)
}

func appendCSVElement(b []byte, d Datatype, s string) ([]byte, error) {
	switch d.Group() {
	case GroupInteger:
		if d == Bool {
			switch s {
			case "1", "true":
				return append(b, 1), nil
			case "0", "false":
				return append(b, 0), nil
			}
			return nil, badElement(d, s, nil)
		}
		digits := strings.TrimPrefix(s, "-")
		if digits == "" || !allDigits(digits) || (len(digits) > 1 && digits[0] == '0') || (digits != s && !isSignedInt(d)) {
			return nil, badElement(d, s, nil)
		}
		bits := 8 * d.size()
		if isSignedInt(d) {
			x, err := strconv.ParseInt(s, 10, bits)
			if err != nil {
				return nil, badElement(d, s, ErrRange)
			}
			return encodeInteger(b, d, uint64(x)), nil
		}
		x, err := strconv.ParseUint(s, 10, bits)
		if err != nil {
			return nil, badElement(d, s, ErrRange)
		}
		return encodeInteger(b, d, x), nil
	case GroupFloat:
		if strings.HasPrefix(s, "+") {
			return nil, badElement(d, s, nil)
		}
		bits := 64
		if d == Float {
			bits = 32
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return nil, badElement(d, s, nil)
		}
		if d == Float {
			return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f))), nil
		}
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(f)), nil
	case GroupDecimal:
		x, err := ParseDecimal(s)
		if err != nil {
			return nil, badElement(d, s, err)
		}
		return x.appendEncoding(b), nil
	}
	switch d {
	case DateType:
		x, err := parseCSVDate(s)
		if err != nil {
			return nil, badElement(d, s, err)
		}
		return x.appendEncoding(b), nil
	case TimeType:
		x, err := parseCSVTime(s)
		if err != nil {
			return nil, badElement(d, s, err)
		}
		return x.appendEncoding(b), nil
	case DatetimeType:
		zone, rest, ok := strings.Cut(s, " ")
		ds, ts, ok2 := strings.Cut(rest, " ")
		if !ok || !ok2 || len(zone) != 5 || (zone[0] != '+' && zone[0] != '-') || !allDigits(zone[1:]) {
			return nil, badElement(d, s, nil)
		}
		z, _ := strconv.Atoi(zone[1:])
		if zone[0] == '-' {
			z = -z
		}
		x, err := parseCSVDate(ds)
		if err != nil {
			return nil, badElement(d, s, err)
		}
		t, err := parseCSVTime(ts)
		if err != nil {
			return nil, badElement(d, s, err)
		}
		y, mo, dd := x.Parts()
		h, mi, sec, f := t.Parts()
		dt, err := NewDatetime(y, mo, dd, h, mi, sec, f, z)
		if err != nil {
			return nil, badElement(d, s, err)
		}
		return dt.appendEncoding(b), nil
	}
	return nil, badElement(d, s, nil)
}

// fixedInts parses s as numbers of the given digit widths separated by the
// given single-byte separators, for example "2006-01-02".
func fixedInts(s string, widths []int, seps string) ([]int, bool) {
	var out []int
	for i, w := range widths {
		if len(s) < w || !allDigits(s[:w]) {
			return nil, false
		}
		n, _ := strconv.Atoi(s[:w])
		out = append(out, n)
		s = s[w:]
		if i < len(seps) {
			if s == "" || s[0] != seps[i] {
				return nil, false
			}
			s = s[1:]
		}
	}
	return out, s == ""
}

func parseCSVDate(s string) (Date, error) {
	n, ok := fixedInts(s, []int{4, 2, 2}, "--")
	if !ok {
		return Date{}, Errorf(ErrDate, "%q is not yyyy-MM-dd", s)
	}
	return NewDate(n[0], n[1], n[2])
}

func parseCSVTime(s string) (Time, error) {
	n, ok := fixedInts(s, []int{2, 2, 2, 3}, "::.")
	if !ok {
		return Time{}, Errorf(ErrTime, "%q is not hh:mm:ss.SSS", s)
	}
	return NewTime(n[0], n[1], n[2], n[3])
}
