package measured

import (
	"io"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/browser"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
	"headroom/measure"
)

// Panel is the measured truth in the Observed peaks panel: a PyTorch
// memory snapshot or ART's planner-miss reports, picked (id measured-file)
// or dropped anywhere on the panel (observed-panel). While a file is read:
// a progress bar (measured-progress) and a cancel button
// (measured-cancel); the status (measured-status, data-state idle,
// reading, done, failed or cancelled) says where it is or why nothing
// changed. A snapshot is read twice, front to back (measure.AnalyzeStream
// holds no trace): the bar fills its first half in the first pass, the
// rest in the second (data-pass), and the status names the pass. A
// snapshot shows, per device N: the peak (measured-peak-N,
// data-peak-bytes), the revisions beside it (measured-compare-N), the
// timeline (measured-chart-N) and the blocks live at the peak
// (measured-live-N); reports show their comparisons (measured-reports) and
// the skipped ones (measured-skipped). Once a snapshot is shown, a second
// one picked in measured-file-b is read the same way and set beside it
// (measured-runs; per device N: measured-runs-peaks-N, -start-N,
// -groups-N, -changes-N, -windows-N). The buttons measured-use-points and
// measured-use-profile put the points in the panel's box and the learned
// profile in the config.
type Panel struct {
	app.Compo

	Config estimator.Config // the config shown: the last valid render
	Ready  bool
	Sink   *widget.Sink

	gen       int           // the current read; a callback of an older one does nothing
	reading   bool          // a read runs
	source    string        // the file(s) being read, or read last
	size      int64         // bytes to read
	pass      int           // the snapshot's pass being read: 1, then 2
	read      int64         // bytes of it read
	run       *snapshotRead // the snapshot read, to stop it
	err       string
	cancelled bool
	status    string // what the last button did
	failed    bool

	snap    *snapshotResult
	reports *measure.PlannerImport

	// The second run: a snapshot set beside snap (docs/model.md, "Two
	// runs"). readingB is a read of it; a failed or cancelled one leaves
	// snap, and the comparison shown, as they were.
	readingB bool
	snapB    *snapshotResult
	runs     *runsView

	viewFor viewKey // the config and readiness the views are for
	views   []deviceView
	release func()
}

// OnMount makes the Observed peaks panel a drop target for files.
func (p *Panel) OnMount(ctx app.Context) {
	defer p.Sink.Catch("opening the measured peaks")
	ctx.Defer(func(ctx app.Context) {
		defer p.Sink.Catch("watching for dropped measurements")
		p.release = browser.WatchFileDropsOn(ctx, "observed-panel", p.onFiles)
	})
}

// OnDismount stops watching for drops and stops a read: its callbacks
// find a newer generation and do nothing.
func (p *Panel) OnDismount() {
	if p.release != nil {
		p.release()
		p.release = nil
	}
	p.stop(errCancelled)
}

// stop ends the running read, if any.
func (p *Panel) stop(end error) {
	p.gen++
	p.reading, p.readingB, p.pass = false, false, 0
	if p.run != nil {
		p.run.stop(end)
		p.run = nil
	}
}

func (p *Panel) onPick(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("reading the chosen measurements")
	input := ctx.JSSrc()
	files := browser.FilesOf(input)
	browser.ClearFileInput(input)
	if len(files) > 0 {
		p.onFiles(ctx, files)
	}
}

func (p *Panel) onCancel(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("cancelling the read")
	if !p.reading {
		return
	}
	p.stop(errCancelled)
	p.cancelled, p.err = true, ""
}

// fail ends a read with a message; what was shown stays.
func (p *Panel) fail(msg string) {
	p.stop(errCancelled)
	p.err, p.cancelled = msg, false
}

// onPickB reads the chosen file as the second run.
func (p *Panel) onPickB(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("reading the run to compare with")
	input := ctx.JSSrc()
	files := browser.FilesOf(input)
	browser.ClearFileInput(input)
	if len(files) == 0 || p.snap == nil {
		return
	}
	p.stop(errCancelled)
	p.err, p.cancelled, p.status = "", false, ""
	gen := p.gen
	name, size := browser.FileInfo(files[0])
	p.source = name
	if err := checkSnapshotSize(size); err != nil {
		p.err = name + ": " + err.Error() + " The first run stays as it was."
		return
	}
	p.reading, p.readingB, p.size, p.read = true, true, size, 0
	browser.ReadSlice(ctx, files[0], 0, min(size, sliceBytes), func(ctx app.Context, head []byte, err error) {
		defer p.Sink.Catch("reading " + name)
		if gen != p.gen {
			return
		}
		if err != nil {
			p.fail(name + " could not be read: " + err.Error() + ". The first run stays as it was.")
			return
		}
		if looksLikeReport(head) {
			p.fail(name + " is a planner-miss report, not a snapshot: a run is compared with another run's snapshot. The first run stays as it was.")
			return
		}
		p.readSnapshot(ctx, gen, files[0], name, head)
	})
}

