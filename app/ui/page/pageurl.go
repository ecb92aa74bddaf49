package page

import (
	"net/url"
	"strconv"
	"strings"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// Query writes the state as URL Query values: the config as the
// estimator encodes it, the raw text of every control in error (so a
// reload shows what was typed), and the page's own keys when they differ
// from what the config implies.
func (s *State) Query(list []Preset) url.Values {
	q := urlquery.Encode(s.Cfg)
	if id := MatchPreset(list, s.Cfg); id != "" && id != DefaultPresetID {
		q.Set(KeyPreset, id)
	}
	if s.GPU != GPUFor(s.Cfg.Budget.CapacityBytes) {
		q.Set(KeyGPU, s.GPU)
	}
	if s.Axis != "rows" {
		q.Set(KeyAxis, s.Axis)
	}
	if from, to := fitRange(s.memo, s.Axis, s.Cfg); s.From != from || s.To != to {
		q.Set("from", strconv.FormatInt(s.From, 10))
		q.Set("to", strconv.FormatInt(s.To, 10))
	}
	s.encodeResident(q, list)
	s.termsQuery(q)
	s.Map.encode(q, s.Cfg)
	for ek := range s.Errs {
		c := controlKey(ek)
		if t, ok := s.Texts[c]; ok {
			q.Set(urlKey(c), t)
		}
		if c == KeyFrom || c == KeyTo { // a range is read as a pair: keep both as typed
			for _, r := range []string{KeyFrom, KeyTo} {
				if t, ok := s.Texts[r]; ok {
					q.Set(urlKey(r), t)
				}
			}
		}
	}
	return q
}

// Decode reads the state from URL query values. A bad value marks its
// control with the message and keeps the URL's text in it; everything else
// the URL says is kept (estimator/urlquery's Decode does that for the
// config). preset= starts from that preset's model, gpu= from that GPU's
// capacity; the URL's own field values win over both.
func Decode(q url.Values, list []Preset) State { return decode(q, list, nil, nil) }

// Reopen is the state s's address opens (Decode of its Query), sharing
// s's memos: the explorer opens a state that is not Settled (a link as
// the page opened it, a Compare edit) from its address, and asks it about
// the same configs.
func (s *State) Reopen(list []Preset) State { return decode(s.Query(list), list, nil, s.memo) }

// decode is Decode, handed what Validate learnt of the config of the
// state whose address q is (nil: nothing): when the config q opens is
// Equal to it, as it is after most edits, it is not priced again. The
// state it opens shares that state's memos (nil: its own).
func decode(q url.Values, list []Preset, checked *validation, memo *memos) State {
	steps.decode.Add(1)
	s := newState()
	s.checked = checked
	if memo != nil {
		s.memo = memo
	}
	merged := url.Values{}
	var presetArch *estimator.ArchFields
	if id := q.Get(KeyPreset); id != "" {
		if p, ok := FindPreset(list, id); ok {
			presetArch = archOf(p)
			c := estimator.Default()
			p.ApplyTo(&c)
			for k, v := range urlquery.Encode(c) {
				merged[k] = v
			}
		} else {
			s.SetMenu(KeyPreset, id, list) // marks it and keeps it for the address
		}
	}
	gpu := q.Get(KeyGPU)
	if gpu != "" {
		if capacity, err := GPUCapacity(gpu); err != nil {
			s.SetMenu(KeyGPU, gpu, list) // marks it and keeps it for the address
			gpu = ""
		} else if capacity != 0 {
			merged.Set(estimator.KeyCapacityBytes, strconv.FormatInt(capacity, 10))
		}
	}
	for _, f := range estimator.Fields() {
		if v, ok := q[f.Key]; ok {
			merged[f.Key] = v
		}
	}
	for _, k := range linkKeys() {
		if v, ok := q[k]; ok {
			merged[k] = v
		}
	}
	if v, ok := q[urlquery.ObservedKey]; ok {
		merged[urlquery.ObservedKey] = v
	}
	merged[urlquery.TermKey] = q[urlquery.TermKey]
	pageDefaultsInto(q, merged)
	cfg, errs := urlquery.Decode(merged)
	s.Cfg = cfg
	s.decodeResident(q, presetArch, list)
	s.decodeTerms(q[urlquery.TermKey], errs)
	var pointErrs []*estimator.Error
	for _, e := range errs {
		if strings.HasPrefix(e.Field, "observed") {
			pointErrs = append(pointErrs, e)
			continue
		}
		if _, term := estimator.TermIndex(e.Field); term {
			continue // decodeTerms marked it
		}
		if s.decodeProfileError(q, e) {
			continue
		}
		for _, k := range errorKeysOf(e.Field) {
			if _, dup := s.InputErr[k]; !dup {
				s.InputErr[k] = e.Message
			}
			if raw := q[k]; len(raw) > 0 {
				s.Texts[controlKey(k)] = urlText(k, raw[len(raw)-1])
			}
		}
	}
	linkPointErrors(&s, pointErrs)
	gib := q[KeyInUseGiB]
	if t := bytesInGiBField(q, s.Texts); t != "" && len(gib) == 0 {
		gib = []string{t}
	}
	if raw := gib; len(raw) > 0 {
		// Like every other URL value, a GiB figure the config cannot take
		// stays as text beside its message, and the config keeps its
		// valid value: else the link the page writes next would carry
		// the bad value twice and read back differently.
		kept := s.Cfg.Budget.InUseBytes
		s.SetText(KeyInUseGiB, raw[len(raw)-1])
		if _, bad := s.InputErr[estimator.KeyInUseBytes]; !bad {
			for _, e := range estimator.FieldErrors(validConfig(s.Cfg)) {
				if e.Field == "budget.in_use_bytes" {
					s.InputErr[estimator.KeyInUseBytes] = e.Message
					s.Cfg.Budget.InUseBytes = kept
				}
			}
		}
	}
	s.GPU = GPUFor(s.Cfg.Budget.CapacityBytes)
	if gpu == GPUCustom {
		s.GPU = GPUCustom
	}
	if a := q.Get(KeyAxis); a != "" {
		s.SetMenu(KeyAxis, a, list)
	}
	if k := s.Cfg.Request.Outputs.TopK; k > 0 {
		s.lastTopK = k
	}
	if ep := s.Cfg.FC2.ExpertParallel; ep > 1 {
		s.lastEP = ep
	}
	s.decodeBaseline(q)
	if raw := q[KeyObserved]; len(raw) > 0 { // the panel's text that was in error, checked with the baseline
		s.SetObserved(raw[len(raw)-1])
	}
	// The range last: it is fitted to the flips of both revisions, so
	// to the baseline too (FitRange).
	s.From, s.To = fitRange(s.memo, s.Axis, s.Cfg)
	if raw := q["from"]; len(raw) > 0 {
		s.SetText(KeyFrom, raw[len(raw)-1])
	}
	if raw := q["to"]; len(raw) > 0 {
		s.SetText(KeyTo, raw[len(raw)-1])
	}
	s.Validate()
	s.Map = decodeMap(q, s.Cfg)
	return s
}

// validConfig is the config's validation error, nil when it is valid.
func validConfig(c estimator.Config) error {
	_, err := resolve(c)
	return err
}

// urlText is the text a control shows for a refused URL value: in_use_bytes
// is shown in GiB when it is a number at all.
func urlText(errKey, raw string) string {
	if errKey == estimator.KeyInUseBytes {
		if v, err := estimator.ParseInt(raw); err == nil && v >= 0 {
			if t := GiBText(v); !strings.HasSuffix(t, " B") {
				return t
			}
			return strconv.FormatInt(v, 10) + " B" // exact, and no commas to escape in the link
		}
		// A byte count the field cannot take that reads as GiB
		// (in_use_bytes=0.5) keeps its unit, bytes: the GiB field would
		// read the bare number as GiB (bytesInGiBField).
		if _, err := estimator.ParseGiB(raw); err == nil {
			return raw + " B"
		}
	}
	return raw
}

// bytesInGiBField is the text the GiB field shows for a link's
// in_use_bytes that is not a byte count (urlText), when it must be read
// as the field reads it: "" when there is none. Decode reads it so, as
// it reads a link's in_use_gib, so that what the page's address then
// carries (in_use_gib, the field's text) opens the same state: the field
// takes "0, B" as 0 bytes, and marks "0.5 B".
func bytesInGiBField(q url.Values, texts map[string]string) string {
	raw := q[estimator.KeyInUseBytes]
	if len(raw) == 0 {
		return ""
	}
	if _, err := estimator.ParseInt(raw[len(raw)-1]); err == nil {
		return ""
	}
	if t := texts[KeyInUseGiB]; t == raw[len(raw)-1]+" B" {
		return t
	}
	return ""
}

// Settled is the state s's address opens, with what the user typed kept
// wherever it says the value the opened state has ("64,902" stays as
// typed). A marked field counts at the value its link gives it (its
// default; in use keeps its bytes), so the menus and the range are those
// a copied link shows; while a field is marked the state is not Valid,
// and the page shows its last valid results instead. Found by
// TestE2EMonkey: the page kept a marked field's last value and the preset
// and GPU it implied, which its own link then did not restore.
//
// Settled is the page's one normalization of an edit: s was validated
// (Apply), its address is written once and decoded once, and the state it
// opens takes s's Repair and Estimate when its config is Equal to s's, so
// an edit prices its config once. The state it returns knows the address
// that opens it (OpenedBy), which the explorer writes without decoding it
// again: one decode of a state's address opens a state whose own address
// is the same (FuzzDecodePage), so decoding it again would change nothing.
func (s State) Settled(list []Preset) State {
	open := decode(s.Query(list), list, s.checked, s.memo)
	want := "" // open's config as its address writes it, when a probe needs it
	for c, t := range s.Texts {
		if _, ok := open.Texts[c]; ok {
			continue
		}
		probe := State{Cfg: open.Cfg, From: open.From, To: open.To, GPU: open.GPU,
			Texts: map[string]string{}, InputErr: map[string]string{}}
		probe.SetText(c, t)
		if len(probe.InputErr) != 0 || probe.From != open.From || probe.To != open.To {
			continue
		}
		// The text says the value open has: the config it gives is open's,
		// or at least writes the same address (Equal is exact, and cheap).
		same := probe.Cfg.Equal(open.Cfg)
		if !same {
			if want == "" {
				want = ConfigQuery(open.Cfg, nil).Encode()
			}
			same = ConfigQuery(probe.Cfg, nil).Encode() == want
		}
		if same {
			open.Texts[c] = t
		}
	}
	open.lastTopK, open.lastEP = s.lastTopK, s.lastEP
	// Which term's help is open is the page's, not the address's: it
	// stays open across the edit (the same term, by its place in the list).
	for i := range open.Terms {
		if i < len(s.Terms) && s.Terms[i].Typed.Name == open.Terms[i].Typed.Name {
			open.Terms[i].Help = s.Terms[i].Help
		}
	}
	// The address says a range only when it is not the config's default,
	// and a link's range is one somebody typed; but a range the page moved
	// itself (or kept while the swept field moved) still follows the
	// config after this edit, as it did before it (FollowRange).
	if !s.Typed && open.Typed {
		open.Typed = false
		for _, c := range []string{KeyFrom, KeyTo} {
			if _, bad := open.InputErr[ErrorKey(c)]; !bad {
				delete(open.Texts, c)
			}
		}
	}
	// Nothing above changes what Validate found (the texts kept say
	// open's values; the help, the switches' last values and whether the
	// range was typed are not validated): decode's Validate stands.
	open.opened, open.settled = open.Query(list).Encode(), true
	return open
}

// OpenedBy reports whether s is the state the address query (encoded)
// opens, as Settled knows it: the explorer then shows s as it is instead
// of decoding its address again. Any edit Apply takes forgets it until it
// settles the state again (an edit of the Compare form, a commit, does
// not), and a state changed otherwise (the map's view) writes another
// address.
func (s *State) OpenedBy(query string) bool { return s.settled && s.opened == query }
