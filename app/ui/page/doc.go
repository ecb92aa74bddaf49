// Package page is the explorer page's model: the page's state (State:
// the config, the texts of the inputs as typed, their errors), the edits
// a control sends (Edit: its kind, and the Feature it is for) and what
// each does to the state (State.Apply, which hands it to its feature's
// reducer: the fields, menus and switches in pagestate.go; the Compare
// control in comparestate.go; the Changes panel's terms in termsstate.go;
// the observed peaks in observed.go, whose text
// estimator.ParseObserved reads; an import in importstate.go and
// import.go; the "Two inputs" map's, ApplyMap), and the reducers of the
// page's other events (reducers.go: the map's click and drag, a workload
// line loaded, a file imported, Back and Forward): every change to the
// state is one of them, and the explorer only schedules the render and
// writes the browser's side. Then the "On the GPU" group's
// resident memory (resident.go: the page's default of resident memory at
// expert parallelism 8, the group's and the arch fields' keys in the
// address, the expert parallelism at which the weights would fit), the
// model presets (presets.go), the sliders' definitions and the value a state
// gives each knob (sliders.go: Sliders, State.SliderValue), the axis range a
// new axis or model gets (FitRange, fitted to the flips; DefaultRange for the
// map), the page's URL codec (Query and Decode, pageurl.go, over the config's,
// estimator/urlquery; the address bar's spelling, EncodeAddress; Settled, an
// edit's one normalization: one Repair and Estimate, one write and one read of
// the address, counted by Steps in steps.go), and the address bar's
// logic: when an edit pushes a history entry (History) and how often the
// address is written (Throttle). Two small tools the page's other
// packages share: Slice spreads long work over frames (the map, the
// Workload replay), and Memo remembers a costly answer for its owner (the
// state's fitted range, resolved config and expert-parallelism fit; the
// explorer's acting switches) instead of a package-level cache.
//
// It draws nothing and touches no browser: app/ui's components show a
// State and send Edits, and the tests here run natively, with no build
// tags. It may import the standard library, the estimator (with its
// urlquery and hfconfig) and the
// repository's assets (the presets' files); never go-app, syscall/js,
// gonum, app/chart or any other package of app/.
package page
