package gdi

import (
	"encoding/binary"
	"fmt"
)

const (
	timeSize     = 5
	dateSize     = 4
	datetimeSize = dateSize + timeSize + 2
)

// Time is a time of day with millisecond precision, from 00:00:00.000 to
// 23:59:59.999: the specification's GDI_Time. The zero Time is midnight.
// Times are comparable; == is equality.
//
// Encoding in a Value: hour, minute, second (one byte each), then the
// milliseconds as a little-endian uint16.
type Time struct {
	hour, minute, second uint8
	fraction             uint16
}

// NewTime returns the time hour:minute:second.fraction, where fraction is
// in milliseconds: GDI_SetTime. Components out of range (hour 0-23, minute
// and second 0-59, fraction 0-999) return ErrTime.
func NewTime(hour, minute, second, fraction int) (Time, error) {
	if hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || fraction < 0 || fraction > 999 {
		return Time{}, Errorf(ErrTime, "time %d:%d:%d.%d out of range", hour, minute, second, fraction)
	}
	return Time{uint8(hour), uint8(minute), uint8(second), uint16(fraction)}, nil
}

// Parts returns the components of t: GDI_GetTime.
func (t Time) Parts() (hour, minute, second, fraction int) {
	return int(t.hour), int(t.minute), int(t.second), int(t.fraction)
}

// String formats t as hh:mm:ss.SSS, the CSV format.
func (t Time) String() string {
	return fmt.Sprintf("%02d:%02d:%02d.%03d", t.hour, t.minute, t.second, t.fraction)
}

// millis returns the milliseconds since midnight.
func (t Time) millis() int64 {
	return ((int64(t.hour)*60+int64(t.minute))*60+int64(t.second))*1000 + int64(t.fraction)
}

func (t Time) appendEncoding(b []byte) []byte {
	b = append(b, t.hour, t.minute, t.second)
	return binary.LittleEndian.AppendUint16(b, t.fraction)
}

func decodeTime(b []byte) (Time, error) {
	return NewTime(int(b[0]), int(b[1]), int(b[2]), int(binary.LittleEndian.Uint16(b[3:])))
}

// Date is a day of the proleptic Gregorian calendar, from 0000-01-01 to
// 65535-12-31: the specification's GDI_Date. The zero Date is not valid;
// use NewDate. Dates are comparable; == is equality.
//
// Encoding in a Value: the year as a little-endian uint16, then month and
// day (one byte each).
type Date struct {
	year       uint16
	month, day uint8
}

// NewDate returns the date year-month-day: GDI_SetDate. The year must be in
// 0-65535, the month in 1-12 and the day must exist in that month (leap
// years follow the Gregorian rule); otherwise it returns ErrDate. The
// specification states only the range 1-31 for the day; this binding also
// rejects days such as February 30.
func NewDate(year, month, day int) (Date, error) {
	if year < 0 || year > 65535 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) {
		return Date{}, Errorf(ErrDate, "date %04d-%02d-%02d does not exist", year, month, day)
	}
	return Date{uint16(year), uint8(month), uint8(day)}, nil
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// Parts returns the components of d: GDI_GetDate.
func (d Date) Parts() (year, month, day int) { return int(d.year), int(d.month), int(d.day) }

// String formats d as yyyy-MM-dd, the CSV format.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.year, d.month, d.day) }

// days returns the number of days since 0000-03-01 (any fixed origin works
// for comparisons).
func (d Date) days() int64 {
	y, m := int64(d.year), int64(d.month)
	if m <= 2 {
		y--
		m += 12
	}
	// Days before year y (from year 0 on) plus days before month m, with
	// March as the first month.
	return 365*y + floorDiv(y, 4) - floorDiv(y, 100) + floorDiv(y, 400) + (153*(m-3)+2)/5 + int64(d.day) - 1
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func (d Date) appendEncoding(b []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, d.year)
	return append(b, d.month, d.day)
}

