package estimator

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// The art profile (docs/model.md §13): a config's "profile" says whose
// arithmetic prices it, the seeds' reading (sections 1-12, the default)
// or ART's own code. The fields §13.3 adds live in the groups they belong
// to and in the group "art"; each is a pointer left nil at its default, so
// a config that does not use them marshals as it did before §13.

// The profiles.
const (
	ProfileSeeds = "seeds"
	ProfileArt   = "art"
)

// ArtConfig is the group "art" of §13.3: facts about ART's checkpoint floor
// and the trained adapter that a model's config.json does not carry. A nil
// field takes its default (CheckpointFloor true, the others 0).
type ArtConfig struct {
	CheckpointFloor              *bool  `json:"checkpoint_floor,omitempty"`
	AdapterGradientBytesPerLayer *int64 `json:"adapter_gradient_bytes_per_layer,omitempty"`
	AdapterGradientOutsideBytes  *int64 `json:"adapter_gradient_outside_bytes,omitempty"`
	GDNOutProjLoRARank           *int64 `json:"gdn_out_proj_lora_rank,omitempty"`
	// ArtGPUConfig holds the GPU placement path's fields (art_gpu_config.go).
	ArtGPUConfig
}

// ProfileMemory is ART's learned memory profile for the request's
// signature (§13.7): with one, admission is warm.
type ProfileMemory struct {
	// BytesPerToken (rho_p) and PackedTokens (n_p) are ART's running
	// maxima of (peak - baseline - outputs) / packed tokens and of packed
	// tokens.
	BytesPerToken int64 `json:"bytes_per_token"`
	PackedTokens  int64 `json:"packed_tokens"`
	// RetainedComputeBytesPerToken (rho_r) is the forward-retained compute
	// rate; nil: never observed.
	RetainedComputeBytesPerToken *int64 `json:"retained_compute_bytes_per_token,omitempty"`
	// WarmBytesPerToken (rho_w) and WarmPackedTokens (n_w) are the
	// caller-phase fit: both or neither.
	WarmBytesPerToken *int64 `json:"warm_bytes_per_token,omitempty"`
	WarmPackedTokens  *int64 `json:"warm_packed_tokens,omitempty"`
	// SplitFloors are the peaks ART recorded after the caller's backward
	// of a split, by the split's child rows in cut order.
	SplitFloors []SplitFloor `json:"split_floors,omitempty"`
}

// SplitFloor is one recorded split floor: the children's rows, in cut
// order, and the peak above the baseline (Phi).
type SplitFloor struct {
	ChildRows     []int64 `json:"child_rows"`
	ObservedBytes int64   `json:"observed_bytes"`
}

// Limits of §13.7.
const (
	maxProfileRate   = 1 << 40
	maxSplitFloors   = 64
	maxFloorChildren = 1024
)

// artFields are the fields §13.3 adds, in the registry after docs/model.md §2's.
// The booleans are optional: nil takes the default (true) and a value set
// to its default is stored as nil, so the JSON leaves them out.
// defaultPaddedVocabMultiple is head.padded_vocab_multiple left unset
// (docs/model.md §13.3).
const defaultPaddedVocabMultiple = 128

