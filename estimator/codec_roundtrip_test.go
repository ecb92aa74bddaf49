package estimator_test

// The URL codec's round trips over the estimator's own test configs
// (random ones from gen_test.go, the art config of art_test.go, through
// export_test.go): external tests, since estimator/urlquery imports the
// estimator.

import (
	"net/url"
	"testing"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// TestQueryBaselineRoundTrip: random baselines go through a URL and back;
// links without "b." keys decode as before, with no baseline.
func TestQueryBaselineRoundTrip(t *testing.T) {
	t.Parallel()
	rng := estimator.NewRand()
	for i := 0; i < 300; i++ {
		c := estimator.RandomBaseline(t, rng, estimator.RandomConfig(rng))
		if _, err := c.ResolveRevisions(); err != nil {
			continue
		}
		q := urlquery.Encode(c)
		back, errs := urlquery.Decode(q)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", q.Encode(), errs)
		}
		if string(estimator.MarshalConfig(back)) != string(estimator.MarshalConfig(c)) {
			t.Fatalf("round trip through %s:\n%s\nwant\n%s", q.Encode(), estimator.MarshalConfig(back), estimator.MarshalConfig(c))
		}
	}
	c := estimator.Default()
	c.Baseline = &estimator.Baseline{Changes: estimator.Changes{FC2KnownStorage: true}, Overrides: estimator.Overrides{"budget.capacity_bytes": {Int: estimator.H100CapacityBytes}, "fc2.output_width": {Default: true}}}
	if got := urlquery.Encode(c).Encode(); got != "b.capacity_bytes=85020000000&b.changes=fc2_known_storage&b.output_width=auto" {
		t.Errorf("encoded %s", got)
	}
	c.Baseline = &estimator.Baseline{}
	if got := urlquery.Encode(c).Encode(); got != "b.changes=" {
		t.Errorf("an empty baseline encodes as %q", got)
	}
	old, errs := urlquery.Decode(url.Values{"rows": {"1000"}, "gpu": {"h100"}, "bogus": {"1"}})
	if len(errs) > 0 || old.Baseline != nil || old.Request.Rows != 1000 {
		t.Errorf("an old link: %+v %v", old, errs)
	}
}

// TestArtQueryRoundTrip: an art config, its learned profile and a
// baseline overriding the profile survive a URL; the default config's
// URL has no keys.
func TestArtQueryRoundTrip(t *testing.T) {
	t.Parallel()
	c := estimator.ArtRoundTripConfig()
	q, errs := urlquery.Decode(urlquery.Encode(c))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if string(estimator.MarshalConfig(q)) != string(estimator.MarshalConfig(c)) {
		t.Errorf("URL round trip:\n%s\n%s", estimator.MarshalConfig(c), estimator.MarshalConfig(q))
	}
	if v := urlquery.Encode(estimator.Default()); len(v) != 0 {
		t.Errorf("the default config's URL has keys: %v", v)
	}
}
