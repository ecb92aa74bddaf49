package page

import (
	"strconv"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestReducers drives every writer of the page's state in turn, on one
// state, as a session would: a field's edit (Apply), the map view opened
// and clicked (Apply and ApplyMap), a workload line loaded (LoadShape), a
// file imported (Import), Back (Restore), and the refusals of each. After
// each it checks what the state settled on, whether it knows the address
// that opens it (OpenedBy) and the address itself: opening that address
// gives the same address back, so the link is the page.
func TestReducers(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	base := s.Cfg
	steps := []struct {
		name   string
		act    func(s *State) bool // false: the reducer refused
		ok     bool                // what act returns
		opened bool                // OpenedBy(the state's query) after it
		addr   []string            // in the address, key=value
		noAddr []string            // not in the address
		check  func(s *State) string
	}{
		{name: "edit rows", ok: true, opened: true, addr: []string{"rows=3000"},
			act: func(s *State) bool { s.Apply(Edit{Kind: EditText, Key: "rows", Text: "3000"}, list); return true },
			check: func(s *State) string {
				if s.Cfg.Request.Rows != 3000 || !s.Valid {
					return "rows not 3000, or not valid"
				}
				return ""
			}},
		{name: "open the map", ok: true, addr: []string{"view=map", "rows=3000"},
			act: func(s *State) bool {
				s.Apply(Edit{For: ForMap, Kind: EditMenu, Key: KeyView, Text: ViewMap, Settle: true}, list)
				return true
			},
			check: func(s *State) string {
				if !s.Map.On || s.Map.Broken {
					return "the map is not on, or broken"
				}
				return ""
			}},
		{name: "click the map", ok: true, addr: []string{"view=map"},
			act: func(s *State) bool {
				cfg, _ := s.MapConfig(estimator.Config{}, false)
				x := s.Map.XFrom
				y := s.Map.YFrom
				s.ApplyMap(Edit{For: ForMap, Kind: EditMapClick, Text: itoa(x) + "," + itoa(y)}, cfg)
				return true
			},
			check: func(s *State) string {
				x, _ := estimator.FieldByKey(s.Map.X)
				y, _ := estimator.FieldByKey(s.Map.Y)
				gx, _ := x.Int(&s.Cfg)
				gy, _ := y.Int(&s.Cfg)
				return ifNot(gx == s.Map.XFrom && gy == s.Map.YFrom, "the clicked point is not the config's")
			}},
		{name: "a click that does not parse", ok: true, addr: []string{"view=map"},
			act: func(s *State) bool {
				before := s.Query(list).Encode()
				s.ApplyMap(Edit{For: ForMap, Kind: EditMapClick, Text: "x"}, s.Cfg)
				return before == s.Query(list).Encode()
			}},
		{name: "close the map", ok: true, noAddr: []string{"view=map"},
			act: func(s *State) bool {
				s.Apply(Edit{For: ForMap, Kind: EditMenu, Key: KeyView, Text: ViewSingle, Settle: true}, list)
				return true
			}},
		{name: "load a workload line", ok: true, addr: []string{"rows=226703", "sequence_rows=8192", "in_use_bytes=42949672960"},
			act: func(s *State) bool {
				return s.LoadShape(base, estimator.Shape{226703, 8192, -1, -1, 40 << 30}, list) == nil
			},
			check: func(s *State) string {
				if s.Cfg.Request.Rows != 226703 || s.Cfg.Budget.InUseBytes != 40<<30 || !s.Valid {
					return "the line's shape is not the state's"
				}
				return ""
			}},
		{name: "a line the config refuses", ok: false, addr: []string{"rows=226703"},
			act: func(s *State) bool { return s.LoadShape(base, estimator.Shape{100, -1, 200, -1, -1}, list) == nil }},
		{name: "import a config", ok: true, opened: true, addr: []string{"rows=4321"},
			act: func(s *State) bool { _, ok := s.Import([]byte(`{"request": {"rows": 4321}}`), list); return ok },
			check: func(s *State) string {
				if s.Cfg.Request.Rows != 4321 {
					return "rows not imported"
				}
				return ""
			}},
		{name: "a file refused", ok: false, opened: true, addr: []string{"rows=4321"},
			act: func(s *State) bool {
				rep, ok := s.Import([]byte("{\n  \"vocab_size\": 5,\n}"), list)
				return ok || rep.Err == ""
			}},
		{name: "back", ok: true, addr: []string{"rows=3000"}, noAddr: []string{"in_use_bytes"},
			act: func(s *State) bool { return s.Restore("rows=3000", list) },
			check: func(s *State) string {
				return ifNot(s.Text("rows") == "3000" && s.Axis == "rows", "rows or axis not restored")
			}},
		{name: "back to an address that does not parse", ok: false, addr: []string{"rows=3000"},
			act: func(s *State) bool { return s.Restore("rows=%zz", list) }},
	}
	for _, st := range steps {
		if got := st.act(&s); got != st.ok {
			t.Errorf("%s: the reducer returned %v, want %v", st.name, got, st.ok)
		}
		q := s.Query(list).Encode()
		if got := s.OpenedBy(q); got != st.opened {
			t.Errorf("%s: OpenedBy its own query %v, want %v", st.name, got, st.opened)
		}
		addr := EncodeAddress(s.Query(list))
		for _, kv := range st.addr {
			if !strings.Contains("&"+addr+"&", "&"+kv+"&") {
				t.Errorf("%s: the address ?%s does not say %s", st.name, addr, kv)
			}
		}
		for _, k := range st.noAddr {
			if strings.Contains("&"+addr, "&"+k) {
				t.Errorf("%s: the address ?%s still says %s", st.name, addr, k)
			}
		}
		if reopened := Decode(s.Query(list), list); EncodeAddress(reopened.Query(list)) != addr {
			t.Errorf("%s: the address ?%s opens a state whose address is ?%s", st.name, addr, EncodeAddress(reopened.Query(list)))
		}
		if st.check != nil {
			if msg := st.check(&s); msg != "" {
				t.Errorf("%s: %s", st.name, msg)
			}
		}
	}
}

func ifNot(ok bool, msg string) string {
	if ok {
		return ""
	}
	return msg
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
