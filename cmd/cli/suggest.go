package cli

import (
	"flag"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/suggest"
)

// This file holds the "did you mean" hints of the command line: for
// commands (dispatch.go) and flags (parseFlags). Algorithm and variant names
// get theirs from catalog.lookup (spec.LookupIn).

// unknownFlagHint returns "; did you mean --NAME?" when err is the flag
// package's "flag provided but not defined" and a flag of fs is close to
// the one given, else "".
func unknownFlagHint(fs *flag.FlagSet, err error) string {
	const undefined = "flag provided but not defined: "
	msg := err.Error()
	if !strings.HasPrefix(msg, undefined) {
		return ""
	}
	name := strings.TrimLeft(strings.TrimPrefix(msg, undefined), "-")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	close := suggest.Closest(name, names)
	if len(close) == 0 {
		return ""
	}
	for k := range close {
		close[k] = "--" + close[k]
	}
	if len(close) == 1 {
		return "; did you mean " + close[0] + "?"
	}
	return "; did you mean " + strings.Join(close[:len(close)-1], ", ") + " or " + close[len(close)-1] + "?"
}

// unknownCommandText is the error for an unknown command: the closest
// commands first, when some are close, then every command.
func unknownCommandText(name string) string {
	all := strings.Join(commandNames(), ", ")
	if hint := suggest.DidYouMean(name, commandNames()); hint != "" {
		return "unknown command " + quote(name) + hint + " (commands: " + all + ")"
	}
	if strings.HasPrefix(name, "-") {
		return "unknown command " + quote(name) + "; the command comes first, e.g. tokenmc check --algo suzuki-kasami (commands: " + all + ")"
	}
	return "unknown command " + quote(name) + "; commands are " + all + " (see tokenmc --help)"
}

func quote(s string) string { return strconv.Quote(s) }

// paramDoc describes a parameter flag shared by several algorithms from
// their own descriptions ("ALGO: DOC" each, in algorithm order): the first
// clause of each distinct description with the algorithms that use it, so
// that --help says what --k or --tau means instead of "algorithm
// parameter".
func paramDoc(docs []string) string {
	var clauses []string
	users := map[string][]string{}
	for _, d := range docs {
		algo, doc, _ := strings.Cut(d, ": ")
		c := firstClause(doc)
		if _, ok := users[c]; !ok {
			clauses = append(clauses, c)
		}
		users[c] = append(users[c], algo)
	}
	var parts []string
	for _, c := range clauses {
		parts = append(parts, c+" ("+strings.Join(users[c], ", ")+")")
	}
	return strings.Join(parts, "; ") + "; default: the algorithm's, see tokenmc list"
}

// firstClause cuts doc at its first ';' outside parentheses.
func firstClause(doc string) string {
	depth := 0
	for k, r := range doc {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 {
				return strings.TrimSpace(doc[:k])
			}
		}
	}
	return doc
}
