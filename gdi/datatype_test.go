package gdi

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestCodeOrder(t *testing.T) {
	if Success != 0 {
		t.Fatalf("Success = %d, want 0", Success)
	}
	for _, c := range Codes() {
		switch {
		case c == Success || c == LastCode:
			if c.IsWarning() || c.IsError() || c.IsTransactionCritical() {
				t.Errorf("%d: Success/LastCode classified", c)
			}
		case c <= WarnOther:
			if !c.IsWarning() || c.IsError() || c.Category() != CategoryWarning {
				t.Errorf("%v: want a warning", c)
			}
		case c < ErrTransactionCritical:
			if !c.IsError() || c.IsTransactionCritical() {
				t.Errorf("%v: want a non-critical error", c)
			}
		default:
			if !c.IsTransactionCritical() || c.Category() != CategoryTransactionCritical {
				t.Errorf("%v: want critical", c)
			}
		}
		if c.Class() != c {
			t.Errorf("%v: class %v, want itself", c, c.Class())
		}
		if len(c.Error()) >= MaxErrorString || c.Error() == "gdi: " {
			t.Errorf("%d: bad string %q", c, c.Error())
		}
	}
	if LastCode <= ErrTransactionCritical {
		t.Error("LastCode must follow ErrTransactionCritical")
	}
	if got := Code(-3).Class(); got != ErrErrorCode {
		t.Errorf("unknown code class = %v", got)
	}
	if ErrTruncate.Category() != CategoryOutput || ErrTransactionCommitFail.Category() != CategoryCommitFailed ||
		ErrIntern.Category() != CategoryUndefined {
		t.Error("categories of output, commit-fail and undefined classes wrong")
	}
}

func TestErrorChains(t *testing.T) {
	cause := errors.New("rma: run aborted")
	err := Errorf(ErrResource, "window: %w", cause)
	if !errors.Is(err, ErrResource) || !errors.Is(err, cause) || ErrorClass(err) != ErrResource {
		t.Errorf("Errorf chain broken: %v", err)
	}
	joined := errors.Join(ErrTransactionCritical, ErrNoMemory)
	if ErrorClass(joined) != ErrTransactionCritical || !IsTransactionCritical(joined) {
		t.Errorf("joined class = %v", ErrorClass(joined))
	}
	if ErrorClass(nil) != Success || ErrorClass(cause) != ErrErrorCode {
		t.Error("ErrorClass of nil or a foreign error")
	}
	if Failed(nil) || !Failed(ErrVertex) || Failed(WarnNonUniqueID) || IsWarning(nil) {
		t.Error("Failed/IsWarning")
	}
}

func TestValueRoundTrip(t *testing.T) {
	d, _ := ParseDecimal("-123.456")
	tm, _ := NewTime(23, 59, 59, 999)
	dt, _ := NewDate(65535, 12, 31)
	dtt, _ := NewDatetime(0, 1, 1, 0, 0, 0, 0, -1200)
	vals := []Value{Chars("héllo"), Bytes([]byte{0, 255}), Bools(true, false), Int8s(-128, 127),
		Int16s(math.MinInt16), Int32s(math.MaxInt32), Int64s(math.MinInt64), Uint8s(255), Uint16s(65535),
		Uint32s(math.MaxUint32), Uint64s(math.MaxUint64), Floats(-1.5), Doubles(math.Inf(1)),
		Decimals(d), Times(tm), Dates(dt), Datetimes(dtt)}
	for _, v := range vals {
		size, err := v.Datatype().Size()
		if err != nil || len(v.Raw()) != size*v.Len() {
			t.Errorf("%v: size %d, raw %d, len %d, err %v", v, size, len(v.Raw()), v.Len(), err)
		}
		w, err := NewValue(v.Datatype(), v.Raw())
		if err != nil || w != v {
			t.Errorf("%v: NewValue round trip gave %v, %v", v, w, err)
		}
	}
	if _, err := NewValue(Int32, []byte{1, 2, 3}); !errors.Is(err, ErrCount) {
		t.Errorf("odd length: %v", err)
	}
	if _, err := NewValue(Bool, []byte{2}); !errors.Is(err, ErrRange) {
		t.Errorf("bool 2: %v", err)
	}
	if _, err := NewValue(TimeType, []byte{24, 0, 0, 0, 0}); !errors.Is(err, ErrTime) {
		t.Errorf("hour 24: %v", err)
	}
	if _, err := NewValue(Datatype(0), nil); !errors.Is(err, ErrDatatype) {
		t.Errorf("datatype 0: %v", err)
	}
	if xs, err := Int16s(-5, 7).Int64Slice(); err != nil || xs[0] != -5 || xs[1] != 7 {
		t.Errorf("Int64Slice = %v, %v", xs, err)
	}
	if _, err := Int16s(1).Uint64Slice(); !errors.Is(err, ErrDatatype) {
		t.Errorf("Uint64Slice of Int16: %v", err)
	}
}

