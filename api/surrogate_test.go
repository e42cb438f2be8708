package api

import "testing"

func TestLoneSurrogate(t *testing.T) {
	for body, want := range map[string]bool{
		`{"content":"plain"}`:                    false,
		`{"content":"\ud83d\ude00"}`:             false, // a pair: 😀
		`{"content":"\u00e9\n\"\\"}`:             false,
		`{"content":"\\ud800"}`:                  false, // an escaped backslash, then text
		`{"content":"\ud800"}`:                   true,
		`{"content":"\ud800x"}`:                  true,
		`{"content":"\ude00"}`:                   true,
		`{"content":"\ud83d\u0041"}`:             true,
		`{"content":"\ud83d\ud83d\ude00"}`:       true,
		`{"content":"ok","x":"\\\ud800"}`:        true,
		`{"content":"\ud83d\ude00\ud83d\ude00"}`: false,
		`{"content":"\u`:                         false, // truncated: the decoder reports it
	} {
		if got := loneSurrogate([]byte(body)); got != want {
			t.Errorf("loneSurrogate(%s) = %v, want %v", body, got, want)
		}
	}
}
