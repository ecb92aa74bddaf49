package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"headroom/assets"
	"headroom/estimator"
)

// setupFlags are the page's setup menus as flags, on every command that
// reads a config: what a person would otherwise hand-write JSON for. They
// apply on top of -config (or of the default config {} when -config is
// left out), in this order: -preset, -gpu, -profile, -expert_parallel.
type setupFlags struct {
	preset, gpu, profile *string
	ep                   *int64
	fs                   *flag.FlagSet
}

func addSetupFlags(fs *flag.FlagSet) *setupFlags {
	return &setupFlags{
		fs:      fs,
		preset:  fs.String("preset", "", "set the model from a preset of the page's menu: "+strings.Join(presetIDs(), ", ")),
		gpu:     fs.String("gpu", "", "set budget.capacity_bytes from a GPU of the page's menu: "+strings.Join(gpuIDs(), ", ")),
		profile: fs.String("profile", "", "set the candidate's trainer: seeds or art (ART's code, docs/model.md §13)"),
		ep:      fs.Int64("expert_parallel", 0, "set fc2.expert_parallel, the GPUs the routed experts are divided over (0 keeps the config's)"),
	}
}

// any reports whether a setup flag was given.
func (s *setupFlags) any() bool {
	set := false
	s.fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "preset", "gpu", "profile", "expert_parallel":
			set = true
		}
	})
	return set
}

// apply sets the flags' fields in cfg; the error names the flag.
func (s *setupFlags) apply(cfg *estimator.Config) error {
	if *s.preset != "" {
		p, err := readPreset(*s.preset)
		if err != nil {
			return err
		}
		for _, f := range estimator.Fields() {
			if !strings.HasPrefix(f.Path, "model.") && f.Key != "input_width" && f.Key != "output_width" {
				continue
			}
			if v, ok := f.Int(&p); ok {
				f.SetInt(cfg, v)
			} else {
				f.Unset(cfg)
			}
		}
		cfg.Model.ArchFields = p.Model.ArchFields
		if cfg.Resident != nil && cfg.Resident.LoRATargets != nil {
			r := *cfg.Resident
			r.LoRATargets = nil // the new family's own list
			cfg.Resident = &r
		}
	}
	if *s.gpu != "" {
		g, err := estimator.GPUByID(strings.ToLower(*s.gpu))
		if err != nil {
			return fmt.Errorf("-gpu: %v", err)
		}
		if g.CapacityBytes == 0 {
			return fmt.Errorf("-gpu: %q has no capacity of its own; set budget.capacity_bytes in -config", *s.gpu)
		}
		cfg.Budget.CapacityBytes = g.CapacityBytes
	}
	if *s.profile != "" {
		p, e := estimator.ParseProfile("-profile", *s.profile)
		if e != nil {
			return e
		}
		cfg.Profile = p
		if p == estimator.ProfileSeeds {
			cfg.Profile = ""
		}
	}
	if *s.ep != 0 {
		cfg.FC2.ExpertParallel = *s.ep
	}
	return nil
}

// readSetup reads -config, or the default config when it is left out and
// a setup flag is given, and applies the setup flags.
func readSetup(cmd, configPath string, s *setupFlags, stdin io.Reader, stderr io.Writer) (estimator.Config, error) {
	var cfg estimator.Config
	if configPath == "" && s.any() {
		cfg = estimator.Default()
	} else {
		var err error
		if cfg, err = readConfig(cmd, configPath, stdin, stderr); err != nil {
			return cfg, err
		}
	}
	if err := s.apply(&cfg); err != nil {
		return cfg, err
	}
	if err := weightsFit(cfg); err != nil {
		return cfg, err
	}
	if _, err := cfg.ResolveRevisions(); err != nil {
		return cfg, oneLine(err)
	}
	return cfg, nil
}

// weightsFit refuses a config whose weights do not fit the GPU at its
// expert parallelism (§14.4) with the estimator's message and the way
// forward the page's button offers: the smallest -expert_parallel that
// divides the experts and fits, or that none does.
func weightsFit(cfg estimator.Config) error {
	if cfg.Resident == nil || cfg.Budget.InUseBytes != 0 {
		return nil
	}
	rep, err := estimator.Params(cfg)
	if err != nil || rep.Error == "" {
		return nil // the estimate reports any other error in its own words
	}
	x, ok := cfg.RoutedExperts()
	if !ok {
		return errors.New(rep.Error)
	}
	for e := cfg.FC2.ExpertParallel + 1; e <= x; e++ {
		if x%e != 0 {
			continue
		}
		c := cfg
		c.FC2.ExpertParallel = e
		if r, err := estimator.Params(c); err == nil && r.Error == "" {
			return fmt.Errorf("%s; -expert_parallel %d fits (the smallest that divides the %d experts and fits)", rep.Error, e, x)
		}
	}
	return fmt.Errorf("%s; no expert parallelism that divides the %d experts makes them fit", rep.Error, x)
}

// readPreset is the config of the page's preset id (assets/presets).
func readPreset(id string) (estimator.Config, error) {
	data, err := fs.ReadFile(assets.Presets, path.Join("presets", path.Base(id)+".json"))
	if err != nil {
		return estimator.Config{}, fmt.Errorf("-preset: no preset %q; the presets are %s", id, strings.Join(presetIDs(), ", "))
	}
	var f struct {
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return estimator.Config{}, fmt.Errorf("-preset %s: %v", id, err)
	}
	c, err := estimator.DecodeConfig(f.Config)
	if err != nil {
		return estimator.Config{}, fmt.Errorf("-preset %s: %v", id, err)
	}
	return c, nil
}

func presetIDs() []string {
	names, _ := fs.Glob(assets.Presets, "presets/*.json")
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = strings.TrimSuffix(path.Base(n), ".json")
	}
	return ids
}

func gpuIDs() []string {
	var ids []string
	for _, g := range estimator.GPUs() {
		if g.CapacityBytes > 0 {
			ids = append(ids, g.ID)
		}
	}
	return ids
}
