package ui

import (
	"net/url"
	"strconv"
	"strings"

	"headroom/app/chart"
	"headroom/estimator"
)

// query writes the state as URL query values: the config as the
// estimator encodes it, the raw text of every control in error (so a
// reload shows what was typed), and the page's own keys when they differ
// from what the config implies.
func (s *pageState) query(list []preset) url.Values {
	q := estimator.EncodeQuery(s.cfg)
	if id := matchPreset(list, s.cfg); id != "" && id != DefaultPresetID {
		q.Set(keyPreset, id)
	}
	if s.gpu != gpuFor(s.cfg.Budget.CapacityBytes) {
		q.Set(keyGPU, s.gpu)
	}
	if s.axis != "rows" {
		q.Set(keyAxis, s.axis)
	}
	if from, to := chart.DefaultRange(s.axis, s.cfg); s.from != from || s.to != to {
		q.Set("from", strconv.FormatInt(s.from, 10))
		q.Set("to", strconv.FormatInt(s.to, 10))
	}
	s.termsQuery(q)
	s.mapS.encode(q, s.cfg)
	for ek := range s.errs {
		c := controlKey(ek)
		if t, ok := s.texts[c]; ok {
			q.Set(urlKey(c), t)
		}
		if c == keyFrom || c == keyTo { // a range is read as a pair: keep both as typed
			for _, r := range []string{keyFrom, keyTo} {
				if t, ok := s.texts[r]; ok {
					q.Set(urlKey(r), t)
				}
			}
		}
	}
	return q
}

// decodePage reads the state from URL query values. A bad value marks its
// control with the message and keeps the URL's text in it; everything else
// the URL says is kept (the estimator's DecodeQuery does that for the
// config). preset= starts from that preset's model, gpu= from that GPU's
// capacity; the URL's own field values win over both.
func decodePage(q url.Values, list []preset) pageState {
	s := newPageState()
	merged := url.Values{}
	if id := q.Get(keyPreset); id != "" {
		if p, ok := findPreset(list, id); ok {
			c := estimator.Default()
			p.applyTo(&c)
			for k, v := range estimator.EncodeQuery(c) {
				merged[k] = v
			}
		} else {
			s.setMenu(keyPreset, id, list) // marks it and keeps it for the address
		}
	}
	gpu := q.Get(keyGPU)
	if gpu != "" {
		if capacity, err := gpuCapacity(gpu); err != nil {
			s.setMenu(keyGPU, gpu, list) // marks it and keeps it for the address
			gpu = ""
		} else if capacity != 0 {
			merged.Set("capacity_bytes", strconv.FormatInt(capacity, 10))
		}
	}
	for _, f := range estimator.Fields() {
		if v, ok := q[f.Key]; ok {
			merged[f.Key] = v
		}
	}
	if v, ok := q[estimator.QueryObservedKey]; ok {
		merged[estimator.QueryObservedKey] = v
	}
	merged[estimator.QueryTermKey] = q[estimator.QueryTermKey]
	cfg, errs := estimator.DecodeQuery(merged)
	s.cfg = cfg
	s.decodeTerms(q[estimator.QueryTermKey], errs)
	var pointErrs []*estimator.Error
	for _, e := range errs {
		if strings.HasPrefix(e.Field, "observed") {
			pointErrs = append(pointErrs, e)
			continue
		}
		if _, term := estimator.TermIndex(e.Field); term {
			continue // decodeTerms marked it
		}
		for _, k := range errorKeysOf(e.Field) {
			if _, dup := s.inputErr[k]; !dup {
				s.inputErr[k] = e.Message
			}
			if raw := q[k]; len(raw) > 0 {
				s.texts[controlKey(k)] = urlText(k, raw[len(raw)-1])
			}
		}
	}
	linkPointErrors(&s, pointErrs)
	if raw := q[KeyInUseGiB]; len(raw) > 0 {
		// Like every other URL value, a GiB figure the config cannot take
		// stays as text beside its message, and the config keeps its
		// valid value: else the link the page writes next would carry
		// the bad value twice and read back differently.
		kept := s.cfg.Budget.InUseBytes
		s.setText(KeyInUseGiB, raw[len(raw)-1])
		if _, bad := s.inputErr["in_use_bytes"]; !bad {
			for _, e := range estimator.FieldErrors(validConfig(s.cfg)) {
				if e.Field == "budget.in_use_bytes" {
					s.inputErr["in_use_bytes"] = e.Message
					s.cfg.Budget.InUseBytes = kept
				}
			}
		}
	}
	s.gpu = gpuFor(s.cfg.Budget.CapacityBytes)
	if gpu == gpuCustom {
		s.gpu = gpuCustom
	}
	if a := q.Get(keyAxis); a != "" {
		s.setMenu(keyAxis, a, list)
	}
	s.from, s.to = chart.DefaultRange(s.axis, s.cfg)
	if raw := q["from"]; len(raw) > 0 {
		s.setText(keyFrom, raw[len(raw)-1])
	}
	if raw := q["to"]; len(raw) > 0 {
		s.setText(keyTo, raw[len(raw)-1])
	}
	if k := s.cfg.Request.Outputs.TopK; k > 0 {
		s.lastTopK = k
	}
	if ep := s.cfg.FC2.ExpertParallel; ep > 1 {
		s.lastEP = ep
	}
	s.decodeBaseline(q)
	if raw := q[keyObserved]; len(raw) > 0 { // the panel's text that was in error, checked with the baseline
		s.setObserved(raw[len(raw)-1])
	}
	s.validate()
	s.mapS = decodeMap(q, s.cfg)
	return s
}

