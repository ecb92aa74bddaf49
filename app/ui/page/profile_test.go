package page

import (
	"net/url"
	"testing"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// openLink decodes a link's query as the page opens it.
func openLink(t *testing.T, query string) State {
	t.Helper()
	list, _ := Presets()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	return Decode(q, list)
}

// The Trainer menu prices the candidate with ART's code, and the address
// carries the choice back.
func TestTrainerMenuAndItsLink(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := openLink(t, "preset=qwen3-next-80b-a3b&rows=64902")
	if ProfileName(s.Cfg) != estimator.ProfileSeeds {
		t.Fatalf("a link without profile is the seeds' reading, got %q", s.Cfg.Profile)
	}
	s.Apply(Edit{Kind: EditMenu, Key: KeyProfile, Text: estimator.ProfileArt, Settle: true}, list)
	if s.Cfg.Profile != estimator.ProfileArt || len(s.Errs) != 0 {
		t.Fatalf("after the menu: profile %q, errors %v", s.Cfg.Profile, s.Errs)
	}
	want := s.Cfg
	want.Profile = estimator.ProfileArt
	res, err := estimator.Estimate(want)
	if err != nil {
		t.Fatal(err)
	}
	if s.Result.Candidate.RequiredBytes != res.Candidate.RequiredBytes || s.Result.Candidate.Reason != res.Candidate.Reason {
		t.Errorf("the page's result is not the estimator's under art: %+v", s.Result.Candidate)
	}
	q := s.Query(list)
	if q.Get(KeyProfile) != estimator.ProfileArt {
		t.Fatalf("the address lacks profile=art: %v", q.Encode())
	}
	back := Decode(q, list)
	if back.Cfg.Profile != estimator.ProfileArt || back.Result.Candidate.RequiredBytes != res.Candidate.RequiredBytes {
		t.Errorf("the link does not restore ART's code: %q %d", back.Cfg.Profile, back.Result.Candidate.RequiredBytes)
	}
	s.Apply(Edit{Kind: EditMenu, Key: KeyProfile, Text: estimator.ProfileSeeds, Settle: true}, list)
	if s.Cfg.Profile != "" || s.Query(list).Has(KeyProfile) {
		t.Errorf("back to the seeds' reading: profile %q, query %v", s.Cfg.Profile, s.Query(list).Encode())
	}
}

// The art profile's fields travel in the address (they are not in
// estimator.Fields, which the codec merged alone before).
func TestArtFieldsInTheLink(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := openLink(t, "preset=qwen3-next-80b-a3b&profile=art&checkpoint_floor=false&padded_vocab_multiple=64&adapter_gradient_outside_bytes=1024")
	c := s.Cfg
	if c.Art.CheckpointFloor == nil || *c.Art.CheckpointFloor || c.Head.PaddedVocabMultiple == nil || *c.Head.PaddedVocabMultiple != 64 ||
		c.Art.AdapterGradientOutsideBytes == nil || *c.Art.AdapterGradientOutsideBytes != 1024 {
		t.Fatalf("the art fields were not read: %+v %+v", c.Art, c.Head)
	}
	q := s.Query(list)
	for k, v := range map[string]string{"checkpoint_floor": "false", "padded_vocab_multiple": "64", "adapter_gradient_outside_bytes": "1024"} {
		if q.Get(k) != v {
			t.Errorf("the address says %s=%q, want %q", k, q.Get(k), v)
		}
	}
	bad := openLink(t, "profile=art&padded_vocab_multiple=0")
	if bad.InputErr["padded_vocab_multiple"] == "" || bad.Text("padded_vocab_multiple") != "0" {
		t.Errorf("a bad art field is not marked beside its control: %v", bad.InputErr)
	}
	if bad.Query(list).Get("padded_vocab_multiple") != "0" {
		t.Error("the address drops the bad art field's text")
	}
}

// A profile that is neither is marked on the Trainer and kept as typed.
func TestBadProfileInTheLink(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := openLink(t, "profile=torch")
	if s.InputErr[KeyProfile] == "" || s.Cfg.Profile != "" {
		t.Fatalf("profile=torch: errors %v, profile %q", s.InputErr, s.Cfg.Profile)
	}
	if got := s.Query(list).Get(KeyProfile); got != "torch" {
		t.Errorf("the address keeps %q, want torch", got)
	}
}

// Terms under ART's code: the estimator refuses them, so the page prices
// the seeds' reading, says why beside the Trainer and the terms, and
// keeps "art" in the address so removing the terms brings ART's code.
func TestTermsUnderArtAreRefusedWithAReason(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := openLink(t, "preset=qwen3-next-80b-a3b&term="+url.QueryEscape(urlquery.EncodeTerm(estimator.Term{Name: "x", Place: "activations", Revision: "candidate", Bytes: "n*64"})))
	if len(s.Cfg.Terms) != 1 || len(s.Errs) != 0 {
		t.Fatalf("the term does not apply under seeds: %v %v", s.Cfg.Terms, s.Errs)
	}
	s.Apply(Edit{Kind: EditMenu, Key: KeyProfile, Text: estimator.ProfileArt, Settle: true}, list)
	if s.Errs[KeyProfile] != termsUnderArt || s.Errs[KeyTerms] == "" {
		t.Fatalf("no reason beside the Trainer and the terms: %v", s.Errs)
	}
	if s.Cfg.Profile != "" || !s.CfgOK {
		t.Errorf("the page should price the seeds' reading meanwhile: profile %q, ok %v", s.Cfg.Profile, s.CfgOK)
	}
	if s.Query(list).Get(KeyProfile) != estimator.ProfileArt {
		t.Errorf("the address lost profile=art: %v", s.Query(list).Encode())
	}
	s.Apply(Edit{For: ForTerms, Kind: EditTermRemove, Key: "0"}, list)
	if s.Cfg.Profile != estimator.ProfileArt || len(s.Errs) != 0 {
		t.Errorf("without the terms ART's code prices: profile %q, errors %v", s.Cfg.Profile, s.Errs)
	}
}

// "seeds vs ART" is one pick in the comparisons menu, and its link
// restores both revisions' trainers.
func TestComparisonSeedsVsArt(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := openLink(t, "preset=qwen3-next-80b-a3b&rows=64902")
	s.Apply(Edit{For: ForCompare, Kind: EditMenu, Key: KeyComparePreset, Text: ComparisonProfile}, list)
	if s.Cfg.Profile != estimator.ProfileArt || BaselineProfileName(s.Cfg) != estimator.ProfileSeeds || len(s.Errs) != 0 {
		t.Fatalf("seeds vs ART: profile %q, baseline %q, errors %v", s.Cfg.Profile, BaselineProfileName(s.Cfg), s.Errs)
	}
	seeds := s.Cfg
	seeds.Baseline, seeds.Profile = nil, ""
	art := seeds
	art.Profile = estimator.ProfileArt
	rs, _ := estimator.Estimate(seeds)
	ra, _ := estimator.Estimate(art)
	if s.Result.Baseline.RequiredBytes != rs.Candidate.RequiredBytes || s.Result.Candidate.RequiredBytes != ra.Candidate.RequiredBytes {
		t.Errorf("baseline %d, candidate %d; want the seeds' %d and ART's %d", s.Result.Baseline.RequiredBytes,
			s.Result.Candidate.RequiredBytes, rs.Candidate.RequiredBytes, ra.Candidate.RequiredBytes)
	}
	q := s.Query(list)
	if q.Get(KeyBaseProfile) != estimator.ProfileSeeds || q.Get(KeyProfile) != estimator.ProfileArt {
		t.Fatalf("the address: %v", q.Encode())
	}
	back := Decode(q, list)
	if back.Cfg.Profile != estimator.ProfileArt || BaselineProfileName(back.Cfg) != estimator.ProfileSeeds ||
		back.Result.Baseline.RequiredBytes != s.Result.Baseline.RequiredBytes {
		t.Errorf("the link does not restore the comparison: %q %q", back.Cfg.Profile, BaselineProfileName(back.Cfg))
	}
	s.ApplyCompare(Edit{Kind: EditMenu, Key: KeyBaseProfile, Text: SameAsCandidate}, list)
	if BaselineProfileName(s.Cfg) != "" {
		t.Error(`"as the candidate" keeps the baseline's trainer`)
	}
	bad := openLink(t, "b.profile=pytorch")
	if bad.InputErr[KeyBaseProfile] == "" || bad.Query(list).Get(KeyBaseProfile) != "pytorch" {
		t.Errorf("a bad baseline trainer: errors %v, address %v", bad.InputErr, bad.Query(list).Encode())
	}
}

// An export carries the profile, the baseline's trainer and the art
// fields in its config, and importing it restores them; a config.json
// fills the widths ART's code reads.
func TestImportCarriesTheTrainer(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := openLink(t, "preset=qwen3-next-80b-a3b&rows=64902&checkpoint_floor=false&gdn_out_proj_lora_rank=16")
	s.Apply(Edit{For: ForCompare, Kind: EditMenu, Key: KeyComparePreset, Text: ComparisonProfile}, list)
	file := `{"headroom": 1, "view": {"axis": "rows", "from": 1, "to": 100000}, "config": ` +
		string(estimator.MarshalConfig(s.Cfg)) + `}`
	imp, err := ImportJSON(estimator.Default(), []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	fresh := New()
	next, err := fresh.WithImport(imp, list)
	if err != nil {
		t.Fatal(err)
	}
	if next.Cfg.Profile != estimator.ProfileArt || BaselineProfileName(next.Cfg) != estimator.ProfileSeeds {
		t.Errorf("the import lost the trainers: %q %q", next.Cfg.Profile, BaselineProfileName(next.Cfg))
	}
	if a := next.Cfg.Art; a.CheckpointFloor == nil || *a.CheckpointFloor || a.GDNOutProjLoRARank == nil || *a.GDNOutProjLoRARank != 16 {
		t.Errorf("the import lost the art fields: %+v", a)
	}
	if next.Result.Candidate.RequiredBytes != s.Result.Candidate.RequiredBytes {
		t.Errorf("imported %d, exported %d", next.Result.Candidate.RequiredBytes, s.Result.Candidate.RequiredBytes)
	}

	hf := `{"architectures": ["Qwen3NextForCausalLM"], "vocab_size": 151936, "hidden_size": 2048, "num_hidden_layers": 48,
		"num_experts_per_tok": 10, "num_experts": 512, "moe_intermediate_size": 512, "shared_expert_intermediate_size": 1024,
		"intermediate_size": 5120, "linear_conv_kernel_dim": 8, "linear_num_key_heads": 16, "linear_key_head_dim": 128,
		"linear_num_value_heads": 32, "linear_value_head_dim": 128}`
	imp, err = ImportJSON(s.Cfg, []byte(hf))
	if err != nil {
		t.Fatal(err)
	}
	next, err = s.WithImport(imp, list)
	if err != nil {
		t.Fatal(err)
	}
	m := next.Cfg.Model
	for name, got := range map[string]*int64{"shared_expert_intermediate_size": m.SharedExpertIntermediateSize,
		"intermediate_size": m.IntermediateSize, "linear_conv_kernel_dim": m.LinearConvKernelDim} {
		if got == nil {
			t.Errorf("%s was not filled from the config.json", name)
		}
	}
	if m.SharedExpertIntermediateSize != nil && *m.SharedExpertIntermediateSize != 1024 || m.LinearConvKernelDim != nil && *m.LinearConvKernelDim != 8 {
		t.Errorf("widths: %+v", m)
	}
	if next.Cfg.Profile != estimator.ProfileArt {
		t.Error("a config.json changed the trainer")
	}
	if q := next.Query(list); q.Get("shared_expert_intermediate_size") != "1024" || q.Get(KeyProfile) != estimator.ProfileArt {
		t.Errorf("the address after the import: %v", q.Encode())
	}
}

// Terms and a baseline priced by ART's code: the override waits, marked,
// until the terms go; the comparison "seeds vs ART" says why it cannot
// start. Found while checking Repair: it keeps a baseline's art override
// beside terms, so the config would stay invalid.
func TestTermsAndTheBaselinesTrainer(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	term := urlquery.EncodeTerm(estimator.Term{Name: "x", Place: "activations", Revision: "both", Bytes: "n*64"})
	s := openLink(t, "b.profile=art&term="+url.QueryEscape(term))
	if !s.CfgOK || s.Errs[KeyBaseProfile] != baselineTermsUnderArt || BaselineProfileName(s.Cfg) != "" {
		t.Fatalf("ok %v, errors %v, baseline trainer %q", s.CfgOK, s.Errs, BaselineProfileName(s.Cfg))
	}
	if s.Query(list).Get(KeyBaseProfile) != estimator.ProfileArt {
		t.Errorf("the address lost b.profile=art: %v", s.Query(list).Encode())
	}
	s.Apply(Edit{For: ForTerms, Kind: EditTermRemove, Key: "0"}, list)
	if BaselineProfileName(s.Cfg) != estimator.ProfileArt || len(s.Errs) != 0 {
		t.Errorf("without the terms the baseline's trainer is ART's: %q, errors %v", BaselineProfileName(s.Cfg), s.Errs)
	}
	s = openLink(t, "term="+url.QueryEscape(term))
	s.Apply(Edit{For: ForCompare, Kind: EditMenu, Key: KeyComparePreset, Text: ComparisonProfile}, list)
	if s.Errs[KeyComparePreset] == "" || s.Cfg.Profile != "" || !s.CfgOK {
		t.Errorf("seeds vs ART with terms: errors %v, profile %q, ok %v", s.Errs, s.Cfg.Profile, s.CfgOK)
	}
}
