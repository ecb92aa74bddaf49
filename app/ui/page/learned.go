package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"headroom/estimator"
)

// A learned profile from measurements: the Observed peaks
// panel's "use as learned profile" sends an EditProfile whose Text is the
// profile_memory JSON (docs/model.md §13.7) and whose On asks to switch
// the trainer to ART (profile "art") when no revision uses it, since a
// learned profile is priced only under ART's warm admission (§13.3). It
// travels in the address as profile and profile_memory, as a link's do.

// UsesArt reports whether some revision of c prices with the art profile:
// c itself, or its baseline through an override of "profile".
func UsesArt(c estimator.Config) bool {
	if c.Profile == estimator.ProfileArt {
		return true
	}
	if c.Baseline != nil {
		if s, ok := c.Baseline.Overrides["profile"]; ok {
			return strings.EqualFold(strings.TrimSpace(s.Text), estimator.ProfileArt)
		}
	}
	return false
}

// WithProfileMemory is c with the learned profile text (profile_memory's
// JSON) applied, and, when switchArt is set and no revision uses ART, the
// profile switched to "art". The error names the field and why: a text
// that is not a profile_memory object, a config without ART when
// switchArt is off, or a config that ART does not price (BF16 only, no
// terms). c itself is never changed.
func WithProfileMemory(c estimator.Config, text string, switchArt bool) (estimator.Config, error) {
	var pm estimator.ProfileMemory
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pm); err != nil || dec.More() || bytes.TrimSpace([]byte(text))[0] != '{' {
		msg := "not a JSON object"
		if err != nil {
			msg = err.Error()
		}
		return c, errors.New("profile_memory: " + msg)
	}
	if !UsesArt(c) {
		if !switchArt {
			return c, errors.New(`profile_memory: requires profile "art" on some revision; the config prices with the seeds' arithmetic`)
		}
		c.Profile = estimator.ProfileArt
	}
	c.ProfileMemory = &pm
	if _, err := estimate(c); err != nil {
		var msgs []string
		for _, e := range estimator.FieldErrors(err) {
			if e.Field == "profile" || strings.HasPrefix(e.Field, "profile_memory") ||
				e.Field == "fc2.dtype_bytes" || e.Field == "terms" {
				msgs = append(msgs, e.Field+" "+e.Message)
			}
		}
		if len(msgs) > 0 {
			return c, errors.New(strings.Join(msgs, "; "))
		}
	}
	return c, nil
}

// SetProfileMemory applies an EditProfile: the config takes the learned
// profile (and the art profile when asked) when WithProfileMemory accepts
// it; otherwise nothing changes (the panel checked it before sending and
// shows why).
func (s *State) SetProfileMemory(text string, switchArt bool) {
	c, err := WithProfileMemory(s.Cfg, text, switchArt)
	if err != nil {
		return
	}
	s.Cfg = c
}
