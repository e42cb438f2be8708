package api

import "strconv"

// loneSurrogate reports whether a JSON text holds a \u escape of a UTF-16
// surrogate that is not half of a pair (a high one followed at once by a
// low one). encoding/json would silently read it as U+FFFD; racecase refuses
// it instead, so that what is stored is what was sent.
func loneSurrogate(body []byte) bool {
	inString := false
	for i := 0; i < len(body); i++ {
		switch b := body[i]; {
		case b == '"':
			inString = !inString
		case b != '\\' || !inString || i+1 >= len(body):
		case body[i+1] != 'u':
			i++ // an escaped character, e.g. \" or \\
		default:
			r, ok := hexEscape(body, i)
			switch {
			case !ok || r < 0xD800 || r > 0xDFFF:
			case r >= 0xDC00:
				return true // a low half with no high half before it
			default:
				low, ok := hexEscape(body, i+6)
				if !ok || low < 0xDC00 || low > 0xDFFF {
					return true
				}
				i += 6
			}
			i += 5
		}
	}
	return false
}

// hexEscape reads the code unit of a \uXXXX escape starting at body[i].
func hexEscape(body []byte, i int) (rune, bool) {
	if i+6 > len(body) || body[i] != '\\' || body[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(body[i+2:i+6]), 16, 16)
	return rune(n), err == nil
}
