package estimator

import (
	"maps"
	"slices"
)

// Equal reports whether c and d are the same config, field by field: the
// values behind pointers (not the pointers), every element of the terms,
// observed points, split floors and lists, the baseline's changes,
// overrides and resident group, and the fields a decoded config noted as
// given (so a group built in Go, which counts every field as given, is
// not Equal to one decoded from JSON that gave some). A nil pointer, list
// or map is not Equal to a set one, even an empty one: Equal is exact, as
// reflect.DeepEqual is, at a fraction of its cost, so that a cache can use
// a config as its key (config_equal_test.go fails when a field is added
// to Config that Equal does not compare).
func (c Config) Equal(d Config) bool {
	return c.Model.equal(&d.Model) &&
		c.Request.equal(&d.Request) &&
		c.Head.equal(&d.Head) &&
		c.FC2.equal(&d.FC2) &&
		c.Budget.equal(&d.Budget) &&
		c.AllocatorRoundBytes == d.AllocatorRoundBytes &&
		c.Changes == d.Changes &&
		sliceEq(c.Terms, d.Terms) &&
		sliceEq(c.Observed, d.Observed) &&
		ptrEqual(c.Baseline, d.Baseline, (*Baseline).equal) &&
		c.Profile == d.Profile &&
		c.Art.equal(&d.Art) &&
		ptrEqual(c.ProfileMemory, d.ProfileMemory, (*ProfileMemory).equal) &&
		ptrEqual(c.Resident, d.Resident, (*ResidentConfig).equal)
}

// Clone is a copy of c that shares nothing with it: no pointer, list or
// map, so that editing the copy in place leaves c as it was (a cache that
// keeps a config as its key keeps a Clone).
func (c Config) Clone() Config {
	d := c
	d.Model = c.Model.clone()
	d.Request.ProjectedRows = clonePtr(c.Request.ProjectedRows)
	d.Request.TargetRows = clonePtr(c.Request.TargetRows)
	d.Head.PaddedVocabMultiple = clonePtr(c.Head.PaddedVocabMultiple)
	d.Head.Stock = clonePtr(c.Head.Stock)
	d.FC2.InputWidth = clonePtr(c.FC2.InputWidth)
	d.FC2.OutputWidth = clonePtr(c.FC2.OutputWidth)
	d.FC2.FusedFC1 = clonePtr(c.FC2.FusedFC1)
	d.FC2.SharedExpertGate = clonePtr(c.FC2.SharedExpertGate)
	d.Budget.RetainedPerRowBytes = clonePtr(c.Budget.RetainedPerRowBytes)
	d.Terms = slices.Clone(c.Terms)
	d.Observed = slices.Clone(c.Observed)
	if c.Baseline != nil {
		b := *c.Baseline
		b.Overrides = maps.Clone(c.Baseline.Overrides)
		b.Resident = c.Baseline.Resident.clone()
		d.Baseline = &b
	}
	d.Art = ArtConfig{
		CheckpointFloor:              clonePtr(c.Art.CheckpointFloor),
		AdapterGradientBytesPerLayer: clonePtr(c.Art.AdapterGradientBytesPerLayer),
		AdapterGradientOutsideBytes:  clonePtr(c.Art.AdapterGradientOutsideBytes),
		GDNOutProjLoRARank:           clonePtr(c.Art.GDNOutProjLoRARank),
		ArtGPUConfig:                 c.Art.ArtGPUConfig.clone(),
	}
	if pm := c.ProfileMemory; pm != nil {
		p := *pm
		p.RetainedComputeBytesPerToken = clonePtr(pm.RetainedComputeBytesPerToken)
		p.WarmBytesPerToken = clonePtr(pm.WarmBytesPerToken)
		p.WarmPackedTokens = clonePtr(pm.WarmPackedTokens)
		if pm.SplitFloors != nil {
			p.SplitFloors = make([]SplitFloor, len(pm.SplitFloors))
			for i, f := range pm.SplitFloors {
				p.SplitFloors[i] = SplitFloor{ChildRows: slices.Clone(f.ChildRows), ObservedBytes: f.ObservedBytes}
			}
		}
		d.ProfileMemory = &p
	}
	d.Resident = c.Resident.clone()
	return d
}

func (m *ModelConfig) equal(n *ModelConfig) bool {
	return m.VocabSize == n.VocabSize && m.HiddenSize == n.HiddenSize &&
		m.NumHiddenLayers == n.NumHiddenLayers && m.NumExpertsPerTok == n.NumExpertsPerTok &&
		m.MoEIntermediateSize == n.MoEIntermediateSize &&
		m.LinearNumKeyHeads == n.LinearNumKeyHeads && m.LinearKeyHeadDim == n.LinearKeyHeadDim &&
		m.LinearNumValueHeads == n.LinearNumValueHeads && m.LinearValueHeadDim == n.LinearValueHeadDim &&
		valEqual(m.SharedExpertIntermediateSize, n.SharedExpertIntermediateSize) &&
		valEqual(m.LinearConvKernelDim, n.LinearConvKernelDim) &&
		valEqual(m.IntermediateSize, n.IntermediateSize) &&
		ptrEqual(m.ArchFields, n.ArchFields, (*ArchFields).equal)
}

