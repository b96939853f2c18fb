package gdirma_test

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// describeHolder renders the labels and properties of h as one line that
// does not depend on handle values or on the order of either: label names
// (given by name) sorted, then name=value pairs sorted. Dumps compare
// databases with it.
func describeHolder(db gdi.Database, h gdi.Holder, name func(gdi.Label) (string, error)) (string, error) {
	ls, err := h.Labels()
	if err != nil {
		return "", err
	}
	var names []string
	for _, l := range ls {
		n, err := name(l)
		if err != nil {
			return "", err
		}
		names = append(names, n)
	}
	slices.Sort(names)
	pts, err := h.PropertyTypes()
	if err != nil {
		return "", err
	}
	var props []string
	for _, pt := range pts {
		info, err := db.PropertyTypeInfo(pt)
		if err != nil {
			return "", err
		}
		vs, err := h.Properties(pt)
		if err != nil {
			return "", err
		}
		for _, v := range vs {
			props = append(props, info.Name+"="+v.String())
		}
	}
	slices.Sort(props)
	return fmt.Sprintf("%v %v", names, props), nil
}
