package torus

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Symmetry returns the symmetry group of the d x d torus (n = d*d, every
// variant): its d*d translations. A node refers to others only through
// right(i) and down(i), which every translation preserves, and the token
// counters (RowCounter, ColCounter, ChCol) count steps, not positions; the
// initial token on its way to P0 only picks the orbit the search starts
// from. Reflections and the transposition swap "right" and "down" or
// reverse them, so they are not symmetries.
func Symmetry(variant string, n, r int) (*model.Symmetry, error) {
	p, err := New(variant, n, r)
	if err != nil {
		return nil, err
	}
	d, err := Side(n)
	if err != nil {
		return nil, err
	}
	return &model.Symmetry{
		Name:       "translations",
		N:          n,
		Perms:      translations(d),
		Properties: []string{NameWaitingShape},
		NewRenamer: protocol.Renamer(p, protocol.Renaming[Proc, Msg]{Proc: renameProc, Msg: renameMsg}),
	}, nil
}

// translations returns the d*d translations of a d x d torus whose process
// i sits at row i/d, column i%d: element (a, b) maps row r, column c to
// row (r+a) mod d, column (c+b) mod d. The identity is first.
func translations(d int) [][]int {
	var out [][]int
	for a := range d {
		for b := range d {
			p := make([]int, d*d)
			for i := range d * d {
				r, c := i/d, i%d
				p[i] = ((r+a)%d)*d + (c+b)%d
			}
			out = append(out, p)
		}
	}
	return out
}

func renameProc(perm []int, dst, src *Proc) {
	w := protocol.RenameIDs(dst.Waiting, src.Waiting, perm)
	*dst = *src
	dst.Waiting = w
}

func renameMsg(perm []int, dst, src *Msg) {
	*dst = *src
	dst.To = perm[src.To]
	if src.Kind == REQUEST {
		dst.Origin = perm[src.Origin]
	}
}
