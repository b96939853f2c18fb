//go:build !gdirmabugs

package gdirma

const planted = noBug
