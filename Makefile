# Headroom. `make run` serves the explorer; `make test` runs every test.
GO      ?= go
ADDR    ?= 127.0.0.1:8000
BIN     := bin/headroom
WASM    := web/app.wasm
# Browser build: see BENCHMARKS.md for what these flags save on the wire.
# minimal is gonum/plot's tag: plot stops linking every vg backend (eps,
# pdf, tex) just to register them; the chart imports the two it uses.
WASM_TAGS    ?= minimal
WASM_LDFLAGS ?= -s -w
# -trimpath: the binaries name source files by module path, not by where
# the build machine keeps them (app.wasm is public; the paths are not).
TRIMPATH     ?= -trimpath

.PHONY: run build wasm wasm-size floor web-assets test vet race chromium axe brotli screenshot loadcheck bench bench-side bench-profile bench-measure bench-measure-page fuzz clean

run: web-assets wasm build
	@echo "make run: starting $(BIN) serve; bin/headroom -h lists the other commands"
	$(BIN) serve -addr $(ADDR)

build:
	@echo "make build: building $(BIN), the server and command line"
	$(GO) build $(TRIMPATH) -o $(BIN) ./app

# wasm: the browser build, plus the gzip and brotli copies that `serve`
# sends to browsers accepting them (Content-Encoding). The copies are
# redone only when app.wasm's bytes change: brotli -q 11 takes about 30 s
# on two cores (BROTLI_QUALITY=5 takes 3 s and is about 15% larger). serve
# skips a copy older than app.wasm, so the copies get the build's exact
# time, and app.wasm moves in first: until its copies follow, they are
# older and skipped, never sent for the wrong build.
BROTLI_QUALITY ?= 11
wasm: web-assets brotli
	@mkdir -p bin
	@echo "make wasm: building web/app.wasm, the page's Go for the browser (a minute or two on two cores; nothing prints meanwhile)"
	GOOS=js GOARCH=wasm $(GO) build $(TRIMPATH) -tags "$(WASM_TAGS)" -ldflags "$(WASM_LDFLAGS)" -o bin/app.wasm.new ./app
	@if cmp -s bin/app.wasm.new $(WASM) && [ -f $(WASM).gz ] && ! [ $(WASM) -nt $(WASM).gz ] \
	    && { ! command -v brotli >/dev/null 2>&1 || { [ -f $(WASM).br ] && ! [ $(WASM) -nt $(WASM).br ]; }; }; then \
	  rm -f bin/app.wasm.new; echo "$(WASM) unchanged: keeping its compressed copies"; \
	else \
	  rm -f bin/app.wasm.new.gz bin/app.wasm.new.br && \
	  echo "make wasm: compressing app.wasm with gzip -9 (a few seconds)" && \
	  gzip -9 -n -k bin/app.wasm.new && touch -r bin/app.wasm.new bin/app.wasm.new.gz && \
	  if command -v brotli >/dev/null 2>&1; then \
	    echo "make wasm: compressing app.wasm with brotli -q $(BROTLI_QUALITY) (about 30 s at 11 on two cores; BROTLI_QUALITY=5 takes 3 s)" && \
	    brotli -q $(BROTLI_QUALITY) -k bin/app.wasm.new && touch -r bin/app.wasm.new bin/app.wasm.new.br; fi && \
	  mv -f bin/app.wasm.new $(WASM) && mv -f bin/app.wasm.new.gz $(WASM).gz && \
	  if [ -f bin/app.wasm.new.br ]; then mv -f bin/app.wasm.new.br $(WASM).br; else rm -f $(WASM).br; fi && \
	  ls -l $(WASM) $(WASM).gz $$(ls $(WASM).br 2>/dev/null); \
	fi

# wasm-size: what app.wasm is made of, by Go package (BENCHMARKS.md,
# "Round 3 (issue 29): bytes"). The browser build again, as make wasm
# builds it but keeping the name section (no -s), in bin/app-names.wasm;
# its function bodies are summed by package, the data segments (fonts
# found among them) and the other sections on lines of their own.
WASM_SIZE_TOP ?= 25
wasm-size:
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(GO) build $(TRIMPATH) -tags "$(WASM_TAGS)" -ldflags "-w" -o bin/app-names.wasm ./app
	GOOS=js GOARCH=wasm $(GO) list -deps -tags "$(WASM_TAGS)" ./app > bin/app-names.pkgs
	$(GO) run ./internal/tools/wasmsize -pkgs bin/app-names.pkgs -top $(WASM_SIZE_TOP) bin/app-names.wasm

