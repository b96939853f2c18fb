package gdi

import (
	"fmt"
	"io/fs"
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
// WarnNotAllDataLoaded.
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
