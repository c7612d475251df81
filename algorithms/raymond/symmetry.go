package raymond

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Symmetry returns the symmetry group of Raymond's algorithm (every
// variant, every tree shape): all n! permutations of the ids. The tree is
// written only into the initial holder pointers; the handlers follow
// Holder and the queue heads and never compare or scan ids, so renaming
// every id consistently maps behaviours to behaviours. The tree and its
// root P0 only pick the orbit the search starts from.
func Symmetry(variant string, n, r, tree int) (*model.Symmetry, error) {
	p, err := New(variant, n, r, tree)
	if err != nil {
		return nil, err
	}
	return &model.Symmetry{
		Name:       "all permutations",
		N:          n,
		Full:       true,
		Properties: []string{NameHolderPaths},
		NewRenamer: protocol.Renamer(p, protocol.Renaming[Proc, Msg]{Proc: renameProc, Msg: renameMsg, Key: key}),
	}, nil
}

func renameProc(perm []int, dst, src *Proc) {
	dst.Holder = protocol.RenameID(src.Holder, perm)
	dst.Queue = protocol.RenameIDs(dst.Queue, src.Queue, perm)
	dst.Asked = src.Asked
}

func renameMsg(perm []int, dst, src *Msg) {
	*dst = Msg{Kind: src.Kind, From: perm[src.From], To: perm[src.To]}
}

// key summarises a process by what no renaming changes: whether it holds
// the token, has asked for it, and how many requests it has queued.
func key(p *Proc) uint64 {
	k := uint64(len(p.Queue)) << 2
	if p.Holder == Self {
		k |= 1
	}
	if p.Asked {
		k |= 2
	}
	return k
}
