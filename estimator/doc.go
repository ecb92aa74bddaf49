// Package estimator is Headroom's memory model: it decides, from an
// estimate of a request's bytes, whether a trainer admits the request whole,
// splits it into children, or refuses it, for a baseline estimator (the three
// changes off) and a candidate (the changes the user chose), side by side.
//
// The model is the one specified in shared/design/estimator.md. Every byte
// count is an exact int64; every multiplication and addition is checked, and
// an overflow is an *Error naming the fields involved, never a wrap or a
// panic. Each tensor is rounded up to the allocator's block size before
// anything is summed.
//
// Where the specification leaves a choice open, this package chooses as
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
//   - Terms (section 8): the stages of a result are the built-in ones in
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
//   - The ladder's shortcuts (the finest rung first, a rung skipped when
//     its first child alone cannot fit) rest on ephemeral bytes that grow
//     with rows and children's retained bytes that add up to at least the
//     whole's. A term the compiler cannot prove keeps both (a
//     subtraction, a division by a piece's variable, n / 2 among the
//     retained tensors, n x n, ...) makes its revisions price every rung
//     in order, so the decision is always the ladder's.
//   - Ranges the specification leaves open: num_hidden_layers and topk are
//     limited to 2^20, like widths; sequence_rows and chunk_rows to
//     2^31-1, like rows; retained_per_row_bytes to 2^50, like capacity.
package estimator
