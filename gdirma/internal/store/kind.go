package store

import "github.com/gdi-go/gdi/gdi"

// Kind tells vertex holders from edge holders. It is part of the marker
// of every primary block.
type Kind uint8

const (
	Vertex Kind = iota
	Edge
)

func (k Kind) String() string {
	if k == Vertex {
		return "vertex"
	}
	return "edge"
}

// InvalidCode is the "invalid argument" code of holders of this kind.
func (k Kind) InvalidCode() gdi.Code {
	if k == Vertex {
		return gdi.ErrVertex
	}
	return gdi.ErrEdge
}
