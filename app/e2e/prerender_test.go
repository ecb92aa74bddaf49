//go:build !wasm

package e2e

// The prerender's injection tests need both layers: app/server cleans the
// request (its prerenderRequest) and the explorer (app/ui) is the page
// that reflects the query into attributes. So they live here, beside the
// browser tests, where main wires the two; app/server's own tests use a
// page of their own and never import the explorer.

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"headroom/app/server"
	"headroom/app/server/servertest"
)

// reflectedKeys are the query keys whose text the page shows back in a
// field (the thirteen), then the menus and the switches.
var reflectedKeys = []string{
	"rows", "vocab_size", "chunk_rows", "num_experts_per_tok", "input_width",
	"output_width", "hidden_size", "sequence_rows", "capacity_bytes",
	"in_use_bytes", "in_use_gib", "from", "to",
	"preset", "gpu", "axis",
	"head_eager_workspace", "fc2_known_storage", "gdn_early_release",
}

// injectionPayloads are texts a crafted link puts in a value: quotes of
// both kinds, angle brackets, ampersands, backticks, backslashes, line
// breaks, NUL, unicode (a line separator, a BOM, an emoji, fullwidth
// brackets), invalid UTF-8, and the markup the security probe used.
var injectionPayloads = []string{
	`"><img src=x onerror=alert(1)>`,
	`"><meta http-equiv=refresh content=0;url=https://example.org/>`,
	`'><svg onload=alert(1)>`,
	`" autofocus onfocus="alert(1)`,
	`\"><b>x</b>`,
	`\\"x`,
	"`><b>`",
	`&quot;><b>&lt;b&gt;&amp;`,
	`</textarea><b>x</b>`,
	`<!--`,
	"a\nb\r\nc\td\x00e\x0bf",
	"\u2028\u2029\ufeff日本語😀＂＞＜",
	"\xff\xfe\"<",
	`%22%3E%3Cb%3E`,
	`1"2`,
}

// prerender returns the page serve prerenders for the raw query.
func prerender(t testing.TB, s *server.Server, rawQuery string) string {
	t.Helper()
	r := httptest.NewRequest("GET", "/", nil)
	r.URL.RawQuery = rawQuery
	r.RequestURI = "/?" + rawQuery
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("GET /?%s: status %d", rawQuery, w.Code)
	}
	body, _ := io.ReadAll(w.Result().Body)
	return string(body)
}