// onFiles starts reading dropped or picked files: one snapshot, or one
// or more planner-miss reports.
func (p *Panel) onFiles(ctx app.Context, files []app.Value) {
	defer p.Sink.Catch("reading the measurements")
	p.stop(errCancelled)
	p.err, p.cancelled, p.status = "", false, ""
	gen := p.gen
	names := make([]string, len(files))
	for i, f := range files {
		names[i], _ = browser.FileInfo(f)
	}
	p.source = strings.Join(names, ", ")
	if len(files) > 1 {
		p.readReports(ctx, gen, files, names)
		return
	}
	name, size := browser.FileInfo(files[0])
	if err := checkSnapshotSize(size); err != nil {
		p.err = name + ": " + err.Error()
		return
	}
	p.reading, p.size, p.read = true, size, 0
	browser.ReadSlice(ctx, files[0], 0, min(size, sliceBytes), func(ctx app.Context, head []byte, err error) {
		defer p.Sink.Catch("reading " + name)
		if gen != p.gen {
			return
		}
		if err != nil {
			p.fail(name + " could not be read: " + err.Error() + ".")
			return
		}
		if looksLikeReport(head) {
			p.reading = false
			p.readReports(ctx, gen, files, names)
			return
		}
		p.readSnapshot(ctx, gen, files[0], name, head)
	})
}

// readSnapshot reads the snapshot in two passes (measure.AnalyzeStream),
// its reader in a goroutine of its own, and shows what it makes of it:
// the first run, or the second (readingB) set beside the first. Each pass
// has a feed of its own, fed from the file's first byte (the first pass
// from head on); the reader opens the second from its goroutine, so the
// UI goroutine starts feeding it in a Dispatch. A pass that opens after
// the read was stopped starts closed (snapshotRead), so its reader ends
// at once, whether or not the Dispatch runs.
func (p *Panel) readSnapshot(ctx app.Context, gen int, file app.Value, name string, head []byte) {
	run := &snapshotRead{}
	first := run.open()
	p.run, p.pass = run, 1
	forB := p.readingB
	go func() {
		opened := 0
		open := func(pass int) (io.Reader, error) {
			opened++
			if opened == 1 && pass == 1 {
				return first, nil
			}
			feed := run.open()
			ctx.Dispatch(func(ctx app.Context) {
				defer p.Sink.Catch("reading " + name)
				if gen != p.gen {
					return // stopped: run.stop closed the feed
				}
				p.pass, p.read = pass, 0
				p.feedFrom(ctx, gen, pass, file, name, feed, nil)
			})
			return feed, nil
		}
		res, err := readSnapshot(name, open)
		run.done()
		ctx.Dispatch(func(ctx app.Context) {
			defer p.Sink.Catch("showing the snapshot " + name)
			if gen != p.gen {
				return
			}
			p.reading, p.readingB, p.run, p.pass = false, false, nil, 0
			if err != nil {
				p.err = name + " is not a snapshot the page reads: " + err.Error() + ". Nothing changed."
				return
			}
			if forB {
				if p.snap == nil {
					return
				}
				p.snapB, p.runs = res, compareRuns(p.snap, res)
				return
			}
			p.snap, p.reports, p.viewFor = res, nil, viewKey{}
			p.snapB, p.runs = nil, nil
		})
	}()
	p.feedFrom(ctx, gen, 1, file, name, first, head)
}

// feedFrom pushes the file's slices to feed, from head (already read) or
// from the first byte, a slice per browser task, until the file ends,
// the reader stops or the read does.
func (p *Panel) feedFrom(ctx app.Context, gen, pass int, file app.Value, name string, feed *sliceFeed, head []byte) {
	var next func(ctx app.Context, data []byte, err error)
	next = func(ctx app.Context, data []byte, err error) {
		defer p.Sink.Catch("reading " + name)
		if gen != p.gen || pass != p.pass {
			return
		}
		if err != nil {
			feed.close(err)
			p.fail(name + " could not be read: " + err.Error() + ". Nothing changed.")
			return
		}
		p.read += int64(len(data))
		if !feed.push(data) {
			return // the reader stopped: its result, or its next pass, says why
		}
		if p.read >= p.size || len(data) == 0 {
			feed.close(io.EOF)
			return
		}
		browser.ReadSlice(ctx, file, p.read, min(p.size, p.read+sliceBytes), next)
	}
	if head != nil {
		next(ctx, head, nil)
		return
	}
	browser.ReadSlice(ctx, file, 0, min(p.size, sliceBytes), next)
}

