package lelann

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Symmetry returns the symmetry group of the ring of n processes (every
// variant): its n rotations. A process's only reference to another is its
// ring successor (i+1) mod n, which a rotation preserves, and the single
// initial token at P0 only picks the orbit the search starts from.
// Reflections are not symmetries: the token travels one way.
func Symmetry(variant string, n, r int) (*model.Symmetry, error) {
	p, err := New(variant, n, r)
	if err != nil {
		return nil, err
	}
	return &model.Symmetry{
		Name:       "rotations",
		N:          n,
		Perms:      rotations(n),
		Properties: []string{NameTokenOnlyInCS},
		NewRenamer: protocol.Renamer(p, protocol.Renaming[Proc, Msg]{Proc: renameProc, Msg: renameMsg}),
	}, nil
}

// rotations returns the n rotations of a ring of n processes: element k
// maps process i to (i+k) mod n. The identity is first.
func rotations(n int) [][]int {
	out := make([][]int, n)
	for k := range n {
		p := make([]int, n)
		for i := range n {
			p[i] = (i + k) % n
		}
		out[k] = p
	}
	return out
}

func renameProc(_ []int, dst, src *Proc) { *dst = *src }

func renameMsg(perm []int, dst, src *Msg) { dst.To = perm[src.To] }
