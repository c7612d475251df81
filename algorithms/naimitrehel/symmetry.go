package naimitrehel

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Symmetry returns the symmetry group of Naimi-Trehel with n processes
// (every variant): all n! permutations of the ids. The handlers use ids
// only as addresses (Last, Next, a REQUEST's origin, a message's
// receiver), never in a comparison or a loop over ids, so renaming all of
// them consistently maps behaviours to behaviours. The initial tree (every
// Last pointing to the root P0) only picks the orbit the search starts
// from.
func Symmetry(variant string, n, r int) (*model.Symmetry, error) {
	p, err := New(variant, n, r)
	if err != nil {
		return nil, err
	}
	return &model.Symmetry{
		Name:       "all permutations",
		N:          n,
		Full:       true,
		Properties: []string{NameNextQueue},
		NewRenamer: protocol.Renamer(p, protocol.Renaming[Proc, Msg]{Proc: renameProc, Msg: renameMsg, Key: key}),
	}, nil
}

func renameProc(perm []int, dst, src *Proc) {
	*dst = Proc{Last: protocol.RenameID(src.Last, perm), Next: protocol.RenameID(src.Next, perm), Token: src.Token}
}

func renameMsg(perm []int, dst, src *Msg) {
	*dst = Msg{Kind: src.Kind, To: perm[src.To]}
	if src.Kind == REQUEST {
		dst.Origin = perm[src.Origin]
	}
}

// key summarises a process by what no renaming changes: whether it holds
// the token, is a root (Last is nil) and has a successor (Next is set).
func key(p *Proc) uint64 {
	k := uint64(0)
	if p.Token {
		k |= 1
	}
	if p.Last == Nil {
		k |= 2
	}
	if p.Next != Nil {
		k |= 4
	}
	return k
}
