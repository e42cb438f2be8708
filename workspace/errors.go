package workspace

import (
	"errors"
	"fmt"
	"time"

	"github.com/racecase/racecase/store"
)

// Application error codes. Each maps to one HTTP status in the api package.
const (
	EINVALID     = "invalid"              // the request is malformed or breaks a rule
	EFORBIDDEN   = "forbidden"            // the request is well formed but not allowed (a read-only file)
	ENOTFOUND    = "not_found"            // no such thing, or not the learner's
	ECONFLICT    = "conflict"             // the request is stale or clashes with the current state
	ETOOLARGE    = "too_large"            // a size cap would be exceeded
	ETOOMANY     = "too_many"             // a queue or rate bound is reached; try again later
	EQUOTA       = "quota"                // a quota is used up; waiting does not help
	EFULL        = "insufficient_storage" // the data directory's disk is (nearly) full; nothing was written
	EUNAVAILABLE = "unavailable"          // a dependency (the runner) is not there
	EINTERNAL    = "internal"             // anything else; the details stay in the logs
)

// Error is an application error: a code, a message that is safe to show the
// learner, optional data for the client, and an internal cause that is never
// shown.
type Error struct {
	// Code is one of the E* constants.
	Code string
	// Message is a sentence for the learner; it never holds internal details.
	Message string
	// Data holds extra members for the client, e.g. the current file after a
	// stale save; it must marshal as a JSON object.
	Data map[string]any
	// RetryAfter, when positive, is how long the client should wait before
	// trying again.
	RetryAfter time.Duration
	// Err is the internal cause, for logs only.
	Err error
}

// Error returns the code and message, and the cause when there is one.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the internal cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first Error in err's chain, EFULL for
// the database finding its disk full (its transaction was rolled back
// whole), EINTERNAL for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	case store.IsFull(err):
		return EFULL
	}
	return EINTERNAL
}

// ErrorMessage returns the learner-safe message of the first Error in err's
// chain, and a generic sentence for any other error.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Message
	case store.IsFull(err):
		return errDiskFullMessage
	}
	return "Something went wrong on our side; it has been logged."
}

// wrap adds what the service was doing to an unexpected error; ErrorCode
// reports it as EINTERNAL unless it wraps an Error.
func wrap(err error, doing string) error {
	return fmt.Errorf("workspace: %s: %w", doing, err)
}

// errDiskFullMessage says that a change was refused for lack of disk space.
const errDiskFullMessage = "racecase's disk is nearly full, so nothing was changed; your saved work is safe. Try again later."

// ErrDiskFull is the error for a change refused because the data
// directory's disk is nearly full.
func ErrDiskFull() *Error {
	return &Error{Code: EFULL, Message: errDiskFullMessage}
}
