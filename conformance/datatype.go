package conformance

import (
	"fmt"
	"math"

	"github.com/gdi-go/gdi/gdi"
)

var datatypeCases = []Case{
	c("Datatype/comparisons-in-constraints", datatypeComparisons),
	c("Datatype/multi-element-and-multi-value", datatypeMultiElement),
	c("Datatype/exact-match-for-removal", datatypeExactMatch),
}

// cmpCase is a datatype with values to store and conditions to filter by.
type cmpCase struct {
	name   string
	dt     gdi.Datatype
	vals   []gdi.Value
	conds  []gdi.Value
	checks map[string][]int // hand-checked: "op/cond index" -> indexes of vals that match
}

func mustDec(s string) gdi.Decimal {
	d, err := gdi.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

func mustDT(y, mo, d, h, mi, s, f, z int) gdi.Datetime {
	dt, err := gdi.NewDatetime(y, mo, d, h, mi, s, f, z)
	if err != nil {
		panic(err)
	}
	return dt
}

func mustTime(h, m, s, f int) gdi.Time {
	t, err := gdi.NewTime(h, m, s, f)
	if err != nil {
		panic(err)
	}
	return t
}

func mustDate(y, m, d int) gdi.Date {
	x, err := gdi.NewDate(y, m, d)
	if err != nil {
		panic(err)
	}
	return x
}

var cmpCases = []cmpCase{
	{name: "uint64", dt: gdi.Uint64,
		vals:   []gdi.Value{gdi.Uint64s(0), gdi.Uint64s(1 << 63), gdi.Uint64s(math.MaxUint64)},
		conds:  []gdi.Value{gdi.Uint64s(1<<63 - 1)},
		checks: map[string][]int{"GDI_GREATER/0": {1, 2}, "GDI_SMALLER/0": {0}}},
	{name: "int8", dt: gdi.Int8,
		vals:   []gdi.Value{gdi.Int8s(-128), gdi.Int8s(-1), gdi.Int8s(0), gdi.Int8s(127)},
		conds:  []gdi.Value{gdi.Int8s(-1)},
		checks: map[string][]int{"GDI_EQGREATER/0": {1, 2, 3}, "GDI_NOTEQUAL/0": {0, 2, 3}}},
	{name: "bool", dt: gdi.Bool,
		vals:   []gdi.Value{gdi.Bools(false), gdi.Bools(true)},
		conds:  []gdi.Value{gdi.Bools(false)},
		checks: map[string][]int{"GDI_GREATER/0": {1}}},
	{name: "double", dt: gdi.Double,
		vals:   []gdi.Value{gdi.Doubles(-1.5), gdi.Doubles(0.1), gdi.Doubles(math.Inf(1)), gdi.Doubles(math.NaN())},
		conds:  []gdi.Value{gdi.Doubles(0.1)},
		checks: map[string][]int{"GDI_GREATER/0": {2}, "GDI_SMALLER/0": {0}}},
	{name: "float", dt: gdi.Float,
		vals:  []gdi.Value{gdi.Floats(-2), gdi.Floats(3.25)},
		conds: []gdi.Value{gdi.Floats(0)}},
	{name: "decimal", dt: gdi.DecimalType,
		vals:   []gdi.Value{gdi.Decimals(mustDec("1.5")), gdi.Decimals(mustDec("-0.000000000000000000000000000001")), gdi.Decimals(mustDec("12345678901234567890123456789012345"))},
		conds:  []gdi.Value{gdi.Decimals(mustDec("1.50")), gdi.Decimals(mustDec("0"))},
		checks: map[string][]int{"GDI_EQUAL/0": {0}, "GDI_SMALLER/1": {1}, "GDI_GREATER/1": {0, 2}}},
	{name: "char", dt: gdi.Char,
		vals:   []gdi.Value{gdi.Chars("abc"), gdi.Chars("ab"), gdi.Chars("ABC")},
		conds:  []gdi.Value{gdi.Chars("abc")},
		checks: map[string][]int{"GDI_EQUAL/0": {0}}},
	{name: "byte", dt: gdi.Byte,
		vals:   []gdi.Value{gdi.Bytes([]byte{0, 1}), gdi.Bytes([]byte{0, 1, 0})},
		conds:  []gdi.Value{gdi.Bytes([]byte{0, 1})},
		checks: map[string][]int{"GDI_EQUAL/0": {0}}},
	{name: "date", dt: gdi.DateType,
		vals:   []gdi.Value{gdi.Dates(mustDate(1999, 12, 31)), gdi.Dates(mustDate(2000, 1, 1)), gdi.Dates(mustDate(2024, 2, 29))},
		conds:  []gdi.Value{gdi.Dates(mustDate(2000, 1, 1))},
		checks: map[string][]int{"GDI_EQSMALLER/0": {0, 1}, "GDI_GREATER/0": {2}}},
	{name: "time", dt: gdi.TimeType,
		vals:  []gdi.Value{gdi.Times(mustTime(0, 0, 0, 0)), gdi.Times(mustTime(12, 0, 0, 1)), gdi.Times(mustTime(23, 59, 59, 999))},
		conds: []gdi.Value{gdi.Times(mustTime(12, 0, 0, 0))}},
	{name: "datetime", dt: gdi.DatetimeType,
		// The same instant in two zones, and one a minute later.
		vals:   []gdi.Value{gdi.Datetimes(mustDT(2020, 1, 1, 12, 0, 0, 0, 0)), gdi.Datetimes(mustDT(2020, 1, 1, 13, 0, 0, 0, 100)), gdi.Datetimes(mustDT(2020, 1, 1, 12, 1, 0, 0, 0))},
		conds:  []gdi.Value{gdi.Datetimes(mustDT(2020, 1, 1, 7, 0, 0, 0, -500))},
		checks: map[string][]int{"GDI_EQUAL/0": {0, 1}, "GDI_GREATER/0": {2}}},
}

// datatypeComparisons: property conditions select exactly the objects for
// which gdi.Compare holds (spec 10.9), checked against hand-made answers
// where given.
func datatypeComparisons(e *Env) {
	idx := must(e.DB.CreateIndex(gdi.BTreeIndex, 0))
	pts := make([]gdi.PropertyType, len(cmpCases))
	for i, c := range cmpCases {
		pts[i] = e.single("p"+c.name, c.dt)
	}
	okf(idx.AddLabelsAndPropertyTypes(nil, pts), "AddLabelsAndPropertyTypes")
	e.update(func(tx gdi.Transaction) {
		for i, c := range cmpCases {
			for j, v := range c.vals {
				vertex(tx, e.id(fmt.Sprintf("%s-%d", c.name, j)), nil, prop{pts[i], v})
			}
		}
	})
	e.barrier()
	ops := []gdi.Op{gdi.Equal, gdi.NotEqual, gdi.Greater, gdi.EqGreater, gdi.Smaller, gdi.EqSmaller}
	e.view(func(tx gdi.Transaction) {
		for i, c := range cmpCases {
			for k, cv := range c.conds {
				for _, op := range ops {
					if !op.Defined(c.dt) {
						continue
					}
					var want []string
					for j, v := range c.vals {
						ok, err := gdi.Compare(op, v, cv)
						okf(err, "gdi.Compare")
						if ok {
							want = append(want, fmt.Sprintf("%s-%d", c.name, j))
						}
					}
					key := fmt.Sprintf("%v/%d", op, k)
					if hand, ok := c.checks[key]; ok {
						var hw []string
						for _, j := range hand {
							hw = append(hw, fmt.Sprintf("%s-%d", c.name, j))
						}
						sameStrings(strs(want...), strs(hw...), "gdi.Compare for %s %s (suite self-check)", c.name, key)
					}
					cons := e.constraint(and(pc(pts[i], op, cv)))
					all := e.mine(idsOfVertices(tx, must(tx.VerticesOfIndex(idx, cons))))
					var w []string
					for _, s := range want {
						w = append(w, string(e.id(s)))
					}
					sameStrings(all, strs(w...), "%s values %v %v", c.name, op, cv)
					okf(cons.Free(), "Free")
				}
			}
		}
	})
}

func datatypeMultiElement(e *Env) {
	m := e.multi("m", gdi.Int32)
	a := e.label("A")
	idx := e.labelIndex(a)
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("v12"), ls(a), prop{m, gdi.Int32s(1, 2)})
		vertex(tx, e.id("v34"), ls(a), prop{m, gdi.Int32s(3, 4)})
		vertex(tx, e.id("v1"), ls(a), prop{m, gdi.Int32s(1)})
		vertex(tx, e.id("two"), ls(a), prop{m, gdi.Int32s(1, 9)}, prop{m, gdi.Int32s(5)})
	})
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		for _, c := range []struct {
			what string
			cs   []cond
			want []string
		}{
			{"== [1 2]", and(pc(m, gdi.Equal, gdi.Int32s(1, 2))), []string{"v12"}},
			{"> [0 1] (element-wise, same length only)", and(pc(m, gdi.Greater, gdi.Int32s(0, 1))), []string{"v12", "v34", "two"}},
			{"!= [1 4] (every element differs)", and(pc(m, gdi.NotEqual, gdi.Int32s(1, 4))), nil},
			{"!= [2 3]", and(pc(m, gdi.NotEqual, gdi.Int32s(2, 3))), []string{"v12", "v34", "two"}},
			{"== [5] (one of several values)", and(pc(m, gdi.Equal, gdi.Int32s(5))), []string{"two"}},
			{">= [1] (single element)", and(pc(m, gdi.EqGreater, gdi.Int32s(1))), []string{"v1", "two"}},
		} {
			got := e.mine(idsOfVertices(tx, must(tx.VerticesOfIndex(idx, e.constraint(c.cs)))))
			var w []string
			for _, s := range c.want {
				w = append(w, string(e.id(s)))
			}
			sameStrings(got, strs(w...), "values %s", c.what)
		}
	})
}

func datatypeExactMatch(e *Env) {
	d := e.multi("d", gdi.DecimalType)
	f := e.multi("f", gdi.Double)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil, prop{d, gdi.Decimals(mustDec("1.5"))}, prop{f, gdi.Doubles(0.0)})
		okf(v.AddProperty(d, gdi.Decimals(mustDec("1.50"))), "AddProperty of the same decimal written differently (no-op)")
		sameSet(values(v, d), []gdi.Value{gdi.Decimals(mustDec("1.5"))}, "decimals in canonical form, once")
		okf(v.AddProperty(f, gdi.Doubles(math.Copysign(0, -1))), "AddProperty(-0.0)")
		if n := len(values(v, f)); n != 2 {
			failf("0.0 and -0.0 are different values (exact match of encodings), got %d values", n)
		}
		okf(v.RemoveProperty(f, gdi.Doubles(0.0)), "RemoveProperty(0.0)")
		sameSet(values(v, f), []gdi.Value{gdi.Doubles(math.Copysign(0, -1))}, "values after removing 0.0")
	})
}
