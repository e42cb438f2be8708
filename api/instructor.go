package api

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/instructor"
	"github.com/racecase/racecase/workspace"
)

// codeUnauthorized is the code of a request to the instructor routes without
// the instructor token.
const codeUnauthorized = "unauthorized"

// keyInstructor is the gin context key of the name of the instructor token
// a request carries.
const keyInstructor = "racecase.instructor"

// PrimaryInstructor is the name of the instructor token given by
// --instructor-token (or generated at start).
const PrimaryInstructor = "instructor"

// requireInstructor lets through only requests carrying
// "Authorization: Bearer <token>" (the scheme in any case) with one of the
// tokens, by name, each compared in constant time; the request's instructor
// is then that token's name. An empty token lets nothing through.
func requireInstructor(tokens map[string]string) gin.HandlerFunc {
	return func(c *gin.Context) {
		got, ok := bearerToken(c.GetHeader("Authorization"))
		name := ""
		for n, token := range tokens {
			if ok && token != "" && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1 {
				name = n
			}
		}
		if name == "" {
			c.Header("WWW-Authenticate", `Bearer realm="racecase instructor"`)
			writeProblem(c, newProblem(c, http.StatusUnauthorized, codeUnauthorized,
				"Send the instructor token as Authorization: Bearer <token>. racecase serve prints the instructor URL with it at start."))
			return
		}
		c.Set(keyInstructor, name)
		c.Next()
	}
}

// instructorOf returns the name of the request's instructor token.
func instructorOf(c *gin.Context) string { return c.GetString(keyInstructor) }

// instructorTokens returns every instructor token of cfg by name.
func instructorTokens(cfg Config) map[string]string {
	out := map[string]string{}
	for name, token := range cfg.InstructorTokens {
		out[name] = token
	}
	if cfg.InstructorToken != "" {
		out[PrimaryInstructor] = cfg.InstructorToken
	}
	return out
}

// bearerToken returns the token of an Authorization header using the Bearer
// scheme, whose name is case-insensitive (RFC 9110, section 11.1).
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimLeft(token, " ")
	return token, token != ""
}

// withDesk answers 503 when the server has no instructor desk.
func withDesk(desk *instructor.Desk, next func(c *gin.Context, desk *instructor.Desk)) gin.HandlerFunc {
	return func(c *gin.Context) {
		if desk == nil {
			writeError(c, workspace.Errorf(workspace.EUNAVAILABLE, "This racecase serves no instructor page."))
			return
		}
		next(c, desk)
	}
}

// handleInstructorDossiers lists every dossier with its source, lint
// problems and last validation.
func handleInstructorDossiers(desk *instructor.Desk) gin.HandlerFunc {
	return withDesk(desk, func(c *gin.Context, desk *instructor.Desk) {
		c.JSON(http.StatusOK, gin.H{"dossiers": desk.List()})
	})
}

// handleStartValidation starts validating a dossier in the background.
func handleStartValidation(desk *instructor.Desk) gin.HandlerFunc {
	return withDesk(desk, func(c *gin.Context, desk *instructor.Desk) {
		v, err := desk.Validate(c.Param("slug"), instructorOf(c))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusAccepted, v)
	})
}

// handleGetValidation returns a dossier's last validation.
func handleGetValidation(desk *instructor.Desk) gin.HandlerFunc {
	return withDesk(desk, func(c *gin.Context, desk *instructor.Desk) {
		v, err := desk.Validation(c.Param("slug"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, v)
	})
}

// handleValidationHistory lists a dossier's newest validations.
func handleValidationHistory(desk *instructor.Desk) gin.HandlerFunc {
	return withDesk(desk, func(c *gin.Context, desk *instructor.Desk) {
		list, err := desk.History(c, c.Param("slug"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, gin.H{"validations": list})
	})
}
