package chart_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/model"
)

// The text state table (validate's) and the HTML one (show's and the
// report's) show a process's own state as its algorithm renders it
// (Text, from Protocol.FormatProc) or else its variables as k=v, and a
// group column only when some process has a group.
func TestStateTables(t *testing.T) {
	sd := &model.StateDescription{Processes: []model.ProcessDescription{
		{ID: 0, Phase: "InCS", Made: 1, HoldsToken: true, Vars: json.RawMessage(`{"rn":[1,0],"has":true}`), Text: "RN=[1,0] LN=[0,0] Q=[]"},
		{ID: 1, Phase: "Idle", Vars: json.RawMessage(`{"rn":[1,0],"has":false}`)},
	}}
	got := chart.StateTable(sd)
	want := "  P0  InCS    made 1  token  RN=[1,0] LN=[0,0] Q=[]\n  P1  Idle    made 0  rn=[1,0] has=false\n  in transit: none\n"
	if got != want {
		t.Errorf("StateTable:\n%s\nwant:\n%s", got, want)
	}
	sd.Processes[1].Group = 2
	if got := chart.StateTable(sd); !strings.Contains(got, "made 1  group 0  token") || !strings.Contains(got, "made 0  group 2  rn=") {
		t.Errorf("with a group: %s", got)
	}

	c := skChart(t)
	c.Initial.Processes[0].Text = "RN=[0,0] LN=[0,0] Q=[]"
	var b bytes.Buffer
	if err := chart.HTML(&b, c); err != nil {
		t.Fatal(err)
	}
	page := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(b.String()) // the states are JSON strings in the page
	if !strings.Contains(page, `RN=[0,0] LN=[0,0] Q=[]`) || !strings.Contains(page, `<th>state</th>`) {
		t.Error("the HTML state table does not show the process's Text in a state column")
	}
	if strings.Contains(page, `<th>group</th>`) || strings.Contains(page, `<th>holds_token</th>`) {
		t.Error("the HTML state table has a group or holds_token column for an algorithm without groups")
	}
}
