package urlquery

import (
	"encoding/json"
	"headroom/estimator"
	"net/url"
)

// In a URL the profile travels as "profile=art" (left out for seeds) and a
// learned profile as "profile_memory=<its JSON>"; a baseline's override of
// the profile as "b.profile=seeds|art" (query_baseline.go).

// The keys of the profile and the learned profile: in a URL as in a
// config's JSON, and the fields their errors name.
const (
	profileKey       = "profile"
	profileMemoryKey = "profile_memory"
)

// encodeProfile adds c's profile and learned profile to q.
func encodeProfile(q url.Values, c estimator.Config) {
	if c.Profile != "" {
		q.Set(profileKey, c.Profile)
	}
	if c.ProfileMemory != nil {
		b, _ := json.Marshal(c.ProfileMemory) // plain integers and slices always marshal
		q.Set(profileMemoryKey, string(b))
	}
}

// decodeProfileQuery reads the profile keys of q into c; a bad value is
// reported and left out.
func decodeProfileQuery(q url.Values, c *estimator.Config) estimator.ErrorList {
	var errs estimator.ErrorList
	if v := q[profileKey]; len(v) > 0 {
		if p, err := estimator.ParseProfile(profileKey, v[len(v)-1]); err == nil {
			c.Profile = p
			if p == estimator.ProfileSeeds {
				c.Profile = ""
			}
		} else {
			errs = append(errs, err)
		}
	}
	if v := q[profileMemoryKey]; len(v) > 0 {
		pm, perrs := estimator.DecodeProfileMemory(json.RawMessage(v[len(v)-1]))
		if len(perrs) == 0 {
			c.ProfileMemory = pm
		}
		errs = append(errs, perrs...)
	}
	return errs
}
