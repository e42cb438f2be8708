package gitserve

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/racecase/racecase/workspace"
)

// Limits of one push. A workspace holds at most workspace.MaxWorkspaceBytes
// of files, so a pack of its whole history is far smaller than these.
const (
	// MaxPackBytes bounds a push's pack as sent.
	MaxPackBytes = 8 << 20
	// MaxPackObjects bounds the objects in a push's pack.
	MaxPackObjects = 10_000
	// MaxObjectBytes bounds one object once inflated (deltas resolved).
	MaxObjectBytes = workspace.MaxWorkspaceBytes
	// MaxInflatedBytes bounds a pack's objects together once inflated.
	MaxInflatedBytes = 64 << 20
	// MaxRefUpdates bounds the references one push updates: main and submit.
	MaxRefUpdates = 2
)

// maxDiscardBytes bounds how much of an oversized pack is read (and thrown
// away) so that git, which sends the whole body before it reads the answer,
// gets to show why the push was refused.
const maxDiscardBytes = 256 << 20

// errPackTooLarge says a pack exceeded MaxPackBytes.
var errPackTooLarge = errors.New("pack too large")

// limitError says which limit a pack breaks, in words for the learner.
type limitError struct{ msg string }

// Error returns the sentence.
func (e *limitError) Error() string { return e.msg }

// overLimit returns a limitError with a formatted sentence.
func overLimit(format string, args ...any) error {
	return &limitError{msg: fmt.Sprintf(format, args...)}
}

// readPack reads a push's pack, at most MaxPackBytes of it. A larger pack
// is read to its end (up to maxDiscardBytes) and refused with its size.
func readPack(r io.Reader) ([]byte, int64, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxPackBytes+1))
	if err != nil {
		return nil, int64(len(data)), err
	}
	if len(data) <= MaxPackBytes {
		return data, int64(len(data)), nil
	}
	rest, err := io.Copy(io.Discard, io.LimitReader(r, maxDiscardBytes))
	return nil, int64(len(data)) + rest, errors.Join(errPackTooLarge, err)
}

// unpack checks a pack against the limits, then adds its objects to objs.
// Deltas may be based on objects objs already holds (a thin pack).
func unpack(objs *workspace.Objects, pack []byte) error {
	if len(pack) == 0 {
		return nil
	}
	if err := inspect(pack); err != nil {
		return err
	}
	p, err := packfile.NewParserWithStorage(packfile.NewScanner(bytes.NewReader(pack)), objs)
	if err != nil {
		return err
	}
	_, err = p.Parse()
	return err
}

// inspect reads a pack's headers and delta headers without resolving
// anything, refusing too many objects and objects too large to inflate.
func inspect(pack []byte) error {
	sc := packfile.NewScanner(bytes.NewReader(pack))
	_, count, err := sc.Header()
	if err != nil {
		return err
	}
	if count > MaxPackObjects {
		return overLimit("The pack holds %d objects; a push may carry at most %d.", count, MaxPackObjects)
	}
	var total int64
	for range count {
		h, err := sc.NextObjectHeader()
		if err != nil {
			return err
		}
		size := h.Length
		if size > MaxObjectBytes {
			return overLimit("An object of the pack is %s; one object may be at most %s.", workspace.FormatSize(size), workspace.FormatSize(MaxObjectBytes))
		}
		isDelta := h.Type == plumbing.OFSDeltaObject || h.Type == plumbing.REFDeltaObject
		var delta bytes.Buffer
		var content io.Writer = io.Discard
		if isDelta {
			content = &delta
		}
		if _, _, err := sc.NextObject(content); err != nil {
			return err
		}
		if isDelta {
			if size, err = deltaTargetSize(delta.Bytes()); err != nil {
				return err
			}
			if size > MaxObjectBytes {
				return overLimit("A delta of the pack makes an object of %s; one object may be at most %s.", workspace.FormatSize(size), workspace.FormatSize(MaxObjectBytes))
			}
		}
		if total += size; total > MaxInflatedBytes {
			return overLimit("The pack inflates to more than %s; a push may inflate to at most that.", workspace.FormatSize(MaxInflatedBytes))
		}
	}
	return nil
}

// deltaTargetSize reads the size of the object a delta makes, the second of
// the two sizes that start a delta.
func deltaTargetSize(delta []byte) (int64, error) {
	rest := delta
	var size int64
	for range 2 {
		var n, shift int64
		for {
			if len(rest) == 0 || shift > 56 {
				return 0, errors.New("a delta of the pack has a malformed header")
			}
			b := rest[0]
			rest = rest[1:]
			n |= int64(b&0x7f) << shift
			shift += 7
			if b&0x80 == 0 {
				break
			}
		}
		size = n
	}
	return size, nil
}