# floor: go-app's smallest page (internal/tools/floor), built as make wasm
# builds app.wasm (same toolchain, tags and flags) into bin/floor.wasm and
# compressed as it compresses it (brotli -q 11) into bin/floor.wasm.br:
# make bench prints app.wasm's brotli bytes, and a first visit's, over it.
floor: brotli
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(GO) build $(TRIMPATH) -tags "$(WASM_TAGS)" -ldflags "$(WASM_LDFLAGS)" -o bin/floor.wasm.new ./internal/tools/floor
	@if cmp -s bin/floor.wasm.new bin/floor.wasm && [ -f bin/floor.wasm.br ] && ! [ bin/floor.wasm -nt bin/floor.wasm.br ]; then \
	  rm -f bin/floor.wasm.new; echo "bin/floor.wasm unchanged: keeping its brotli copy"; \
	else \
	  mv -f bin/floor.wasm.new bin/floor.wasm && rm -f bin/floor.wasm.br && \
	  echo "make floor: compressing bin/floor.wasm with brotli -q $(BROTLI_QUALITY)" && \
	  brotli -q $(BROTLI_QUALITY) -k bin/floor.wasm && ls -l bin/floor.wasm bin/floor.wasm.br; \
	fi

# bench-measure: measure -snapshot on generated snapshots of
# BENCH_MEASURE_SIZES MiB (the repository's generator, measure/snapgen),
# this build beside BENCH_MEASURE_BASE's (the last commit with the
# decoder that built the whole object tree; up to 200 MiB, since it holds
# 15-20 times the file) and Python's pickle.load, interleaved: CPU seconds,
# MB per CPU second, peak RSS, and the medians (BENCHMARKS.md).
BENCH_MEASURE_BASE  ?= e8c1f0d
BENCH_MEASURE_SIZES ?= 100,1024
bench-measure: build
	@rm -rf bin/bench-base && mkdir -p bin/bench-base
	git archive $(BENCH_MEASURE_BASE) | tar -x -C bin/bench-base
	cd bin/bench-base && $(GO) build -o ../headroom-base ./app
	$(GO) run ./internal/tools/benchmeasure -new $(BIN) -base bin/headroom-base -sizes $(BENCH_MEASURE_SIZES)

# bench-measure-page: the same generated snapshots (BENCH_MEASURE_SIZES
# MiB, written once into bin/bench-measure) read on the page in headless
# Chromium, each in a fresh tab of the build make wasm leaves in web/:
# seconds, MB/s, the WebAssembly memory after the read (the Go heap's
# peak: it never shrinks), and the longest main-thread task and frame gap
# while it read (TestBenchMeasurePage, app/e2e/bench_measure_page_test.go).
BENCH_MEASURE_PAGE_RUNS ?= 1
bench-measure-page: chromium wasm
	$(GO) test -count=1 -tags bench -run '^TestBenchMeasurePage$$' -timeout 120m -v ./app/e2e -args \
	  -bench.pagesizes=$(BENCH_MEASURE_SIZES) -bench.pageruns=$(BENCH_MEASURE_PAGE_RUNS)

