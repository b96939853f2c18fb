package refdb

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

// UpdatePropertyType changes the description of p and rewrites every
// property of type p to match it (collective; specification section 6.1).
// Values are converted to the new datatype, cut to the new limit, padded
// with def to a new fixed size; a type that becomes single entity keeps
// the first property of each object. If any value cannot be rewritten,
// nothing changes.
func (db *Database) UpdatePropertyType(p gdi.PropertyType, info gdi.PropertyTypeInfo, def gdi.Value) error {
	var n uint32
	var norm gdi.PropertyTypeInfo
	call := fmt.Sprintf("UpdatePropertyType(%d, %+v, %v)", p.ID(), info, def)
	err := db.collective(call, func() (err error) {
		n, norm, err = db.checkUpdate(p, info)
		if err != nil {
			return err
		}
		return db.quiet(call)
	}, func() {})
	if err != nil {
		return err
	}
	err = fromRoot(db.comm, call, db.onRoot(func(s *store) error { return s.refitAll(n, norm, def) }))
	if err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.cat.updatePtype(n, norm)
	return nil
}

// checkUpdate checks the arguments of UpdatePropertyType. The caller
// holds mu.
func (db *Database) checkUpdate(p gdi.PropertyType, info gdi.PropertyTypeInfo) (uint32, gdi.PropertyTypeInfo, error) {
	n, old, err := db.userPtype(p)
	if err != nil {
		return 0, info, err
	}
	if info, err = info.Validate(); err != nil {
		return 0, info, err
	}
	if other, taken := db.cat.ptypeByName(info.Name); taken && other != n {
		return 0, info, gdi.Errorf(gdi.ErrNameExists, "another property type is named %q", info.Name)
	}
	if !gdi.CanConvert(old.Datatype, info.Datatype) {
		return 0, info, gdi.Errorf(gdi.ErrConversion, "%v cannot be converted to %v", old.Datatype, info.Datatype)
	}
	return n, info, nil
}

// refitAll rewrites every property of type n for the description info,
// or, if a value cannot be rewritten, changes nothing and says why. The
// caller holds mu.
func (s *store) refitAll(n uint32, info gdi.PropertyTypeInfo, def gdi.Value) error {
	changed := [2]map[uint64]*record{{}, {}}
	for k := range s.objects {
		for num, r := range s.objects[k] {
			if !slices.ContainsFunc(r.props, func(x property) bool { return x.ptype == n }) {
				continue
			}
			props, err := refitProperties(r.props, n, info, def)
			if err != nil {
				return err
			}
			c := r.clone()
			c.props = props
			changed[k][num] = c
		}
	}
	for k := range changed {
		for num, c := range changed[k] {
			s.install(kind(k), num, c)
		}
	}
	return nil
}

// refitProperties returns props with the properties of type n rewritten
// for info; equal values that result are kept once.
func refitProperties(props []property, n uint32, info gdi.PropertyTypeInfo, def gdi.Value) ([]property, error) {
	var out []property
	kept := 0
	for _, x := range props {
		if x.ptype != n {
			out = append(out, x)
			continue
		}
		if info.Entity == gdi.SingleEntity && kept > 0 {
			continue
		}
		v, err := refit(x.value, info, def)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, property{n, v}) {
			out = append(out, property{n, v})
			kept++
		}
	}
	return out, nil
}

// refit converts v to the datatype of info and cuts or pads it to the
// size limit of info.
func refit(v gdi.Value, info gdi.PropertyTypeInfo, def gdi.Value) (gdi.Value, error) {
	v, err := gdi.Convert(v, info.Datatype)
	if err != nil {
		return gdi.Value{}, err
	}
	size, err := info.Datatype.Size()
	if err != nil {
		return gdi.Value{}, err
	}
	raw := v.RawString()
	switch {
	case info.Size != gdi.NoSizeLimit && v.Len() > info.Count:
		raw = raw[:info.Count*size]
	case info.Size == gdi.FixedSize && v.Len() < info.Count:
		if def.Datatype() != info.Datatype || def.Len() != 1 {
			return gdi.Value{}, gdi.Errorf(gdi.ErrArgument, "a value of %d elements needs padding to %d, and the default %v is not one element of %v", v.Len(), info.Count, def, info.Datatype)
		}
		raw += strings.Repeat(def.RawString(), info.Count-v.Len())
	}
	return gdi.NewValueString(info.Datatype, raw)
}
