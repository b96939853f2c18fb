package gdi

import (
	"strings"
	"unicode/utf8"
)

// Length limits of strings, as in the specification: a limit N means that a
// C buffer of N bytes holds the longest string plus a terminating NUL, so
// Go strings are at most N-1 bytes long.
const (
	// MaxObjectName bounds the names of labels and property types.
	MaxObjectName = 128
	// MaxErrorString bounds the strings of Code.Error.
	MaxErrorString = 256
)

// NormalizeName returns name as a backend must store it (specification
// section 2.7): trailing spaces removed (leading ones kept), then cut to at
// most MaxObjectName-1 bytes without splitting a UTF-8 sequence. It returns
// ErrEmptyName if nothing is left, and ErrArgument if name is not valid
// UTF-8. Every backend applies it to the names given to CreateLabel,
// UpdateLabel, the property type calls and to the names looked up by
// LabelFromName and PropertyTypeFromName, so all agree on what a name is;
// a lookup of a name that normalizes to nothing finds nothing (the null
// handle, no error), since no object can have it.
func NormalizeName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", Errorf(ErrArgument, "name %q is not valid UTF-8", name)
	}
	name = strings.TrimRight(name, " ")
	if len(name) > MaxObjectName-1 {
		n := MaxObjectName - 1
		for n > 0 && !utf8.RuneStart(name[n]) {
			n--
		}
		name = name[:n]
	}
	if name == "" {
		return "", Errorf(ErrEmptyName, "empty name")
	}
	return name, nil
}