func (m ModelConfig) clone() ModelConfig {
	m.SharedExpertIntermediateSize = clonePtr(m.SharedExpertIntermediateSize)
	m.LinearConvKernelDim = clonePtr(m.LinearConvKernelDim)
	m.IntermediateSize = clonePtr(m.IntermediateSize)
	if a := m.ArchFields; a != nil {
		b := *a
		b.Architectures = slices.Clone(a.Architectures)
		b.NumAttentionHeads = clonePtr(a.NumAttentionHeads)
		b.NumKeyValueHeads = clonePtr(a.NumKeyValueHeads)
		b.HeadDim = clonePtr(a.HeadDim)
		b.NumExperts = clonePtr(a.NumExperts)
		b.NumLocalExperts = clonePtr(a.NumLocalExperts)
		b.NRoutedExperts = clonePtr(a.NRoutedExperts)
		b.ExpertsPerToken = clonePtr(a.ExpertsPerToken)
		b.NSharedExperts = clonePtr(a.NSharedExperts)
		b.DecoderSparseStep = clonePtr(a.DecoderSparseStep)
		b.MLPOnlyLayers = slices.Clone(a.MLPOnlyLayers)
		b.FirstKDenseReplace = clonePtr(a.FirstKDenseReplace)
		b.MoELayerFreq = clonePtr(a.MoELayerFreq)
		b.QLoRARank = clonePtr(a.QLoRARank)
		b.KVLoRARank = clonePtr(a.KVLoRARank)
		b.QKNopeHeadDim = clonePtr(a.QKNopeHeadDim)
		b.QKRopeHeadDim = clonePtr(a.QKRopeHeadDim)
		b.VHeadDim = clonePtr(a.VHeadDim)
		b.LayerTypes = slices.Clone(a.LayerTypes)
		b.FullAttentionInterval = clonePtr(a.FullAttentionInterval)
		b.AttentionBias = clonePtr(a.AttentionBias)
		b.MLPBias = clonePtr(a.MLPBias)
		b.TieWordEmbeddings = clonePtr(a.TieWordEmbeddings)
		b.NumNextnPredictLayers = clonePtr(a.NumNextnPredictLayers)
		b.MTPNumHiddenLayers = clonePtr(a.MTPNumHiddenLayers)
		b.present = maps.Clone(a.present)
		m.ArchFields = &b
	}
	return m
}

func (a *ArchFields) equal(b *ArchFields) bool {
	return sliceEq(a.Architectures, b.Architectures) && a.ModelType == b.ModelType &&
		valEqual(a.NumAttentionHeads, b.NumAttentionHeads) && valEqual(a.NumKeyValueHeads, b.NumKeyValueHeads) &&
		valEqual(a.HeadDim, b.HeadDim) && valEqual(a.NumExperts, b.NumExperts) &&
		valEqual(a.NumLocalExperts, b.NumLocalExperts) && valEqual(a.NRoutedExperts, b.NRoutedExperts) &&
		valEqual(a.ExpertsPerToken, b.ExpertsPerToken) && valEqual(a.NSharedExperts, b.NSharedExperts) &&
		valEqual(a.DecoderSparseStep, b.DecoderSparseStep) && sliceEq(a.MLPOnlyLayers, b.MLPOnlyLayers) &&
		valEqual(a.FirstKDenseReplace, b.FirstKDenseReplace) && valEqual(a.MoELayerFreq, b.MoELayerFreq) &&
		valEqual(a.QLoRARank, b.QLoRARank) && valEqual(a.KVLoRARank, b.KVLoRARank) &&
		valEqual(a.QKNopeHeadDim, b.QKNopeHeadDim) && valEqual(a.QKRopeHeadDim, b.QKRopeHeadDim) &&
		valEqual(a.VHeadDim, b.VHeadDim) && sliceEq(a.LayerTypes, b.LayerTypes) &&
		valEqual(a.FullAttentionInterval, b.FullAttentionInterval) &&
		valEqual(a.AttentionBias, b.AttentionBias) && valEqual(a.MLPBias, b.MLPBias) &&
		valEqual(a.TieWordEmbeddings, b.TieWordEmbeddings) &&
		a.TorchDtype == b.TorchDtype && a.Dtype == b.Dtype &&
		valEqual(a.NumNextnPredictLayers, b.NumNextnPredictLayers) &&
		valEqual(a.MTPNumHiddenLayers, b.MTPNumHiddenLayers) &&
		mapEq(a.present, b.present)
}

func (r *RequestConfig) equal(s *RequestConfig) bool {
	return r.Rows == s.Rows && r.SequenceRows == s.SequenceRows &&
		valEqual(r.ProjectedRows, s.ProjectedRows) && valEqual(r.TargetRows, s.TargetRows) &&
		r.Grad == s.Grad && r.Outputs == s.Outputs
}

