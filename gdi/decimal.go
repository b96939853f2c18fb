package gdi

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// Limits of Decimal.
const (
	// MaxDecimalDigits is the largest number of digits of a Decimal.
	MaxDecimalDigits = 65
	// MaxDecimalFraction is the largest number of digits after the point.
	MaxDecimalFraction = 30
	// MaxDecimalSize is the size in bytes of a buffer that holds the longest
	// decimal string plus a terminating NUL, as in the specification; so
	// Decimal.String is at most MaxDecimalSize-1 = 67 bytes long (sign, 65
	// digits and the point).
	MaxDecimalSize = MaxDecimalDigits + 3

	decimalSize = MaxDecimalSize - 1
)

// Decimal is an exact fixed-point number of up to 65 digits, at most 30 of
// them after the decimal point: the specification's GDI_Decimal.
//
// A Decimal is comparable; == is numeric equality because the value is
// kept in canonical form: no leading zeros in the integer part, no trailing
// zeros in the fraction, no point if the fraction is empty, and no minus
// sign on zero. The zero Decimal is 0.
//
// Encoding in a Value: the canonical string, padded with NUL bytes to 67
// bytes.
type Decimal struct {
	s string // canonical form; "" means "0"
}

// ParseDecimal parses a decimal string: GDI_SetDecimal. The accepted form
// is an optional minus sign, then either 0 or a digit 1-9 followed by more
// digits, then optionally a point and fraction digits; in all at most 65
// digits, at most 30 after the point. "-1.50", "0.25", "7" and "7." are
// valid; "+1", "01", ".5" and "1e3" are not. A bad string returns
// ErrDecimal.
func ParseDecimal(s string) (Decimal, error) {
	neg, ip, fp, ok := splitDecimal(s)
	if !ok {
		return Decimal{}, Errorf(ErrDecimal, "malformed decimal %q", s)
	}
	if len(fp) > MaxDecimalFraction || len(ip)+len(fp) > MaxDecimalDigits {
		return Decimal{}, Errorf(ErrDecimal, "decimal %q has more than %d digits or more than %d after the point", s, MaxDecimalDigits, MaxDecimalFraction)
	}
	return makeDecimal(neg, ip, fp), nil
}

// splitDecimal checks the syntax and splits s into sign, integer digits and
// fraction digits.
func splitDecimal(s string) (neg bool, ip, fp string, ok bool) {
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	ip, fp, hasPoint := strings.Cut(s, ".")
	if ip == "" || !allDigits(ip) || !allDigits(fp) || (len(ip) > 1 && ip[0] == '0') {
		return false, "", "", false
	}
	_ = hasPoint
	return neg, ip, fp, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// makeDecimal builds the canonical form from syntactically valid parts.
func makeDecimal(neg bool, ip, fp string) Decimal {
	ip = strings.TrimLeft(ip, "0")
	fp = strings.TrimRight(fp, "0")
	if ip == "" && fp == "" {
		return Decimal{}
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if ip == "" {
		b.WriteByte('0')
	} else {
		b.WriteString(ip)
	}
	if fp != "" {
		b.WriteByte('.')
		b.WriteString(fp)
	}
	return Decimal{b.String()}
}

// String returns the canonical decimal string: GDI_GetDecimal. It is at
// most MaxDecimalSize-1 bytes long.
func (d Decimal) String() string {
	if d.s == "" {
		return "0"
	}
	return d.s
}

// parts returns the sign, integer digits (no leading zeros, "" for 0) and
// fraction digits (no trailing zeros).
func (d Decimal) parts() (neg bool, ip, fp string) {
	s := d.String()
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	ip, fp, _ = strings.Cut(s, ".")
	return neg, strings.TrimLeft(ip, "0"), fp
}

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int {
	switch {
	case d.s == "":
		return 0
	case d.s[0] == '-':
		return -1
	}
	return 1
}

// Cmp compares d and e numerically and returns -1, 0 or +1.
func (d Decimal) Cmp(e Decimal) int {
	ds, es := d.Sign(), e.Sign()
	if ds != es {
		if ds < es {
			return -1
		}
		return 1
	}
	_, di, df := d.parts()
	_, ei, ef := e.parts()
	c := cmpMagnitude(di, df, ei, ef)
	return c * ds
}

func cmpMagnitude(ai, af, bi, bf string) int {
	if len(ai) != len(bi) {
		if len(ai) < len(bi) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(ai, bi); c != 0 {
		return c
	}
	n := max(len(af), len(bf))
	af += strings.Repeat("0", n-len(af))
	bf += strings.Repeat("0", n-len(bf))
	return strings.Compare(af, bf)
}

func (d Decimal) appendEncoding(b []byte) []byte {
	s := d.String()
	b = append(b, s...)
	for i := len(s); i < decimalSize; i++ {
		b = append(b, 0)
	}
	return b
}

func decodeDecimal(b []byte) (Decimal, error) {
	s := string(bytes.TrimRight(b, "\x00"))
	d, err := ParseDecimal(s)
	if err != nil || d.String() != s {
		return Decimal{}, Errorf(ErrDecimal, "element %q is not a canonical decimal", s)
	}
	return d, nil
}

// DecimalFromInt64 returns x as a Decimal, exactly.
func DecimalFromInt64(x int64) Decimal {
	d, _ := ParseDecimal(strconv.FormatInt(x, 10))
	return d
}

// DecimalFromUint64 returns x as a Decimal, exactly.
func DecimalFromUint64(x uint64) Decimal {
	d, _ := ParseDecimal(strconv.FormatUint(x, 10))
	return d
}

// DecimalFromFloat64 converts x as the specification prescribes: x is
// written with its exact binary value rounded to 30 digits after the point
// (as C's printf("%.30f") does), fewer if the integer part leaves less than
// 65 digits in all. Precision may be lost. NaN, infinities and numbers of
// 10^65 or more in magnitude return ErrRange.
func DecimalFromFloat64(x float64) (Decimal, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= 1e65 {
		return Decimal{}, Errorf(ErrRange, "%g cannot be a decimal", x)
	}
	prec := MaxDecimalFraction
	for {
		s := strconv.FormatFloat(x, 'f', prec, 64)
		neg, ip, fp, _ := splitDecimal(s)
		ipDigits := len(strings.TrimLeft(ip, "0"))
		if ipDigits > MaxDecimalDigits {
			return Decimal{}, Errorf(ErrRange, "%g cannot be a decimal", x)
		}
		if ipDigits+prec <= MaxDecimalDigits || prec == 0 {
			return makeDecimal(neg, ip, fp), nil
		}
		prec = MaxDecimalDigits - ipDigits
	}
}

// Float64 converts d to the nearest float64. Precision may be lost.
func (d Decimal) Float64() float64 {
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// truncated returns the integer part of d (cut toward zero) as sign and
// magnitude; ok is false if the magnitude does not fit in a uint64.
func (d Decimal) truncated() (neg bool, mag uint64, ok bool) {
	neg, ip, _ := d.parts()
	if ip == "" {
		return false, 0, true
	}
	mag, err := strconv.ParseUint(ip, 10, 64)
	return neg, mag, err == nil
}