func TestDecimal(t *testing.T) {
	for _, s := range []string{"0", "-0", "7", "7.", "-0.5", "1.50", "99999999999999999999999999999999999.999999999999999999999999999999"} {
		if _, err := ParseDecimal(s); err != nil {
			t.Errorf("ParseDecimal(%q): %v", s, err)
		}
	}
	for _, s := range []string{"", "-", "+1", "01", ".5", "1e3", "1.2.3", "1.0000000000000000000000000000001",
		"100000000000000000000000000000000000000000000000000000000000000000"} {
		if _, err := ParseDecimal(s); !errors.Is(err, ErrDecimal) {
			t.Errorf("ParseDecimal(%q) = %v, want ErrDecimal", s, err)
		}
	}
	a, _ := ParseDecimal("1.50")
	b, _ := ParseDecimal("1.5")
	z, _ := ParseDecimal("-0.000")
	if a != b || z != (Decimal{}) || a.Cmp(b) != 0 || z.String() != "0" {
		t.Error("canonical form")
	}
	n, _ := ParseDecimal("-10.01")
	if n.Cmp(a) != -1 || a.Cmp(n) != 1 {
		t.Error("Cmp")
	}
	if _, err := DecimalFromFloat64(math.NaN()); !errors.Is(err, ErrRange) {
		t.Error("NaN to decimal")
	}
	big, err := DecimalFromFloat64(1e60)
	if err != nil || big.String() != "999999999999999949387135297074018866963645011013410073083904" {
		t.Errorf("1e60 = %v, %v", big, err)
	}
	small, err := DecimalFromFloat64(-0.1)
	if err != nil || small.String() != "-0.100000000000000005551115123126" {
		t.Errorf("-0.1 = %v, %v", small, err)
	}
}

