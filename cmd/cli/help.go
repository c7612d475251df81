package cli

// This file renders a command's --help: a short page (the usage line, a
// few lines on what the command does, one line per flag spelled --flag,
// two or three examples) and, with --all, the long page (the command's full
// description and every flag's whole documentation). Algorithm parameters
// are not listed under every command: "tokenmc help check --algo NAME"
// (or "tokenmc list NAME") shows those of the algorithm named.

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// helpInfo is what a command's flag set knows for its --help. It is the
// flag set's output writer (fs.Output()), so that parseFlags finds it; the
// flag package's own messages written there are discarded.
type helpInfo struct {
	cat  *catalog
	long string // the command's full synopsis and description
	out  io.Writer
}

func (*helpInfo) Write(p []byte) (int, error) { return len(p), nil }

// helpRequest is what a --help command line asks for besides the page.
type helpRequest struct {
	all  bool   // --all: the long page
	algo string // --algo NAME: that algorithm's parameters too
}

// cmdHelp is the short help of one command.
type cmdHelp struct {
	usage    string   // after "usage: tokenmc "
	about    string   // two to four lines
	flags    []string // flag lines in order; "a b c" puts flags a, b and c on one line
	docs     map[string]string
	examples []string
}

// The widths of the short page.
const (
	helpFlagColumn = 26
	helpWidth      = 100
)

// scanHelpRequest reads --all and --algo NAME from a --help command line,
// which the flag package stops parsing at --help.
func scanHelpRequest(fs *flag.FlagSet, args []string) helpRequest {
	var r helpRequest
	if f := fs.Lookup("algo"); f != nil && f.Value.String() != "" {
		r.algo = f.Value.String()
	}
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "all":
			r.all = true
		case "algo", "algos", "only":
			if hasValue {
				r.algo = value
			} else if i+1 < len(args) {
				r.algo = args[i+1]
			}
		}
	}
	return r
}

// print writes the help page of fs's command.
//
// An unknown algorithm after --algo is bad input: the page is printed
// without its parameters and the error returned (exit 2).
func (h *helpInfo) print(fs *flag.FlagSet, req helpRequest) error {
	var b strings.Builder
	ch, short := commandHelp[fs.Name()]
	if req.all || !short {
		h.writeLong(&b, fs)
	} else {
		h.writeShort(&b, fs, ch)
	}
	var bad error
	if req.algo != "" {
		for _, name := range strings.Split(req.algo, ",") {
			if err := h.writeAlgoParams(&b, fs, strings.TrimSpace(name)); err != nil && bad == nil {
				bad = badInput("%s --help --algo: %v", fs.Name(), err)
			}
		}
	}
	io.WriteString(h.out, named(h.cat.prog, b.String()))
	return bad
}

// writeShort writes the short page.
func (h *helpInfo) writeShort(b *strings.Builder, fs *flag.FlagSet, ch cmdHelp) {
	fmt.Fprintf(b, "usage: tokenmc %s\n\n%s\n\nflags:\n", ch.usage, strings.TrimSpace(ch.about))
	shown := map[string]bool{}
	for _, entry := range ch.flags {
		names := strings.Fields(entry)
		var heads []string
		for _, n := range names {
			if f := fs.Lookup(n); f != nil {
				heads = append(heads, flagHead(f))
				shown[n] = true
			}
		}
		if len(heads) == 0 {
			continue
		}
		doc, ok := ch.docs[entry]
		if !ok {
			doc = shortDoc(fs.Lookup(names[0]).Usage)
		}
		writeFlagLine(b, strings.Join(heads, " "), doc)
	}
	params := h.paramNames()
	var aliases []string
	hidden := false
	fs.VisitAll(func(f *flag.Flag) {
		if shown[f.Name] {
			return
		}
		if a, ok := f.Value.(aliasValue); ok {
			aliases = append(aliases, "--"+f.Name+" (--"+a.target+")")
			return
		}
		if params[f.Name] {
			hidden = true
			return
		}
		writeFlagLine(b, flagHead(f), shortDoc(f.Usage))
	})
	if hidden {
		writeFlagLine(b, "--PARAM V", "an algorithm's own parameter: tokenmc help "+fs.Name()+" --algo NAME lists them")
	}
	if len(aliases) > 0 {
		fmt.Fprintf(b, "old names, still accepted: %s\n", strings.Join(aliases, ", "))
	}
	if len(ch.examples) > 0 {
		b.WriteString("\nexamples:\n")
		for _, e := range ch.examples {
			fmt.Fprintf(b, "  tokenmc %s\n", e)
		}
	}
	fmt.Fprintf(b, "\n'tokenmc help %s --all' gives the full description and every flag's documentation.\n", fs.Name())
}

// writeLong writes the long page: the full description, then every flag
// with its whole documentation, aliases included; algorithm parameters
// other than --n and --r are left to --algo NAME.
func (h *helpInfo) writeLong(b *strings.Builder, fs *flag.FlagSet) {
	fmt.Fprintf(b, "usage: %s\n\nflags:\n", h.long)
	params := h.paramNames()
	hidden := false
	fs.VisitAll(func(f *flag.Flag) {
		if params[f.Name] {
			hidden = true
			return
		}
		doc := strings.ReplaceAll(f.Usage, "`", "")
		if a, ok := f.Value.(aliasValue); ok {
			doc = "another name for --" + a.target
		} else if def := flagDefault(f); def != "" {
			doc += " (default " + def + ")"
		}
		fmt.Fprintf(b, "  %s\n", flagHead(f))
		for _, line := range wrapText(doc, helpWidth-8) {
			fmt.Fprintf(b, "        %s\n", line)
		}
	})
	if hidden {
		fmt.Fprintf(b, "  --PARAM V\n        an algorithm's own parameter: tokenmc help %s --algo NAME (or tokenmc list NAME) lists them\n", fs.Name())
	}
}

