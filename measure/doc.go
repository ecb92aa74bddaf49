// Package measure reads the measurements people already have and sets
// them beside the estimate: PyTorch memory snapshots
// (torch.cuda.memory._dump_snapshot, the file memory_viz opens) and ART's
// planner-miss reports (docs/model.md §13.9).
//
// It may import the standard library, headroom/estimator and one pickle
// decoder, github.com/nlpodyssey/gopickle; never go-app, gonum or
// headroom/app/... The command line (app/cli) and the page (app/ui's
// Observed peaks panel, app/ui/measured) use it.
//
// # The pickle decoder
//
// gopickle and og-rek were both candidates. gopickle was chosen because on
// a 50 MB snapshot it decoded 2.7 times faster (1.6 s against 4.3 s) in
// about 30 % less memory (490 MB against 680 MB peak), and it has no
// dependencies (og-rek brings two). Its two weaknesses for untrusted
// files, resolving some Python classes itself and allocating a string's
// declared length before reading it, never come into play: every byte
// passes first through this package's opcode filter (pickle.go), which
// refuses any opcode that names, calls or builds a Python object (GLOBAL,
// STACK_GLOBAL, REDUCE, INST, OBJ, NEWOBJ, BUILD, EXT*, PERSID, sets and
// out-of-band buffers) with its name and byte offset, bounds every
// argument (64 MiB) and the whole input (ReadOptions.MaxBytes, 1 GiB by
// default), and stops at the first STOP. A decoder panic on a malformed
// stream is turned into an error. The memo lets a few bytes refer to one
// large object many times, so the conversion refuses a dict of more than
// 256 keys and more segments, blocks and entries than one per 8 bytes of
// the file: work stays linear in the file's size.
//
// Memory and time: the decoder builds the whole object tree before it is
// reduced to this package's compact types (each decoded entry is dropped
// as soon as it is converted), so a read peaks at about 15 to 20 times the
// file's size. Measured with gen.py --large (12-frame stacks, as
// memory_viz's files have), `headroom measure -snapshot`, on the shared
// 2-core machine: a 108 MB pickle of 2,249,999 trace entries took 11.3 s
// of CPU and 2.0 GB peak RSS; a 387 MB pickle (369 MiB, 6,448,593
// entries) 40 s of CPU (135 s wall under a load of 10) and 5.5 GB.
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
