package main

import (
	"crypto/rand"
	"fmt"
	"io"
)

// instructorTokenEnv is the environment variable holding the instructor token.
const instructorTokenEnv = "RACECASE_INSTRUCTOR_TOKEN"

// instructorToken returns the instructor token: the flag's, else the
// environment's, else a random one; made says it was generated.
func instructorToken(flag string, getenv func(string) string) (token string, made bool) {
	if flag != "" {
		return flag, false
	}
	if env := getenv(instructorTokenEnv); env != "" {
		return env, false
	}
	return rand.Text(), true
}

// printInstructorURL prints where the instructor page is. A generated token
// is in the URL's fragment (browsers do not send it to the server) and
// printed nowhere else; a given one is not printed.
func printInstructorURL(w io.Writer, addr string, o serveOptions) {
	if o.tokenMade {
		fmt.Fprintf(w, "racecase: instructor page on http://%s/instructor#token=%s\n", addr, o.token)
		return
	}
	fmt.Fprintf(w, "racecase: instructor page on http://%s/instructor (token from --instructor-token or $%s)\n", addr, instructorTokenEnv)
}
