package suzukikasami_test

import (
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/model"
)

// Step the model by hand: P1 requests and broadcasts REQ; the idle holder P0
// receives it and sends the token (semantics.md §2 rules 1 and 3).
func ExampleNew() {
	p, err := suzukikasami.New(suzukikasami.Default, 2, 1)
	if err != nil {
		panic(err)
	}
	w := p.System().NewWorker()
	var s []byte
	w.Initial(func(b []byte) bool { s = append([]byte(nil), b...); return false })
	for _, label := range []string{"Request(P1)", "Deliver REQ(P1->P0, sn=1)"} {
		var next []byte
		w.Successors(s, func(t *model.Transition, b []byte) bool {
			if w.Label(s, t) == label {
				next = append([]byte(nil), b...)
				return false
			}
			return true
		})
		s = next
		fmt.Println(label)
	}
	for _, m := range w.Describe(s).Network {
		fmt.Println("in transit:", m.Message)
	}
	// Output:
	// Request(P1)
	// Deliver REQ(P1->P0, sn=1)
	// in transit: TOKEN(->P1, LN=[0,0], Q=[])
}
