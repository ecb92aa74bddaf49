package ui

import (
	"testing"

	"headroom/app/ui/page"
)

// TestHistoryGestures: a gesture (a drag, typing, a menu pick, a switch)
// pushes one history entry, its further edits replace it, and restoring
// an address brings back its state without pushing.
func TestHistoryGestures(t *testing.T) {
	c, d := mountExplorer(t, nil)
	steps := []struct {
		name   string
		edits  []page.Edit
		pushes int // entries pushed after the step, in all
		rows   string
	}{
		{"a drag of rows is one entry", []page.Edit{
			{Kind: page.EditText, Key: "rows", Text: "1000"},
			{Kind: page.EditText, Key: "rows", Text: "2000"},
			{Kind: page.EditText, Key: "rows", Text: "3000"},
			{Kind: page.EditSettle, Key: "rows"},
		}, 1, "3000"},
		{"a switch is one entry", []page.Edit{{Kind: page.EditCheck, Key: "grad", On: false, Settle: true}}, 2, "3000"},
		{"typing into rows again is a new entry", []page.Edit{
			{Kind: page.EditText, Key: "rows", Text: "4"},
			{Kind: page.EditText, Key: "rows", Text: "40"},
		}, 3, "40"},
		{"another field without a settle starts its own", []page.Edit{{Kind: page.EditText, Key: "vocab_size", Text: "64000"}}, 4, "40"},
		{"a menu pick", []page.Edit{{Kind: page.EditMenu, Key: page.KeyAxis, Text: "vocab_size", Settle: true}}, 5, "40"},
		{"a settle of another control pushes nothing", []page.Edit{{Kind: page.EditSettle, Key: "hidden_size"}}, 5, "40"},
	}
	for _, st := range steps {
		for _, e := range st.edits {
			send(d, c, e)
		}
		if c.hist.Pushes() != st.pushes {
			t.Errorf("%s: %d entries pushed, want %d", st.name, c.hist.Pushes(), st.pushes)
		}
		if got := c.state.Text("rows"); got != st.rows {
			t.Errorf("%s: rows %q, want %q", st.name, got, st.rows)
		}
		if c.url.Pending != c.state.Query(c.list).Encode() {
			t.Errorf("%s: the address will say ?%s, the state ?%s", st.name, c.url.Pending, c.state.Query(c.list).Encode())
		}
	}
	// Back: the address of an earlier state restores it, pushing nothing.
	c.restoreFrom("rows=3000")
	d.Consume()
	if c.state.Text("rows") != "3000" || c.state.Axis != "rows" || c.hist.Pushes() != 5 {
		t.Errorf("restored rows %q axis %q, %d pushes", c.state.Text("rows"), c.state.Axis, c.hist.Pushes())
	}
	if c.url.Last != "rows=3000" || c.url.Pending != "rows=3000" {
		t.Errorf("after a restore the address is ?%s (pending ?%s)", c.url.Last, c.url.Pending)
	}
	// The next edit after a restore is a new entry (Forward is then gone,
	// as browsers do).
	send(d, c, page.Edit{Kind: page.EditText, Key: "rows", Text: "5000"})
	if c.hist.Pushes() != 6 {
		t.Errorf("an edit after a restore: %d pushes, want 6", c.hist.Pushes())
	}
}

// TestHistoryImport: an import is an entry of its own, even in the middle
// of typing into a field.
func TestHistoryImport(t *testing.T) {
	c, d := mountExplorer(t, nil)
	send(d, c, page.Edit{Kind: page.EditText, Key: "rows", Text: "1234"})
	n := c.hist.Pushes()
	if r := c.importFile([]byte(`{"request": {"rows": 4321}}`)); r.Err != "" {
		t.Fatal(r.Err)
	}
	d.Consume()
	if c.hist.Pushes() != n+1 || c.state.Text("rows") != "4321" {
		t.Errorf("after an import: %d pushes (want %d), rows %q", c.hist.Pushes(), n+1, c.state.Text("rows"))
	}
	send(d, c, page.Edit{Kind: page.EditText, Key: "rows", Text: "99"})
	if c.hist.Pushes() != n+2 {
		t.Errorf("typing after an import: %d pushes, want %d", c.hist.Pushes(), n+2)
	}
}
