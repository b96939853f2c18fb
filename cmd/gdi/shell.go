package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/gdi-go/gdi/cypher"
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

const shellUsage = `usage: gdi shell [flags]

An interactive openCypher prompt on a database of -ranks ranks: a new,
empty one, or the gdirma checkpoint -restore DIR (on as many ranks as the
checkpoint's). A statement ends with ';' and may span lines; the prompt
shows "...>" on the lines that continue one. Each result prints as a
table, as in gdi query, with the number of rows and the time the
statement took; an error prints with its line and column, and the shell
goes on.

  :help          this help
  :schema        the labels, property types (with their datatypes) and
                 indexes of the database
  :param NAME => VALUE
                 give $NAME the value, a Cypher literal, in the statements
                 that follow ('Ada', 3, [1, 2.5], {k: 'v'}, null)
  :params        the parameters given so far
  :quit, :exit   leave (so does the end of the input, or Ctrl-D)

On a terminal, the line can be edited and earlier lines come back with
the arrow keys; Ctrl-C drops the statement being typed. A statement that
runs cannot be interrupted: every rank runs it. Otherwise (a pipe, a file) the lines are read as they
come, with no prompt, errors go to stderr, and the exit status is 1 if a
statement failed. Under mpirun, rank 0 reads the input and every rank
runs each statement.

flags:
`

const shellHelp = `Statements end with ';' and may span lines; Ctrl-C drops the one
being typed. Commands:
  :help                 this help
  :schema               labels, property types and indexes of the database
  :param NAME => VALUE  give $NAME a value (a Cypher literal)
  :params               the parameters given so far
  :quit, :exit          leave (also Ctrl-D)
`

// runShell is the shell subcommand.
func runShell(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("shell", flag.ContinueOnError)
	fs.SetOutput(stderr)
	usageOf(fs, shellUsage, stderr)
	var opt dbOptions
	opt.register(fs)
	var params paramFlag
	fs.Var(&params, "param", "a parameter: name=value, the value a Cypher literal (repeatable); :param adds more")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkParsed(fs); err != nil {
		return err
	}
	driver, dbParams, err := opt.params()
	if err != nil {
		return err
	}
	failed := 0
	err = launch.Run(opt.ranks, func(comm rma.Comm) error {
		db, eng, err := openEngine(comm, driver, dbParams)
		if err != nil {
			return err
		}
		sh := &shell{comm: comm, db: db, eng: eng, params: paramFlag{m: maps.Clone(params.m)}}
		if comm.Rank() == 0 {
			err = sh.lead(os.Stdin, stdout, stderr)
			failed = sh.failed
		} else {
			err = sh.follow()
		}
		return errors.Join(err, db.Free())
	})
	if err == nil && failed > 0 {
		err = fmt.Errorf("%d statement(s) failed", failed)
	}
	return errors.Join(err, launch.Finalize())
}

// shell is the state of gdi shell on one rank.
type shell struct {
	comm   rma.Comm
	db     gdi.Database
	eng    *cypher.Engine
	params paramFlag // the statements' parameters, the same on every rank
	failed int       // statements that failed, when the input is no terminal (rank 0)
	tty    bool      // the input is a terminal (rank 0)
}

// The operations rank 0 broadcasts.
const (
	opRun   = 'r'
	opParam = 'p' // name=value, checked by rank 0 before it is sent
	opQuit  = 'q'
)

// send broadcasts an operation and its text from rank 0 (collective; the
// other ranks pass anything and get rank 0's).
func (sh *shell) send(op byte, text string) (byte, string, error) {
	msg, err := bcastText(sh.comm, string(rune(op))+text)
	if err != nil {
		return 0, "", err
	}
	return msg[0], msg[1:], nil
}

// follow is the loop of the ranks other than 0: run what rank 0 sends.
func (sh *shell) follow() error {
	for {
		op, text, err := sh.send(0, "")
		switch {
		case err != nil || op == opQuit:
			return err
		case op == opParam:
			if err := sh.params.Set(text); err != nil {
				return err // rank 0 checked it: the ranks no longer agree
			}
			continue
		}
		if _, _, err := sh.run(text); err != nil && !isStatementError(err) {
			return err
		}
	}
}

// run runs a statement on every rank (collective).
func (sh *shell) run(text string) (*cypher.Result, time.Duration, error) {
	start := time.Now()
	res, err := sh.eng.Run(context.Background(), text, sh.params.m)
	return res, time.Since(start), err
}

