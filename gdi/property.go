package gdi

import "fmt"

// PropertyType is a handle to a property type: the key of a property
// together with the datatype of its elements and limits on how many
// properties of the type an object may have and how many elements a value
// may have.
//
// Like Label, a PropertyType is a comparable value made of a DatabaseTag and
// an object number that is the same on every rank; a backend never reuses
// the number of a freed property type, so a freed handle is reported as
// ErrPropertyType, and a handle of another database as ErrObjectMismatch.
// The zero PropertyType is PropertyTypeNull.
type PropertyType uint64

// Predefined property types. They are valid in every database, need not be
// created, and can be neither updated nor freed.
const (
	// PropertyTypeNull is the null property type. Lookups that find nothing
	// return it.
	PropertyTypeNull PropertyType = 0
	// PropertyTypeID is the application-level ID of an object: single
	// entity, datatype Byte, no size limit. CreateVertex sets it, and the
	// implicit index behind Transaction.TranslateVertexID maps (label, ID)
	// to vertices by it. Edges may carry it too.
	PropertyTypeID PropertyType = 1
	// PropertyTypeDegree is the number of edges of a vertex: incoming plus
	// outgoing plus undirected, a loop counting twice. Single entity, one
	// Uint64, read-only, vertices only.
	PropertyTypeDegree PropertyType = 2
	// PropertyTypeInDegree is the number of incoming (directed) edges of a
	// vertex. Single entity, one Uint64, read-only, vertices only.
	PropertyTypeInDegree PropertyType = 3
	// PropertyTypeOutDegree is the number of outgoing (directed) edges of a
	// vertex. Single entity, one Uint64, read-only, vertices only.
	PropertyTypeOutDegree PropertyType = 4
)

// MakePropertyType returns the handle of property type number id of the
// database tagged tag. It is for backends; id must be at least FirstUserID.
func MakePropertyType(tag DatabaseTag, id uint32) PropertyType {
	return PropertyType(makeHandle(tag, id))
}

// Tag returns the tag of the database the property type belongs to; 0 for
// predefined property types and PropertyTypeNull.
func (p PropertyType) Tag() DatabaseTag { return handleTag(uint64(p)) }

// ID returns the object number of the property type, equal on all ranks.
func (p PropertyType) ID() uint32 { return handleID(uint64(p)) }

// IsPredefined reports whether p is one of the predefined property types.
func (p PropertyType) IsPredefined() bool { return p >= PropertyTypeID && p <= PropertyTypeOutDegree }

// IsReadOnly reports whether only the library may change properties of
// type p (the degree types). Writing them returns ErrReadOnlyPropertyType.
func (p PropertyType) IsReadOnly() bool { return p >= PropertyTypeDegree && p <= PropertyTypeOutDegree }

func (p PropertyType) String() string {
	if info, ok := PredefinedPropertyTypeInfo(p); ok {
		return info.Name
	}
	if p == PropertyTypeNull {
		return "PropertyTypeNull"
	}
	return fmt.Sprintf("PropertyType(%d/%d)", p.Tag(), p.ID())
}

// EntityType tells how many properties of one type an object may have.
type EntityType uint8

// Entity types. The zero EntityType is invalid.
const (
	// SingleEntity: at most one property of the type per object.
	SingleEntity EntityType = iota + 1
	// MultipleEntity: any number of properties of the type per object, with
	// distinct values.
	MultipleEntity
)

func (e EntityType) String() string {
	switch e {
	case SingleEntity:
		return "GDI_SINGLE_ENTITY"
	case MultipleEntity:
		return "GDI_MULTIPLE_ENTITY"
	}
	return fmt.Sprintf("EntityType(%d)", uint8(e))
}

// SizeType tells how the number of elements of a property value is limited.
type SizeType uint8

// Size types. The zero SizeType is invalid.
const (
	// FixedSize: every value has exactly Count elements.
	FixedSize SizeType = iota + 1
	// MaxSize: every value has at most Count elements.
	MaxSize
	// NoSizeLimit: values have any number of elements; Count is 0.
	NoSizeLimit
)

func (s SizeType) String() string {
	switch s {
	case FixedSize:
		return "GDI_FIXED_SIZE"
	case MaxSize:
		return "GDI_MAX_SIZE"
	case NoSizeLimit:
		return "GDI_NO_SIZE_LIMIT"
	}
	return fmt.Sprintf("SizeType(%d)", uint8(s))
}

