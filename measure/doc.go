// Package measure reads the measurements people already have and sets
// them beside the estimate: PyTorch memory snapshots
// (torch.cuda.memory._dump_snapshot, the file memory_viz opens) and ART's
// planner-miss reports (docs/model.md §13.9).
//
// It may import the standard library and headroom/estimator; never
// go-app, gonum or headroom/app/... The command line (app/cli) and the
// page (app/ui/measured, the Observed peaks panel) use it. Its
// subpackage snapgen writes synthetic snapshots for the tests and the
// benchmark.
//
// # The pickle decoder
//
// unpickle.go is a decoder of our own for the data opcodes of pickle
// protocols 0-5, written so the snapshot streams: the pickle is read once,
// front to back, and each trace entry is converted to a pointer-free Event
// when it is appended to its trace, its dict reused for the next, and
// handed to a sink (stream.go); a segment's blocks and a stack's frames
// are converted the same way, and a stack becomes its top frame the first
// time an entry uses it. The object tree is never held. ReadSnapshot's
// sink keeps the trace (56 bytes an entry, each distinct top frame once);
// AnalyzeStream's replay it as it comes, reading the file twice (scan.go:
// the first pass, replay.go: the second), and keep only the blocks live
// at once, bounded by MaxTrackedBlocks. Any opcode that
// names, calls or builds a Python object (GLOBAL, STACK_GLOBAL, REDUCE,
// INST, OBJ, NEWOBJ, BUILD, EXT*, PERSID, sets, out-of-band buffers) is
// refused with its name and byte offset before anything is built. Every
// bound a crafted file could stretch is explicit (unpickle.go's
// constants): argument lengths, text lines, open MARKs, values pending on
// the stack, the memo's strings, the estimated bytes of dicts and lists
// held, integers past 8 bytes (kept without their digits). A trace entry
// or block read a second time through the memo is refused: PyTorch writes
// each once, and refusing makes a memo bomb impossible rather than merely
// bounded. gopickle, the decoder before it, built the whole tree (15 to 20
// times the file) and decoded long integers in quadratic time.
//
// The opcodes a trace entry is made of (about 16, and 16 more for a new
// stack) run on a fast path (fastpath.go) straight from the read buffer,
// when they will succeed; anything else, errors included, takes the
// generic path, so the bounds and messages are the same either way. Its
// integers are not boxed: they stay beside the stack, then in the
// entry's dict. Reading a snapshot allocates about a quarter of the
// file's size, most of it the trace kept.
//
// Measured with `make bench-measure` (BENCHMARKS.md has the tables): a
// 105 MB generated pickle of 1,462,452 entries with 12-frame stacks
// reads, analyzes and reports in 1.3 to 1.6 s of CPU and 43 MB peak RSS,
// against 17 s and 1.6 GB with gopickle and 3.5 s and 632 MB for
// Python's pickle.load; a 1,077 MB one of 14,982,229 entries in 10.5 to
// 11.5 s (about 100 MB of file per CPU second) and 263 MB, against 50 s
// and 6.4 GB for pickle.load. The page reads the same 1 GiB in two
// passes in about 90 s with 272 MB of WebAssembly memory.
//
// # Choices where the sources leave one open
//
//   - The free event: an allocation ends at its free_requested entry,
//     where the caching allocator lowers allocated_bytes (the counter
//     behind torch.cuda.max_memory_allocated, the peak docs/model.md §12 and
//     ART's reports use). memory_viz ends it at free_completed (active
//     memory, which also holds blocks another stream still uses). A trace
//     recorded with free_requested skipped has only free_completed
//     entries; those are then the end.
//   - Allocations live before the trace began count, as memory_viz's
//     "initially allocated" do: a block freed in the trace that the trace
//     never allocated, and a block allocated at the snapshot
//     (active_allocated in the segments) that the trace never allocated.
//     With free_requested as the free event, a free_completed without a
//     free_requested is a block whose free was requested before the trace
//     began: it was no longer allocated, and does not count.
//   - Sizes: the trace records requested sizes; the peak adds block
//     sizes, as allocated_bytes does. A block's size is its size in the
//     snapshot's segments when it is still allocated there with the same
//     requested size; otherwise it is modelled as the allocator's default
//     rounding, max(512, ceil(requested / 512) x 512) (a larger cached
//     block handed out whole, or roundup_power2_divisions, can make the
//     real block larger). LiveBlock.SizeExact says which.
//   - Windows: the entries between two markers (snapshot or annotate
//     entries), labelled by the marker that opens them (its
//     user_metadata), "start" for the first; a window in which nothing is
//     allocated is left out. Each window's peak is a candidate observed
//     point.
//   - The top frame of a stack is its first frame of a Python file, else
//     its first frame.
//   - Matching: a revision's tensors are those of the piece its plan runs
//     (the largest child, the whole request when admitted: the estimate's
//     stages and retained tensors), matched to live blocks by exact block
//     size; the stage with the largest share found is reported.
//   - Reports: nesting past MaxJSONDepth (1,000, Python's recursion
//     limit, which stops ART's reader too) is refused by one scan of the
//     bytes before any decoding, and an integer past MaxIntDigits (4,300,
//     Python's limit for reading one) when it is met, before any
//     arbitrary-precision arithmetic, whose cost is quadratic in the
//     digits. A message never holds a long number, key or time whole.
package measure
