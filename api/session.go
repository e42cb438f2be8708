package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/gin-gonic/gin"
)

// SessionCookie is the name of the cookie that identifies a learner.
const SessionCookie = "racecase_session"

// sessionVersion prefixes every session value, so the format can change.
const sessionVersion = "v1"

// sessionMaxAge is how long the browser keeps the cookie: a year, in seconds.
const sessionMaxAge = 365 * 24 * 60 * 60

// signSession returns the cookie value naming learner, signed with key.
func signSession(key []byte, learner string) string {
	payload := sessionVersion + "." + learner
	return payload + "." + base64.RawURLEncoding.EncodeToString(sessionMAC(key, payload))
}

// verifySession returns the learner a cookie value names, if key signed it.
// The signature must be the one canonical encoding of the MAC: strict
// base64 refuses strings whose unused trailing bits are set.
func verifySession(key []byte, value string) (learner string, ok bool) {
	i := strings.LastIndexByte(value, '.')
	if i < 0 {
		return "", false
	}
	payload, sig := value[:i], value[i+1:]
	learner, found := strings.CutPrefix(payload, sessionVersion+".")
	if !found || learner == "" {
		return "", false
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(got, sessionMAC(key, payload)) {
		return "", false
	}
	return learner, true
}

// sessionMAC is the HMAC-SHA256 of payload under key.
func sessionMAC(key []byte, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// withSession reads the session cookie and, when its signature holds, makes
// its learner the request's learner. A missing or forged cookie leaves the
// request anonymous: it sees no workspaces.
func withSession(key []byte) gin.HandlerFunc {
	return func(c *gin.Context) {
		if v, err := c.Cookie(SessionCookie); err == nil {
			if learner, ok := verifySession(key, v); ok {
				c.Set(keyLearner, learner)
			}
		}
		c.Next()
	}
}

// learnerOf returns the request's learner, or "" for an anonymous request.
func learnerOf(c *gin.Context) string { return c.GetString(keyLearner) }

// setSession sends the cookie naming learner.
func setSession(c *gin.Context, key []byte, learner string) {
	setCookie(c, SessionCookie, signSession(key, learner))
	c.Set(keyLearner, learner)
}