// PropertyTypeInfo describes a property type: what CreatePropertyType and
// UpdatePropertyType take and Database.PropertyTypeInfo returns. It is a
// plain value.
type PropertyTypeInfo struct {
	Name     string
	Entity   EntityType
	Datatype Datatype
	Size     SizeType
	// Count is the element count of FixedSize, the maximum of MaxSize, and
	// 0 for NoSizeLimit (any value given with NoSizeLimit is ignored and
	// reported back as 0).
	Count int
}

// Validate checks the description the way every backend must before it
// creates or updates a property type, and returns it normalised: the name
// through NormalizeName (ErrEmptyName), the entity and size types
// (ErrState), the datatype (ErrDatatype), and Count, which must be positive
// for FixedSize and MaxSize (ErrCount) and is set to 0 for NoSizeLimit.
func (info PropertyTypeInfo) Validate() (PropertyTypeInfo, error) {
	name, err := NormalizeName(info.Name)
	if err != nil {
		return info, err
	}
	info.Name = name
	if info.Entity != SingleEntity && info.Entity != MultipleEntity {
		return info, Errorf(ErrState, "entity type %v", info.Entity)
	}
	if !info.Datatype.Valid() {
		return info, Errorf(ErrDatatype, "datatype %v", info.Datatype)
	}
	switch info.Size {
	case FixedSize, MaxSize:
		if info.Count <= 0 {
			return info, Errorf(ErrCount, "%v needs a positive count, not %d", info.Size, info.Count)
		}
	case NoSizeLimit:
		info.Count = 0
	default:
		return info, Errorf(ErrState, "size type %v", info.Size)
	}
	return info, nil
}

// CheckValue checks that v may be the value of a property of this type: v
// has the type's datatype (ErrDatatype, see CheckDatatype) and its number
// of elements is within the size limit (ErrSizeLimit).
func (info PropertyTypeInfo) CheckValue(v Value) error {
	if err := info.CheckDatatype(v); err != nil {
		return err
	}
	return info.CheckCount(v.Len())
}

// CheckDatatype returns ErrDatatype, with a message that names the
// property type and both datatypes, if v is not of the type's datatype.
func (info PropertyTypeInfo) CheckDatatype(v Value) error {
	if v.Datatype() != info.Datatype {
		return Errorf(ErrDatatype, "a %v value for property type %q of datatype %v", v.Datatype(), info.Name, info.Datatype)
	}
	return nil
}

// CheckCount checks that n elements are within the size limit
// (ErrSizeLimit).
func (info PropertyTypeInfo) CheckCount(n int) error {
	switch {
	case info.Size == FixedSize && n != info.Count:
		return Errorf(ErrSizeLimit, "property type %q needs exactly %d elements, not %d", info.Name, info.Count, n)
	case info.Size == MaxSize && n > info.Count:
		return Errorf(ErrSizeLimit, "property type %q allows at most %d elements, not %d", info.Name, info.Count, n)
	}
	return nil
}

var predefinedPropertyTypes = [...]PropertyTypeInfo{
	PropertyTypeID:        {"GDI_PROPERTY_TYPE_ID", SingleEntity, Byte, NoSizeLimit, 0},
	PropertyTypeDegree:    {"GDI_PROPERTY_TYPE_DEGREE", SingleEntity, Uint64, FixedSize, 1},
	PropertyTypeInDegree:  {"GDI_PROPERTY_TYPE_INDEGREE", SingleEntity, Uint64, FixedSize, 1},
	PropertyTypeOutDegree: {"GDI_PROPERTY_TYPE_OUTDEGREE", SingleEntity, Uint64, FixedSize, 1},
}

// PredefinedPropertyTypeInfo returns the description of a predefined
// property type, and false for any other handle. Backends answer
// Database.PropertyTypeInfo and PropertyTypeFromName for the predefined
// types from it.
func PredefinedPropertyTypeInfo(p PropertyType) (PropertyTypeInfo, bool) {
	if !p.IsPredefined() {
		return PropertyTypeInfo{}, false
	}
	return predefinedPropertyTypes[p], true
}

// PredefinedPropertyTypes returns the predefined property types in
// ascending order.
func PredefinedPropertyTypes() []PropertyType {
	return []PropertyType{PropertyTypeID, PropertyTypeDegree, PropertyTypeInDegree, PropertyTypeOutDegree}
}
