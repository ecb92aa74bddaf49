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
}

func (e *Error) Error() string { return e.Field + ": " + e.Message }

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
