package estimator

import (
	"strings"
	"testing"
)

// TestDecodeConfigQuotesKeys: a key with control characters is quoted in
// the message, at the top, in a group, in a baseline and in an observed
// point, so that a crafted config cannot drive the terminal that shows
// the error (a title and colours set through a key). A
// printable key is named as it is.
func TestDecodeConfigQuotesKeys(t *testing.T) {
	t.Parallel()
	const key = `\u001b]0;PWNED\u0007\u001b[31mred`
	for _, c := range []struct{ json, want string }{
		{`{"` + key + `":1}`, `config key "\x1b]0;PWNED\a\x1b[31mred": is not a field`},
		{`{"model":{"` + key + `":1}}`, `model key "\x1b]0;PWNED\a\x1b[31mred": is not a field`},
		{`{"baseline":{"` + key + `":1}}`, `baseline key "\x1b]0;PWNED\a\x1b[31mred": is not a field`},
		{`{"observed":[{"rows":1,"peak_bytes":2,"` + key + `":1}]}`, `observed[0] key "\x1b]0;PWNED\a\x1b[31mred": is not a field`},
		{`{"model":{"vocab size":1}}`, `model.vocab size: is not a field`},
		{`{"modle":1}`, `modle: is not a field`},
	} {
		_, err := DecodeConfig([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.json, err, c.want)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\x07") {
			t.Errorf("%s: the message holds a control character: %q", c.json, err)
		}
	}
}

// marshalConfigString is MarshalConfig as a string, for comparing configs
// that hold pointers.
func marshalConfigString(c Config) string { return string(MarshalConfig(c)) }
