package workspace

import (
	"testing"
	"time"

	"github.com/racecase/racecase/challenges"
)

func TestARunMayTakeItsOwnSuitesWallClockLimitAndTheGrace(t *testing.T) {
	d, err := challenges.Load(challenges.FS, "job-lock-double-send")
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{cfg: Config{RunGrace: 5 * time.Second}}
	check := s.timeoutOf(&dossier{Dossier: d}, KindCheck)
	submit := s.timeoutOf(&dossier{Dossier: d}, KindSubmit)
	if want := 3*10*time.Second + 5*time.Second; check != want {
		t.Errorf("a check may take %s, want %s (three times the default 10 s of CPU, and the grace)", check, want)
	}
	if want := 3*time.Duration(d.Limits.CPUSeconds)*time.Second + 5*time.Second; submit != want {
		t.Errorf("a submission may take %s, want %s (three times the dossier's CPU limit, and the grace)", submit, want)
	}
}
