package api

import (
	"strings"
	"testing"
)

func TestSessionCookieSigning(t *testing.T) {
	key := []byte("k1")
	v := signSession(key, "l_ABC")
	if learner, ok := verifySession(key, v); !ok || learner != "l_ABC" {
		t.Fatalf("verify(sign) = %q, %v", learner, ok)
	}
	forged := strings.Replace(v, "l_ABC", "l_XYZ", 1)
	for name, value := range map[string]string{
		"other learner":  forged,
		"other key":      signSession([]byte("k2"), "l_ABC"),
		"no signature":   "v1.l_ABC",
		"empty":          "",
		"bad base64":     "v1.l_ABC.!!!",
		"other version":  strings.Replace(v, "v1.", "v0.", 1),
		"empty learner":  signSession(key, ""),
		"truncated mac":  v[:len(v)-2],
		"other spelling": otherSpelling(v),
	} {
		if learner, ok := verifySession(key, value); ok {
			t.Errorf("%s: verified as %q", name, learner)
		}
	}
}

// otherSpelling returns v with the last character of its signature changed
// so that only the unused trailing bits of the base64 differ: lenient
// decoding reads the same MAC from it.
func otherSpelling(v string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, v[len(v)-1])
	return v[:len(v)-1] + string(alphabet[last^1])
}
