package cli

// This file holds check's --verbose and --graph flags, the line that
// points at the views of a counterexample, and the export of a small
// state graph as GraphViz DOT or JSON.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// graphMaxStates is the most states --graph draws: explore.Graph's
// default bound (Options.MaxStates 0), which writeGraph passes.
const graphMaxStates = 5000

// viewFlags are check's --verbose and --graph.
type viewFlags struct {
	verbose *bool
	graph   *string
}

func addViewFlags(fs *flag.FlagSet) *viewFlags {
	return &viewFlags{
		verbose: fs.Bool("verbose", false, "also print the time, rate, memory and fingerprint-collision figures (always in --json)"),
		graph: fs.String("graph", "", fmt.Sprintf("also write the reachable state graph to `FILE`: GraphViz DOT, or JSON when FILE ends in .json; "+
			"violating states in red; for spaces of at most %d states", graphMaxStates)),
	}
}

// viewHint is the line after a counterexample's file that says how to see
// it: in the explorer, or as a page of its own.
func viewHint(prog, file string) string {
	p := progOr(prog)
	return fmt.Sprintf("view it: %s explore --trace %s (or: %s show --format html --out chart.html %s)", p, file, p, file)
}

// writeGraph writes the state graph of cs's system to the --graph file,
// when one is named, and says so on stderr.
func (vf *viewFlags) writeGraph(ctx context.Context, cs *checkSetup, budget int64, stderr io.Writer) error {
	path := *vf.graph
	if path == "" {
		return nil
	}
	if err := checkOutDir("--graph", path); err != nil {
		return err
	}
	g, err := explore.Graph(ctx, cs.sys, explore.Options{MaxStates: graphMaxStates, Properties: cs.selected, MemoryBudget: budget})
	if errors.Is(err, explore.ErrGraphTooLarge) {
		return badInput("--graph: %s %s has %v; a graph is for small spaces: lower --n or --r, or check without --graph",
			cs.v.Name, paramString(cs.params), strings.TrimPrefix(err.Error(), explore.ErrGraphTooLarge.Error()+": "))
	}
	if err != nil {
		return badInput("--graph: %v", err)
	}
	var data []byte
	if strings.HasSuffix(strings.ToLower(path), ".json") {
		data, err = graphJSON(cs, g)
		if err != nil {
			return err
		}
	} else {
		data = []byte(graphDOT(cs, g))
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return badInput("--graph: %v", err)
	}
	fmt.Fprintf(stderr, "%s: graph of %d states and %d transitions (%d violating) written to %s\n",
		progOr(cs.prog), len(g.States), len(g.Edges), g.Violating(), path)
	return nil
}

// graphFile is the JSON form of check --graph FILE.json.
type graphFile struct {
	Algorithm  string               `json:"algorithm"`
	Params     map[string]int       `json:"params"`
	Properties []string             `json:"properties"`
	States     []explore.GraphState `json:"states"`
	Edges      []explore.GraphEdge  `json:"edges"`
}

func graphJSON(cs *checkSetup, g *explore.StateGraph) ([]byte, error) {
	f := graphFile{Algorithm: cs.v.Name, Params: cs.params, Properties: propNames(cs.selected), States: g.States, Edges: g.Edges}
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return nil, fmt.Errorf("encoding the graph: %v", err)
	}
	return append(data, '\n'), nil
}

// graphDOT renders g in GraphViz's DOT language: a box per state (its
// processes, then the messages in transit), an arrow per transition;
// initial states doubly framed, violating states and transitions red and
// labelled with the properties they violate.
func graphDOT(cs *checkSetup, g *explore.StateGraph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(cs.v.Name+" "+paramString(cs.params)))
	b.WriteString("  node [shape=box, fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n")
	for _, s := range g.States {
		var lines []string
		if len(s.Violates) > 0 {
			lines = append(lines, "VIOLATES "+strings.Join(s.Violates, ", "))
		}
		lines = append(lines, fmt.Sprintf("s%d (depth %d)", s.ID, s.Depth))
		for _, p := range s.Description.Processes {
			l := fmt.Sprintf("P%d %s made=%d", p.ID, p.Phase, p.Made)
			if p.Group != 0 {
				l += fmt.Sprintf(" g=%d", p.Group)
			}
			if p.HoldsToken {
				l += " TOKEN"
			}
			for _, c := range traces.Changes(nil, &model.StateDescription{Processes: []model.ProcessDescription{p}}) {
				switch c.Name {
				case "phase", "made", "group", "holds_token": // written above
				default:
					l += " " + c.Name + "=" + c.After
				}
			}
			lines = append(lines, l)
		}
		for _, m := range s.Description.Network {
			l := fmt.Sprintf("-> P%d %s", m.To, m.Message)
			if m.Count > 1 {
				l += fmt.Sprintf(" x%d", m.Count)
			}
			lines = append(lines, l)
		}
		attrs := []string{"label=" + dotLabel(lines)}
		if s.Initial {
			attrs = append(attrs, "peripheries=2")
		}
		if len(s.Violates) > 0 {
			attrs = append(attrs, `color=red`, `fontcolor=red`, `style=filled`, `fillcolor="#ffe0e0"`)
		} else if s.Terminal {
			attrs = append(attrs, `style=dashed`)
		}
		fmt.Fprintf(&b, "  s%d [%s];\n", s.ID, strings.Join(attrs, ", "))
	}
	for _, e := range g.Edges {
		label := e.Label
		attrs := ""
		if len(e.Violates) > 0 {
			label += " VIOLATES " + strings.Join(e.Violates, ", ")
			attrs = ", color=red, fontcolor=red"
		}
		fmt.Fprintf(&b, "  s%d -> s%d [label=%s%s];\n", e.From, e.To, dotQuote(label), attrs)
	}
	b.WriteString("}\n")
	return b.String()
}

// dotQuote quotes s as a DOT string.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// dotLabel is a DOT label of left-justified lines.
func dotLabel(lines []string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ")
	var b strings.Builder
	b.WriteString(`"`)
	for _, l := range lines {
		b.WriteString(r.Replace(l))
		b.WriteString(`\l`)
	}
	b.WriteString(`"`)
	return b.String()
}

// noteIncomplete says on stderr why check exits 3 when a bound stopped it
// (an interrupt or the memory budget is reported where it happens), so
// that the reason is there with --json and --quiet too.
func noteIncomplete(stderr io.Writer, rep *checkReport) {
	if rep.Verdict != verdictIncomplete {
		return
	}
	reason := rep.StopReason
	if rep.Liveness != nil && rep.Liveness.StopReason != "" {
		reason = rep.Liveness.StopReason
	}
	switch reason {
	case stopMaxStates:
		fmt.Fprintf(stderr, "%s: incomplete (exit 3): the search stopped at the --max-states bound after %d states, before the space was covered; no violation among them; raise --max-states (0: no bound)\n", progOr(rep.prog), rep.States)
	case stopMaxDepth:
		fmt.Fprintf(stderr, "%s: incomplete (exit 3): states beyond --max-depth %d were not explored; no violation up to there; raise --max-depth (0: no bound)\n", progOr(rep.prog), rep.Depth)
	}
}
