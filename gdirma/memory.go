package gdirma

// MemoryStats are figures of a database's block memory.
type MemoryStats struct {
	BlockSize     int    // bytes per block
	BlocksPerRank int    // blocks of each rank
	BlocksInUse   uint64 // blocks handed out, on all ranks
}

// MemoryStats counts the blocks in use on all ranks. It walks the free
// lists, so it is exact only on a quiet database; it is not collective.
// The blocks other ranks hold for their acquires (up to 16 each, see
// bgdl's reserves) count as in use.
func (db *Database) MemoryStats() (MemoryStats, error) {
	if db.IsFreed() {
		return MemoryStats{}, errFreedDB()
	}
	st := db.st
	s := MemoryStats{BlockSize: st.BlockSize(), BlocksPerRank: st.Pool().Blocks()}
	for r := range st.Size() {
		free, err := st.Pool().FreeBlocks(r)
		if err != nil {
			return s, internal(err)
		}
		s.BlocksInUse += uint64(st.Pool().Blocks() - free)
	}
	return s, nil
}