// isStatementError reports whether err is the error of a statement, after
// which the shell goes on, rather than a failure of the ranks.
func isStatementError(err error) bool {
	var ce *cypher.Error
	return errors.As(err, &ce)
}

// lineReader reads the input of the shell.
type lineReader interface {
	readLine(prompt string) (string, error)
}

// plainReader reads lines from a pipe or file, without prompts.
type plainReader struct{ s *bufio.Scanner }

func (r plainReader) readLine(string) (string, error) {
	if r.s.Scan() {
		return r.s.Text(), nil
	}
	if err := r.s.Err(); err != nil {
		return "", err
	}
	return "", io.EOF
}

// termReader reads lines with editing and history from a terminal.
type termReader struct {
	t  *term.Terminal
	in *ctrlCReader
}

// errInterrupt is Ctrl-C at the prompt.
var errInterrupt = errors.New("interrupt")

func (r termReader) readLine(prompt string) (string, error) {
	r.t.SetPrompt(prompt)
	line, err := r.t.ReadLine()
	if err == nil && r.in.pressed {
		r.in.pressed = false
		return "", errInterrupt
	}
	return line, err
}

// ctrlCReader is the terminal's input with Ctrl-C (in raw mode a byte, 3,
// not a signal) turned into keys that clear the line and end it (Ctrl-E,
// Ctrl-U, Enter): term.Terminal itself ends the input at Ctrl-C. pressed
// tells readLine that the line it got was cleared so.
type ctrlCReader struct {
	r       io.Reader
	pending []byte
	pressed bool
}

// clearLine is what Ctrl-C becomes.
var clearLine = []byte{5, 21, '\r'}

