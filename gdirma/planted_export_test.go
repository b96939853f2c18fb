//go:build gdirmabugs

package gdirma

// NumPlantedBugs is the number of planted bugs, numbered from 1.
const NumPlantedBugs = int(nPlantedBugs) - 1

// PlantBug switches planted bug b on (see planted.go) and returns its
// name and the function that switches it off again.
func PlantBug(b int) (string, func()) {
	planted = plantedBug(b)
	return planted.String(), func() { planted = noBug }
}
