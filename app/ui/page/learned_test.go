package page

import (
	"net/url"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestWithProfileMemory: a learned profile applies under ART, switches a
// seeds config to ART only when asked, and a bad text or a config ART
// cannot price is refused with the field named, the config unchanged.
func TestWithProfileMemory(t *testing.T) {
	t.Parallel()
	const text = `{"bytes_per_token":1200000,"packed_tokens":4096,"retained_compute_bytes_per_token":null}`
	seeds := estimator.Default()
	if _, err := WithProfileMemory(seeds, text, false); err == nil || !strings.Contains(err.Error(), `requires profile "art"`) {
		t.Errorf("seeds without a switch: %v", err)
	}
	got, err := WithProfileMemory(seeds, text, true)
	if err != nil {
		t.Fatal(err)
	}
	if got.Profile != estimator.ProfileArt || got.ProfileMemory == nil || got.ProfileMemory.BytesPerToken != 1200000 || got.ProfileMemory.PackedTokens != 4096 {
		t.Errorf("switched: profile %q, memory %+v", got.Profile, got.ProfileMemory)
	}
	if seeds.Profile != "" || seeds.ProfileMemory != nil {
		t.Error("the config passed in was changed")
	}
	art := estimator.Default()
	art.Profile = estimator.ProfileArt
	if _, err := WithProfileMemory(art, text, false); err != nil {
		t.Errorf("art without a switch: %v", err)
	}
	for _, bad := range []struct{ text, want string }{
		{"", "profile_memory"},
		{"[1]", "profile_memory"},
		{`{"bytes_per_token":1,"packed_tokens":1,"extra":2}`, "extra"},
		{`{"bytes_per_token":-1,"packed_tokens":1}`, "profile_memory"},
		{`{"bytes_per_token":1,"packed_tokens":1} {}`, "profile_memory"},
	} {
		if _, err := WithProfileMemory(art, bad.text, true); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want an error naming %s", bad.text, err, bad.want)
		}
	}
	fp32 := estimator.Default()
	fp32.FC2.DtypeBytes = 4
	if _, err := WithProfileMemory(fp32, text, true); err == nil || !strings.Contains(err.Error(), "fc2.dtype_bytes") {
		t.Errorf("an FP32 config switched to art: %v", err)
	}
}

// TestEditProfile: the edit puts the profile in the state and its
// address; a refused one changes nothing.
func TestEditProfile(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := Decode(url.Values{}, list)
	before := s.Query(list).Encode()
	s.Apply(Edit{For: ForObserved, Kind: EditProfile, Text: `{"bytes_per_token":5,"packed_tokens":7}`}, list)
	if got := s.Query(list).Encode(); got != before {
		t.Errorf("a refused profile changed the address: %s", got)
	}
	s.Apply(Edit{For: ForObserved, Kind: EditProfile, Text: `{"bytes_per_token":5,"packed_tokens":7}`, On: true, Settle: true}, list)
	q := s.Query(list)
	if q.Get("profile") != "art" || !strings.Contains(q.Get("profile_memory"), `"bytes_per_token":5`) {
		t.Errorf("the address has profile %q, profile_memory %q", q.Get("profile"), q.Get("profile_memory"))
	}
	if s.Cfg.ProfileMemory == nil || s.Cfg.ProfileMemory.PackedTokens != 7 || !UsesArt(s.Cfg) {
		t.Errorf("the state has %+v", s.Cfg.ProfileMemory)
	}
	if EditProfile.String() != "profile" {
		t.Errorf("EditProfile is %q", EditProfile.String())
	}
}
