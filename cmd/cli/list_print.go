package cli

// This file prints list's text: the algorithms grouped (the source papers'
// first, Suzuki-Kasami leading), in full or one line each.

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// listGroup is a heading of list's text and the algorithms under it.
type listGroup struct {
	title string
	algs  []listedAlgorithm
}

// flagship is the algorithm list shows first.
const flagship = "suzuki-kasami"

// groupAlgorithms sorts algs into the algorithms of the source papers
// (their Source starts with a paper's citation; Suzuki-Kasami first, then
// by paper and name),
// the classic baselines (Source "classic definition ...") and the others;
// empty groups are left out.
func groupAlgorithms(algs []listedAlgorithm) []listGroup {
	seeds := listGroup{title: "algorithms of the source papers"}
	classic := listGroup{title: "classic baselines"}
	other := listGroup{title: "other algorithms"}
	for _, a := range algs {
		switch {
		case seedNumber(a.Source) >= 0:
			seeds.algs = append(seeds.algs, a)
		case strings.HasPrefix(a.Source, "classic"):
			classic.algs = append(classic.algs, a)
		default:
			other.algs = append(other.algs, a)
		}
	}
	sort.SliceStable(seeds.algs, func(i, j int) bool {
		a, b := seeds.algs[i], seeds.algs[j]
		if (a.Name == flagship) != (b.Name == flagship) {
			return a.Name == flagship
		}
		if sa, sb := seedNumber(a.Source), seedNumber(b.Source); sa != sb {
			return sa < sb
		}
		return a.Name < b.Name
	})
	var groups []listGroup
	for _, g := range []listGroup{seeds, classic, other} {
		if len(g.algs) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

// paperCitations are the source papers' citations as the built-in
// algorithms' Source starts with, in the order of docs/references.md.
var paperCitations = []string{"The framework survey", "Suzuki and Kasami", "Swaroop and Singh", "Banerjee and Chrysanthis", "Neamatollahi"}

// seedNumber is the rank of the source paper a Source cites first (its
// index in paperCitations), else -1.
func seedNumber(source string) int {
	for i, c := range paperCitations {
		if strings.HasPrefix(source, c) {
			return i
		}
	}
	return -1
}

// printListBrief prints one line per algorithm, grouped.
func printListBrief(w io.Writer, algs []listedAlgorithm) {
	groups := groupAlgorithms(algs)
	for i, g := range groups {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if len(groups) > 1 {
			fmt.Fprintf(w, "%s:\n", g.title)
		}
		for _, a := range g.algs {
			doc := a.Doc
			if j := strings.IndexAny(doc, ":;("); j > 0 {
				doc = strings.TrimSpace(doc[:j])
			}
			line := fmt.Sprintf("  %-18s %2d variants  %s", a.Name, len(a.Variants), doc)
			if len(line) > helpWidth {
				line = line[:helpWidth-3] + "..."
			}
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintln(w, "\n'tokenmc list NAME' shows an algorithm's parameters, properties and variants.")
}

// printListFull prints every algorithm in full, grouped; every is set when
// no name was given (the group headings and the closing hint are then
// printed).
func printListFull(w io.Writer, algs []listedAlgorithm, every bool) {
	groups := groupAlgorithms(algs)
	every = every && len(groups) > 1
	for _, g := range groups {
		if every {
			fmt.Fprintf(w, "== %s ==\n\n", g.title)
		}
		for _, a := range g.algs {
			printListed(w, a)
		}
	}
	if every {
		fmt.Fprintln(w, "'tokenmc list --brief' gives one line per algorithm, 'tokenmc list NAME' one algorithm.")
	}
}

// printListed prints one algorithm in full.
func printListed(w io.Writer, a listedAlgorithm) {
	fmt.Fprintf(w, "%s\n  %s\n  source: %s\n", a.Name, a.Doc, a.Source)
	var ps []string
	for _, p := range a.Params {
		ps = append(ps, fmt.Sprintf("--%s %s (default %d): %s", p.Name, paramRange(p.Min, p.Max), p.Default, p.Doc))
	}
	fmt.Fprintf(w, "  params:\n    %s\n", strings.Join(ps, "\n    "))
	fmt.Fprintf(w, "  properties: %s\n  variants:\n", strings.Join(a.Properties, ", "))
	for _, v := range a.Variants {
		var notes []string
		if len(v.Breaks) > 0 {
			notes = append(notes, "breaks "+strings.Join(v.Breaks, ", "))
		}
		if len(v.Params) > 0 {
			notes = append(notes, "parameters: "+paramString(v.Params))
		}
		extra := ""
		if len(notes) > 0 {
			extra = " [" + strings.Join(notes, "; ") + "]"
		}
		fmt.Fprintf(w, "    %-36s %-8s %s%s\n", v.Name, v.Kind, v.Doc, extra)
	}
	fmt.Fprintln(w)
}