// writeAlgoParams writes the parameters of the algorithm name (NAME or
// NAME/VARIANT) as flags of fs's command.
func (h *helpInfo) writeAlgoParams(b *strings.Builder, fs *flag.FlagSet, name string) error {
	a, v, err := h.cat.lookup(name)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\nparameters of %s (as flags of %s):\n", a.Name, fs.Name())
	for _, p := range a.Params {
		def := p.Default
		if x, ok := v.Params[p.Name]; ok {
			def = x
		}
		lines := wrapText(fmt.Sprintf("%s (default %d)", p.Doc, def), helpWidth-helpFlagColumn)
		writeFlagLine(b, "--"+p.Name+" "+paramRange(p.Min, p.Max), lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(b, "%*s%s\n", helpFlagColumn, "", l)
		}
	}
	return nil
}

// paramNames are the names of every algorithm parameter but n and r,
// whose flags the short page leaves to --algo NAME.
func (h *helpInfo) paramNames() map[string]bool {
	names := map[string]bool{}
	for _, a := range h.cat.all() {
		for _, p := range a.Params {
			if p.Name != "n" && p.Name != "r" {
				names[p.Name] = true
			}
		}
	}
	return names
}

// paramRange renders a parameter's range, "1..8" or "0..".
func paramRange(lo, hi int) string {
	if hi > 0 {
		return fmt.Sprintf("%d..%d", lo, hi)
	}
	return fmt.Sprintf("%d..", lo)
}

// argNames rename the argument names of flag documentations that read as
// a value rather than as a placeholder.
var argNames = map[string]string{
	"weak":       "weak|strong|none",
	"chan":       "chan|tcp",
	"interval":   "D",
	"properties": "P,...",
	"loads":      "L,...",
}

// flagHead is "--name ARG" (no ARG for a boolean flag).
func flagHead(f *flag.Flag) string {
	name := f.Name
	if a, ok := f.Value.(aliasValue); ok { // the alias's name, the target's argument
		if f = a.fs.Lookup(a.target); f == nil {
			return "--" + name
		}
	}
	arg, _ := flag.UnquoteUsage(f)
	switch arg {
	case "":
		return "--" + name
	case "int", "uint", "int64":
		arg = "N"
	case "duration":
		arg = "D"
	case "float":
		arg = "X"
	case "string", "value":
		arg = "V"
	default:
		if a, ok := argNames[arg]; ok {
			arg = a
		} else {
			arg = strings.ToUpper(arg)
		}
	}
	return "--" + name + " " + arg
}

// flagDefault is f's default when it is not the zero value, else "".
func flagDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "0s":
		return ""
	}
	return f.DefValue
}

// shortDoc is the first clause of a flag's documentation, without the
// back quotes that name its argument.
func shortDoc(usage string) string {
	s := strings.ReplaceAll(usage, "`", "")
	if len(s) <= helpWidth-helpFlagColumn-2 {
		return s
	}
	for _, sep := range []string{" (", "; ", ": "} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	if max := helpWidth - helpFlagColumn - 2; len(s) > max {
		cut := strings.LastIndex(s[:max-3], " ")
		if cut < 0 {
			cut = max - 3
		}
		s = s[:cut] + "..."
	}
	return s
}

// writeFlagLine writes one flag line of the short page.
func writeFlagLine(b *strings.Builder, head, doc string) {
	if len(head) >= helpFlagColumn-2 {
		fmt.Fprintf(b, "  %s  %s\n", head, doc)
		return
	}
	fmt.Fprintf(b, "  %-*s%s\n", helpFlagColumn-2, head, doc)
}

// wrapText breaks s into lines of at most width characters.
func wrapText(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// aliasValue makes a flag another name for the flag target of the same
// flag set: parseFlags rewrites it to target before parsing, so the
// commands only ever see target set.
type aliasValue struct {
	fs     *flag.FlagSet
	name   string // the alias
	target string
}

func (a aliasValue) String() string { return "" }

func (a aliasValue) Set(string) error {
	return fmt.Errorf("--%s is another name for --%s", a.name, a.target)
}

// addAlias defines the flag alias as another name for the flag target.
func addAlias(fs *flag.FlagSet, alias, target string) {
	fs.Var(aliasValue{fs: fs, name: alias, target: target}, alias, "another name for --"+target)
}

// rewriteAliases returns args with every alias flag replaced by its
// target ("--trace-out=F" becomes "--out=F"). Values of flags and the
// arguments after "--" are left as they are.
func rewriteAliases(fs *flag.FlagSet, args []string) []string {
	aliases := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		if a, ok := f.Value.(aliasValue); ok {
			aliases[f.Name] = a.target
		}
	})
	if len(aliases) == 0 {
		return args
	}
	out := append([]string(nil), args...)
	for i := 0; i < len(out); i++ {
		tok := out[i]
		if tok == "--" {
			break
		}
		if len(tok) < 2 || tok[0] != '-' {
			continue
		}
		dashes := "-"
		if strings.HasPrefix(tok, "--") {
			dashes = "--"
		}
		name, value, hasValue := strings.Cut(tok[len(dashes):], "=")
		if t, ok := aliases[name]; ok {
			name = t
			out[i] = dashes + t
			if hasValue {
				out[i] += "=" + value
			}
		}
		f := fs.Lookup(name)
		if f == nil || hasValue {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		i++ // the flag's value
	}
	return out
}
