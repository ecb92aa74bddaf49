// Package snapgen writes synthetic PyTorch memory snapshots, as large as
// real runs make them, for the tests and benchmarks of package measure.
//
// A snapshot is what torch.cuda.memory._dump_snapshot writes: the
// dictionary of segments, device_traces and allocator_settings, pickled
// as Python's pickler does at protocol 4 (frames, a memo entry for every
// string, dict and list, items 1,000 at a time), or as JSON. The trace
// comes from a small caching allocator run on random requests: segments
// are reserved as requests need them (a segment_alloc entry), blocks are
// split first-fit and coalesced when freed, so the segments at the end
// hold free blocks between allocated ones. Every allocation has a
// 12-frame stack (three C++ frames above nine Python ones) from a pool of
// call sites; the frame dicts are shared across stacks and a stack's list
// is shared by its alloc, free_requested and free_completed entries, as
// PyTorch's snapshot shares them. Annotations open windows, and an oom
// entry can be placed in the trace.
//
// It may import the standard library only. The results it computes
// while writing (Stats) are what a correct reader must find.
package snapgen
