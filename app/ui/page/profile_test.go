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

// Terms under ART's code: switching the Trainer to art keeps the terms,
// which then join ART's parts (docs/model.md §13.13), with no message.
func TestTermsUnderArtArePriced(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := openLink(t, "preset=qwen3-next-80b-a3b&term="+url.QueryEscape(urlquery.EncodeTerm(estimator.Term{Name: "x", Place: "activations", Revision: "candidate", Bytes: "n*64"})))
	if len(s.Cfg.Terms) != 1 || len(s.Errs) != 0 {
		t.Fatalf("the term does not apply under seeds: %v %v", s.Cfg.Terms, s.Errs)
	}
	s.Apply(Edit{Kind: EditMenu, Key: KeyProfile, Text: estimator.ProfileArt, Settle: true}, list)
	if s.Cfg.Profile != estimator.ProfileArt || !s.CfgOK || len(s.Errs) != 0 || len(s.Cfg.Terms) != 1 {
		t.Fatalf("profile %q, ok %v, errors %v, terms %v", s.Cfg.Profile, s.CfgOK, s.Errs, s.Cfg.Terms)
	}
	res, err := estimator.Estimate(s.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, st := range res.Candidate.Stages {
		for _, tb := range st.Tensors {
			found = found || st.Name == "activations" && tb.Name == "x" && tb.Bytes == 64902*64
		}
	}
	if !found {
		t.Errorf("the term is not under ART's activations: %+v", res.Candidate.Stages)
	}
}

// Terms and a baseline priced by ART's code: the override holds beside
// the terms, and so does the ready-made "seeds vs ART".
func TestTermsAndTheBaselinesTrainer(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	term := urlquery.EncodeTerm(estimator.Term{Name: "x", Place: "activations", Revision: "both", Bytes: "n*64"})
	s := openLink(t, "b.profile=art&term="+url.QueryEscape(term))
	if !s.CfgOK || len(s.Errs) != 0 || BaselineProfileName(s.Cfg) != estimator.ProfileArt {
		t.Fatalf("ok %v, errors %v, baseline trainer %q", s.CfgOK, s.Errs, BaselineProfileName(s.Cfg))
	}
	s = openLink(t, "term="+url.QueryEscape(term))
	s.Apply(Edit{For: ForCompare, Kind: EditMenu, Key: KeyComparePreset, Text: ComparisonProfile}, list)
	if len(s.Errs) != 0 || s.Cfg.Profile != estimator.ProfileArt || !s.CfgOK || len(s.Cfg.Terms) != 1 {
		t.Errorf("seeds vs ART with terms: errors %v, profile %q, ok %v", s.Errs, s.Cfg.Profile, s.CfgOK)
	}
}

// "Write as terms": under ART's code a switch becomes its terms and the
// price does not move; the address carries them and restores both.
func TestWriteSwitchAsTerms(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := openLink(t, "preset=qwen3-next-80b-a3b&profile=art")
	before, err := estimator.Estimate(s.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"head_eager_workspace", "fc2_known_storage"} {
		s.Apply(Edit{For: ForTerms, Kind: EditSwitchTerms, Key: key, Settle: true}, list)
	}
	if s.Cfg.Changes.HeadEagerWorkspace || s.Cfg.Changes.FC2KnownStorage || len(s.Cfg.Terms) != 5 || len(s.Errs) != 0 {
		t.Fatalf("changes %+v, terms %v, errors %v", s.Cfg.Changes, s.Cfg.Terms, s.Errs)
	}
	after, err := estimator.Estimate(s.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	if after.Candidate.RequiredBytes != before.Candidate.RequiredBytes || after.Candidate.LowerBoundBytes != before.Candidate.LowerBoundBytes {
		t.Errorf("the terms price %d (bound %d), the switches %d (bound %d)", after.Candidate.RequiredBytes, after.Candidate.LowerBoundBytes,
			before.Candidate.RequiredBytes, before.Candidate.LowerBoundBytes)
	}
	back := openLink(t, s.Query(list).Encode())
	if string(estimator.MarshalConfig(back.Cfg)) != string(estimator.MarshalConfig(s.Cfg)) {
		t.Errorf("the link does not restore the terms:\n%s\nwant\n%s", estimator.MarshalConfig(back.Cfg), estimator.MarshalConfig(s.Cfg))
	}
	// A typed mode that is neither add nor replace is marked and kept.
	s.Apply(TermEdit("mode", 0, "swap"), list)
	if s.Errs[TermKey(0)] == "" || s.Terms[0].Typed.Mode != "swap" || s.Cfg.Terms[0].Mode != "replace" {
		t.Errorf("bad mode: error %q, typed %q, applied %q", s.Errs[TermKey(0)], s.Terms[0].Typed.Mode, s.Cfg.Terms[0].Mode)
	}
}