// readReports reads every file whole as a planner-miss report and
// imports them together.
func (p *Panel) readReports(ctx app.Context, gen int, files []app.Value, names []string) {
	raws := make([][]byte, len(files))
	p.reading, p.size, p.read = true, 0, 0
	for _, f := range files {
		name, size := browser.FileInfo(f)
		if size > measure.MaxReportBytes {
			p.fail(name + ": " + estimator.Group(size) + " bytes, more than the " + estimator.Group(measure.MaxReportBytes) +
				" of a planner-miss report (several files are read as reports; drop a snapshot alone). Nothing changed.")
			return
		}
		p.size += size
	}
	var readFile func(ctx app.Context, i int)
	readFile = func(ctx app.Context, i int) {
		if i == len(files) {
			p.reading = false
			imp, err := importReports(names, raws, p.Config.Budget.InUseBytes)
			if err != nil {
				p.err = "The reports were not imported: " + err.Error() + ". Nothing changed."
				return
			}
			p.reports, p.snap, p.viewFor = imp, nil, viewKey{}
			p.snapB, p.runs = nil, nil
			return
		}
		_, size := browser.FileInfo(files[i])
		browser.ReadSlice(ctx, files[i], 0, size, func(ctx app.Context, data []byte, err error) {
			defer p.Sink.Catch("reading " + names[i])
			if gen != p.gen {
				return
			}
			if err != nil {
				p.fail(names[i] + " could not be read: " + err.Error() + ". Nothing changed.")
				return
			}
			raws[i] = data
			p.read += int64(len(data))
			readFile(ctx, i+1)
		})
	}
	readFile(ctx, 0)
}

// deviceViews are the snapshot's views for the config shown, made again
// only when the config or the snapshot changed.
func (p *Panel) deviceViews() []deviceView {
	if p.snap == nil {
		return nil
	}
	if f := &p.viewFor; !f.ok || f.ready != p.Ready || !f.cfg.Equal(p.Config) {
		p.viewFor = viewKey{ok: true, cfg: p.Config.Clone(), ready: p.Ready}
		p.views = snapshotViews(p.snap, p.Config, p.Ready)
	}
	return p.views
}

// viewKey is what a snapshot's views depend on besides the snapshot: the
// config (compared with Config.Equal) and whether it is ready.
type viewKey struct {
	ok    bool
	cfg   estimator.Config
	ready bool
}

// points are the observed points the measurement gives.
func (p *Panel) points() []estimator.ObservedPoint {
	if p.reports != nil {
		return p.reports.Points
	}
	var pts []estimator.ObservedPoint
	for _, v := range p.deviceViews() {
		pts = append(pts, v.Points...)
	}
	return pts
}

// profile is the learned profile the measurement gives.
func (p *Panel) profile() *measure.LearnedProfile {
	if p.reports != nil {
		return p.reports.Profile
	}
	return profileOfPoints(p.points(), p.Config.Budget.InUseBytes)
}

func (p *Panel) onUsePoints(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("using the measured points")
	pts := p.points()
	if len(pts) == 0 {
		return
	}
	if len(pts) > estimator.MaxObserved {
		pts = pts[:estimator.MaxObserved]
	}
	p.failed, p.status = false, "The "+strconv.Itoa(len(pts))+" measured points replace the box's points above; the table compares them with both revisions."
	p.Sink.Send(ctx, page.Edit{For: page.ForObserved, Kind: page.EditObserved, Key: page.KeyObserved, Text: estimator.FormatObserved(pts), Settle: true})
}

func (p *Panel) onUseProfile(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("using the learned profile")
	text := profileJSON(p.profile())
	if text == "" {
		return
	}
	switchArt := !page.UsesArt(p.Config)
	if _, err := page.WithProfileMemory(p.Config, text, switchArt); err != nil {
		p.failed, p.status = true, "The learned profile was not applied: "+err.Error()+"."
		return
	}
	p.failed, p.status = false, "The config's profile_memory is now "+text+": the decisions are ART's warm admission."
	if switchArt {
		p.status += ` The trainer was switched to ART ("profile": "art").`
	}
	p.Sink.Send(ctx, page.Edit{For: page.ForObserved, Kind: page.EditProfile, Text: text, On: switchArt, Settle: true})
}
