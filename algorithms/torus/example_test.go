package torus_test

import (
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/model"
)

// The idle token at d = 2, worked out by hand from Fig. 2: in the repaired
// reading it descends a column of d+1 = 3 visits (P0, P2, then the column
// change at P3) and the next column likewise; in the literal reading the
// column ends one node early (rc == d), so the token changes column after
// every second node: P0 and P1 are only ever reached from above with
// rc == d, the skip nodes of torus.md A2 that never look at their queues.
func ExampleNew() {
	for _, v := range []string{torus.Repaired, torus.Literal} {
		p, err := torus.New(v, 4, 1)
		if err != nil {
			panic(err)
		}
		w := p.System().NewWorker()
		var s []byte
		w.Initial(func(b []byte) bool { s = append([]byte(nil), b...); return false })
		var path []string
		for range 6 { // follow the token only: deliver the one message
			path = append(path, w.Describe(s).Network[0].Message)
			var next []byte
			w.Successors(s, func(t *model.Transition, b []byte) bool {
				if t.Kind == model.Deliver {
					next = append([]byte(nil), b...)
					return false
				}
				return true
			})
			s = next
		}
		fmt.Println(v)
		for _, m := range path {
			fmt.Println("  ", m)
		}
	}
	// Output:
	// torus
	//    TOKEN(->P0, rc=1, cc=0, ch=F)
	//    TOKEN(->P2, rc=2, cc=0, ch=F)
	//    TOKEN(->P3, rc=3, cc=-1, ch=T)
	//    TOKEN(->P1, rc=1, cc=0, ch=F)
	//    TOKEN(->P3, rc=2, cc=0, ch=F)
	//    TOKEN(->P2, rc=3, cc=-1, ch=T)
	// torus/literal
	//    TOKEN(->P0, rc=1, cc=0, ch=F)
	//    TOKEN(->P1, rc=2, cc=-1, ch=T)
	//    TOKEN(->P3, rc=1, cc=0, ch=F)
	//    TOKEN(->P2, rc=2, cc=-1, ch=T)
	//    TOKEN(->P0, rc=1, cc=0, ch=F)
	//    TOKEN(->P1, rc=2, cc=-1, ch=T)
}
