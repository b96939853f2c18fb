// Package checkpoint keeps gdirma's checkpoints on disk: the directory of
// generations, the manifest that makes one current, and the rank files
// that hold each rank's windows. It knows windows and bytes, not graphs:
// gdirma says which windows a rank file holds (Section) and what the
// manifest says besides the files.
//
// # Model
//
//	manifest.json           the current checkpoint: its manifest, sealed
//	gen-<g>/rank-<r>.ckpt   rank r's windows in generation g
//	gen-<g>/rank-<r>.log    rank r's redo log since generation g
//
// A checkpoint is written as a new generation (NewGeneration) beside the
// current one and made durable; CommitManifest then renames its manifest
// over manifest.json, the one step that makes it current, and older
// generations are removed after that (RemoveOldGenerations). A crash at
// any moment leaves either the old or the new checkpoint current, each
// whole. The manifest is sealed with the SHA-256 of its bytes (Seal,
// Open), so a damaged one is told from a good one. Checkpoints written
// before generations keep their files in the directory itself: generation
// 0, whose manifest has no seal.
//
// A rank file (WriteRankFile, ReadRankFile) is a header and one section
// per window, each with its name, its size and a CRC-32C; the manifest
// keeps every rank file's size and SHA-256 (FileState), so a file that was
// truncated, overwritten or damaged is refused with gdi.ErrFileFormat and
// a message naming it.
//
// Every name made is made durable (the directory synced) before it is
// relied on. File errors are gdi errors naming the file (vfs.Error).
package checkpoint
