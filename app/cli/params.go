package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"headroom/estimator"
	"headroom/estimator/hfconfig"
)

// Params is the params command: a model's parameter counts (docs/model.md
// §14.2) and, when its config has a resident group, the memory one GPU
// holds (§14.4), as text or JSON. The model comes from a config in the
// interchange format (-config) or a Hugging Face config.json (-hf, which
// turns the resident group on, as the page's import does).
func Params(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("params", stderr)
	configPath := fs.String("config", "", "config JSON file (- = standard input)")
	hfPath := fs.String("hf", "", "a Hugging Face config.json (- = standard input), instead of -config")
	format := fs.String("format", "text", "output: text or json")
	ep := fs.Int64(estimator.KeyExpertParallel, 0, "set fc2.expert_parallel (the GPUs the routed experts are divided over); 0 keeps the config's")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return fail(stderr, "params", err)
	}
	if len(rest) > 0 {
		return fail(stderr, "params", fmt.Errorf("unexpected argument %q; give the model with -config or -hf", rest[0]))
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return fail(stderr, "params", err)
	}
	var cfg estimator.Config
	switch {
	case *configPath != "" && *hfPath != "":
		err = errors.New("-config and -hf: give one of them, not both")
	case *hfPath != "":
		cfg, err = readHF(*hfPath, stdin)
	default:
		cfg, err = readModelConfig(*configPath, stdin)
	}
	if err != nil {
		return fail(stderr, "params", err)
	}
	if *ep != 0 {
		cfg.FC2.ExpertParallel = *ep
	}
	rep, err := estimator.Params(cfg)
	if err != nil {
		return fail(stderr, "params", err)
	}
	if *format == "json" {
		return writeJSON(stdout, stderr, "params", rep)
	}
	if err := writeParamsText(stdout, rep); err != nil {
		fmt.Fprintf(stderr, "headroom params: writing the result: %v\n", err)
		return 1
	}
	return 0
}

// readInput reads a file ("-" = stdin) for flag, at most MaxInputBytes.
func readInput(flag, path string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", flag, err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, estimator.MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", flag, err)
	}
	return data, nil
}

// readModelConfig reads a config for the count: as readConfig, but a
// resident group whose weights exceed the GPU is reported, not refused.
func readModelConfig(path string, stdin io.Reader) (estimator.Config, error) {
	if path == "" {
		return estimator.Config{}, errors.New("-config: is required (a file, or - for standard input), or give -hf")
	}
	data, err := readInput("-config", path, stdin)
	if err != nil {
		return estimator.Config{}, err
	}
	return estimator.DecodeModelConfig(data)
}

// readHF imports a Hugging Face config.json onto the default config. The
// count needs the family the file names.
func readHF(path string, stdin io.Reader) (estimator.Config, error) {
	data, err := readInput("-hf", path, stdin)
	if err != nil {
		return estimator.Config{}, err
	}
	cfg, rep, err := hfconfig.Import(estimator.Default(), data)
	if err != nil {
		return estimator.Config{}, err
	}
	a := cfg.Model.ArchFields
	if a == nil || (len(a.Architectures) == 0 && a.ModelType == "") {
		return estimator.Config{}, errors.New("model.architectures: config.json names no architectures (nor model_type); the count needs the family")
	}
	if rep.ResidentOff != "" {
		cfg.Resident = &estimator.ResidentConfig{} // Params then names the field that stops it
	}
	return cfg, nil
}

// writeParamsText prints the report as text, labels on the left and
// figures aligned on the right.
func writeParamsText(w io.Writer, rep estimator.ParamReport) error {
	var b strings.Builder
	g := estimator.Group
	row := func(label string, v int64, after string) {
		fmt.Fprintf(&b, "%-26s %17s%s\n", label, g(v), after)
	}
	p := rep.Params
	b.WriteString(rep.Architecture + "\n")
	if rep.Assumed != "" {
		b.WriteString("(" + rep.Assumed + ")\n")
	}
	row("parameters", p.Total, "")
	row("  routed experts", p.Experts, "")
	row("  the rest", p.NonExpert, "")
	row("active per token", p.Active, "")
	row("multi-token prediction", p.MTP, " (not in parameters)")
	row("tensors", p.Tensors, "")
	if r := rep.Resident; r != nil {
		fmt.Fprintf(&b, "\nresident on one GPU (fc2.expert_parallel %s, %s local experts, %d-byte weights):\n",
			g(r.ExpertParallel), g(r.LocalExperts), r.WeightDtypeBytes)
		row("  weights", int64(r.WeightsBytes), " bytes ("+r.WeightsBytes.GiBString()+" GiB)")
		row("    routed experts", int64(r.ExpertWeightsBytes), "")
		row("    the rest", int64(r.NonExpertWeightsBytes), "")
		l := r.LoRA
		row(fmt.Sprintf("  LoRA parameters, rank %d", l.Rank), l.Params, " ("+g(l.ExpertParams)+" expert): "+strings.Join(l.Targets, ", "))
		row("    adapter weights", int64(l.WeightsBytes), "")
		row("    gradients", int64(l.GradBytes), "")
		row("    master copy", int64(l.MasterBytes), "")
		row("    optimizer state", int64(l.OptimizerBytes), "")
		row("  framework reserve", int64(r.FrameworkReserveBytes), "")
		row("  resident", int64(r.ResidentBytes), " bytes ("+r.ResidentBytes.GiBString()+" GiB)")
		row("  in_use_bytes", int64(r.InUseBytes), " ("+r.Source+")")
	}
	if rep.Error != "" {
		b.WriteString("\ndoes not fit: " + rep.Error + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
