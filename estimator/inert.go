package estimator

import "reflect"

// SwitchNames are the candidate's three switches (docs/model.md §1), in
// the order every list of them follows.
var SwitchNames = [3]string{"head_eager_workspace", "fc2_known_storage", "gdn_early_release"}

// On lists the names of the switches that are on, in SwitchNames' order.
func (ch Changes) On() []string {
	var on []string
	for i, v := range [3]bool{ch.HeadEagerWorkspace, ch.FC2KnownStorage, ch.GDNEarlyRelease} {
		if v {
			on = append(on, SwitchNames[i])
		}
	}
	return on
}

// without is ch with the named switch off.
func (ch Changes) without(name string) Changes {
	switch name {
	case SwitchNames[0]:
		ch.HeadEagerWorkspace = false
	case SwitchNames[1]:
		ch.FC2KnownStorage = false
	case SwitchNames[2]:
		ch.GDNEarlyRelease = false
	}
	return ch
}

// ActingChanges splits the candidate's switches that are on into those
// that act on this config and those that change nothing (docs/model.md
// §3): a switch acts when turning it off alone changes the candidate's
// outcome (its plan, required bytes, stages or retained part). So
// gdn_early_release is inert for a model without GDN layers (Hk = 0) and
// under the art profile, fc2_known_storage without MoE layers (K = 0) or
// without known LoRA metadata, head_eager_workspace for a request whose
// head prices D either way. An invalid config: every switch that is on
// acts, as nothing can be compared.
func ActingChanges(c Config) (acting, inert []string) {
	on := c.Changes.On()
	res, err := Estimate(c)
	if err != nil {
		return on, nil
	}
	for _, name := range on {
		off := c
		off.Changes = c.Changes.without(name)
		r, err := Estimate(off)
		if err != nil || !reflect.DeepEqual(r.Candidate, res.Candidate) {
			acting = append(acting, name)
		} else {
			inert = append(inert, name)
		}
	}
	return acting, inert
}