var artFields = append([]*Field{
	optBoolF("fc2.fused_fc1", "fused_fc1", true, "ART's fused gate/up FC1 qualifies (art profile)", func(c *Config) **bool { return &c.FC2.FusedFC1 }),
	optBoolF("fc2.shared_expert_gate", "shared_expert_gate", true, "the shared expert has a gate (art profile)", func(c *Config) **bool { return &c.FC2.SharedExpertGate }),
	optF("head.padded_vocab_multiple", "padded_vocab_multiple", 1, 1<<16, "vocabulary padded to a multiple of this (art profile; default 128)", func(c *Config) **int64 { return &c.Head.PaddedVocabMultiple }).
		resolvesTo(func(*Resolved) int64 { return defaultPaddedVocabMultiple }),
	optBoolF("head.stock", "head_stock", true, "the head qualifies for ART's pricing; false prices it at 0 (art profile)", func(c *Config) **bool { return &c.Head.Stock }),
	optBoolF("art.checkpoint_floor", "checkpoint_floor", true, "ART's checkpoint floor qualifies (art profile)", func(c *Config) **bool { return &c.Art.CheckpointFloor }),
	optF("art.adapter_gradient_bytes_per_layer", "adapter_gradient_bytes_per_layer", 0, 1<<40, "pending LoRA gradient bytes per decoder layer (art profile)", func(c *Config) **int64 { return &c.Art.AdapterGradientBytesPerLayer }).
		resolvesTo(func(*Resolved) int64 { return 0 }),
	optF("art.adapter_gradient_outside_bytes", "adapter_gradient_outside_bytes", 0, 1<<40, "pending LoRA gradient bytes outside the decoder (art profile)", func(c *Config) **int64 { return &c.Art.AdapterGradientOutsideBytes }).
		resolvesTo(func(*Resolved) int64 { return 0 }),
	optF("art.gdn_out_proj_lora_rank", "gdn_out_proj_lora_rank", 0, 1<<16, "rank of the GDN output projection's LoRA; 0 = none (art profile)", func(c *Config) **int64 { return &c.Art.GDNOutProjLoRARank }).
		resolvesTo(func(*Resolved) int64 { return 0 }),
}, artGPUFields...)

// ArtFields lists the fields the art profile adds (docs/model.md §13.3),
// as copies, in the order of the section. Fields leaves them out: they
// are read only under "art", and the page shows them in a group of their
// own. FieldByKey finds them.
func ArtFields() []*Field {
	out := make([]*Field, len(artFields))
	for i, f := range artFields {
		out[i] = f.clone()
	}
	return out
}

// isArtField reports whether f is one of artFields.
func isArtField(f *Field) bool {
	for _, a := range artFields {
		if a == f {
			return true
		}
	}
	return false
}

// optBoolF is an optional BoolField whose nil value reads as def.
func optBoolF(path, key string, def bool, doc string, flag func(*Config) **bool) *Field {
	return &Field{Path: path, Key: key, Kind: BoolField, Doc: doc, optFlag: flag, boolDefault: def}
}

// profileKey and profileMemoryKey mark the top-level keys "profile" and
// "profile_memory", read by decodeProfile and decodeProfileMemory rather
// than as fields.
var (
	profileKey       = &Field{Path: "profile", Key: "profile"}
	profileMemoryKey = &Field{Path: "profile_memory", Key: "profile_memory"}
)

// profileError is §13.3's error for a profile that is neither.
func profileError(field string) *Error {
	return &Error{Field: field, Message: `must be "seeds" or "art"`}
}

// ParseProfile reads a profile as a person types it (a link's
// "profile=ART", say): "seeds" or "art", in any case, spaces around it
// ignored. The error, naming field, says what a profile may be.
func ParseProfile(field, text string) (string, *Error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case ProfileSeeds:
		return ProfileSeeds, nil
	case ProfileArt:
		return ProfileArt, nil
	}
	return "", profileError(field)
}

// decodeProfile reads a profile name: "seeds" (stored as "", the default,
// so that the JSON leaves it out) or "art".
func decodeProfile(field string, raw json.RawMessage) (string, *Error) {
	var s string
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '"' || json.Unmarshal(t, &s) != nil {
		return "", profileError(field)
	}
	switch s {
	case ProfileSeeds:
		return "", nil
	case ProfileArt:
		return ProfileArt, nil
	}
	return "", profileError(field)
}

// DecodeProfileMemory reads a learned profile (docs/model.md §13.3) from
// its JSON, as the config's "profile_memory" key holds it: null is none;
// each bad value is an error naming it ("profile_memory.packed_tokens"),
// and ranges are left to Resolve.
func DecodeProfileMemory(raw json.RawMessage) (*ProfileMemory, ErrorList) {
	var errs ErrorList
	pm := decodeProfileMemory(raw, &errs)
	return pm, errs
}

// profileMemoryKeys are the keys of "profile_memory", sorted.
var profileMemoryKeys = []string{"bytes_per_token", "packed_tokens", "retained_compute_bytes_per_token", "split_floors", "warm_bytes_per_token", "warm_packed_tokens"}

