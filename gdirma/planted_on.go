//go:build gdirmabugs

package gdirma

// planted is the bug switched on (see planted.go); tests set it.
var planted = noBug
