module headroom

go 1.26.8

require (
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/maxence-charriere/go-app/v9 v9.8.0
	golang.org/x/image v0.30.0
	gonum.org/v1/plot v0.17.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/google/uuid v1.3.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)

// The chart draws one Liberation face; gonum/plot registers all twelve at
// init. This copy keeps Liberation Sans Regular and aliases the other
// eleven to it (third_party/liberation/README.md; BENCHMARKS.md).
replace codeberg.org/go-fonts/liberation => ./third_party/liberation

// gonum/plot's text package holds a LaTeX handler Headroom never uses,
// whose go-latex dependency parses four Go fonts at start-up. This
// stand-in has the names gonum refers to and no LaTeX
// (third_party/go-latex/README.md; BENCHMARKS.md).
replace codeberg.org/go-latex/latex => ./third_party/go-latex