func TestConvert(t *testing.T) {
	d1, _ := ParseDecimal("300.9")
	cases := []struct {
		in   Value
		to   Datatype
		want Value
		err  Code
	}{
		{Int64s(-1), Uint32, Uint32s(math.MaxUint32), 0},
		{Uint64s(math.MaxUint64), Int8, Int8s(-1), 0},
		{Int32s(0, 5), Bool, Bools(false, true), 0},
		{Doubles(0.25), Bool, Bools(true), 0},
		{Doubles(math.NaN()), Int32, Value{}, ErrRange},
		{Doubles(-1), Uint8, Value{}, ErrRange},
		{Doubles(255.9), Uint8, Uint8s(255), 0},
		{Doubles(1e300), Float, Floats(float32(math.Inf(1))), 0},
		{Int64s(1 << 53), Double, Doubles(1 << 53), 0},
		{Decimals(d1), Uint8, Value{}, ErrRange},
		{Decimals(d1), Int16, Int16s(300), 0},
		{Decimals(d1), Double, Doubles(300.9), 0},
		{Chars("a"), Byte, Value{}, ErrConversion},
		{Bytes(nil), Char, Value{}, ErrConversion},
		{Int8s(1), Datatype(99), Value{}, ErrDatatype},
	}
	for _, c := range cases {
		got, err := Convert(c.in, c.to)
		if c.err != 0 {
			if !errors.Is(err, c.err) {
				t.Errorf("Convert(%v, %v) error %v, want %v", c.in, c.to, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Convert(%v, %v) = %v, %v; want %v", c.in, c.to, got, err, c.want)
		}
	}
	tm, _ := NewTime(1, 2, 3, 4)
	want, _ := NewDatetime(0, 1, 1, 1, 2, 3, 4, 0)
	if got, err := Convert(Times(tm), DatetimeType); err != nil || got != Datetimes(want) {
		t.Errorf("Time to Datetime = %v, %v", got, err)
	}
	day, _ := NewDate(2024, 2, 29)
	want, _ = NewDatetime(2024, 2, 29, 0, 0, 0, 0, 0)
	if got, err := Convert(Dates(day), DatetimeType); err != nil || got != Datetimes(want) {
		t.Errorf("Date to Datetime = %v, %v", got, err)
	}
	if _, err := Convert(Dates(day), TimeType); !errors.Is(err, ErrConversion) {
		t.Errorf("Date to Time: %v", err)
	}
}

func TestCompare(t *testing.T) {
	t1, _ := NewTime(10, 0, 0, 0)
	d1, _ := NewDate(2020, 5, 1)
	dtUTC, _ := NewDatetime(2020, 5, 1, 10, 0, 0, 0, 0)
	dtPlus1, _ := NewDatetime(2020, 5, 1, 11, 0, 0, 0, 100) // the same instant
	dec, _ := ParseDecimal("0.1")
	cases := []struct {
		op   Op
		a, b Value
		want bool
		err  Code
	}{
		{Greater, Int32s(-1), Uint32s(1), true, 0}, // C: int converted to unsigned int
		{Smaller, Int64s(-1), Uint32s(1), true, 0}, // long holds every unsigned int
		{Smaller, Int16s(-1), Uint16s(1), true, 0}, // both promoted to int
		{Equal, Bools(true), Int64s(1), true, 0},
		{Greater, Floats(0.1), Doubles(0.1), true, 0},           // float 0.1 > double 0.1
		{Greater, Int64s(16777217), Floats(16777216), false, 0}, // int rounded to float
		{Greater, Doubles(math.NaN()), Doubles(0), false, 0},
		{Smaller, Doubles(math.NaN()), Doubles(0), false, 0},
		{Greater, Decimals(dec), Doubles(0.1), false, 0}, // double 0.1 is slightly above 0.1
		{Smaller, Decimals(dec), Doubles(math.Inf(1)), true, 0},
		{EqGreater, Decimals(dec), Int8s(0), true, 0},
		{Equal, Times(t1), Datetimes(dtUTC), true, 0},
		{Equal, Dates(d1), Datetimes(dtPlus1), true, 0},
		{Equal, Datetimes(dtUTC), Datetimes(dtPlus1), true, 0},
		{Equal, Dates(d1), Times(t1), false, ErrOpDatatypeMismatch},
		{Equal, Chars("ab"), Chars("ab"), true, 0},
		{NotEqual, Chars("ab"), Chars("ac"), false, 0}, // every element must differ
		{Greater, Chars("b"), Chars("a"), false, ErrOpDatatypeMismatch},
		{Equal, Bytes([]byte{1}), Chars("\x01"), false, ErrOpDatatypeMismatch},
		{EqSmaller, Floats(1), Floats(1), false, ErrOpDatatypeMismatch},
		{Equal, Int8s(1), Chars("a"), false, ErrOpDatatypeMismatch},
		{Op(0), Int8s(1), Int8s(1), false, ErrOp},
		{Equal, Int8s(1, 2), Int8s(1), false, 0},
		{Equal, Int8s(), Int64s(), true, 0},
	}
	for _, c := range cases {
		got, err := Compare(c.op, c.a, c.b)
		if c.err != 0 {
			if !errors.Is(err, c.err) {
				t.Errorf("Compare(%v, %v, %v) error %v, want %v", c.op, c.a, c.b, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Compare(%v, %v, %v) = %v, %v; want %v", c.op, c.a, c.b, got, err, c.want)
		}
	}
}

func TestTimesRejectBadInput(t *testing.T) {
	for _, c := range [][4]int{{-1, 0, 0, 0}, {24, 0, 0, 0}, {0, 60, 0, 0}, {0, 0, 60, 0}, {0, 0, 0, 1000}} {
		if _, err := NewTime(c[0], c[1], c[2], c[3]); !errors.Is(err, ErrTime) {
			t.Errorf("NewTime%v: %v", c, err)
		}
	}
	for _, c := range [][3]int{{-1, 1, 1}, {65536, 1, 1}, {2023, 0, 1}, {2023, 13, 1}, {2023, 4, 31}, {1900, 2, 29}} {
		if _, err := NewDate(c[0], c[1], c[2]); !errors.Is(err, ErrDate) {
			t.Errorf("NewDate%v: %v", c, err)
		}
	}
	if _, err := NewDate(2000, 2, 29); err != nil {
		t.Errorf("2000-02-29: %v", err)
	}
	for _, z := range []int{-1201, 1401, 160, -99999} {
		if _, err := NewDatetime(2020, 1, 1, 0, 0, 0, 0, z); !errors.Is(err, ErrDatetime) {
			t.Errorf("zone %d: %v", z, err)
		}
	}
}

func TestHandles(t *testing.T) {
	tag := NewDatabaseTag()
	if tag == 0 || NewDatabaseTag() == tag {
		t.Fatal("tags must be non-zero and distinct")
	}
	l := MakeLabel(tag, FirstUserID)
	if l.Tag() != tag || l.ID() != FirstUserID || l.IsPredefined() || l == LabelNull {
		t.Errorf("label %v", l)
	}
	m := map[Label]int{l: 1, LabelNone: 2}
	if m[MakeLabel(tag, FirstUserID)] != 1 {
		t.Error("labels as map keys")
	}
	if !LabelNone.IsPredefined() || LabelNone.Tag() != 0 {
		t.Error("LabelNone")
	}
	for _, p := range PredefinedPropertyTypes() {
		info, ok := PredefinedPropertyTypeInfo(p)
		if !ok || p.Tag() != 0 || p.ID() >= FirstUserID {
			t.Errorf("%v", p)
		}
		if v, err := info.Validate(); err != nil || v != info {
			t.Errorf("%v: Validate = %v, %v", p, v, err)
		}
	}
	if PropertyTypeID.IsReadOnly() || !PropertyTypeDegree.IsReadOnly() {
		t.Error("read-only flags")
	}
}

func TestPropertyTypeInfo(t *testing.T) {
	ok := PropertyTypeInfo{Name: "age ", Entity: SingleEntity, Datatype: Uint8, Size: FixedSize, Count: 1}
	v, err := ok.Validate()
	if err != nil || v.Name != "age" {
		t.Fatalf("Validate = %+v, %v", v, err)
	}
	if err := v.CheckValue(Uint8s(30)); err != nil {
		t.Error(err)
	}
	if err := v.CheckValue(Uint8s(30, 31)); !errors.Is(err, ErrSizeLimit) {
		t.Errorf("two elements: %v", err)
	}
	if err := v.CheckValue(Int8s(30)); !errors.Is(err, ErrDatatype) {
		t.Errorf("wrong datatype: %v", err)
	}
	bad := []struct {
		info PropertyTypeInfo
		err  Code
	}{
		{PropertyTypeInfo{Name: "  ", Entity: SingleEntity, Datatype: Char, Size: NoSizeLimit}, ErrEmptyName},
		{PropertyTypeInfo{Name: "x", Datatype: Char, Size: NoSizeLimit}, ErrState},
		{PropertyTypeInfo{Name: "x", Entity: SingleEntity, Size: NoSizeLimit}, ErrDatatype},
		{PropertyTypeInfo{Name: "x", Entity: SingleEntity, Datatype: Char}, ErrState},
		{PropertyTypeInfo{Name: "x", Entity: SingleEntity, Datatype: Char, Size: MaxSize}, ErrCount},
	}
	for _, b := range bad {
		if _, err := b.info.Validate(); !errors.Is(err, b.err) {
			t.Errorf("%+v: %v, want %v", b.info, err, b.err)
		}
	}
	nl, _ := PropertyTypeInfo{Name: "x", Entity: MultipleEntity, Datatype: Char, Size: NoSizeLimit, Count: 9}.Validate()
	if nl.Count != 0 {
		t.Error("NoSizeLimit count must become 0")
	}
}

func TestNormalizeName(t *testing.T) {
	if n, err := NormalizeName("  Person  "); err != nil || n != "  Person" {
		t.Errorf("got %q, %v", n, err)
	}
	long := ""
	for len(long) < 2*MaxObjectName {
		long += "é"
	}
	n, err := NormalizeName(long)
	if err != nil || len(n) > MaxObjectName-1 || len(n) < MaxObjectName-2 {
		t.Errorf("long name: %d bytes, %v", len(n), err)
	}
	if _, err := NormalizeName(" "); !errors.Is(err, ErrEmptyName) {
		t.Errorf("blank: %v", err)
	}
	if _, err := NormalizeName("\xff"); !errors.Is(err, ErrArgument) {
		t.Errorf("bad UTF-8: %v", err)
	}
}

func TestOrientation(t *testing.T) {
	if err := Orientation(0).Valid(); !errors.Is(err, ErrEdgeOrientation) {
		t.Error("0 must be invalid")
	}
	if err := Orientation(8).Valid(); !errors.Is(err, ErrEdgeOrientation) {
		t.Error("8 must be invalid")
	}
	if err := EdgeAll.Valid(); err != nil {
		t.Error(err)
	}
	cases := []struct {
		o                  Orientation
		d                  DirectionType
		isOrigin, isTarget bool
		want               bool
	}{
		{EdgeOutgoing, Directed, true, false, true},
		{EdgeOutgoing, Directed, false, true, false},
		{EdgeIncoming, Directed, false, true, true},
		{EdgeIncoming, Directed, true, true, true}, // loop
		{EdgeIncoming | EdgeOutgoing, Undirected, true, false, false},
		{EdgeUndirected, Undirected, false, true, true},
		{EdgeUndirected, Directed, true, false, false},
	}
	for _, c := range cases {
		if got := c.o.Matches(c.d, c.isOrigin, c.isTarget); got != c.want {
			t.Errorf("%v.Matches(%v, %v, %v) = %v", c.o, c.d, c.isOrigin, c.isTarget, got)
		}
	}
}

func TestIndexCovers(t *testing.T) {
	a, b := Label(100), Label(101)
	p, q := PropertyType(200), PropertyType(201)
	cases := []struct {
		l      []Label
		p      []PropertyType
		ol     []Label
		op     []PropertyType
		covers bool
	}{
		{nil, nil, []Label{a}, []PropertyType{p}, false},
		{[]Label{a}, nil, []Label{a, b}, nil, true},
		{[]Label{a}, nil, []Label{b}, nil, false},
		{[]Label{a}, []PropertyType{p}, []Label{a}, []PropertyType{q}, false},
		{[]Label{a}, []PropertyType{p}, []Label{a}, []PropertyType{p, q}, true},
		{nil, []PropertyType{q}, nil, []PropertyType{q}, true},
		{[]Label{LabelNone}, nil, nil, nil, true},
		{[]Label{LabelNone}, nil, []Label{a}, nil, false},
	}
	for i, c := range cases {
		if got := IndexCovers(c.l, c.p, c.ol, c.op); got != c.covers {
			t.Errorf("case %d: %v", i, got)
		}
	}
}

func TestConditions(t *testing.T) {
	if err := (LabelCondition{LabelNone, Greater}).Check(); !errors.Is(err, ErrOpDatatypeMismatch) {
		t.Errorf("label Greater: %v", err)
	}
	if err := (LabelCondition{LabelNone, Op(9)}).Check(); !errors.Is(err, ErrOp) {
		t.Errorf("label Op 9: %v", err)
	}
	if !(LabelCondition{LabelNone, Equal}).Eval(nil) || (LabelCondition{LabelNone, Equal}).Eval([]Label{100}) {
		t.Error("LabelNone condition")
	}
	info := PropertyTypeInfo{Name: "w", Entity: MultipleEntity, Datatype: Double, Size: FixedSize, Count: 1}
	if err := (PropertyCondition{0, EqGreater, Doubles(1)}).Check(info); !errors.Is(err, ErrOpDatatypeMismatch) {
		t.Errorf("double EqGreater: %v", err)
	}
	if err := (PropertyCondition{0, Greater, Doubles(1, 2)}).Check(info); !errors.Is(err, ErrSizeLimit) {
		t.Errorf("size limit: %v", err)
	}
	pc := PropertyCondition{0, Greater, Doubles(1)}
	if ok, err := pc.Eval([]Value{Doubles(0.5), Doubles(2)}); !ok || err != nil {
		t.Errorf("some value > 1: %v %v", ok, err)
	}
	if ok, _ := (DNF{}).Eval(emptyObject{}); ok {
		t.Error("empty DNF must be false")
	}
	if ok, _ := (DNF{{}}).Eval(emptyObject{}); !ok {
		t.Error("empty conjunction must be true")
	}
}

type emptyObject struct{}

func (emptyObject) Labels() []Label               { return nil }
func (emptyObject) Values(p PropertyType) []Value { return nil }

// TestChecksElements: NewValue skips element validation for datatypes
// checksElements leaves out, so none of those may have an encoding that
// validElement rejects.
func TestChecksElements(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for d := Char; d.Valid(); d++ {
		size, err := d.Size()
		if err != nil {
			t.Fatal(err)
		}
		rejected := 0
		for range 2000 {
			b := make([]byte, size)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			if validElement(d, b) != nil {
				rejected++
			}
		}
		if rejected > 0 && !checksElements(d) {
			t.Errorf("%v: validElement rejects %d of 2000 random elements, but checksElements says there is nothing to check", d, rejected)
		}
		if rejected == 0 && checksElements(d) {
			t.Errorf("%v: checksElements says elements need checking, but validElement accepted 2000 random ones", d)
		}
	}
}

type labelObject []Label

func (o labelObject) Labels() []Label             { return o }
func (labelObject) Values(p PropertyType) []Value { return nil }

// TestEvalLabels: on formulas without property conditions, EvalLabels and
// Eval agree, for random formulas and label sets.
func TestEvalLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func() Label {
		if rng.IntN(5) == 0 {
			return LabelNone
		}
		return Label(100 + rng.IntN(3))
	}
	for range 5000 {
		var d DNF
		for range rng.IntN(3) {
			var c Conjunction
			for range rng.IntN(3) {
				op := Equal
				if rng.IntN(2) == 0 {
					op = NotEqual
				}
				c.Labels = append(c.Labels, LabelCondition{pick(), op})
			}
			d = append(d, c)
		}
		var labels []Label
		for range rng.IntN(3) {
			if l := pick(); l != LabelNone {
				labels = append(labels, l)
			}
		}
		if !d.LabelsOnly() {
			t.Fatalf("%v has no property conditions", d)
		}
		want, err := d.Eval(labelObject(labels))
		if err != nil {
			t.Fatal(err)
		}
		if got := d.EvalLabels(labels); got != want {
			t.Fatalf("%v on %v: EvalLabels %v, Eval %v", d, labels, got, want)
		}
	}
	if (DNF{{Properties: []PropertyCondition{{0, Equal, Int64s(1)}}}}).LabelsOnly() {
		t.Error("a property condition is not labels only")
	}
}
