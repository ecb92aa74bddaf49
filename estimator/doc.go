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
//   - Ranges the specification leaves open: num_hidden_layers and topk are
//     limited to 2^20, like widths; sequence_rows and chunk_rows to
//     2^31-1, like rows; retained_per_row_bytes to 2^50, like capacity.
//   - A map (Map) sets x in each column as a sweep along x sets it (the
//     resolved config, only x moved; rows carries projected_rows and
//     target_rows), then sweeps y as Sweep does, on the same grid of
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
//   - The share of a map's plane that differs (DifferFraction) counts its
//     integer points (x, y), each x taking the decisions of the column
//     nearest it (a tie to the lower column), where the two revisions
//     decide differently; points invalid for both count as agreeing. The
//     summary sentence names the ranges of y where the config's column
//     differs, or, when it does not, the column that differs over the
//     most y.
package estimator
