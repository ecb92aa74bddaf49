package estimator

import (
	"errors"
	"strings"
)

// Error is a problem with one input, or with the product of several: Field
// names it ("request.rows", or "request.rows x model.vocab_size" for an
// overflow) and Message says what is allowed.
type Error struct {
	Field   string `json:"field"`
	Message string `json:"message"`
	// Code, when set, is the kind of problem as a value a caller can test
	// (errors.Is(err, ErrWeightsDoNotFit)), so that no caller reads the
	// message to learn it; the message stays the person's.
	Code error `json:"-"`
}

func (e *Error) Error() string { return e.Field + ": " + e.Message }

// Is reports whether e is of the kind target names (Code).
func (e *Error) Is(target error) bool { return e.Code != nil && e.Code == target }

// The kinds of problem a caller acts on rather than only shows.
var (
	// ErrWeightsDoNotFit: the model's weights per GPU are more than the
	// GPU's capacity at the config's expert parallelism (Field
	// "resident"); a larger expert parallelism may fit them
	// (FitExpertParallel).
	ErrWeightsDoNotFit = errors.New("the weights do not fit on the GPU")
	// ErrExpertParallelDoesNotDivide: fc2.expert_parallel does not divide
	// the model's routed experts.
	ErrExpertParallelDoesNotDivide = errors.New("the expert parallelism does not divide the routed experts")
)

// ErrorList is every problem found in one config, in field order.
type ErrorList []*Error

// Unwrap returns the list's errors, so errors.As(err, &e) with e an
// *Error finds the first of them and errors.Is looks at each.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// FieldErrors flattens err into the per-field errors it carries. An error
// that names no field is returned under the field "".
func FieldErrors(err error) []*Error {
	if err == nil {
		return nil
	}
	var list ErrorList
	if errors.As(err, &list) {
		return list
	}
	var one *Error
	if errors.As(err, &one) {
		return []*Error{one}
	}
	return []*Error{{Message: err.Error()}}
}