func (h *HeadConfig) equal(g *HeadConfig) bool {
	return h.ChunkRows == g.ChunkRows && valEqual(h.PaddedVocabMultiple, g.PaddedVocabMultiple) &&
		valEqual(h.Stock, g.Stock)
}

func (f *FC2Config) equal(g *FC2Config) bool {
	return valEqual(f.InputWidth, g.InputWidth) && valEqual(f.OutputWidth, g.OutputWidth) &&
		f.DtypeBytes == g.DtypeBytes && f.LoRAMetadataKnown == g.LoRAMetadataKnown &&
		f.ExpertParallel == g.ExpertParallel &&
		valEqual(f.FusedFC1, g.FusedFC1) && valEqual(f.SharedExpertGate, g.SharedExpertGate)
}

func (b *BudgetConfig) equal(c *BudgetConfig) bool {
	return b.CapacityBytes == c.CapacityBytes && b.InUseBytes == c.InUseBytes &&
		b.ReservePermille == c.ReservePermille && b.SafetyPercent == c.SafetyPercent &&
		valEqual(b.RetainedPerRowBytes, c.RetainedPerRowBytes)
}

func (b *Baseline) equal(c *Baseline) bool {
	return b.Changes == c.Changes && mapEq(b.Overrides, c.Overrides) &&
		ptrEqual(b.Resident, c.Resident, (*ResidentConfig).equal)
}

func (a *ArtConfig) equal(b *ArtConfig) bool {
	return valEqual(a.CheckpointFloor, b.CheckpointFloor) &&
		valEqual(a.AdapterGradientBytesPerLayer, b.AdapterGradientBytesPerLayer) &&
		valEqual(a.AdapterGradientOutsideBytes, b.AdapterGradientOutsideBytes) &&
		valEqual(a.GDNOutProjLoRARank, b.GDNOutProjLoRARank) &&
		a.ArtGPUConfig.equal(&b.ArtGPUConfig)
}

func (p *ProfileMemory) equal(q *ProfileMemory) bool {
	if p.BytesPerToken != q.BytesPerToken || p.PackedTokens != q.PackedTokens ||
		!valEqual(p.RetainedComputeBytesPerToken, q.RetainedComputeBytesPerToken) ||
		!valEqual(p.WarmBytesPerToken, q.WarmBytesPerToken) || !valEqual(p.WarmPackedTokens, q.WarmPackedTokens) ||
		(p.SplitFloors == nil) != (q.SplitFloors == nil) || len(p.SplitFloors) != len(q.SplitFloors) {
		return false
	}
	for i, f := range p.SplitFloors {
		g := q.SplitFloors[i]
		if f.ObservedBytes != g.ObservedBytes || !sliceEq(f.ChildRows, g.ChildRows) {
			return false
		}
	}
	return true
}

func (r *ResidentConfig) equal(s *ResidentConfig) bool {
	return valEqual(r.WeightDtypeBytes, s.WeightDtypeBytes) && valEqual(r.ExpertAlign, s.ExpertAlign) &&
		r.IncludeMTP == s.IncludeMTP && valEqual(r.LoRARank, s.LoRARank) &&
		sliceEq(r.LoRATargets, s.LoRATargets) && valEqual(r.LoRADtypeBytes, s.LoRADtypeBytes) &&
		valEqual(r.GradBytes, s.GradBytes) && valEqual(r.MasterWeights, s.MasterWeights) &&
		valEqual(r.OptimizerMoments, s.OptimizerMoments) && valEqual(r.MomentBytes, s.MomentBytes) &&
		r.FrameworkReserveBytes == s.FrameworkReserveBytes && mapEq(r.set, s.set)
}

func (r *ResidentConfig) clone() *ResidentConfig {
	if r == nil {
		return nil
	}
	c := *r
	c.WeightDtypeBytes = clonePtr(r.WeightDtypeBytes)
	c.ExpertAlign = clonePtr(r.ExpertAlign)
	c.LoRARank = clonePtr(r.LoRARank)
	c.LoRATargets = slices.Clone(r.LoRATargets)
	c.LoRADtypeBytes = clonePtr(r.LoRADtypeBytes)
	c.GradBytes = clonePtr(r.GradBytes)
	c.MasterWeights = clonePtr(r.MasterWeights)
	c.OptimizerMoments = clonePtr(r.OptimizerMoments)
	c.MomentBytes = clonePtr(r.MomentBytes)
	c.set = maps.Clone(r.set)
	return &c
}

// valEqual: both nil, or both set to the same value.
func valEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// ptrEqual: both nil, or both set and eq.
func ptrEqual[T any](a, b *T, eq func(*T, *T) bool) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a == b || eq(a, b)
}

// sliceEq: both nil, or both set with equal elements.
func sliceEq[T comparable](a, b []T) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// mapEq: both nil, or both set with equal entries.
func mapEq[K, V comparable](a, b map[K]V) bool {
	return (a == nil) == (b == nil) && maps.Equal(a, b)
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