// validConfig is the config's validation error, nil when it is valid.
func validConfig(c estimator.Config) error {
	_, err := c.Resolve()
	return err
}

// urlText is the text a control shows for a refused URL value: in_use_bytes
// is shown in GiB when it is a number at all.
func urlText(errKey, raw string) string {
	if errKey == "in_use_bytes" {
		if v, err := estimator.ParseInt(raw); err == nil && v >= 0 {
			return GiBText(v)
		}
	}
	return raw
}

// settled is the state s's address opens, with what the user typed kept
// wherever it says the value the opened state has ("64,902" stays as
// typed). A marked field counts at the value its link gives it (its
// default; in use keeps its bytes), so the menus, the range and the
// results the page shows are those a copied link shows. Found by
// TestE2EMonkey: the page kept a marked field's last value and the preset
// and GPU it implied, which its own link then did not restore.
func (s pageState) settled(list []preset) pageState {
	open := decodePage(s.query(list), list)
	want := estimator.EncodeQuery(open.cfg).Encode()
	for c, t := range s.texts {
		if _, ok := open.texts[c]; ok {
			continue
		}
		probe := pageState{cfg: open.cfg, from: open.from, to: open.to, gpu: open.gpu,
			texts: map[string]string{}, inputErr: map[string]string{}}
		probe.setText(c, t)
		if len(probe.inputErr) == 0 && probe.from == open.from && probe.to == open.to &&
			estimator.EncodeQuery(probe.cfg).Encode() == want {
			open.texts[c] = t
		}
	}
	open.lastTopK, open.lastEP = s.lastTopK, s.lastEP
	// Which term's help is open is the page's, not the address's: it
	// stays open across the edit (the same term, by its place in the list).
	for i := range open.terms {
		if i < len(s.terms) && s.terms[i].Typed.Name == open.terms[i].Typed.Name {
			open.terms[i].Help = s.terms[i].Help
		}
	}
	// The address says a range only when it is not the config's default,
	// and a link's range is one somebody typed; but a range the page moved
	// itself (or kept while the swept field moved) still follows the
	// config after this edit, as it did before it (followRange).
	if !s.typed && open.typed {
		open.typed = false
		for _, c := range []string{keyFrom, keyTo} {
			if _, bad := open.inputErr[errorKey(c)]; !bad {
				delete(open.texts, c)
			}
		}
	}
	open.validate()
	return open
}
