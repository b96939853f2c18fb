// Package bgdl is the blocked graph data layout: memory of every rank cut
// into blocks of one fixed size, handed out and taken back without locks.
//
// Vertex and edge holders of higher layers are made of blocks. A block is
// named by a DPtr, 16 bits of rank and 48 bits of byte offset into the data
// window, so one 64-bit word locates any block of the database and fits the
// remote atomics.
//
// # Windows
//
// A Pool uses three windows of the same geometry on every rank:
//
//   - data: the blocks themselves. Block b (1 ≤ b ≤ Blocks) starts at byte
//     b·BlockSize. Block 0 is never handed out, so offset 0 and the zero DPtr
//     mean "no block".
//   - usage: one word per block. For a free block it holds the number of
//     the next free block (0 ends the list); for a block in use it holds a
//     marker, which is how double and foreign releases are caught.
//   - system: word 0 is the head of the free list, word b is the lock word
//     of block b, for the transaction layer.
//
// # Acquire and release
//
// The free list of a rank is a lock-free stack (Treiber) reached only with
// one-sided operations, so any rank can take a block from any other rank's
// memory without that rank doing anything. The head word carries a 32-bit
// tag in its upper half that every successful compare-and-swap increments:
// without it, a head that goes from X to Y and back to X while a slow
// acquirer sleeps would let that acquirer install a stale successor (ABA).
//
// A pool may keep a reserve (Config.Reserve): a rank then takes the blocks
// of its own that it acquires a run at a time, in one swap of the head
// (reserve.go).
//
// # Caveats
//
// A rank's free list holds at most 2^32-1 blocks, and the data window of a
// rank at most 2^48 bytes. FreeBlocks walks a list and is exact only while no
// one acquires or releases; tests use it at quiescent points.
package bgdl