// decodeProfileMemory reads "profile_memory" strictly; null is none.
// Ranges are left to checkProfileMemory.
func decodeProfileMemory(raw json.RawMessage, errs *ErrorList) *ProfileMemory {
	const name = "profile_memory"
	if string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	obj, err := decodeObject(raw)
	if err != nil {
		*errs = append(*errs, &Error{Field: name, Message: err.Error()})
		return nil
	}
	pm := &ProfileMemory{}
	nullable := func(key string, v json.RawMessage, lo, hi int64) *int64 {
		if string(bytes.TrimSpace(v)) == "null" {
			return nil
		}
		x := decodeInt(name+"."+key, intAllowed(lo, hi), v, errs)
		return &x
	}
	for _, key := range sortedKeys(obj) {
		v := obj[key]
		switch key {
		case "bytes_per_token":
			pm.BytesPerToken = decodeInt(name+"."+key, intAllowed(0, maxProfileRate), v, errs)
		case "packed_tokens":
			pm.PackedTokens = decodeInt(name+"."+key, intAllowed(1, maxRows), v, errs)
		case "retained_compute_bytes_per_token":
			pm.RetainedComputeBytesPerToken = nullable(key, v, 0, maxProfileRate)
		case "warm_bytes_per_token":
			pm.WarmBytesPerToken = nullable(key, v, 0, maxProfileRate)
		case "warm_packed_tokens":
			pm.WarmPackedTokens = nullable(key, v, 1, maxRows)
		case "split_floors":
			pm.SplitFloors = decodeSplitFloors(v, errs)
		default:
			*errs = append(*errs, &Error{Field: namedKey(name, key), Message: "is not a field of a learned profile; allowed here: " + strings.Join(profileMemoryKeys, ", ")})
		}
	}
	requireKeys(obj, []string{"bytes_per_token", "packed_tokens"}, func(key string) string { return name + "." + key }, errs)
	return pm
}

// floorField names a field of split floor i, as
// "profile_memory.split_floors[0].child_rows".
func floorField(i int, key string) string {
	f := "profile_memory.split_floors[" + strconv.Itoa(i) + "]"
	if key != "" {
		f += "." + key
	}
	return f
}

// decodeSplitFloors reads "split_floors" strictly; null is none.
func decodeSplitFloors(raw json.RawMessage, errs *ErrorList) []SplitFloor {
	objs, ok := objectList(raw, "profile_memory.split_floors", `{"child_rows": [...], "observed_bytes": B}`, maxSplitFloors, "entries", floorField, errs)
	if !ok {
		return nil
	}
	out := make([]SplitFloor, len(objs))
	eachObjectKey(objs, []string{"child_rows", "observed_bytes"}, floorField, errs, func(i int, key string, v json.RawMessage) {
		switch key {
		case "observed_bytes":
			out[i].ObservedBytes = decodeInt(floorField(i, key), intAllowed(0, 1<<50), v, errs)
		case "child_rows":
			var rows []json.RawMessage
			t := bytes.TrimSpace(v)
			if len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &rows) != nil {
				*errs = append(*errs, &Error{Field: floorField(i, key), Message: "must be a JSON array of 2..1,024 integers, got " + clip(string(t))})
				return
			}
			out[i].ChildRows = make([]int64, len(rows))
			for j, r := range rows {
				out[i].ChildRows[j] = decodeInt(floorField(i, key)+"["+strconv.Itoa(j)+"]", intAllowed(1, maxRows), r, errs)
			}
		default:
			*errs = append(*errs, &Error{Field: namedKey(floorField(i, ""), key), Message: "is not a field of a split floor; allowed here: child_rows, observed_bytes"})
		}
	})
	return out
}

