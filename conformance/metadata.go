package conformance

var metadataCases = []Case{
	c("Label/create-and-lookup", labelCreateLookup),
}

// labelCreateLookup: a created label is found by name, has its name, is
// listed, and has the same object number on every rank.
func labelCreateLookup(e *Env) {
	db := e.DB
	l := must(db.CreateLabel("Person"))
	if got := must(db.LabelFromName("Person")); got != l {
		failf("LabelFromName(Person) = %v, want %v", got, l)
	}
	if got := must(db.LabelName(l)); got != "Person" {
		failf("LabelName = %q, want Person", got)
	}
	ls := must(db.Labels())
	if len(ls) != 1 || ls[0] != l {
		failf("Labels() = %v, want [%v]", ls, l)
	}
	e.sameOnAllRanks(uint64(l.ID()), "label object number")
}
