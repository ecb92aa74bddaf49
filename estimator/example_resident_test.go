package estimator_test

import (
	"fmt"

	"headroom/estimator"
)

// Qwen3-Next-80B-A3B (the default model) at expert parallelism 8: what
// one H200 holds before a request arrives, and what is left for it.
func ExampleParams() {
	c, err := estimator.DecodeModelConfig([]byte(`{"fc2": {"expert_parallel": 8}, "resident": {}}`))
	if err != nil {
		panic(err)
	}
	rep, err := estimator.Params(c)
	if err != nil {
		panic(err)
	}
	r := rep.Resident
	fmt.Println(rep.Architecture, estimator.Group(rep.Params.Total), "parameters,", estimator.Group(rep.Params.Active), "active")
	fmt.Println("weights", r.WeightsBytes)
	fmt.Println("adapters", estimator.Group(r.LoRA.Params), "parameters at rank", r.LoRA.Rank)
	fmt.Println("resident", r.ResidentBytes)
	res, err := estimator.Estimate(c)
	if err != nil {
		panic(err)
	}
	fmt.Println("available", res.AvailableBytes)
	// Output:
	// Qwen3NextForCausalLM 79,674,391,296 parameters, 3,874,929,408 active
	// weights 24,057,354,240 bytes (22.405 GiB)
	// adapters 25,030,656 parameters at rank 1
	// resident 24,507,906,048 bytes (22.825 GiB)
	// available 121,724,269,446 bytes (113.365 GiB)
}
