// Package redolog is the redo log of gdirma: one file per rank and
// segment, to which each commit appends a record of what it wrote, and
// from which a restore reads those records back. It knows nothing of
// holders or transactions: a record is a sequence number and either the
// writes of a commit (Write: rank, offset, bytes) or a catalog change (JSON
// bytes). What gdirma logs, and why that is enough to recover, is in
// gdirma's redolog.go.
//
// # Model
//
//   - Numbering: every record takes the next number of one word shared by
//     all ranks (Config.Seq, a FetchAndAdd), so numbers are unique and
//     their order is the order of the writes they log across ranks. A
//     rank numbers its records under its lock, so they reach its file in
//     ascending order.
//   - Durability: in sync mode Commit returns once the record is written
//     and synced; the goroutines of a rank that commit at once share one
//     sync. In async mode Commit returns once the record is queued; a
//     background goroutine writes and syncs the queue, and a commit waits
//     for it only while the oldest queued record is older than AsyncMaxLag
//     or the last write failed. A write that fails fails its records'
//     commits (sync) and the file is cut back to its last whole record, so
//     a failure is not permanent.
//   - Files: a header (format, rank, ranks, mode and the number of the
//     checkpoint the segment follows), then records, each with its length
//     and two CRC-32C checksums. Every write ends with a seal record, so
//     the last record with data is always followed by a whole record. A
//     bad record that no whole record follows is a torn tail (a write a
//     crash cut short) and is ignored; a bad record that a whole record
//     follows is corruption, an ErrFileFormat naming the file and offset.
//   - Segments: Prepare and Follow start a new segment at a checkpoint;
//     Roll switches segments while commits go on (Hold keeps a commit and
//     the switch apart). A Chain reads a rank's segments in order as one
//     log.
//
// Errors of the file system are gdi errors naming the file
// (ErrNoSuchFile, ErrNoSpace, ErrIO, ...), from vfs.Error.
package redolog
