package estimator

import (
	"encoding/json"
	"net/url"
	"strings"
)

// In a URL the profile travels as "profile=art" (left out for seeds) and a
// learned profile as "profile_memory=<its JSON>"; a baseline's override of
// the profile as "b.profile=seeds|art" (query_baseline.go).

// encodeProfile adds c's profile and learned profile to q.
func encodeProfile(q url.Values, c Config) {
	if c.Profile != "" {
		q.Set(profileKey.Key, c.Profile)
	}
	if c.ProfileMemory != nil {
		b, _ := json.Marshal(c.ProfileMemory) // plain integers and slices always marshal
		q.Set(profileMemoryKey.Key, string(b))
	}
}

// profileText reads a profile as typed: "seeds" or "art", any case.
func profileText(text string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case ProfileSeeds:
		return ProfileSeeds, true
	case ProfileArt:
		return ProfileArt, true
	}
	return "", false
}

// decodeProfileQuery reads the profile keys of q into c; a bad value is
// reported and left out.
func decodeProfileQuery(q url.Values, c *Config) ErrorList {
	var errs ErrorList
	if v := q[profileKey.Key]; len(v) > 0 {
		if p, ok := profileText(v[len(v)-1]); ok {
			c.Profile = p
			if p == ProfileSeeds {
				c.Profile = ""
			}
		} else {
			errs = append(errs, profileError(profileKey.Path))
		}
	}
	if v := q[profileMemoryKey.Key]; len(v) > 0 {
		var perrs ErrorList
		pm := decodeProfileMemory(json.RawMessage(v[len(v)-1]), &perrs)
		if len(perrs) == 0 {
			c.ProfileMemory = pm
		}
		errs = append(errs, perrs...)
	}
	return errs
}

// repairArt puts back what an error of §13.3 names (Repair): an unknown
// profile to seeds, terms under art by dropping the profile (the terms are
// the user's work), a bad learned profile by dropping it. It reports
// whether it handled e.
func repairArt(c *Config, e *Error) bool {
	switch {
	case e.Field == profileKey.Path:
		c.Profile = ""
	case e.Field == termsKey.Path && isArt(c.Profile):
		c.Profile = ""
	case strings.HasPrefix(e.Field, profileMemoryKey.Path):
		c.ProfileMemory = nil
	default:
		return false
	}
	return true
}
