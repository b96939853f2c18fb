module github.com/gdi-go/gdi

go 1.26.0
