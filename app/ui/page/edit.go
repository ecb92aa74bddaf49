package page

// The kinds of edit a control sends.
const (
	EditText    = "text"    // text typed into a field, or set by its slider
	EditCheck   = "check"   // a switch turned on or off
	EditMenu    = "menu"    // a choice from a menu
	EditDismiss = "dismiss" // the error banner closed
	EditCommit  = "commit"  // a field committed (Enter, or focus left): show its value as the page reads it
	EditFit     = "fit"     // the "fit range" button: the axis range back to its default
	EditSettle  = "settle"  // a gesture on Key ended: a slider released, a field committed
)

// Edit is one user action on a control, sent to the explorer.
type Edit struct {
	Kind string
	Key  string // control key, menu id
	Text string
	On   bool
	// Settle marks an edit that ends a gesture: a slider released, a
	// field committed (change: Enter or leaving it), a menu pick, a
	// switch. The history gets an entry per gesture (History).
	Settle bool
}
