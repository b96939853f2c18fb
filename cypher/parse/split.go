package parse

// A Piece is one statement of a source text of several: its text, without
// the spaces and comments around it, and the byte offset of the text in
// the source.
type Piece struct {
	Text   string
	Offset int
}

// Split is a source text cut at its semicolons (SplitStatements).
type Split struct {
	Statements []Piece // the statements ended by ';', empty ones left out
	Rest       *Piece  // what follows the last ';', if more than spaces and comments
	Tail       int     // the byte offset after the last ';'
	Open       bool    // the source ends inside a string, a back-quoted name or a block comment
}

// SplitStatements cuts src at the semicolons outside strings, back-quoted
// names and comments, as the parser's lexer reads them. A lexical error
// does not stop it: the statement that holds the error is cut like any
// other, and Parse reports the error. A string, name or comment that src
// ends inside makes Open true; a string or name runs to the end of Rest.
// A shell reads on while Open, and runs Statements as they come.
func SplitStatements(src string) Split {
	lx := &lexer{src: src, line: 1, col: 1}
	var sp Split
	first, end := -1, -1 // the current statement's first and end offsets
	for {
		t := lx.next()
		switch {
		case t.kind == tEOF:
			if first >= 0 {
				sp.Rest = &Piece{src[first:end], first}
			}
			return sp
		case t.kind == tSemicolon:
			if first >= 0 {
				sp.Statements = append(sp.Statements, Piece{src[first:end], first})
			}
			sp.Tail, first, end = t.end, -1, -1
			continue
		case t.open:
			sp.Open = true
			if t.text[0] == '/' { // a comment is no part of a statement
				continue
			}
		}
		if first < 0 {
			first = t.pos.Offset
		}
		end = t.end
	}
}
