package estimator

import (
	"reflect"
	"testing"
	"unsafe"
)

// The tests below walk Config's type by reflection, so that a field added
// to Config (or to any group it holds) without Equal and Clone knowing it
// fails them: each leaf of the type is changed in turn, and Equal must
// see it; each is changed in a Clone, and the original must not.

// settable is v with its unexported fields writable, for the tests only.
func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// fill sets every leaf of v: numbers to 7, booleans true, strings "s";
// pointers, lists (one element) and maps (one entry) set and filled.
func fill(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, settable(v.Field(i)))
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(t, v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(t, k)
		fill(t, e)
		v.SetMapIndex(k, e)
	case reflect.Int64, reflect.Int, reflect.Uint8:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.String:
		v.SetString("s")
	default:
		t.Fatalf("fill: a %s field: teach config_equal_test.go (and Equal, Clone) about it", v.Type())
	}
}

// change is one way to change a filled value of some type, named by its
// path.
type change struct {
	path string
	do   func(v reflect.Value)
}

// changes lists every way to change a filled value of type t: each leaf
// changed, each pointer, list and map dropped (nil) or made empty.
func changes(t *testing.T, typ reflect.Type, path string) []change {
	var out []change
	switch typ.Kind() {
	case reflect.Struct:
		for i := range typ.NumField() {
			i := i
			for _, c := range changes(t, typ.Field(i).Type, path+"."+typ.Field(i).Name) {
				out = append(out, change{c.path, func(v reflect.Value) { c.do(settable(v.Field(i))) }})
			}
		}
	case reflect.Pointer:
		out = append(out, change{path + "=nil", func(v reflect.Value) { v.Set(reflect.Zero(typ)) }})
		for _, c := range changes(t, typ.Elem(), path) {
			out = append(out, change{c.path, func(v reflect.Value) { c.do(v.Elem()) }})
		}
	case reflect.Slice:
		out = append(out,
			change{path + "=nil", func(v reflect.Value) { v.Set(reflect.Zero(typ)) }},
			change{path + "=[]", func(v reflect.Value) { v.Set(reflect.MakeSlice(typ, 0, 0)) }},
			change{path + "+1", func(v reflect.Value) { v.Set(reflect.Append(v, v.Index(0))) }})
		for _, c := range changes(t, typ.Elem(), path+"[0]") {
			out = append(out, change{c.path, func(v reflect.Value) { c.do(v.Index(0)) }})
		}
	case reflect.Map:
		out = append(out,
			change{path + "=nil", func(v reflect.Value) { v.Set(reflect.Zero(typ)) }},
			change{path + "={}", func(v reflect.Value) { v.Set(reflect.MakeMap(typ)) }})
		for _, c := range changes(t, typ.Elem(), path+"[k]") {
			out = append(out, change{c.path, func(v reflect.Value) {
				k := v.MapKeys()[0]
				e := reflect.New(typ.Elem()).Elem()
				e.Set(v.MapIndex(k))
				c.do(e)
				v.SetMapIndex(k, e)
			}})
		}
	case reflect.Int64, reflect.Int, reflect.Uint8:
		out = append(out, change{path, func(v reflect.Value) { v.SetInt(v.Int() + 1) }})
	case reflect.Bool:
		out = append(out, change{path, func(v reflect.Value) { v.SetBool(!v.Bool()) }})
	case reflect.String:
		out = append(out, change{path, func(v reflect.Value) { v.SetString(v.String() + "x") }})
	default:
		t.Fatalf("changes: a %s field at %s: teach config_equal_test.go (and Equal, Clone) about it", typ, path)
	}
	return out
}

func filledConfig(t *testing.T) Config {
	var c Config
	fill(t, reflect.ValueOf(&c).Elem())
	return c
}

// TestConfigEqualSeesEveryField: Equal tells apart two configs that
// differ in any one field, at any depth, as reflect.DeepEqual does.
func TestConfigEqualSeesEveryField(t *testing.T) {
	t.Parallel()
	a := filledConfig(t)
	if !a.Equal(filledConfig(t)) {
		t.Fatal("two configs filled alike are not Equal")
	}
	cs := changes(t, reflect.TypeOf(Config{}), "Config")
	for _, c := range cs {
		b := filledConfig(t)
		c.do(reflect.ValueOf(&b).Elem())
		if reflect.DeepEqual(a, b) {
			continue // the change is not one (a list made empty... of nothing)
		}
		if a.Equal(b) || b.Equal(a) {
			t.Errorf("Equal does not see %s", c.path)
		}
	}
	if len(cs) < 150 {
		t.Fatalf("only %d changes tried: the walk of Config's type lost its way", len(cs))
	}
	if d := Default(); !d.Equal(Default()) || d.Equal(Config{}) {
		t.Fatal("Default() is not Equal to itself, or is to the zero config")
	}
}

// TestConfigCloneSharesNothing: a change to any field of a Clone, at any
// depth, leaves the original as it was; and a Clone is Equal.
func TestConfigCloneSharesNothing(t *testing.T) {
	t.Parallel()
	for _, c := range changes(t, reflect.TypeOf(Config{}), "Config") {
		a := filledConfig(t)
		b := a.Clone()
		if !a.Equal(b) || !reflect.DeepEqual(a, b) {
			t.Fatalf("a Clone is not Equal")
		}
		c.do(reflect.ValueOf(&b).Elem())
		if !reflect.DeepEqual(a, filledConfig(t)) {
			t.Errorf("changing %s in a Clone changed the original", c.path)
		}
	}
}

// TestTermsKey: two lists of terms share a key exactly when they are
// equal, whatever their texts hold (a field's text may contain the
// separators of another's).
func TestTermsKey(t *testing.T) {
	t.Parallel()
	lists := [][]Term{
		nil,
		{{Name: "a", Place: "head", Bytes: "1"}},
		{{Name: "a", Place: "head", Bytes: "1"}, {Name: "b", Place: "fc2", Bytes: "2"}},
		{{Name: "b", Place: "fc2", Bytes: "2"}, {Name: "a", Place: "head", Bytes: "1"}},
		{{Name: "a1:h", Place: "ead", Bytes: "1"}},
		{{Name: "a", Place: "1:head", Bytes: "1"}},
		{{Name: "a", Place: "head", Revision: "both", Bytes: "1"}},
		{{Name: "a", Place: "head", Bytes: "12"}},
	}
	for i, a := range lists {
		for j, b := range lists {
			if same := TermsKey(a) == TermsKey(b); same != (i == j) {
				t.Errorf("TermsKey(%v) == TermsKey(%v) is %v", a, b, same)
			}
		}
	}
}
