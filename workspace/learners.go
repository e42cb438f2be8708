package workspace

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"

	"github.com/racecase/racecase/store/sqlite/db"
)

// Setting names in the settings table.
const (
	settingSessionKey = "session_key"
	settingInstanceID = "instance_id"
	settingGitKey     = "git_token_key"
)

// newID returns a random identifier with the given prefix, e.g. "w_3f…".
func newID(prefix string) string {
	return prefix + rand.Text()
}

// NewLearner creates an anonymous learner and returns its id.
func (s *Service) NewLearner(ctx context.Context) (string, error) {
	id := newID("l_")
	if err := s.store.CreateLearner(ctx, db.CreateLearnerParams{ID: id, CreatedAt: millis(s.now())}); err != nil {
		return "", wrap(err, "create learner")
	}
	return id, nil
}

// SessionKey returns the key that signs session cookies, generating and
// storing it the first time.
func (s *Service) SessionKey(ctx context.Context) ([]byte, error) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return s.setting(ctx, settingSessionKey, key)
}

// gitTokenKey returns the key git tokens are derived from, generating and
// storing it the first time.
func (s *Service) gitTokenKey(ctx context.Context) ([]byte, error) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return s.setting(ctx, settingGitKey, key)
}

// instanceID returns this data directory's id, which labels its containers.
func (s *Service) instanceID(ctx context.Context) (string, error) {
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	v, err := s.setting(ctx, settingInstanceID, []byte(hex.EncodeToString(id)))
	return string(v), err
}

// setting returns the stored value of name, storing fresh first when there
// is none.
func (s *Service) setting(ctx context.Context, name string, fresh []byte) ([]byte, error) {
	if err := s.store.InsertSettingIfAbsent(ctx, db.InsertSettingIfAbsentParams{Name: name, Value: fresh}); err != nil {
		return nil, wrap(err, "store "+name)
	}
	v, err := s.store.GetSetting(ctx, name)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && len(v) == 0) {
		return nil, wrap(errors.New("empty"), "read "+name)
	}
	if err != nil {
		return nil, wrap(err, "read "+name)
	}
	return v, nil
}
