package page

import (
	"strconv"
	"strings"

	"headroom/estimator"
)

// The trainer (docs/model.md §13): whose arithmetic prices the candidate,
// the seeds' reading (estimator.ProfileSeeds, stored as "") or ART's own
// code (estimator.ProfileArt). The Trainer menu (id profile) sets the
// candidate's; the Compare form's menu (id b.profile) the baseline's, as
// the override "profile"; the comparison "seeds vs ART" sets both.
const (
	KeyProfile        = "profile"   // the Trainer menu; its error key too
	KeyBaseProfile    = "b.profile" // the baseline's trainer in the Compare form
	ComparisonProfile = "seeds-art" // the ready-made comparison: baseline seeds, candidate art
	// ComparisonGPUPath is the ready-made comparison of ART's two paths
	// (docs/model.md §15): the baseline on the estimator path, the
	// candidate on the GPU placement path, both under ART's code.
	ComparisonGPUPath = "art-estimator-gpu"
)

// The Trainer menu's labels.
const (
	ProfileSeedsLabel = "the seeds' reading"
	ProfileArtLabel   = "ART's code"
)

// ProfileName is c's profile as the menu names it: "seeds" or "art".
func ProfileName(c estimator.Config) string {
	if c.Profile == estimator.ProfileArt {
		return estimator.ProfileArt
	}
	return estimator.ProfileSeeds
}

// BaselineProfileName is the profile the baseline overrides, "" when it
// follows the candidate's (or there is no baseline of its own).
func BaselineProfileName(c estimator.Config) string {
	if c.Baseline == nil {
		return ""
	}
	if o, ok := c.Baseline.Overrides[KeyProfile]; ok {
		if o.Text == estimator.ProfileArt {
			return estimator.ProfileArt
		}
		return estimator.ProfileSeeds
	}
	return ""
}

// parseProfile reads a profile as a menu or a link gives it; the error
// names the two values.
func parseProfile(text string) (string, string) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case estimator.ProfileSeeds:
		return estimator.ProfileSeeds, ""
	case estimator.ProfileArt:
		return estimator.ProfileArt, ""
	}
	return "", `must be "seeds" or "art", got ` + strconv.Quote(text)
}

// setProfile applies the Trainer menu. A value it does not offer (only a
// hand-edited link has one) is marked and kept as the menu's text.
func (s *State) setProfile(value string) {
	p, msg := parseProfile(value)
	if msg != "" {
		s.InputErr[KeyProfile] = msg
		s.Texts[KeyProfile] = value
		return
	}
	s.Cfg.Profile = p
	if p == estimator.ProfileSeeds {
		s.Cfg.Profile = ""
	}
}

// setBaselineProfile applies the Compare form's trainer menu: "same"
// drops the override, so the baseline follows the candidate's trainer.
func (s *State) setBaselineProfile(value string) {
	b := s.ownBaseline()
	delete(s.Texts, KeyBaseProfile)
	if value == SameAsCandidate {
		delete(b.Overrides, KeyProfile)
		s.Cfg.Baseline = b
		return
	}
	p, msg := parseProfile(value)
	if msg != "" {
		s.InputErr[KeyBaseProfile] = msg
		s.Texts[KeyBaseProfile] = value
		return
	}
	b.Overrides[KeyProfile] = estimator.Setting{Text: p}
	s.Cfg.Baseline = b
}

// decodeProfileError marks the Trainer when the link's profile could not
// be kept: a value that is neither profile, or art beside terms (the
// estimator's Repair then priced seeds). It reports whether e was one.
func (s *State) decodeProfileError(q map[string][]string, e *estimator.Error) bool {
	raw := q[KeyProfile]
	switch {
	case e.Field == KeyProfile && len(raw) > 0:
		_, msg := parseProfile(raw[len(raw)-1])
		s.InputErr[KeyProfile] = msg
		s.Texts[KeyProfile] = raw[len(raw)-1]
	default:
		return false
	}
	return true
}

// ArtFieldKeys are the keys of the art profile's fields (estimator.ArtFields).
func ArtFieldKeys() []string {
	var keys []string
	for _, f := range estimator.ArtFields() {
		keys = append(keys, f.Key)
	}
	return keys
}

// linkKeys are the estimator's keys a link may carry beyond Fields():
// the art profile's fields, the profile and a learned profile.
func linkKeys() []string {
	return append(ArtFieldKeys(), KeyProfile, "profile_memory")
}

// RevisionArt says which revisions ART's code prices, baseline first: the
// candidate's profile, and the baseline's override of it (a baseline
// without one, or the three changes off, follows the candidate).
func RevisionArt(c estimator.Config) [2]bool {
	cand := ProfileName(c) == estimator.ProfileArt
	base := cand
	if p := BaselineProfileName(c); p != "" {
		base = p == estimator.ProfileArt
	}
	return [2]bool{base, cand}
}
