package webui

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// The page's liveness search finds a lasso of the literal torus (which
// starves processes: algorithms/torus/testdata holds P1's): the path it
// answers replays on the system, its last state equals the state where
// the cycle starts, and the process it names is Waiting all along the
// cycle. The correct Suzuki-Kasami has none: the answer says so.
func TestLassoSearch(t *testing.T) {
	ts, sys := newTestServer(t, "torus/literal", map[string]int{"n": 4, "r": 1})
	var np namedPath
	if code := getJSON(t, "POST", ts.URL+"/api/lasso", nil, &np); code != 200 {
		t.Fatalf("status %d", code)
	}
	if np.Waiting < 0 || np.Waiting >= 4 || np.Loop < 1 || np.Loop > len(np.Path) || !strings.HasPrefix(np.Name, fmt.Sprintf("lasso: P%d starves", np.Waiting)) {
		t.Fatalf("answer %+v: want a lasso and its starving process", np)
	}
	states, _, err := walk(context.Background(), sys.NewWorker(), np.Init, np.Path)
	if err != nil {
		t.Fatalf("the lasso does not replay: %v", err)
	}
	if !bytes.Equal(states[np.Loop-1], states[len(states)-1]) {
		t.Fatal("the cycle does not close: the last state is not the state where the cycle starts")
	}
	w := sys.NewWorker()
	for k := np.Loop - 1; k < len(states); k++ {
		if ph := w.Describe(states[k]).Processes[np.Waiting].Phase; ph != model.Waiting.String() {
			t.Fatalf("P%d is %s in state %d of the cycle, not Waiting", np.Waiting, ph, k)
		}
	}
	var info info
	getJSON(t, "GET", ts.URL+"/api/info", nil, &info)
	if len(info.Paths) != 1 || info.Paths[0].Name != np.Name {
		t.Fatalf("the jump box offers %+v, want the lasso", info.Paths)
	}

	ts, _ = newTestServer(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	var msg map[string]string
	if code := getJSON(t, "POST", ts.URL+"/api/lasso", nil, &msg); code != 200 || !strings.HasPrefix(msg["message"], "no process starves") {
		t.Fatalf("suzuki-kasami: status %d, %v", code, msg)
	}
}
