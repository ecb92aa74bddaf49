package estimator

import (
	"errors"
	"testing"
)

// TestDivisors: n's divisors in order.
func TestDivisors(t *testing.T) {
	t.Parallel()
	for _, n := range []int64{1, 2, 12, 49, 512, 65536, 55440} {
		var want []int64
		for d := int64(1); d <= n; d++ {
			if n%d == 0 {
				want = append(want, d)
			}
		}
		got := divisors(n)
		if len(got) != len(want) {
			t.Fatalf("divisors(%d) = %v, want %v", n, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("divisors(%d) = %v, want %v", n, got, want)
			}
		}
	}
}

// TestErrorCodes: the refusals a caller acts on carry their kind, found
// with errors.Is through DecodeConfig's list; the others carry none.
func TestErrorCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		want      error // nil: neither kind
	}{
		{"weights exceed the GPU", residentConfig(qwen3Next80B, 1, `{}`), ErrWeightsDoNotFit},
		{"DeepSeek-V3 E=8", residentConfig(deepseekV3, 8, `{}`), ErrWeightsDoNotFit},
		{"E does not divide X", residentConfig(qwen3Next80B, 3, `{}`), ErrExpertParallelDoesNotDivide},
		{"resident exceeds the GPU", residentConfig(qwen3Next80B, 2, `{"lora_rank": 64}`), nil},
	} {
		_, err := DecodeConfig([]byte(tc.src))
		if err == nil {
			t.Fatalf("%s: no error", tc.name)
		}
		for _, kind := range []error{ErrWeightsDoNotFit, ErrExpertParallelDoesNotDivide} {
			if got := errors.Is(err, kind); got != (kind == tc.want) {
				t.Errorf("%s: errors.Is(%v, %q) = %v", tc.name, err, kind, got)
			}
		}
	}
}

// TestFitExpertParallel: DeepSeek-V3, refused at E = 8, fits first at
// E = 16 (the next divisor of its 256 experts), which is priced; a config
// without a resident group has no answer and prices nothing.
func TestFitExpertParallel(t *testing.T) {
	t.Parallel()
	c, err := DecodeConfig([]byte(residentConfig(deepseekV3, 16, `{}`)))
	if err != nil {
		t.Fatal(err)
	}
	c.FC2.ExpertParallel = 8
	if _, err := c.Resolve(); !errors.Is(err, ErrWeightsDoNotFit) {
		t.Fatalf("DeepSeek-V3 at E = 8: %v", err)
	}
	fit := FitExpertParallel(c)
	if !fit.OK || fit.EP != 16 || fit.Weights <= 0 || fit.Priced < 2 || fit.Priced > 1+7 {
		t.Errorf("fit %+v, want E = 16 with its weights, after the next E and at most the 7 divisors of 256 above 8", fit)
	}
	c.FC2.ExpertParallel = fit.EP
	if _, err := c.Resolve(); err != nil {
		t.Errorf("at E = %d: %v", fit.EP, err)
	}
	if fit := FitExpertParallel(Default()); fit.OK || fit.Priced != 0 {
		t.Errorf("no resident group: %+v", fit)
	}
}
