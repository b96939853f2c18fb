package csvimport

import (
	"errors"
	"strings"
)

// splitLine splits a line, without its line ending, into fields at delim,
// as neo4j-admin import reads them: a field in double quotes may hold the
// delimiter, and "" in it is one quote; a field may not span lines. The
// fields are appended to out, which is reused.
func splitLine(line string, delim byte) ([]string, error) {
	return appendFields(nil, line, delim)
}

func appendFields(out []string, line string, delim byte) ([]string, error) {
	for {
		if line != "" && line[0] == '"' {
			f, rest, err := quoted(line[1:], delim)
			if err != nil {
				return out, err
			}
			out = append(out, f)
			if rest == "" {
				return out, nil
			}
			line = rest[1:] // past the delimiter
			continue
		}
		i := strings.IndexByte(line, delim)
		if i < 0 {
			return append(out, line), nil
		}
		out = append(out, line[:i])
		line = line[i+1:]
		if line == "" {
			return append(out, ""), nil
		}
	}
}

// quoted reads a quoted field whose opening quote is gone: it returns the
// field and what follows its closing quote, which is empty or starts with
// delim.
func quoted(s string, delim byte) (field, rest string, err error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return "", "", errors.New("a quoted field does not end on its line")
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		if s != "" && s[0] == '"' {
			b.WriteByte('"')
			s = s[1:]
			continue
		}
		if s != "" && s[0] != delim {
			return "", "", errors.New("a quoted field goes on past its closing quote")
		}
		return b.String(), s, nil
	}
}