func (c *ctrlCReader) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		n, err := c.r.Read(p)
		if bytes.IndexByte(p[:n], 3) < 0 {
			return n, err
		}
		c.pressed = true
		c.pending = bytes.ReplaceAll(p[:n], []byte{3}, clearLine)
		if len(c.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// lead is the loop of rank 0: read statements and commands, send each
// statement to every rank, print what comes back.
func (sh *shell) lead(in *os.File, stdout, stderr io.Writer) (err error) {
	var rd lineReader
	out, errOut := stdout, stderr
	sh.tty = term.IsTerminal(int(in.Fd())) && isTerminal(stdout)
	if sh.tty {
		old, err := term.MakeRaw(int(in.Fd()))
		if err != nil {
			return err
		}
		defer term.Restore(int(in.Fd()), old)
		cr := &ctrlCReader{r: in}
		t := term.NewTerminal(struct {
			io.Reader
			io.Writer
		}{cr, stdout}, "")
		if w, h, err := term.GetSize(int(in.Fd())); err == nil && w > 0 && h > 0 {
			t.SetSize(w, h)
		}
		rd, out, errOut = termReader{t, cr}, t, t
		fmt.Fprintf(out, "gdi shell on %d rank(s); :help for help, :quit to leave.\n", sh.comm.Size())
	} else {
		s := bufio.NewScanner(in)
		s.Buffer(make([]byte, 64<<10), 64<<20)
		rd = plainReader{s}
	}
	defer func() { // the other ranks leave too
		_, _, qerr := sh.send(opQuit, "")
		err = errors.Join(err, qerr)
	}()
	var buf string // the statement read so far
	for {
		prompt := "gdi> "
		if strings.TrimSpace(buf) != "" {
			prompt = "...> "
		}
		line, rerr := rd.readLine(prompt)
		if rerr == errInterrupt {
			buf = ""
			fmt.Fprintln(out, "^C")
			continue
		}
		if rerr == io.EOF {
			if sp := parse.SplitStatements(buf); sp.Rest != nil { // a last statement without ';'
				return sh.exec(buf, []parse.Piece{*sp.Rest}, out, errOut)
			}
			return nil
		}
		if rerr != nil {
			return rerr
		}
		if strings.TrimSpace(buf) == "" && strings.HasPrefix(strings.TrimSpace(line), ":") {
			buf = ""
			if quit, err := sh.command(line, out, errOut); quit || err != nil {
				return err
			}
			continue
		}
		buf += line + "\n"
		sp := parse.SplitStatements(buf)
		if err := sh.exec(buf, sp.Statements, out, errOut); err != nil {
			return err
		}
		buf = buf[sp.Tail:]
	}
}

// command runs a shell command (a line starting with ':') on rank 0; quit
// reports :quit, and the error is a failure of the ranks.
func (sh *shell) command(line string, out, errOut io.Writer) (quit bool, err error) {
	cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch cmd {
	case ":quit", ":exit", ":q":
		return true, nil
	case ":help", ":h", ":?":
		fmt.Fprint(out, shellHelp)
	case ":schema":
		if err := writeSchema(out, sh.db); err != nil {
			fmt.Fprintf(errOut, "error: %v\n", err)
		}
	case ":param":
		return false, sh.setParam(arg, errOut)
	case ":params":
		fmt.Fprint(out, sh.params.list())
	default:
		fmt.Fprintf(errOut, "unknown command %s; :help lists the commands\n", cmd)
	}
	return false, nil
}

// setParam gives a parameter a value on every rank, if rank 0 can read
// "NAME => VALUE"; otherwise it says why, and nothing is sent.
func (sh *shell) setParam(arg string, errOut io.Writer) error {
	name, text, ok := strings.Cut(arg, "=>")
	if !ok {
		fmt.Fprintln(errOut, "error: :param wants NAME => VALUE, as in :param name => 'Ada'")
		return nil
	}
	def := strings.TrimSpace(name) + "=" + text
	if err := (&paramFlag{}).Set(def); err != nil {
		fmt.Fprintf(errOut, "error: :param %v\n", err)
		return nil
	}
	if _, _, err := sh.send(opParam, def); err != nil {
		return err
	}
	return sh.params.Set(def)
}

// exec runs statements of src on every rank and prints their results or
// errors; the error it returns is a failure of the ranks.
func (sh *shell) exec(src string, stmts []parse.Piece, out, errOut io.Writer) error {
	for _, st := range stmts {
		if _, _, err := sh.send(opRun, st.Text); err != nil {
			return err
		}
		res, elapsed, err := sh.run(st.Text)
		switch {
		case err == nil:
			if err := writeTable(out, res, elapsed); err != nil {
				return err
			}
		case isStatementError(err):
			if !sh.tty {
				sh.failed++
			}
			fmt.Fprintf(errOut, "error: %v\n", statementError(src, "", st, err))
		default:
			return err
		}
	}
	return nil
}

// writeSchema prints the labels, property types and indexes of db.
func writeSchema(w io.Writer, db gdi.Database) error {
	labelName := func(l gdi.Label) string {
		if l == gdi.LabelNone {
			return "(no label)"
		}
		if n, err := db.LabelName(l); err == nil {
			return n
		}
		return l.String()
	}
	ptypeName := func(p gdi.PropertyType) string {
		if info, err := db.PropertyTypeInfo(p); err == nil {
			return info.Name
		}
		return p.String()
	}
	var b strings.Builder
	labels, err := db.Labels()
	if err != nil {
		return err
	}
	b.WriteString("labels:\n")
	for _, l := range labels {
		fmt.Fprintf(&b, "  %s\n", labelName(l))
	}
	ptypes, err := db.PropertyTypes()
	if err != nil {
		return err
	}
	b.WriteString("property types:\n")
	for _, p := range ptypes {
		info, err := db.PropertyTypeInfo(p)
		if err != nil {
			return err
		}
		size := "no size limit"
		switch info.Size {
		case gdi.FixedSize:
			size = fmt.Sprintf("%d elements", info.Count)
		case gdi.MaxSize:
			size = fmt.Sprintf("at most %d elements", info.Count)
		}
		entity := "single entity"
		if info.Entity == gdi.MultipleEntity {
			entity = "multiple entity"
		}
		fmt.Fprintf(&b, "  %-24s %s, %s, %s\n", info.Name, info.Datatype, entity, size)
	}
	indexes, err := db.Indexes()
	if err != nil {
		return err
	}
	b.WriteString("indexes:\n")
	for i, x := range indexes {
		typ, err := x.Type()
		if err != nil {
			return err
		}
		ls, err := x.Labels()
		if err != nil {
			return err
		}
		ps, err := x.PropertyTypes()
		if err != nil {
			return err
		}
		var lnames, pnames []string
		for _, l := range ls {
			lnames = append(lnames, labelName(l))
		}
		for _, p := range ps {
			pnames = append(pnames, ptypeName(p))
		}
		kind := map[gdi.IndexType]string{gdi.HashTableIndex: "hash table", gdi.BTreeIndex: "B-tree"}[typ]
		fmt.Fprintf(&b, "  %d: %s; labels: %s; property types: %s\n", i+1, kind, orNone(lnames), orNone(pnames))
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// orNone joins names, or says there are none.
func orNone(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}
