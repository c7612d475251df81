package protocol_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/explore/symmetry"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// The compiled system's workers and renamers implement the optional
// capabilities the engine looks for, structurally (this package does not
// import the engine): if a signature drifts on either side, the engine
// would silently take its slow path, so this test pins them.
func TestWorkersHaveTheEngineCapabilities(t *testing.T) {
	p := toyProtocol(3)
	w := p.System().NewWorker()
	if _, ok := w.(simulate.Sampler); !ok {
		t.Error("worker is not a simulate.Sampler")
	}
	if _, ok := w.(simulate.IncrementalSnapshotter); !ok {
		t.Error("worker is not a simulate.IncrementalSnapshotter")
	}
	if _, ok := w.(simulate.InPlaceWorker); !ok {
		t.Error("worker is not a simulate.InPlaceWorker")
	}
	if _, ok := w.(explore.LastSnapshotter); !ok {
		t.Error("worker is not an explore.LastSnapshotter")
	}
	newRenamer := protocol.Renamer(p, protocol.Renaming[toyProc, toyMsg]{
		Proc: func(_ []int, dst, src *toyProc) { *dst = *src },
		Msg: func(perm []int, dst, src *toyMsg) {
			*dst = toyMsg{src.Kind, protocol.RenameID(src.From, perm), protocol.RenameID(src.To, perm)}
		},
	})
	if _, ok := newRenamer().(symmetry.BoundedRenamer); !ok {
		t.Error("renamer is not a symmetry.BoundedRenamer")
	}
}
