package estimator

// ParamReport is a model's parameter counts (docs/model.md §14.2) and,
// when its config has a resident group, the resident memory of one GPU
// (§14.4): what `headroom params` prints.
type ParamReport struct {
	Architecture string `json:"architecture"`
	// Assumed: see ResidentResult.Assumed.
	Assumed string      `json:"assumed,omitempty"`
	Params  ParamCounts `json:"params"`
	// Tensors and MTPTensors are Params.Tensors and Params.MTPTensors.
	Tensors    int64           `json:"tensors"`
	MTPTensors int64           `json:"mtp_tensors"`
	Resident   *ResidentResult `json:"resident,omitempty"`
	// Error is the capacity error of §14.4 when the config has a resident
	// group and no in_use_bytes, and what it holds does not fit: the
	// counts and bytes are reported all the same.
	Error string `json:"error,omitempty"`
}

// Params counts c's parameters by §14.1's and §14.2's rules, as if c had a
// resident group (a named architecture's required fields must be there),
// and reports its resident memory when it has one. A capacity error does
// not stop the count (see ParamReport.Error); any other invalid field does.
func Params(c Config) (ParamReport, error) {
	cc := c
	cc.Baseline, cc.Observed, cc.Terms = nil, nil, nil
	if cc.Resident == nil {
		cc.Resident = &ResidentConfig{}
	}
	// An explicit in_use_bytes (case 3) has no capacity error of its own.
	explicit := cc.Budget.InUseBytes != 0
	cc.Budget.InUseBytes = min(1, cc.Budget.CapacityBytes)
	r, err := cc.Resolve()
	if err != nil {
		return ParamReport{}, err
	}
	pc, perr := r.res.m.params(r.Round)
	if perr != nil {
		return ParamReport{}, perr
	}
	rep := ParamReport{Architecture: r.res.m.arch, Params: pc, Tensors: pc.Tensors, MTPTensors: pc.MTPTensors}
	if r.res.m.isGeneric() {
		rep.Assumed = GenericAssumed(r.res.m.arch)
	}
	if c.Resident == nil {
		return rep, nil
	}
	rr := r.Resident()
	rr.Source, rr.InUseBytes = "resident", rr.ResidentBytes
	if explicit {
		rr.Source, rr.InUseBytes = "in_use_bytes", Bytes(c.Budget.InUseBytes)
	} else {
		r.inUseSet = false
		if e := r.applyResident(); e != nil {
			rep.Error = e.Error()
		}
	}
	rep.Resident = rr
	return rep, nil
}

// DecodeModelConfig reads a config as DecodeConfig does, for Params: the
// required rules of §14.1 apply as if it had a resident group, and the
// config is not priced (a resident group whose weights exceed the GPU is
// no error here; Params reports it).
func DecodeModelConfig(data []byte) (Config, error) {
	c, err := decodeFields(data)
	if err != nil {
		return c, err
	}
	had := c.Resident
	if had == nil {
		c.Resident = &ResidentConfig{}
	}
	applyAbsentRules(&c)
	c.Resident = had
	return c, nil
}
