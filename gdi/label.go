package gdi

import "fmt"

// Label is a handle to a label: a named category that vertices and edges
// may carry (zero, one or several per object).
//
// A Label is a plain comparable value (usable as a map key) made of the
// DatabaseTag of the database that created it and an object number. Labels
// are created, renamed and freed collectively, in the same order on every
// rank, so the object number of a label is the same on every rank, while
// the tag (and so the handle) is specific to the rank, as the specification
// requires of handles.
//
// A backend never reuses the object number of a freed label for the life of
// the database. Therefore a freed Label can be recognised: every call that
// receives it returns ErrLabel. A Label of another database returns
// ErrObjectMismatch. The zero Label is LabelNull.
type Label uint64

// Predefined labels.
const (
	// LabelNull is the null label: no label. Lookups that find nothing
	// return it.
	LabelNull Label = 0
	// LabelNone stands for "has no label". Explicit indexes use it to index
	// objects without labels, TranslateVertexID uses it to find vertices
	// without labels, and a label condition on it holds for objects without
	// labels. Adding it to or removing it from an object does nothing. Its
	// name is "GDI_LABEL_NONE". It is valid in every database and can be
	// neither updated nor freed.
	LabelNone Label = 1
)

// LabelNoneName is the name of LabelNone.
const LabelNoneName = "GDI_LABEL_NONE"

// MakeLabel returns the handle of label number id of the database tagged
// tag. It is for backends; id must be at least FirstUserID.
func MakeLabel(tag DatabaseTag, id uint32) Label { return Label(makeHandle(tag, id)) }

// Tag returns the tag of the database the label belongs to; 0 for
// predefined labels and LabelNull.
func (l Label) Tag() DatabaseTag { return handleTag(uint64(l)) }

// ID returns the object number of the label, equal on all ranks.
func (l Label) ID() uint32 { return handleID(uint64(l)) }

// IsPredefined reports whether l is a predefined label (LabelNone).
func (l Label) IsPredefined() bool { return l == LabelNone }

func (l Label) String() string {
	switch l {
	case LabelNull:
		return "LabelNull"
	case LabelNone:
		return "LabelNone"
	}
	return fmt.Sprintf("Label(%d/%d)", l.Tag(), l.ID())
}