// newPrerenderServer is serve's handler on a test web directory.
func newPrerenderServer(t testing.TB) *server.Server {
	t.Helper()
	s, err := server.New(t.TempDir(), testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// sameMarkup reports how the tags of got differ from those of want: an
// element or an end tag more or less, or an attribute name that want's
// element lacks (the boolean attributes checked, selected, disabled and
// open may come and go with the state). "" when they agree.
func sameMarkup(want, got string) string {
	w, g := tokenizeHTML(want), tokenizeHTML(got)
	for i := 0; i < len(w) || i < len(g); i++ {
		if i >= len(w) {
			return fmt.Sprintf("extra tag %d: %s", i, g[i])
		}
		if i >= len(g) {
			return fmt.Sprintf("tag %d missing: %s", i, w[i])
		}
		if w[i].name != g[i].name || w[i].end != g[i].end {
			return fmt.Sprintf("tag %d is %s, want %s", i, g[i], w[i])
		}
		for _, a := range g[i].attrs {
			switch a {
			case "checked", "selected", "disabled", "open":
				continue
			}
			if !slices.Contains(w[i].attrs, a) {
				return fmt.Sprintf("tag %d %s has attribute %q, want only those of %s", i, g[i], a, w[i])
			}
		}
	}
	return ""
}

// TestPrerenderNoInjection sends every key the page reflects with every
// payload, percent-encoded as a browser sends a link and raw as curl
// does, and checks the prerendered page has exactly the elements and
// attributes of the same page with a plain bad value ("x").
func TestPrerenderNoInjection(t *testing.T) {
	s := newPrerenderServer(t)
	// A raw payload with a ';' does not parse (net/url drops the pair):
	// its page is the default one.
	plain := prerender(t, s, "")
	for _, key := range reflectedKeys {
		base := prerender(t, s, url.Values{key: {"x"}}.Encode())
		for i, p := range injectionPayloads {
			for _, raw := range []bool{false, true} {
				q := url.Values{key: {p}}.Encode()
				name := fmt.Sprintf("%s/payload%d", key, i)
				if raw {
					// As the bytes arrive from a client that does not
					// percent-encode (only '&', '#', '+', '%' and space must be).
					q = key + "=" + strings.NewReplacer("%", "%25", "&", "%26", "#", "%23", "+", "%2B", " ", "%20").Replace(p)
					name += "/raw"
				}
				t.Run(name, func(t *testing.T) {
					page := prerender(t, s, q)
					if d := attrHoldsEscape(page); d != "" {
						t.Errorf("?%s: %s", q, d)
					}
					if d := sameMarkup(base, page); d != "" {
						if d2 := sameMarkup(plain, page); d2 != "" || !strings.Contains(p, ";") {
							t.Errorf("?%s: %s (against the default page: %s)", q, d, d2)
						}
					}
				})
			}
		}
	}
}

// TestPrerenderNoInjectionOverHTTP sends the probe's own request line
// (an unencoded quote and angle brackets in the query) to a real server.
func TestPrerenderNoInjectionOverHTTP(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	// Each against the page of the same state with a plain bad value (the
	// page is drawn for its state, results included): the pair with a
	// ';' does not parse (net/url), so that page is the default one.
	for _, c := range []struct{ target, same string }{
		{`/?vocab_size=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E`, "/?vocab_size=x"},
		{`/?rows="><meta%20http-equiv=refresh%20content=0;url=https://example.org/>`, "/"},
		{`/?vocab_size="><b>x</b>`, "/?vocab_size=x"},
	} {
		target := c.target
		_, want := servertest.RawRequest(t, base, "GET", c.same, nil)
		resp, page := servertest.RawRequest(t, base, "GET", target, nil)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: status %d", target, resp.StatusCode)
			continue
		}
		if d := sameMarkup(want, page); d != "" {
			t.Errorf("GET %s: %s", target, d)
		}
	}
}

// FuzzPrerenderQuery: whatever the query, no attribute value holds an
// escape of go-app's strconv.Quote (see attrHoldsEscape), and every element of the
// prerendered page is one the page draws, with attributes it draws on
// that element: the union over reference pages (the default page, a
// model that matches no preset, a bad value, a backwards range, the
// seeds' states). The page is drawn for the query's state, the chart,
// decisions and table included, so its elements vary with the state
// (the chart's paths and labels, the flips listed); an injected element
// or attribute is in none of the references.
func FuzzPrerenderQuery(f *testing.F) {
	for _, key := range reflectedKeys {
		for _, p := range injectionPayloads[:4] {
			f.Add(key + "=" + p)                 // raw
			f.Add(url.Values{key: {p}}.Encode()) // as a browser encodes it
		}
	}
	f.Add("rows=1000&vocab_size=151936&preset=deepseek-v3&gpu=h100&axis=vocab_size&from=1&to=9")
	f.Add("head_eager_workspace=0&fc2_known_storage=false&gdn_early_release=1&in_use_gib=63.75")
	for _, l := range labelPayloads { // valid observed-peak labels, spaces and quotes
		f.Add(url.Values{"obs": {"64902~94780217856~" + l}}.Encode())
		f.Add("obs=64902~94780217856~" + l)
	}
	s := newPrerenderServer(f)
	known := map[string]map[string]bool{} // element name: its attributes
	for _, q := range []string{"", "vocab_size=1000", "rows=x", "from=500&to=10", "head_eager_workspace=maybe",
		"rows=1000&vocab_size=151936&preset=deepseek-v3&gpu=h100&axis=vocab_size&from=1&to=9",
		"head_eager_workspace=0&fc2_known_storage=false&gdn_early_release=1&in_use_gib=63.75",
		"obs=64902~94780217856~cold&obs=1~x"} {
		for _, tag := range tokenizeHTML(prerender(f, s, q)) {
			if known[tag.name] == nil {
				known[tag.name] = map[string]bool{}
			}
			for _, a := range tag.attrs {
				known[tag.name][a] = true
			}
		}
	}
	f.Fuzz(func(t *testing.T, rawQuery string) {
		// A request line carries no space and no fragment.
		rawQuery = strings.NewReplacer(" ", "%20", "#", "%23").Replace(rawQuery)
		page := prerender(t, s, rawQuery)
		if d := attrHoldsEscape(page); d != "" {
			t.Fatalf("?%s: %s (go-app's strconv.Quote escaped a character the page put in an attribute)", rawQuery, d)
		}
		for i, tag := range tokenizeHTML(page) {
			attrs, ok := known[tag.name]
			if !ok {
				t.Fatalf("?%s: tag %d is %s, an element the page never draws", rawQuery, i, tag)
			}
			for _, a := range tag.attrs {
				if !attrs[a] {
					t.Fatalf("?%s: tag %d %s has attribute %q, which the page never puts on a <%s>", rawQuery, i, tag, a, tag.name)
				}
			}
		}
	})
}

// TestPrerenderWellFormed: the default page's attributes are the ones the
// components set, each one name (a quote in a constant, written by
// go-app's strconv.Quote, splits a value into stray attributes), and a
// value that needs escaping reads back as written.
func TestPrerenderWellFormed(t *testing.T) {
	s := newPrerenderServer(t)
	page := prerender(t, s, "")
	for _, tag := range tokenizeHTML(page) {
		for _, a := range tag.attrs {
			// xmlns:xlink: the chart's <svg> (a namespaced name).
			if strings.Trim(a, "abcdefghijklmnopqrstuvwxyz-") != "" && a != "xmlns:xlink" {
				t.Errorf("%s: attribute name %q", tag, a)
			}
		}
	}
	want := `placeholder="{&#34;vocab_size&#34;: 151936, &#34;hidden_size&#34;: 2048, …}"`
	if !strings.Contains(page, want) {
		t.Errorf("the import box's placeholder is not %s", want)
	}
}