# web-assets: what the page loads besides app.wasm and web/headroom.css,
# copied from assets/, and the contract the page cites, docs/model.md, as
# text a browser shows (the copies are committed, so a checkout serves as
# it is; app/ui/assets_test.go checks they match their sources).
web-assets:
	@mkdir -p web/icons web/seeds web/docs
	cp assets/icons/icon.svg assets/icons/icon-192.png assets/icons/icon-512.png web/icons/
	cp assets/seeds/*.txt web/seeds/
	cp docs/model.md web/docs/model.txt

# brotli: `make wasm` uses Debian's brotli command; install it when it is
# missing and we are root (CI is). Without it, serve sends gzip.
brotli:
	@if ! command -v brotli >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing brotli (Debian package)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq brotli >/dev/null; \
	  else \
	    echo "brotli is missing and this is not root: make wasm writes only app.wasm.gz"; \
	  fi; \
	fi

# screenshot: docs/screenshot.png for the README, 1280x800, and
# docs/path-390.png, path-1280.png, path-1920.png (a new user's path at
# three widths), taken by the browser tests from a fresh build.
screenshot: chromium
	HEADROOM_SCREENSHOT=1 $(GO) test -count=1 -run 'TestE2EScreenshot' -v ./app/e2e

# loadcheck: the full 20 s load check of serve (make test runs 3 s of it).
loadcheck: wasm
	$(GO) test -count=1 -run 'TestLoadCheck' -v ./app/e2e -args -loadcheck.duration=20s

# chromium: the browser tests need Debian's chromium; install it when it is
# missing and we are root (CI is). Without root, the tests say what is
# missing (and fail under CI=true).
chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing chromium (Debian package)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "chromium is missing and this is not root: browser tests will skip (or fail under CI=true)"; \
	  fi; \
	fi

# axe: the browser tests' accessibility check injects axe-core (the npm
# package, pinned) from bin/node_modules; installed when missing. npm comes
# with Debian's npm package, which this installs when it is missing and we
# are root (CI is). The page itself never loads it.
AXE_VERSION ?= 4.10.3
axe:
	@if [ ! -f bin/node_modules/axe-core/axe.min.js ]; then \
	  if ! command -v npm >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing npm (Debian package)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; \
	  fi; \
	  if command -v npm >/dev/null 2>&1; then \
	    mkdir -p bin && npm install --prefix bin --no-save --no-audit --no-fund --loglevel=error axe-core@$(AXE_VERSION); \
	  else \
	    echo "npm is missing and this is not root: the accessibility test will skip (or fail under CI=true)"; \
	  fi; \
	fi

# vet: every package natively; the bench-tagged files (make bench's),
# which no other target compiles; and every package of app/ as the
# browser builds it, so the _wasm.go files are vetted too.
vet:
	$(GO) vet ./...
	$(GO) vet -tags bench ./app/...
	GOOS=js GOARCH=wasm $(GO) vet ./app/...

# race: the tests of every package but app/e2e (whose tests drive the
# browser) under the race detector, in -short. It needs web/app.wasm (the
# server's tests read the build), so it builds it first. About 5 minutes
# summed package by package at a load of 8 to 16, mostly the race builds
# (the estimator's 80 s the largest; app/ui's 220 s before its overflow
# test opened the link it means, 35 s since).
race: wasm
	$(GO) test -race -short -count=1 $$($(GO) list ./... | grep -v -x 'headroom/app/e2e')

# SHORT_PKGS: the packages whose tests consult testing.Short() (the
# estimator's and the term language's property counts, the browser tests,
# which -short skips). Every other package's tests run the same with and
# without -short, so the race run above is their run, and make test runs
# only these again without -short (it ran every package twice: the
# second run of the others cost about 40 s at a load near 8).
# third_party holds other modules, tested by their module paths below.
SHORT_PKGS = $(sort $(dir $(shell grep -rl --include='*.go' --exclude-dir=bin --exclude-dir=web --exclude-dir=third_party 'testing.Short()' .)))

# test: every test, then the browser tests that act on the page again
# with Chromium's CPU slowed 4x (a test that waits for time rather than for
# its condition fails one of the two runs). TestE2EMonkey takes MONKEY_ACTIONS random
# actions with a fresh seed, printed; replay one with
#   go test -run 'TestE2EMonkey$$' -v ./app/e2e -args -monkey.seed=N -monkey.actions=M
MONKEY_ACTIONS ?= 300
# The slowed run is for the tests that act on the page once it is up
# (type, slide, pick, drop, point, go back): a slowed page is where an
# action lands mid-render. It leaves out the monkey (it ran above) and the
# tests that only load the page, or open a link, and read what the settled
# page shows: offline, static site, wasm_exec, the service worker's update
# to a new build (SLOW_SKIP_LOAD); the page's ids, the layouts at three
# widths, the chart's labels, links restored or refused, and axe-core's
# scans, which read a settled page and are the slowed run's largest part
# (SLOW_SKIP_READ: 2.5 of its minutes at a load near 17); and the
# snapshot past the page's old limit (SLOW_SKIP_SIZE), which reads 274 MB
# twice and tests the size the page takes, not an action mid-render: at a
# quarter of the CPU it was 3.5 of the slowed run's 10 minutes.
SLOW_SKIP_LOAD := TestE2EOffline|TestE2EStaticSite|TestE2EWasmExec|TestE2EDetectsWasmExec|TestE2EServiceWorker
SLOW_SKIP_READ := TestE2EAxe$$|TestE2EObservedPeaks/axe$$|TestE2EPageLoads$$|TestE2EPhoneLayout$$|TestE2EWideLayout$$|TestE2EPhoneFrictions$$|TestE2EObservedTableFits$$|TestE2EChartLabelsApart$$|TestE2ESharedURLRestoresFields$$|TestE2EBadURLValue$$|TestE2ETermsBadLink$$|TestE2EOverflowLinkSaysWhatToFix$$
SLOW_SKIP_SIZE := TestE2EMeasuredPastOldLimit$$
SLOW_SKIP := TestE2EMonkey$$|$(SLOW_SKIP_LOAD)|$(SLOW_SKIP_READ)|$(SLOW_SKIP_SIZE)
# The browser tests serve the app.wasm make wasm has just built
# (HEADROOM_E2E_WASM) rather than build and compress their own in each of
# the three runs.
E2E_WASM := HEADROOM_E2E_WASM=$(CURDIR)/$(WASM)
test: chromium axe vet wasm race
	@if ! $(GO) mod tidy -diff >/dev/null; then echo "go.mod or go.sum is not tidy (go mod tidy -diff):"; $(GO) mod tidy -diff; exit 1; fi
	$(E2E_WASM) $(GO) test -count=1 -timeout 20m -skip 'TestE2EMonkey$$' $(SHORT_PKGS) codeberg.org/go-fonts/liberation/... codeberg.org/go-latex/latex/...
	$(E2E_WASM) $(GO) test -count=1 -timeout 20m -run 'TestE2EMonkey$$' -v ./app/e2e -args -monkey.actions=$(MONKEY_ACTIONS)
	$(E2E_WASM) $(GO) test -count=1 -timeout 20m -run 'TestE2E' -skip "$(SLOW_SKIP)" ./app/e2e -args -e2e.cputhrottle=4

# bench: the figures of BENCHMARKS.md; not part of make test, and it
# asserts no time. The Go benchmarks (the estimator's sweep natively and in
# WebAssembly under Node, the chart's SVG render natively), then the
# explorer as make wasm built it, served in-process to headless Chromium:
# 200 slider inputs timed to the DOM, 10 cold loads (interactive, and the
# chart and controls first painted), app.wasm's bytes on the wire, every
# byte of a first visit (the service worker's included); a returning
# visit's time to interactive, served by the service worker; then the replay
# of a million-line workload; app.wasm's brotli bytes over go-app's
# floor (make floor). When the peer's folder (PEER: its static site and
# the serve.py that serves it) exists, the side-by-side run last: the peer
# served by its serve.py on a free loopback port, Headroom as serve serves
# it, both measured by one harness, interleaved, each figure printed with
# its ratio (TestBenchSide in app/e2e/bench_side_test.go; BENCHMARKS.md
# says what each figure means on each page). It ends with one line per
# figure, "name: value unit", then the side-by-side table (also in
# bin/bench.txt). About four minutes on two cores; see BENCHMARKS.md.
PEER ?= ../shared/peer
bench: chromium wasm floor
	@mkdir -p bin
	$(GO) test -count=1 -tags bench -run '^TestBench$$' -timeout 15m -v ./app/e2e -args -bench.out=$(CURDIR)/bin/bench.txt
	$(GO) test -count=1 -tags bench -run '^TestBenchSecondVisit$$' -timeout 10m -v ./app/e2e -args -bench.out=$(CURDIR)/bin/bench.txt
	$(GO) test -count=1 -tags bench -run '^TestBenchReplay$$' -timeout 5m -v ./app/e2e -args -bench.out=$(CURDIR)/bin/bench.txt
	$(GO) test -count=1 -tags bench -run '^TestBenchFloor$$' -timeout 5m -v ./app/e2e -args -bench.out=$(CURDIR)/bin/bench.txt -bench.floor=$(CURDIR)/bin/floor.wasm.br
	@if [ -f "$(PEER)/serve.py" ]; then \
	  $(GO) test -count=1 -tags bench -run '^TestBenchSide$$' -timeout 20m -v ./app/e2e -args -bench.out=$(CURDIR)/bin/bench.txt \
	    -bench.peer=$(abspath $(PEER)) -bench.floor=$(CURDIR)/bin/floor.wasm.br; \
	else echo "make bench: no peer at $(PEER) (PEER=DIR names it): Headroom alone"; fi
	@echo; cat bin/bench.txt

# bench-side: the side-by-side run alone (make bench's last step; PEER
# must name the peer's folder).
bench-side: chromium wasm floor
	@mkdir -p bin
	$(GO) test -count=1 -tags bench -run '^TestBenchSide$$' -timeout 20m -v ./app/e2e -args \
	  -bench.peer=$(abspath $(PEER)) -bench.floor=$(CURDIR)/bin/floor.wasm.br

# bench-profile: where a slider input's and a cold load's time goes, from
# V8's profiler in the same browser run (app.wasm built with its function
# names): bin/bench-profile.txt, and .cpuprofile files beside it that
# Chrome's DevTools open.
bench-profile: chromium web-assets
	@mkdir -p bin
	$(GO) test -count=1 -tags bench -run '^TestBenchProfile$$' -timeout 15m -v ./app/e2e -args -bench.profile=$(CURDIR)/bin/bench-profile.txt

# fuzz runs every fuzz target of every package for FUZZTIME each (go test
# runs one target per invocation). A failing target does not stop the
# others: the failures are listed at the end, and make fails. A crasher
# lands in testdata/fuzz/ and becomes a regression case of the plain test
# run: commit it with the fix. FUZZPKGS narrows the packages.
FUZZTIME ?= 60s
FUZZPKGS ?= ./...
fuzz:
	@failed=""; for pkg in $$($(GO) list $(FUZZPKGS)); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$target ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg || failed="$$failed $$pkg:$$target"; \
	  done; \
	done; \
	if [ -n "$$failed" ]; then echo "make fuzz: these targets failed:$$failed"; exit 1; fi; \
	echo "make fuzz: every target passed"

clean:
	rm -rf bin $(WASM) $(WASM).gz $(WASM).br
