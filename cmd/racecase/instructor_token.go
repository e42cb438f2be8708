package main

import (
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/racecase/racecase/api"
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

// readInstructorTokens reads the named instructor tokens of a file: one
// "name token" pair a line; blank lines and lines starting with # are
// skipped. Each name and each token must be unique, and no name may be the
// primary token's.
func readInstructorTokens(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--instructor-tokens: %w", err)
	}
	out, seen := map[string]string{}, map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		switch {
		case len(fields) != 2:
			return nil, fmt.Errorf("%s:%d: want \"name token\"", path, i+1)
		case fields[0] == api.PrimaryInstructor:
			return nil, fmt.Errorf("%s:%d: the name %q is the --instructor-token's; choose another", path, i+1, fields[0])
		case out[fields[0]] != "":
			return nil, fmt.Errorf("%s:%d: the name %q is given twice", path, i+1, fields[0])
		case seen[fields[1]] || len(fields[1]) < 16:
			return nil, fmt.Errorf("%s:%d: the token of %q must be unique and at least 16 characters", path, i+1, fields[0])
		}
		out[fields[0]], seen[fields[1]] = fields[1], true
	}
	return out, nil
}
