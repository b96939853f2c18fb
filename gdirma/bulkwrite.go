package gdirma

import (
	"cmp"
	"encoding/binary"
	"errors"
	"slices"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// writeHolders writes the holder of each vertex of the rank.
func (b *bulk) writeHolders() error {
	n := int(b.hi - b.lo)
	// A stable counting sort of the references by vertex, in two passes
	// to stay in the caches: into groups of consecutive vertices first
	// (few output streams), then each group by vertex.
	const groupShift = 10
	groups := n>>groupShift + 1
	gstart := make([]int, groups+1)
	all := append(b.refs, b.trefs...) // origins first: stable
	size := 0
	for _, refs := range all {
		size += len(refs)
		for _, r := range refs {
			gstart[(r.v&^refTarget)>>groupShift+1]++
		}
	}
	for g := range groups {
		gstart[g+1] += gstart[g]
	}
	part := make([]bulkRef, size)
	at := slices.Clone(gstart[:groups])
	for k, refs := range all {
		all[k] = nil
		for _, r := range refs {
			g := (r.v &^ refTarget) >> groupShift
			part[at[g]] = r
			at[g]++
		}
	}
	b.refs, b.trefs = nil, nil
	var img []byte
	var chain []bgdl.DPtr
	var sorted []bulkRef
	start := make([]int, 1<<groupShift+1)
	pos := make([]int, 1<<groupShift)
	dir := byte(b.src.Direction)
	for g := range groups {
		lo, hi := g<<groupShift, min(n, (g+1)<<groupShift)
		if lo >= hi {
			break
		}
		grefs := part[gstart[g]:gstart[g+1]]
		clear(start)
		for _, r := range grefs {
			start[int(r.v&^refTarget)-lo+1]++
		}
		for i := range hi - lo {
			start[i+1] += start[i]
		}
		copy(pos, start)
		sorted = slices.Grow(sorted[:0], len(grefs))[:len(grefs)]
		for _, r := range grefs {
			i := int(r.v&^refTarget) - lo
			sorted[pos[i]] = r
			pos[i]++
		}
		for i := lo; i < hi; i++ {
			if err := b.writeHolder(i, sorted[start[i-lo]:start[i-lo+1]], dir, &img, &chain); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeHolder writes the holder of local vertex i, whose references are
// refs (those of the origin first, in the order of their slots). img and
// chain are buffers to reuse.
func (b *bulk) writeHolder(i int, refs []bulkRef, dir byte, imgBuf *[]byte, chainBuf *[]bgdl.DPtr) error {
	img, chain := *imgBuf, *chainBuf
	defer func() { *imgBuf, *chainBuf = img, chain }()
	// The origin's references come first, in the order of their
	// slots, so in ascending numbers unless some edges have holders:
	// sort the targets' references and merge.
	byNum := func(x, y bulkRef) int { return cmp.Compare(x.num, y.num) }
	var own, other []bulkRef
	if b.heavy[uint32(i)] {
		slices.SortFunc(refs, byNum)
		own = refs
	} else {
		own, other = refs[:b.slots[i]], refs[b.slots[i]:]
		slices.SortFunc(other, byNum)
	}
	img = append(img[:0], b.heads[b.headAt[i]:b.headAt[i+1]]...)
	self := b.nums[b.lo+uint64(i)]
	var deg, in, out uint64
	for _, r := range refs {
		if r.v&refTarget != 0 {
			deg, in, out = addDegree(deg, in, out, self, gdi.DirectionType(dir), r.other, self)
		} else {
			deg, in, out = addDegree(deg, in, out, self, gdi.DirectionType(dir), self, r.other)
		}
	}
	img = binary.AppendUvarint(img, deg)
	img = binary.AppendUvarint(img, in)
	img = binary.AppendUvarint(img, out)
	img = binary.AppendUvarint(img, uint64(len(refs)))
	refsAt := len(img)
	cd := b.st.Codec(self.Holder())
	for len(own)+len(other) > 0 {
		var r bulkRef
		if len(other) == 0 || len(own) > 0 && own[0].num < other[0].num {
			r, own = own[0], own[1:]
		} else {
			r, other = other[0], other[1:]
		}
		origin, target := self, r.other
		if r.v&refTarget != 0 {
			origin, target = r.other, self
		}
		img = cd.Append(img, r.num, layout.Ref{Dir: gdi.DirectionType(dir), Origin: origin, Target: target, Label: r.label})
	}
	chain = append(chain[:0], self.Holder())
	for len(chain) < b.st.BlocksFor(len(img)) {
		nb, err := b.block()
		if err != nil {
			return err
		}
		chain = append(chain, nb)
	}
	if err := b.st.Install(b.version, &store.Plan{Kind: vertexKind, Holder: chain[0], Chain: chain, Image: store.Parts{Head: img, Refs: refsAt}, Stamped: true}); err != nil {
		return err
	}
	return nil
}

// writeNew writes a new holder of kind k with image img into fresh blocks
// and returns its number.
//
// Holders are written stamped with 0 (store.Plan.Stamp), the lock word of
// a block never locked, which blocks of an empty part of the database
// most often are. Where a block was locked in an earlier life the stamp is
// stale: validations that compare lock words then fail and compare
// versions instead (validate.go), until the holder is written again.
func (b *bulk) writeNew(k kind, img []byte) (bgdl.DPtr, error) {
	chain := make([]bgdl.DPtr, 0, 1)
	for len(chain) < b.st.BlocksFor(len(img)) {
		nb, err := b.block()
		if err != nil {
			return 0, err
		}
		chain = append(chain, nb)
	}
	return chain[0], b.st.Install(b.version, &store.Plan{Kind: k, Holder: chain[0], Chain: chain, Image: store.Parts{Head: img, Refs: -1}, Stamped: true})
}

// block takes a block, on this rank while it has one. Blocks of this rank
// are taken straight from the pool: the markers are written with the
// images, and the high-water mark is raised once at the end (raise).
func (b *bulk) block() (bgdl.DPtr, error) {
	if !b.full {
		p, err := b.st.Pool().Acquire(b.rank)
		if err == nil {
			b.highWater = max(b.highWater, b.st.BlockIndex(p))
			return p, nil
		}
		if !errors.Is(err, bgdl.ErrExhausted) {
			return 0, internal(err)
		}
		b.full = true
	}
	return b.st.Acquire(b.rank)
}

// raise raises this rank's high-water mark to the blocks taken.
func (b *bulk) raise() error { return b.st.RaiseHighWater(b.rank, b.highWater) }
