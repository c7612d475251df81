package suzukikasami

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Symmetry returns the symmetry group of the any-order reading with n
// processes: all n! permutations of the ids. In AnyOrder the handlers use
// ids only as addresses and array indices (RN, LN, Q, a REQ's sender, a
// message's receiver): Request broadcasts to every other process, a REQ
// updates the entry of its sender, and Exit appends the eligible ids in
// every order, so renaming all ids consistently maps behaviours to
// behaviours. The other variants append in ascending id order, which a
// renaming does not preserve (swapping two waiting processes changes who
// is served first), so they have no symmetry and Symmetry returns an
// error naming AnyOrder.
func Symmetry(variant string, n, r int) (*model.Symmetry, error) {
	if variant == "" {
		variant = Default
	}
	if variant != AnyOrder {
		return nil, fmt.Errorf("%s is not symmetric: Exit appends the waiting ids to Q in ascending id order, so a renaming of ids can change who is served first; %s (every order) is symmetric under all permutations", variant, AnyOrder)
	}
	p, err := New(variant, n, r)
	if err != nil {
		return nil, err
	}
	return &model.Symmetry{
		Name:       "all permutations",
		N:          n,
		Full:       true,
		Properties: []string{NameTokenServesWaiting},
		NewRenamer: protocol.Renamer(p, protocol.Renaming[Proc, Msg]{Proc: renameProc, Msg: renameMsg, Key: key}),
	}, nil
}

func renameProc(perm []int, dst, src *Proc) {
	dst.RN = protocol.PermuteIndexed(dst.RN, src.RN, perm)
	dst.Has = src.Has
	if src.Has {
		dst.LN = protocol.PermuteIndexed(dst.LN, src.LN, perm)
		dst.Q = protocol.RenameIDs(dst.Q, src.Q, perm)
	} else {
		dst.LN, dst.Q = dst.LN[:0], dst.Q[:0]
	}
}

func renameMsg(perm []int, dst, src *Msg) {
	dst.Kind, dst.To, dst.SN = src.Kind, perm[src.To], src.SN
	dst.From = protocol.RenameID(src.From, perm) // -1 in a TOKEN stays
	if src.Kind == TOKEN {
		dst.LN = protocol.PermuteIndexed(dst.LN, src.LN, perm)
		dst.Q = protocol.RenameIDs(dst.Q, src.Q, perm)
	} else {
		dst.LN, dst.Q = dst.LN[:0], dst.Q[:0]
	}
}

// key summarises a process by what no renaming changes: whether it holds
// the token, the sum of its RN (a permutation keeps the multiset of
// values), and with the token the length of Q and the sum of LN.
func key(p *Proc) uint64 {
	k := uint64(0)
	if p.Has {
		k = 1 | uint64(len(p.Q))<<1
		for _, x := range p.LN {
			k += uint64(x) << 12
		}
	}
	for _, x := range p.RN {
		k += uint64(x) << 32
	}
	return k
}
