//go:build !wasm

package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"headroom/app/server/servertest"
)

// TestPrerenderBudget: a query within the budget reaches the page as it
// is (made inert); one over it, by values or by bytes, reaches it as its
// keys alone, each holding the marker every field refuses.
func TestPrerenderBudget(t *testing.T) {
	get := func(rawQuery string) url.Values {
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.RawQuery = rawQuery
		q, err := url.ParseQuery(prerenderRequest(r).URL.RawQuery)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	link := "rows=64902&" + strings.Repeat("obs=64902~94780217856~cold&", 64) + "term=a~b~c"
	if q := get(link); len(q["obs"]) != 64 || q.Get("rows") != "64902" {
		t.Errorf("a link of the page's size was cut: %d points, rows %q", len(q["obs"]), q.Get("rows"))
	}
	for name, flood := range map[string]string{
		"values": "rows=5&" + strings.Repeat("obs=~&", 5000),
		"bytes":  "rows=5&obs=1~2~" + strings.Repeat("x", 30000),
	} {
		q := get(flood)
		if len(q) != 2 || len(q["obs"]) != 1 || q.Get("obs") != overBudgetValue || q.Get("rows") != overBudgetValue {
			t.Errorf("%s: the prerender sees %d keys (%.200s), want rows and obs holding the marker", name, len(q), q.Encode())
		}
	}
	var many []string
	for i := range 1000 {
		many = append(many, fmt.Sprintf("k%04d=1", i))
	}
	if q := get(strings.Join(many, "&")); len(q) != maxPrerenderKeys {
		t.Errorf("1,000 keys over the budget: the prerender sees %d, want %d", len(q), maxPrerenderKeys)
	}
}

// TestPrerenderConcurrencyLimit: with every prerender slot taken, a
// request for the page waits prerenderWait and is answered 503 with
// Retry-After; the web files are not limited; once a slot frees, the
// page is served again.
func TestPrerenderConcurrencyLimit(t *testing.T) {
	web, _ := servertest.Web(t)
	s, err := New(web, testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if cap(s.prerenders) < 4 {
		t.Fatalf("%d prerenders at once, want at least 4", cap(s.prerenders))
	}
	s.prerenderWait = 50 * time.Millisecond
	for range cap(s.prerenders) {
		s.prerenders <- struct{}{}
	}
	serve := func(target string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		return w
	}
	start := time.Now()
	w := serve("/?rows=5")
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("page with every slot taken: status %d, Retry-After %q; want 503 with Retry-After", w.Code, w.Header().Get("Retry-After"))
	}
	if d := time.Since(start); d < s.prerenderWait {
		t.Errorf("answered 503 after %v, before waiting %v for a slot", d, s.prerenderWait)
	}
	if w := serve("/web/app.css"); w.Code != http.StatusOK {
		t.Errorf("a web file with every slot taken: status %d", w.Code)
	}
	<-s.prerenders
	if w := serve("/?rows=5"); w.Code != http.StatusOK {
		t.Errorf("page with a slot free: status %d", w.Code)
	}
	if len(s.prerenders) != cap(s.prerenders)-1 {
		t.Errorf("%d slots taken after the page, want %d (the slot is given back)", len(s.prerenders), cap(s.prerenders)-1)
	}
}

// TestServePageNoHostInOgURL: the served page names no preview URL, so a
// Host header the client chose never reaches it.
func TestServePageNoHostInOgURL(t *testing.T) {
	web, _ := servertest.Web(t)
	s, err := New(web, testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// go-app writes attributes in map order: ask often enough to see
	// both orders of the tag's two.
	for range 20 {
		r := httptest.NewRequest("GET", "/?rows=5", nil)
		r.Host = "attacker.example"
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		body := w.Body.String()
		if w.Code != http.StatusOK || strings.Contains(body, "attacker.example") || strings.Contains(body, "og:url") {
			t.Fatalf("status %d; the page names the Host or an og:url:\n%.2000s", w.Code, body)
		}
		if !strings.Contains(body, `"og:title"`) {
			t.Fatalf("the page lost its other preview tags")
		}
		if got := w.Header().Get("Content-Length"); got != strconv.Itoa(len(body)) {
			t.Fatalf("Content-Length %s, body %d bytes", got, len(body))
		}
	}
}
