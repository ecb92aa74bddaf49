package mapview

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
	"headroom/app/ui/browser"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// KeyClick is the edit a click on the map sends: Text is "x,y", the
// point under the pointer, which both fields take.
const KeyClick = "mclick"

// View is the "Two inputs" view: the x and y menus with their ranges,
// the columns, the map (id map) with the column under the pointer
// (id map-readout), the summary sentence and the exports. The map is
// computed over several frames; Progress says how far.
type View struct {
	app.Compo

	State    ViewState
	Sink     *widget.Sink
	Exporter func(format string) (browser.File, error)

	readout   string // the column under the pointer, in words
	readoutJS string // the same column as JSON (data-column), for tests
	status    string // the last export's outcome
}

// ViewState is what the map view shows.
type ViewState struct {
	X, Y             string
	XFrom, XTo       string
	YFrom, YTo, Cols string
	Errors           map[string]string
	SVG              string
	Frame            chart.Frame
	Result           *estimator.MapResult // the map on screen; nil before the first
	Summary          string
	Done, All        int  // columns computed of the job in progress
	Complete         bool // the map on screen is the job's, complete
	Problem          string
	HasFrame, Stale  bool
}

// Render draws the view.
func (m *View) Render() (ui app.UI) {
	defer m.Sink.CatchRender("drawing the map", &ui)
	st := &m.State
	var opts []widget.Option
	for _, k := range estimator.Axes() {
		opts = append(opts, widget.Option{Value: k, Label: k})
	}
	complete := "0"
	if st.Complete {
		complete = "1"
	}
	var body app.UI = app.Div().Class("chart-empty").Text("Computing the map…")
	if st.SVG != "" {
		body = app.Raw(st.SVG)
	}
	progress := ""
	if !st.Complete && st.All > 0 {
		progress = "Computing column " + strconv.Itoa(st.Done) + " of " + strconv.Itoa(st.All) + "…"
	}
	shownY, f := "", st.Frame
	if st.Result != nil {
		shownY = st.Result.Y.Axis
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return app.Section().ID("map-view").Class("map-view").DataSet("complete", complete).DataSet("y", shownY).
		// The plane in the SVG's coordinates, for tests that point at it.
		DataSet("plot", num(f.Plot.Left)+","+num(f.Plot.Top)+","+num(f.Plot.Right)+","+num(f.Plot.Bottom)+","+num(f.Width)+","+num(f.Height)).Body(
		app.Div().Class("axis-controls", "map-controls").Body(
			&widget.Menu{ID: page.KeyMX, Label: "across (x)", Options: opts, Selected: st.X, Error: st.Errors[page.KeyMX], For: page.ForMap, Sink: m.Sink},
			m.field(page.KeyMXFrom, "x from", st.XFrom),
			m.field(page.KeyMXTo, "x to", st.XTo),
			&widget.Menu{ID: page.KeyMY, Label: "up (y)", Options: opts, Selected: st.Y, Error: st.Errors[page.KeyMY], For: page.ForMap, Sink: m.Sink},
			m.field(page.KeyMYFrom, "y from", st.YFrom),
			m.field(page.KeyMYTo, "y to", st.YTo),
			m.field(page.KeyMCols, "columns", st.Cols),
		),
		app.Figure().Class("chart-figure", "map-figure", widget.ClassIf(st.Stale, "stale")).Body(
			app.Div().ID("map").Class("chart", "map").Body(body).
				OnMouseMove(m.onMove).OnClick(m.onClick),
			app.P().ID("map-readout").Class("map-readout").Role("status").Aria("live", "polite").
				DataSet("column", m.readoutJS).Text(m.readout),
			app.P().ID("map-progress").Class("map-progress").Text(progress),
			app.If(st.Problem != "", app.P().ID("map-problem").Class("chart-error").Role("alert").Text(st.Problem)),
			app.P().ID("map-summary").Class("change-summary").Text(st.Summary),
			app.FigCaption().Text("Where each revision's decision flips over two inputs: the colour is the candidate's decision; hatched where the baseline decides otherwise. Point to read a column; click to set both fields there."),
		),
		app.Div().Class("map-exports").Body(
			m.exportButton("svg", "SVG"), m.exportButton("png", "PNG"),
			m.exportButton("csv", "CSV"), m.exportButton("json", "JSON"),
			widget.SomeText(app.Span().ID("map-export-status").Class("export-status").Role("status"), m.status),
		),
	)
}

func (m *View) field(id, label, text string) app.UI {
	msg := m.State.Errors[id]
	return app.Div().Class("control", "bound", widget.ClassIf(msg != "", "has-error")).Body(
		app.Label().For("%s", id).Class("control-label", "control-name").Text(label),
		app.Input().Type("text").ID("%s", id).Class("number").
			AutoComplete(false).Spellcheck(false).
			Value(widget.Attr(text)).Aria("invalid", msg != "").Aria("describedby", "error-"+id).
			OnChange(m.onField, id),
		widget.SomeText(app.Span().ID("error-%s", id).Class("control-error").Aria("live", "polite"), msg),
	)
}

// onField sends a committed range or columns field.
func (m *View) onField(ctx app.Context, e app.Event) {
	defer m.Sink.Catch("editing the map's axes")
	src := ctx.JSSrc()
	m.Sink.Send(ctx, page.Edit{For: page.ForMap, Kind: page.EditText, Key: src.Get("id").String(), Text: src.Get("value").String(), Settle: true})
}

func (m *View) exportButton(format, label string) app.UI {
	return app.Button().ID("map-export-" + format).Type("button").Class("share-button").Text(label).
		OnClick(func(ctx app.Context, e app.Event) {
			defer m.Sink.Catch("exporting the map")
			if m.Exporter == nil {
				return
			}
			f, err := m.Exporter(format)
			if err != nil {
				m.status = "Could not export the map: " + err.Error()
				return
			}
			browser.SaveFile(ctx, f, func(ctx app.Context, err error) {
				if err != nil {
					m.status = "Could not save " + f.Name + ": " + err.Error()
				} else {
					m.status = "Saved " + f.Name + "."
				}
			})
		})
}

// pointerAt is the map's point under the pointer: the SVG coordinates of
// the event, through the frame, or false off the plane.
func (m *View) pointerAt(ctx app.Context, e app.Event) (x, y float64, ok bool) {
	st := &m.State
	if !st.HasFrame || st.Result == nil {
		return 0, 0, false
	}
	rect := ctx.JSSrc().Call("getBoundingClientRect")
	w, h := rect.Get("width").Float(), rect.Get("height").Float()
	if w <= 0 || h <= 0 {
		return 0, 0, false
	}
	f := st.Frame
	px := (e.Get("clientX").Float() - rect.Get("left").Float()) * f.Width / w
	py := (e.Get("clientY").Float() - rect.Get("top").Float()) * f.Height / h
	if !f.InPlot(px, py) {
		return 0, 0, false
	}
	return f.PixelToX(px), f.YMin + (f.Plot.Bottom-py)/(f.Plot.Bottom-f.Plot.Top)*(f.YMax-f.YMin), true
}

// onMove shows the column under the pointer with its exact flips.
func (m *View) onMove(ctx app.Context, e app.Event) {
	defer m.Sink.Catch("reading the map")
	x, _, ok := m.pointerAt(ctx, e)
	if !ok {
		return
	}
	res := m.State.Result
	i := res.ColumnAt(int64(math.Round(x)))
	if i < 0 {
		return
	}
	m.readout = ColumnText(res, i)
	js, _ := json.Marshal(res.Columns[i])
	m.readoutJS = string(js)
}

// onClick moves the config to the point under the pointer: x and y both.
func (m *View) onClick(ctx app.Context, e app.Event) {
	defer m.Sink.Catch("moving to a point of the map")
	x, y, ok := m.pointerAt(ctx, e)
	if !ok {
		return
	}
	m.Sink.Send(ctx, page.Edit{For: page.ForMap, Kind: page.EditMapClick, Key: KeyClick, Settle: true,
		Text: strconv.FormatInt(int64(math.Round(x)), 10) + "," + strconv.FormatInt(int64(math.Round(y)), 10)})
}

// ColumnText is column i of res in words: its x, then each revision's
// decision at y's start and its exact flips.
func ColumnText(res *estimator.MapResult, i int) string {
	c := &res.Columns[i]
	var b strings.Builder
	b.WriteString(res.X.Axis + " " + estimator.Group(c.X) + " (column " + strconv.Itoa(i+1) + " of " + strconv.Itoa(len(res.Columns)) + ")")
	for rev, name := range []string{"baseline", "candidate"} {
		r := c.Rev(estimator.Revision(rev))
		b.WriteString("; " + name + ": " + r.Start.String() + " from " + res.Y.Axis + " " + estimator.Group(res.Y.From))
		for _, f := range r.Flips {
			b.WriteString(", " + f.ToDecision.String() + " from " + estimator.Group(f.First) + " (" + f.FromDecision.String() + " to " + estimator.Group(f.Last) + ")")
		}
	}
	return b.String() + "."
}