// checkProfileMemory validates a learned profile's ranges (§13.7).
func checkProfileMemory(pm *ProfileMemory) ErrorList {
	if pm == nil {
		return nil
	}
	var errs ErrorList
	check := func(field string, v, lo, hi int64) {
		if v < lo || v > hi {
			errs = append(errs, &Error{Field: "profile_memory." + field, Message: intAllowed(lo, hi) + ", got " + Group(v)})
		}
	}
	check("bytes_per_token", pm.BytesPerToken, 0, maxProfileRate)
	check("packed_tokens", pm.PackedTokens, 1, maxRows)
	if pm.RetainedComputeBytesPerToken != nil {
		check("retained_compute_bytes_per_token", *pm.RetainedComputeBytesPerToken, 0, maxProfileRate)
	}
	if pm.WarmBytesPerToken != nil {
		check("warm_bytes_per_token", *pm.WarmBytesPerToken, 0, maxProfileRate)
	}
	if pm.WarmPackedTokens != nil {
		check("warm_packed_tokens", *pm.WarmPackedTokens, 1, maxRows)
	}
	if (pm.WarmBytesPerToken == nil) != (pm.WarmPackedTokens == nil) {
		errs = append(errs, &Error{Field: "profile_memory.warm_packed_tokens", Message: "must be given together with warm_bytes_per_token: both or neither"})
	}
	if len(pm.SplitFloors) > maxSplitFloors {
		errs = append(errs, &Error{Field: "profile_memory.split_floors", Message: "must hold at most " + Group(maxSplitFloors) + " entries, got " + Group(int64(len(pm.SplitFloors)))})
		return errs
	}
	for i, f := range pm.SplitFloors {
		if len(f.ChildRows) < 2 || len(f.ChildRows) > maxFloorChildren {
			errs = append(errs, &Error{Field: floorField(i, "child_rows"), Message: "must hold 2..1,024 integers, got " + Group(int64(len(f.ChildRows)))})
		}
		for j, r := range f.ChildRows {
			if r < 1 || r > maxRows {
				errs = append(errs, &Error{Field: floorField(i, "child_rows") + "[" + strconv.Itoa(j) + "]", Message: intAllowed(1, maxRows) + ", got " + Group(r)})
			}
		}
		if f.ObservedBytes < 0 || f.ObservedBytes > 1<<50 {
			errs = append(errs, &Error{Field: floorField(i, "observed_bytes"), Message: intAllowed(0, 1<<50) + ", got " + Group(f.ObservedBytes)})
		}
	}
	return errs
}

// isArt reports whether a stored profile ("" for seeds, or as typed) is
// the art profile.
func isArt(profile string) bool { return profile == ProfileArt }

// usesArt reports whether some revision of c prices with the art profile:
// c itself, or its baseline through an override of "profile".
func (c *Config) usesArt() bool {
	if isArt(c.Profile) {
		return true
	}
	if c.Baseline != nil {
		if s, ok := c.Baseline.Overrides[profileKey.Path]; ok {
			return isArt(s.Text)
		}
	}
	return false
}

// checkArt is §13.3's validation of a config's profile: the profile's
// name, BF16 under art, and a learned profile only when
// some revision uses art. Resolve calls it.
func (c *Config) checkArt() ErrorList {
	var errs ErrorList
	if c.Profile != "" && c.Profile != ProfileSeeds && c.Profile != ProfileArt {
		errs = append(errs, profileError("profile"))
	}
	if isArt(c.Profile) {
		if c.FC2.DtypeBytes != 2 {
			errs = append(errs, &Error{Field: "fc2.dtype_bytes", Message: "profile art models BF16 only; must be 2"})
		}
	}
	if c.ProfileMemory != nil && !c.usesArt() {
		errs = append(errs, &Error{Field: "profile_memory", Message: "requires profile art"})
	}
	errs = append(errs, c.checkArtGPU()...)
	return append(errs, checkProfileMemory(c.ProfileMemory)...)
}

// termScopeOf is the hold bits of the revisions that price c's terms with
// c's own profile: all of them, unless the baseline overrides the profile
// (then the candidate's alone) or c is such a baseline's config (then
// scope, the baseline's, from ResolveRevisions). Each term is checked
// under the profile of each revision that holds it (docs/model.md §13.13).
func (c *Config) termScopeOf(scope uint8) uint8 {
	if scope != 0 {
		return scope
	}
	if c.Baseline != nil {
		if s, ok := c.Baseline.Overrides[profileKey.Path]; ok && isArt(s.Text) != isArt(c.Profile) {
			return holdCandidate | holdLower
		}
	}
	return holdAll
}
