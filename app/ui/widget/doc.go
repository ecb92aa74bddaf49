// Package widget holds the page's generic controls, each a go-app
// component that knows no feature of the page: Slider (a range input
// paired with a field for exact values), Menu, Toggle, and the Sink
// through which every control sends its page.Edit to the explorer and
// reports a panic to its error banner. The components that place them
// (app/ui's controls, Compare form, map view) give each its key, its
// texts and the feature its edits are for.
//
// It may import the standard library, go-app and app/ui/page (the edit
// type); never app/ui, app/chart or gonum.
package widget
