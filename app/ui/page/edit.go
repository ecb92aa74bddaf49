package page

import "strconv"

// EditKind is what an edit does.
type EditKind uint8

// The kinds of edit a control sends.
const (
	EditText        EditKind = iota + 1 // text typed into a field, or set by its slider
	EditCheck                           // a switch turned on or off
	EditMenu                            // a choice from a menu
	EditDismiss                         // the error banner closed
	EditCommit                          // a field committed (Enter, or focus left): show its value as the page reads it
	EditFit                             // the "fit range" button: the axis range back to its default
	EditSettle                          // a gesture on Key ended: a slider released, a field committed
	EditResetRange                      // the chart's double click: the axis range back to its default
	EditObserved                        // the observed panel's points: Text as pasted or read from a CSV file
	EditTerm                            // a term's part: Key "<part>-<i>" (TermEdit)
	EditTermAdd                         // "add a term"
	EditTermRemove                      // Key "<i>": remove term i
	EditTermHelp                        // Key "<i>": open or close term i's help
	EditMapClick                        // a click on the map: Text is "x,y", the point under the pointer
	EditProfile                         // a learned profile: Text its profile_memory JSON, On switch to profile art (profile.go)
	EditSwitchTerms                     // "write as terms": Key a switch; its terms under art replace it (termsstate.go)
)

var editKindNames = [...]string{"", "text", "check", "menu", "dismiss", "commit", "fit", "settle",
	"reset-range", "observed", "term", "term-add", "term-remove", "term-help", "map-click", "profile", "switch-terms"}

// String names the kind, for messages.
func (k EditKind) String() string {
	if int(k) < len(editKindNames) && k != 0 {
		return editKindNames[k]
	}
	return "edit kind " + strconv.Itoa(int(k))
}

// Feature is the part of the page an edit is for: each has its reducer,
// and the control that sends an edit says which (the zero value is the
// config's own fields, menus and switches).
type Feature uint8

// The page's features.
const (
	ForFields   Feature = iota // the fields, menus and switches of the config, and the axis range (pagestate.go)
	ForCompare                 // the Compare control and its form (comparestate.go)
	ForMap                     // the "Two inputs" view (mapstate.go; the explorer runs the map itself)
	ForTerms                   // the Changes panel's terms (termsstate.go)
	ForObserved                // the observed peaks (observed.go); EditProfile: the learned profile (profile.go)
)

// Edit is one user action on a control, sent to the explorer.
type Edit struct {
	For  Feature
	Kind EditKind
	Key  string // control key, menu id
	Text string
	On   bool
	// Settle marks an edit that ends a gesture: a slider released, a
	// field committed (change: Enter or leaving it), a menu pick, a
	// switch. The history gets an entry per gesture (History).
	Settle bool
}

// Apply is the page's reducer: it gives e to its feature's, validates
// the state and, for an edit of the page's own fields, terms or observed
// points, replaces the state by the one its address opens (Settled), so
// the page shows what a copied link shows: the edit's one normalization,
// one Repair and Estimate of its config, one write and one read of its
// address. An edit of the map view goes to ApplyMap; the banner's
// dismissal and a gesture's end change no state here: the explorer takes
// them. The page's other writers are reducers too (reducers.go).
//
// Apply leaves the history to the explorer (History.Note and Settle).
func (s *State) Apply(e Edit, list []Preset) {
	// Only a state Settled just returned is known to be the one its
	// address opens (OpenedBy); an edit that does not settle (Compare, a
	// commit) leaves the explorer to decode the address.
	s.settled = false
	switch e.For {
	case ForMap:
		// Against the state's own config; the explorer, whose map shows
		// the last valid config while the fields do not price, calls
		// ApplyMap with that one (MapConfig).
		s.ApplyMap(e, s.Cfg)
		return
	case ForCompare:
		s.ApplyCompare(e, list)
		s.Validate()
		return
	case ForTerms:
		s.EditTerms(e)
	case ForObserved:
		if e.Kind == EditProfile {
			s.SetProfileMemory(e.Text, e.On)
		} else {
			s.SetObserved(e.Text)
		}
	default:
		switch e.Kind {
		case EditText:
			s.SetText(e.Key, e.Text)
			s.FollowRange(e.Key)
		case EditCheck:
			s.SetCheck(e.Key, e.On)
			s.FollowRange(e.Key)
		case EditMenu:
			s.SetMenu(e.Key, e.Text, list)
			s.FollowRange(e.Key)
		case EditCommit:
			// A committed field shows its value as the page reads it.
			s.Commit(e.Key)
			s.Validate()
			return
		case EditFit, EditResetRange:
			s.ResetRange()
		case EditDismiss, EditSettle:
			return
		}
	}
	s.Validate()
	*s = s.Settled(list)
}
