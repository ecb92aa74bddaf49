package page

import (
	"reflect"
	"testing"
)

// TestHistory: a gesture's first edit asks for a push and its further
// edits do not; another control, or a settled gesture, starts a new one;
// replacements queued after a replacement keep only the last; Restored
// forgets the gesture and the writes due.
func TestHistory(t *testing.T) {
	t.Parallel()
	var h History
	if h.TakePush() {
		t.Fatal("a new history asks for a push")
	}
	h.Note("rows", false)
	if !h.TakePush() || h.TakePush() {
		t.Fatal("a gesture's first edit: one push")
	}
	h.Note("rows", false)
	if h.TakePush() {
		t.Error("the same gesture's next edit asked for a push")
	}
	h.Settle("hidden_size") // not the gesture under way
	h.Note("rows", false)
	if h.TakePush() {
		t.Error("settling another control ended the gesture on rows")
	}
	h.Settle("rows")
	h.Note("rows", false)
	if !h.TakePush() {
		t.Error("an edit after the gesture settled asked for no push")
	}
	h.Note("grad", true)
	h.TakePush()
	h.Note("grad", true)
	if !h.TakePush() {
		t.Error("a switch is a gesture of one edit: the next one asked for no push")
	}

	h.Queue(false, "a")
	h.Queue(false, "b")
	h.Queue(true, "c")
	h.Queue(false, "d")
	h.Queue(false, "e")
	if !h.Due() || h.Pushes() != 1 {
		t.Fatalf("due %v, pushes %d", h.Due(), h.Pushes())
	}
	want := []AddrOp{{false, "b"}, {true, "c"}, {false, "e"}}
	if got := h.TakeOps(); !reflect.DeepEqual(got, want) {
		t.Errorf("ops %v, want %v", got, want)
	}
	if h.Due() || h.TakeOps() != nil {
		t.Error("the ops taken are still due")
	}

	h.Note("rows", false)
	h.Queue(false, "f")
	h.Restored()
	if h.Due() || h.TakePush() {
		t.Error("Restored kept a write due or a push")
	}
}
