package ui

import (
	"html"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// foldTitles are the summaries of the groups closed until opened.
var foldTitles = []string{"More model fields", "More FC2 fields", "More budget fields", "More fields of ART's code"}

// foldedKeys are the fields of the groups closed until opened, on the
// default page (expert_parallel is in the open "On the GPU" group while
// resident memory is on, as it is by default).
func foldedKeys() map[string]bool {
	keys := map[string]bool{}
	for _, g := range [][]page.SliderSpec{page.ModelMore, page.FC2More, page.BudgetMore, page.ArtSliders} {
		for _, s := range g {
			keys[s.Key] = true
		}
	}
	for _, k := range artSwitches() {
		keys[k] = true
	}
	delete(keys, "expert_parallel")
	return keys
}

// TestFoldDrawsItsFieldsWhenOpen: a closed group is its summary alone; open
// (as the person left it, or forced by an error inside) it draws its
// fields, from the state, so a field typed into and folded away shows
// its text again when opened.
func TestFoldDrawsItsFieldsWhenOpen(t *testing.T) {
	c, d := mountExplorer(t, nil)
	typeInto(d, c, "moe_intermediate_size", "1024")
	typeInto(d, c, "reserve_permille", "abc") // an error: its group opens by itself
	view := func(opened map[string]bool) (string, map[string]bool) {
		out := html.UnescapeString(app.HTMLString(&controls{View: controlViewOf(&c.state, c.list), Sink: c.sink, opened: opened}))
		return out, idsIn(out)
	}
	closed, ids := view(nil)
	for _, title := range foldTitles {
		if !strings.Contains(closed, "<summary>"+title+"</summary>") {
			t.Errorf("no summary %q: the keyboard cannot reach the group", title)
		}
	}
	for _, key := range []string{"moe_intermediate_size", "dtype_bytes", "padded_vocab_multiple"} {
		if ids["input-"+key] {
			t.Errorf("#input-%s drawn in a closed group", key)
		}
	}
	if !ids["input-reserve_permille"] || !ids["error-reserve_permille"] {
		t.Error("the budget group holds a field in error, but is not drawn open")
	}
	all := map[string]bool{}
	for _, title := range foldTitles {
		all[title] = true
	}
	open, ids := view(all)
	for key := range foldedKeys() {
		if !ids["input-"+key] && !ids["check-"+key] {
			t.Errorf("the group is open, but no control of %s is drawn", key)
		}
	}
	if !strings.Contains(open, `id="input-moe_intermediate_size"`) || !strings.Contains(open, `value="1024"`) {
		t.Error("moe_intermediate_size, typed while folded, does not show its text once opened")
	}
	// Closing a top-level group draws it as its summary alone; the state
	// keeps every field.
	folded, ids := view(map[string]bool{"Request": false})
	if ids["input-rows"] || !strings.Contains(folded, "<summary>Request</summary>") {
		t.Error("the folded Request group still draws its fields, or lost its summary")
	}
	if c.state.Text("moe_intermediate_size") != "1024" || c.state.Errs[page.ErrorKey("reserve_permille")] == "" {
		t.Error("the state lost a folded field's text or error")
	}
}
