package symmetry

import (
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/lelann"
)

// The renamers of package model/protocol implement boundedRenamer and
// fixingRenamer, and the quotient's workers over protocol workers
// lastSnapshotter, structurally (model/protocol names none of them): if a
// signature drifts on either side, canonical forms would silently take
// their slow path, so this test pins them.
func TestProtocolRenamersAreBoundedAndFixing(t *testing.T) {
	sym, err := lelann.Symmetry(lelann.Default, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := sym.NewRenamer()
	if _, ok := r.(boundedRenamer); !ok {
		t.Error("a protocol renamer is not a boundedRenamer")
	}
	if _, ok := r.(fixingRenamer); !ok {
		t.Error("a protocol renamer is not a fixingRenamer")
	}
	sys, err := lelann.New(lelann.Default, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	red, err := Reduce(sys.System(), sym, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := red.NewWorker().(lastSnapshotter); !ok {
		t.Error("the quotient's worker over a protocol worker is not a lastSnapshotter")
	}
}