func decodeDate(b []byte) (Date, error) {
	return NewDate(int(binary.LittleEndian.Uint16(b)), int(b[2]), int(b[3]))
}

// Datetime is a date and a time of day in a time zone given as an offset
// from UTC: the specification's GDI_Datetime. Daylight saving time cannot
// be expressed. The zero Datetime is not valid; use NewDatetime.
// Datetimes are comparable; == is equality of all components, the zone
// included (Compare with Equal instead compares instants).
//
// Encoding in a Value: the encoded Date, the encoded Time, then the zone
// as a little-endian int16 in the ±hhmm form.
type Datetime struct {
	date Date
	time Time
	zone int16
}

// NewDatetime returns a Datetime: GDI_SetDatetime. The date and time
// components follow NewDate and NewTime. zone is the offset from UTC in the
// form ±hhmm (for example -0800, 530 for +05:30), from -1200 to +1400 with
// minutes below 60. Bad components return ErrDatetime.
func NewDatetime(year, month, day, hour, minute, second, fraction, zone int) (Datetime, error) {
	d, err := NewDate(year, month, day)
	if err != nil {
		return Datetime{}, Errorf(ErrDatetime, "%v", err)
	}
	t, err := NewTime(hour, minute, second, fraction)
	if err != nil {
		return Datetime{}, Errorf(ErrDatetime, "%v", err)
	}
	if zone < -1200 || zone > 1400 || abs(zone)%100 >= 60 {
		return Datetime{}, Errorf(ErrDatetime, "time zone %+05d out of range", zone)
	}
	return Datetime{d, t, int16(zone)}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Parts returns the components of dt: GDI_GetDatetime.
func (dt Datetime) Parts() (year, month, day, hour, minute, second, fraction, zone int) {
	year, month, day = dt.date.Parts()
	hour, minute, second, fraction = dt.time.Parts()
	return year, month, day, hour, minute, second, fraction, int(dt.zone)
}

// Date returns the date part of dt, as in the conversion to Date.
func (dt Datetime) Date() Date { return dt.date }

// Time returns the time part of dt, as in the conversion to Time.
func (dt Datetime) Time() Time { return dt.time }

// Zone returns the offset from UTC in the form ±hhmm.
func (dt Datetime) Zone() int { return int(dt.zone) }

// String formats dt as ±hhmm yyyy-MM-dd hh:mm:ss.SSS, the CSV format.
func (dt Datetime) String() string {
	return fmt.Sprintf("%+05d %s %s", dt.zone, dt.date, dt.time)
}

// isoString formats dt in ISO 8601 form, yyyy-MM-ddThh:mm:ss.SSS±hh:mm.
func (dt Datetime) isoString() string {
	sign, zone := '+', int(dt.zone)
	if zone < 0 {
		sign, zone = '-', -zone
	}
	return fmt.Sprintf("%sT%s%c%02d:%02d", dt.date, dt.time, sign, zone/100, zone%100)
}

// instant returns the milliseconds since a fixed origin, in UTC.
func (dt Datetime) instant() int64 {
	z := int64(dt.zone)
	offset := (z/100*60 + z%100) * 60000
	return dt.date.days()*86400000 + dt.time.millis() - offset
}

func (dt Datetime) appendEncoding(b []byte) []byte {
	b = dt.date.appendEncoding(b)
	b = dt.time.appendEncoding(b)
	return binary.LittleEndian.AppendUint16(b, uint16(dt.zone))
}

func decodeDatetime(b []byte) (Datetime, error) {
	y, mo, d := int(binary.LittleEndian.Uint16(b)), int(b[2]), int(b[3])
	h, mi, s, f := int(b[4]), int(b[5]), int(b[6]), int(binary.LittleEndian.Uint16(b[7:]))
	return NewDatetime(y, mo, d, h, mi, s, f, int(int16(binary.LittleEndian.Uint16(b[9:]))))
}
