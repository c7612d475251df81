package model_test

import (
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/model/protocol"
)

func TestRenameHelpers(t *testing.T) {
	perm := []int{2, 0, 1} // 0->2, 1->0, 2->1
	if got := protocol.PermuteIndexed(nil, []int{10, 11, 12}, perm); !slices.Equal(got, []int{11, 12, 10}) {
		t.Errorf("PermuteIndexed = %v, want [11 12 10]", got)
	}
	if got := protocol.RenameIDs(nil, []int{0, -1, 2}, perm); !slices.Equal(got, []int{2, -1, 1}) {
		t.Errorf("RenameIDs = %v, want [2 -1 1]", got)
	}
}
