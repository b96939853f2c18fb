package gdi

import "sync/atomic"

// DatabaseTag identifies one Database of one rank among all databases that
// are open in the process. Backends draw it with NewDatabaseTag when they
// create a Database and put it into every Label and PropertyType handle they
// hand out, so that a handle of another database (or of another rank, when
// ranks are goroutines of one process) is detected and reported as
// ErrObjectMismatch. Tag 0 belongs to the predefined handles, which are
// valid in every database.
type DatabaseTag uint32

var lastTag atomic.Uint32

// NewDatabaseTag returns a tag that no earlier call in this process
// returned. It is safe for concurrent use.
func NewDatabaseTag() DatabaseTag { return DatabaseTag(lastTag.Add(1)) }

// FirstUserID is the smallest object number a backend may give a label or
// property type it creates. Numbers below it are reserved for predefined
// handles, so that a backend can store the number alone (for example in a
// vertex holder in remote memory) without clashing with a predefined one.
const FirstUserID = 16

// handle packs a database tag and an object number into 64 bits: the tag in
// the high half, the number in the low half. Zero is the null handle.
func makeHandle(tag DatabaseTag, id uint32) uint64 { return uint64(tag)<<32 | uint64(id) }
func handleTag(h uint64) DatabaseTag               { return DatabaseTag(h >> 32) }
func handleID(h uint64) uint32                     { return uint32(h) }
