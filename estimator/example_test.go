package estimator_test

import (
	"fmt"

	"headroom/estimator"
)

func show(res estimator.Result) {
	for _, o := range []struct {
		name string
		o    estimator.Outcome
	}{{"baseline", res.Baseline}, {"candidate", res.Candidate}} {
		fmt.Printf("%s: %s, %d children of at most %d rows, required %s\n",
			o.name, o.o.Decision, o.o.Children, o.o.ChildRows, o.o.RequiredBytes)
	}
}

// The default request, 64,902 rows of Qwen3-Next on an empty H200, fits
// whole in both revisions.
func ExampleEstimate_admit() {
	res, err := estimator.Estimate(estimator.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("available", res.AvailableBytes)
	show(res)
	// Output:
	// available 146,232,175,494 bytes (136.189 GiB)
	// baseline: admit, 1 children of at most 64902 rows, required 21,091,256,524 bytes (19.643 GiB)
	// candidate: admit, 1 children of at most 64902 rows, required 23,540,293,427 bytes (21.924 GiB)
}

// A behavioral hold: with 22 GB available, the baseline admits the seed's
// 64,902 rows whole, while the candidate's extra head and FC2 storage make
// it split them into the seed's warm-run children of 33,706 and 31,196
// rows (sequence_rows 16,853).
func ExampleEstimate_split() {
	c := estimator.Default()
	c.Request.SequenceRows = 16853
	c.Budget.CapacityBytes = 22_000_000_000
	c.Budget.ReservePermille = 0
	res, err := estimator.Estimate(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	show(res)
	fmt.Println("candidate margin", res.Candidate.MarginBytes)
	// Output:
	// baseline: admit, 1 children of at most 64902 rows, required 21,091,256,524 bytes (19.643 GiB)
	// candidate: split, 2 children of at most 33706 rows, required 18,972,200,755 bytes (17.669 GiB)
	// candidate margin 3,027,799,245 bytes (2.820 GiB)
}

// With 15 GB available even one sequence per child does not fit: the
// request is refused, and the result says by how much and where.
func ExampleEstimate_refuse() {
	c := estimator.Default()
	c.Request.SequenceRows = 16853
	c.Budget.CapacityBytes = 15_000_000_000
	c.Budget.ReservePermille = 0
	res, err := estimator.Estimate(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	show(res)
	fmt.Println("baseline margin", res.Baseline.MarginBytes)
	fmt.Println("lower bound", res.Baseline.LowerBoundBytes)
	fmt.Println("dominant stage", res.Baseline.DominantStage)
	// Output:
	// baseline: refuse, 0 children of at most 16853 rows, required 15,868,446,668 bytes (14.779 GiB)
	// candidate: refuse, 0 children of at most 16853 rows, required 16,504,382,822 bytes (15.371 GiB)
	// baseline margin -868,446,668 bytes (-0.809 GiB)
	// lower bound 15,555,221,862 bytes (14.487 GiB)
	// dominant stage gdn
}

// DecodeConfig reads the interchange format; omitted fields keep their
// defaults.
func ExampleDecodeConfig() {
	c, err := estimator.DecodeConfig([]byte(`{"request": {"rows": 4096, "outputs": {"logprobs": false, "logits": true}}, "changes": {"gdn_early_release": false}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Request.Rows, c.Request.Outputs.Logits, c.Model.VocabSize, c.Changes)
	_, err = estimator.DecodeConfig([]byte(`{"request": {"rows": 1.5, "rowz": 3}}`))
	for _, e := range estimator.FieldErrors(err) {
		fmt.Println(e.Field)
	}
	// Output:
	// 4096 true 151936 {true true false}
	// request.rows
	// request.rowz
}
