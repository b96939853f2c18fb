package gdi_test

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

func ExampleCompare() {
	// C rules: -1 converted to uint64 is larger than 1.
	ok, _ := gdi.Compare(gdi.Greater, gdi.Int64s(-1), gdi.Uint64s(1))
	fmt.Println(ok)
	// Int8 and Uint8 are promoted to int first, so the comparison is exact.
	ok, _ = gdi.Compare(gdi.Smaller, gdi.Int8s(-1), gdi.Uint8s(1))
	fmt.Println(ok)
	// Decimals compare exactly with integers.
	d, _ := gdi.ParseDecimal("2.5")
	ok, _ = gdi.Compare(gdi.Greater, gdi.Decimals(d), gdi.Int32s(2))
	fmt.Println(ok)
	// Floating point supports only strict ordering.
	_, err := gdi.Compare(gdi.Equal, gdi.Doubles(1), gdi.Doubles(1))
	fmt.Println(errors.Is(err, gdi.ErrOpDatatypeMismatch))
	// Values of different length never compare true.
	ok, _ = gdi.Compare(gdi.NotEqual, gdi.Int32s(1, 2), gdi.Int32s(3))
	fmt.Println(ok)
	// Output:
	// true
	// true
	// true
	// true
	// false
}

func ExampleConvert() {
	v, _ := gdi.Convert(gdi.Int32s(300, -1), gdi.Uint8)
	fmt.Println(v.Datatype(), v)
	v, _ = gdi.Convert(gdi.Doubles(-2.75), gdi.Int16)
	fmt.Println(v.Datatype(), v)
	d, _ := gdi.ParseDecimal("-7.9")
	v, _ = gdi.Convert(gdi.Decimals(d), gdi.Int64)
	fmt.Println(v.Datatype(), v)
	v, _ = gdi.Convert(gdi.Doubles(0.5), gdi.DecimalType)
	fmt.Println(v.Datatype(), v)
	_, err := gdi.Convert(gdi.Int64s(1), gdi.DatetimeType)
	fmt.Println(errors.Is(err, gdi.ErrConversion))
	// Output:
	// Uint8 [44 255]
	// Int16 -2
	// Int64 -7
	// DecimalType 0.5
	// true
}

func ExampleParseDecimal() {
	d, _ := gdi.ParseDecimal("-12.3400")
	fmt.Println(d)
	_, err := gdi.ParseDecimal("012")
	fmt.Println(errors.Is(err, gdi.ErrDecimal))
	// Output:
	// -12.34
	// true
}

func ExampleNewDatetime() {
	dt, _ := gdi.NewDatetime(2023, 11, 11, 9, 30, 0, 250, -800)
	fmt.Println(dt)
	t, _ := gdi.Convert(gdi.Datetimes(dt), gdi.TimeType)
	fmt.Println(t.Datatype(), t)
	_, err := gdi.NewDate(2023, 2, 29)
	fmt.Println(errors.Is(err, gdi.ErrDate))
	// Output:
	// -0800 2023-11-11 09:30:00.250
	// TimeType 09:30:00.250
	// true
}

func ExampleErrorClass() {
	err := fmt.Errorf("loading people.csv: %w", gdi.ErrNoSuchFile)
	fmt.Println(errors.Is(err, gdi.ErrNoSuchFile), gdi.ErrorClass(err) == gdi.ErrNoSuchFile)
	fmt.Println(gdi.IsWarning(gdi.WarnNotAllDataLoaded), gdi.Failed(gdi.WarnNotAllDataLoaded))
	fmt.Println(gdi.IsTransactionCritical(gdi.Errorf(gdi.ErrTransactionCritical, "lock of %v taken", gdi.VertexUID(7))))
	fmt.Println(gdi.ErrStale.Category())
	// Output:
	// true true
	// true false
	// true
	// preoperational
}

func ExampleDNF() {
	// (name = "John" AND label Employee) OR label Supervisor
	const employee, supervisor = gdi.Label(100), gdi.Label(101)
	const name = gdi.PropertyType(200)
	c := gdi.DNF{
		{Labels: []gdi.LabelCondition{{Label: employee, Op: gdi.Equal}},
			Properties: []gdi.PropertyCondition{{PropertyType: name, Op: gdi.Equal, Value: gdi.Chars("John")}}},
		{Labels: []gdi.LabelCondition{{Label: supervisor, Op: gdi.Equal}}},
	}
	john := object{labels: []gdi.Label{employee}, props: map[gdi.PropertyType][]gdi.Value{name: {gdi.Chars("John")}}}
	kim := object{labels: []gdi.Label{employee}, props: map[gdi.PropertyType][]gdi.Value{name: {gdi.Chars("Kim")}}}
	boss := object{labels: []gdi.Label{supervisor}}
	for _, o := range []object{john, kim, boss} {
		ok, _ := c.Eval(o)
		fmt.Println(ok)
	}
	// Output:
	// true
	// false
	// true
}

type object struct {
	labels []gdi.Label
	props  map[gdi.PropertyType][]gdi.Value
}

func (o object) Labels() []gdi.Label                   { return o.labels }
func (o object) Values(p gdi.PropertyType) []gdi.Value { return o.props[p] }
