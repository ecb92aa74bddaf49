package workload

import (
	"html"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/report"
)

// TestWorkloadPanelCostAndIgnored: The panel lists the
// workload's ignored columns (only the JSON did) and says what the hold
// costs, as the report does.
func TestWorkloadPanelCostAndIgnored(t *testing.T) {
	cfg := workloadConfig()
	p := &Panel{Config: cfg, Ready: true}
	p.st.setConfig(cfg, keyOf(cfg))
	p.st.load("workload.csv", []byte("id,rows,count,tenant,note\na,50000,10,t1,x\nb,240000,1,t3,y\nc,400000,1,t3,z\n"))
	runToEnd(t, &p.st, 1000)
	out := html.UnescapeString(app.HTMLString(&Panel{Config: cfg, Ready: true, st: p.st}))
	for _, want := range []string{
		"Ignored columns (read as neither a field nor id): tenant, note.",
		report.CostSentence(p.st.shown.res),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the panel lacks %q", want)
		}
	}
}
