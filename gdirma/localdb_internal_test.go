package gdirma

import (
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// withLocalDB runs f on one local rank with a database created with p,
// which it frees afterwards.
func withLocalDB(p Params, f func(db *Database) error) error {
	return local.Run(1, func(c rma.Comm) error {
		d, err := Driver{}.CreateDatabase(c, p)
		if err != nil {
			return err
		}
		db := d.(*Database)
		defer db.Free()
		return f(db)
	})
}
