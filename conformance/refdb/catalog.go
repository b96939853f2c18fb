package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// ptypeEntry is a property type of the catalog. version counts the
// updates of the type; a property condition remembers the version it was
// made for and is stale once the version moves on.
type ptypeEntry struct {
	info    gdi.PropertyTypeInfo
	version int
}

// catalog is one rank's replica of the labels and property types of the
// database. Only collective calls change it, in the same order on every
// rank, so object numbers agree between ranks. Numbers start at
// gdi.FirstUserID and are never reused. The predefined label and property
// types are not stored here; the lookups know them.
type catalog struct {
	labels     map[uint32]string
	labelOrder []uint32
	lastLabel  uint32

	ptypes     map[uint32]*ptypeEntry
	ptypeOrder []uint32
	lastPtype  uint32
}

func newCatalog() catalog {
	return catalog{
		labels: map[uint32]string{}, lastLabel: gdi.FirstUserID - 1,
		ptypes: map[uint32]*ptypeEntry{}, lastPtype: gdi.FirstUserID - 1,
	}
}

func (c *catalog) hasLabel(n uint32) bool { _, ok := c.labels[n]; return ok }

// labelByName returns the number of the label named name (a normalised
// name), LabelNone's included.
func (c *catalog) labelByName(name string) (uint32, bool) {
	if name == gdi.LabelNoneName {
		return noLabel, true
	}
	for _, n := range c.labelOrder {
		if c.labels[n] == name {
			return n, true
		}
	}
	return 0, false
}

func (c *catalog) addLabel(name string) uint32 {
	c.lastLabel++
	c.labels[c.lastLabel] = name
	c.labelOrder = append(c.labelOrder, c.lastLabel)
	return c.lastLabel
}

func (c *catalog) dropLabel(n uint32) {
	delete(c.labels, n)
	c.labelOrder = slices.DeleteFunc(c.labelOrder, func(x uint32) bool { return x == n })
}

// ptypeInfo returns the description of property type n, predefined types
// included.
func (c *catalog) ptypeInfo(n uint32) (gdi.PropertyTypeInfo, bool) {
	if info, ok := gdi.PredefinedPropertyTypeInfo(gdi.PropertyType(n)); ok {
		return info, true
	}
	if e := c.ptypes[n]; e != nil {
		return e.info, true
	}
	return gdi.PropertyTypeInfo{}, false
}

// ptypeByName returns the number of the property type named name,
// predefined types included.
func (c *catalog) ptypeByName(name string) (uint32, bool) {
	for _, p := range gdi.PredefinedPropertyTypes() {
		if info, _ := gdi.PredefinedPropertyTypeInfo(p); info.Name == name {
			return p.ID(), true
		}
	}
	for _, n := range c.ptypeOrder {
		if c.ptypes[n].info.Name == name {
			return n, true
		}
	}
	return 0, false
}

func (c *catalog) addPtype(info gdi.PropertyTypeInfo) uint32 {
	c.lastPtype++
	c.ptypes[c.lastPtype] = &ptypeEntry{info: info}
	c.ptypeOrder = append(c.ptypeOrder, c.lastPtype)
	return c.lastPtype
}

func (c *catalog) updatePtype(n uint32, info gdi.PropertyTypeInfo) {
	e := c.ptypes[n]
	e.info = info
	e.version++
}

func (c *catalog) dropPtype(n uint32) {
	delete(c.ptypes, n)
	c.ptypeOrder = slices.DeleteFunc(c.ptypeOrder, func(x uint32) bool { return x == n })
}

// ptypeVersion returns the version of property type n (0 for predefined
// types, which never change) and whether it exists.
func (c *catalog) ptypeVersion(n uint32) (int, bool) {
	if gdi.PropertyType(n).IsPredefined() {
		return 0, true
	}
	if e := c.ptypes[n]; e != nil {
		return e.version, true
	}
	return 0, false
}
