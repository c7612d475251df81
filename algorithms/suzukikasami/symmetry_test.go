package suzukikasami_test

import (
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/symmetry"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// TestNotSymmetric records why Suzuki-Kasami declares no symmetry: Exit
// appends the newly eligible processes to Q in ascending id order
// (semantics.md §2, rule 2), so swapping two waiting processes that differ
// in what they have received changes which of them is served first.
// Verify finds such a state with the obvious renaming of every id.
func TestNotSymmetric(t *testing.T) {
	p, err := suzukikasami.New(suzukikasami.Default, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	sym := &model.Symmetry{
		Name: "all permutations",
		N:    3,
		Full: true,
		NewRenamer: protocol.Renamer(p, protocol.Renaming[suzukikasami.Proc, suzukikasami.Msg]{
			Proc: func(perm []int, dst, src *suzukikasami.Proc) {
				dst.RN = protocol.PermuteIndexed(dst.RN, src.RN, perm)
				dst.Has = src.Has
				dst.LN = protocol.PermuteIndexed(dst.LN, src.LN, perm)
				dst.Q = protocol.RenameIDs(dst.Q, src.Q, perm)
			},
			Msg: func(perm []int, dst, src *suzukikasami.Msg) {
				*dst = suzukikasami.Msg{Kind: src.Kind, From: protocol.RenameID(src.From, perm), To: perm[src.To], SN: src.SN}
				dst.LN = protocol.PermuteIndexed(dst.LN, src.LN, perm)
				dst.Q = protocol.RenameIDs(dst.Q, src.Q, perm)
			},
		}),
	}
	_, err = symmetry.Verify(p.System(), sym, nil, 0)
	if err == nil {
		t.Fatal("Verify found Suzuki-Kasami symmetric; if the model changed, declare its symmetry in algorithms/registry_symmetry.go")
	}
	if !strings.Contains(err.Error(), "Exit") {
		t.Fatalf("the asymmetry should show on an Exit (the ascending scan of rule 2): %v", err)
	}
	t.Log(err)
}
