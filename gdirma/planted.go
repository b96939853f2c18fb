package gdirma

// plantedBug names a deliberate bug that the differential tests must
// catch. In a normal build planted is the constant noBug, so every
// "if planted == bugX" compiles away; built with the tag gdirmabugs it is
// a variable that TestMetamorphicCatchesPlantedBugs sets, one bug at a
// time, to check that the comparison with the reference backend sees it.
type plantedBug uint8

const (
	noBug plantedBug = iota
	// bugLabelRemovalLost: RemoveLabel changes the transaction's copy
	// but does not mark it for commit.
	bugLabelRemovalLost
	// bugPropertyRemovalLost: RemoveProperty likewise.
	bugPropertyRemovalLost
	// bugLightEdgeKept: deleting a vertex leaves its lightweight edges
	// in the other end's references.
	bugLightEdgeKept
	// bugIndexSkipsProperties: explicit indexes get no property entries.
	bugIndexSkipsProperties
	nPlantedBugs
)

func (b plantedBug) String() string {
	return [...]string{"none", "label removal lost", "property removal lost", "lightweight edge kept", "index skips properties"}[b]
}
