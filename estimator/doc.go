// Package estimator is Headroom's memory model: it decides, from an
// estimate of a request's bytes, whether a trainer admits the request whole,
// splits it into children, or refuses it, for a baseline estimator (the three
// changes off) and a candidate (the changes the user chose), side by side.
//
// The model is the one specified in docs/model.md. Every byte
// count is an exact int64; every multiplication and addition is checked, and
// an overflow is an *Error naming the fields involved, never a wrap or a
// panic. Each tensor is rounded up to the allocator's block size before
// anything is summed.
//
// It imports only the standard library and its own internal/termexpr (the
// language of a term's bytes); the rest of the repository imports it.
// Around it, in packages of their own that reach it only through its
// API: estimator/urlquery (a config in a URL's query) and
// estimator/hfconfig (a Hugging Face config.json imported into a config).
//
// Where docs/model.md leaves a choice open, this package chooses as
// follows (each choice is repeated at the code it governs):
//
//   - The stages of a piece reported in a result are the ephemeral stages
//     (activations, head, fc2, gdn) in that order; a stage that does not
//     exist for the model (fc2 when num_experts_per_tok = 0, gdn when
//     linear_num_key_heads = 0) is left out. The retained tensors are
//     reported separately under "retained".
//   - dominant_stage is the ephemeral stage that sets the piece's peak (the
//     largest of the stages above, the first in that order on a tie).
//   - retained_bytes is the sum over the plan's children and
//     ephemeral_bytes the largest child's peak, so required_bytes =
//     floor((retained_bytes + ephemeral_bytes) x safety_percent / 100);
//     the stages, the retained tensors and child_retained_bytes are the
//     largest child's.
//   - The largest child is the child with the most rows, the first on a tie.
//   - A sweep resolves the config's defaults first (projected_rows,
//     target_rows, input_width, output_width, retained_per_row_bytes), then
//     changes only the swept field: "every other field keeps its value".
//     Sweeping rows carries projected_rows and target_rows in proportion.
//   - A point where the config is invalid takes the pseudo-decision
//     "invalid" in a sweep, so moving into or out of an invalid range is
//     reported as a flip carrying the message.
//   - An overflow while pricing a plan the decision needs makes the whole
//     request an error: a byte count that does not fit in int64 cannot be
//     compared with a budget honestly. The plans priced are the whole
//     request, the finest rung (one sequence per child) when the whole does
//     not fit, the lower bound, and the rungs the ladder tries in its order;
//     a rung that a cheaper bound proves cannot fit is not priced.
//   - Observed peaks (docs/model.md §12): a point's piece of n rows is priced by
//     the same code as every plan (p and t from the config's N, P and T,
//     n may exceed N); its prediction is in_use_bytes + retained(n) +
//     ephemeral(n), without safety or reserve. The fit is computed
//     exactly (math/big): the intercept is that of the exact line, then
//     both coefficients are rounded to the nearest integer, halves away
//     from zero (a mean residual of 2.5 bytes gives 3, of -2.5 gives -3).
//     The error percents are the float64 nearest the exact largest ratio,
//     printed as encoding/json prints a float64. A point's label is
//     optional (""), "observed": null is no points, and a fitted
//     coefficient beyond int64 is an error (as an overflow is). The
//     points change no decision: a sweep ignores them, and an estimate
//     only adds "observed" and "fit".
//   - A baseline of its own (docs/model.md §11, Config.Baseline): the baseline's
//     config is the config with the overridden fields replaced and
//     nothing else; its defaults (projected and target rows, FC2 widths,
//     retained bytes per row) are resolved after the overrides. An
//     override of rows does not scale an explicit projected_rows or
//     target_rows; null in overrides returns an optional field to the
//     baseline's own default. Every error of the baseline's config is
//     named "baseline.overrides.<path>", also for a field it does not
//     override (that is where the fix goes), except one that repeats the
//     candidate's own error; an overflow in the baseline's plans is named
//     "baseline".
//   - Each revision then has its own resolved config (Revisions): its own
//     decision, lower bound, available bytes and reason. The per-revision
//     available_bytes is written only when the config has a "baseline"
//     (even {}), so a config without one gives the same bytes as before.
//   - A sweep of a config with a baseline of its own moves the field in
//     both revisions and finds each revision valid or invalid on its own
//     config: an H100 baseline turns invalid above its capacity while the
//     H200 candidate still decides. Without one, both revisions are one
//     config and a point is invalid for both, as before.
//   - Terms (docs/model.md §8): the stages of a result are the built-in ones in
//     their order, then one per term of place stage, in the order of the
//     terms; inside a stage, and among the retained tensors, a revision's
//     terms follow the built-in tensors in the order of the terms. A term
//     is listed even when its bytes are 0. A stage the model lacks (fc2 at
//     K = 0, gdn at Hk = 0) exists in a revision exactly when that revision
//     holds a term placed there; a term's own stage exists only in the
//     revisions that hold it, with the one tensor of the same name.
//   - A term's expression: a unary - or + is allowed (it is the operator
//     -); a literal with a leading zero (octal in Go), hexadecimal, octal
//     or binary is refused. D and Dt are the formulas' values, before any
//     rounding. A subexpression without variables is evaluated when the
//     config is read, so its failure (and a constant divisor <= 0, or a
//     constant negative dividend) is an error of the decoder; a failure
//     that depends on the piece is the estimate's.
//   - A term is evaluated for the pieces a revision that holds it prices
//     (the lower bound holds the terms of revision both), in the plans the
//     ladder tries. Any failure (an overflow, a division by zero or of a
//     negative number, a negative size) makes the estimate an error
//     naming the term, as an overflow does, and a point of a sweep
//     invalid, for both revisions, with that message.
//   - Terms with a baseline of its own (docs/model.md §11): the terms are the
//     config's and cannot be overridden; the baseline's resolved config
//     compiles them too, so the baseline and both terms of the baseline
//     are evaluated with the baseline's own variables (its rows, widths,
//     sequence length), and its lower bound holds the both terms with
//     them. A term's failure is then the failing revision's alone: a
//     sweep's point is invalid for that revision only, and the error of a
//     baseline's term is named "baseline", the message naming the term
//     ("baseline: terms[0] (x): ..."), in an estimate, a sweep, a replay
//     line and an observed point alike.
//   - The ladder's shortcuts (the finest rung first, a rung skipped when
//     its first child alone cannot fit) rest on ephemeral bytes that grow
//     with rows and children's retained bytes that add up to at least the
//     whole's. A term the compiler cannot prove keeps both (a
//     subtraction, a division by a piece's variable, n / 2 among the
//     retained tensors, n x n, ...) makes its revisions price every rung
//     in order, so the decision is always the ladder's.
//   - Ranges docs/model.md leaves open: num_hidden_layers and topk are
//     limited to 2^20, like widths; sequence_rows and chunk_rows to
//     2^31-1, like rows; retained_per_row_bytes to 2^50, like capacity.
//   - Resident memory (docs/model.md §14, params*.go and resident*.go)
//     is opt-in by the "resident" group; without it nothing changes (the
//     no-resident golden holds that). budget.in_use_bytes 0, its
//     default, counts as absent (the format has no absent integer), so a
//     resident group with in_use_bytes 0 makes in_use_bytes the resident
//     bytes; any other value wins, as does a swept in_use_bytes or a
//     workload line's. The "required" rules of §14.1 read which model keys
//     a decoded JSON config held; a config built in Go counts every
//     registry field as given. q_lora_rank 0 is no query compression;
//     an empty lora_targets is the family's default list; gate_proj,
//     up_proj and down_proj adapt the dense MLP layers and the shared
//     expert and are not linears of Mixtral or gpt-oss; the MTP modules
//     get no adapters; Qwen3.5 (by architectures[0], else model_type)
//     counts its four GDN input projections as four tensors, each rounded.
//
// A replay (docs/model.md §9, replay.go and workload.go) chooses:
//
//   - A line's fields are set in each revision's resolved config: rows,
//     sequence_rows and in_use_bytes where the line gives them;
//     projected_rows and target_rows where it gives them, else each
//     scaled on its own as a sweep of rows scales it, ceil(rows x P / N)
//     and ceil(rows x T / N), from the revision's resolved N, P and T. A
//     line that gives projected_rows but not target_rows therefore still
//     scales T, and is invalid when that passes its projected_rows.
//   - Each line is validated as a config: a cell out of its field's range,
//     projected_rows above rows, target_rows above projected_rows, or
//     in_use_bytes above capacity_bytes makes the whole replay an error
//     naming the line and the field (budget.in_use_bytes for the last: it
//     is not counted as a refusal). So is an overflow while pricing the
//     line, the lower bound included, exactly when Estimate would fail.
//   - rows is required as a CSV column (a header without it is an error
//     on line 1); a line may still leave it to the config, by an empty
//     cell or, in JSON Lines, a missing key or null, as every other
//     column may.
//   - rows in the result sums rows x count, a line without rows counting
//     the config's rows; a sum past int64 is an error at that line.
//   - CSV cells are integers as ParseInt reads them (so a quoted "64,902"
//     is 64902); JSON values are JSON integers only (no fraction, exponent
//     or string), and null is a missing key. id is echoed: a CSV cell as
//     it is; a JSON string, number (its literal) or null ("").
//   - Line numbers are physical lines from 1, blank lines and a record's
//     quoted line ends included, in CSV and in JSON Lines alike; a record
//     is numbered by its first line. A line longer than 1 MiB is an error.
//   - JSON Lines keys are case-insensitive like CSV header names; a known
//     column or key twice is an error. ignored lists CSV columns in header
//     order, JSON Lines keys in order of first appearance (at most 1,000).
//   - A workload with no request line (empty, blank, a header only) is an
//     error: there is nothing to replay.
//   - Shapes are memoized (65,536 at a time, then the memo starts afresh),
//     so memory does not grow with the lines.
//   - A map (Map) sets x in each column as a sweep along x sets it, in
//     both revisions (Revisions.Set: the resolved configs, only x moved,
//     an override of x not holding; rows carries each revision's own
//     projected_rows and target_rows), then sweeps y as Sweep does, each
//     revision valid or invalid on its own, on the same grid of
//     DefaultPoints and the same bisection: each column equals Sweep along
//     y of the config at its x. A column's start is "invalid" where the
//     config is invalid at y_from. Its ranges are checked as a sweep's
//     (0..2^62, from <= to; errors name x.axis, x.from, x.to, y.axis,
//     y.from, y.to, columns); a value outside the field's own range is an
//     invalid point, so a column whose x is outside it is invalid
//     throughout, while a column where x alone breaks a limit relating two
//     fields (in_use_bytes above capacity_bytes) is priced point by point,
//     since y may lift it. A map where every point evaluated is invalid is
//     an error for the field "map", with the first point's message.
//     Terms follow x and y as every other byte does, in each revision's
//     own config.
//   - Along capacity_bytes or in_use_bytes (a sweep, or a map's columns
//     with the budget across) a point's result is reused over the
//     available bytes where every comparison of its ladder with the budget
//     comes out the same (evaluator.fits; sweeppath.go). This holds with
//     terms, including the rung-by-rung ladder of an unsafe term, because
//     no term variable reads the budget.
//   - The share of a map's plane that differs (DifferFraction) counts its
//     integer points (x, y), each x taking the decisions of the column
//     nearest it (a tie to the lower column), where the two revisions
//     decide differently; points invalid for both count as agreeing. The
//     summary sentence names the ranges of y where the config's column
//     differs, or, when it does not, the column that differs over the
//     most y.
package estimator
