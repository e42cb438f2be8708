package challenges

import (
	"encoding/json"
	"testing"

	"github.com/racecase/racecase/runner"
)

// A hidden run carries the fault model beside the suite; a check run carries
// no secret at all.
func TestNewJobCarriesTheFaultModel(t *testing.T) {
	d, err := Load(fixtureFS(t), fixture)
	if err != nil {
		t.Fatal(err)
	}
	hidden := map[string][]byte{"suite.mjs": []byte("export default {}")}
	job := d.NewJob("img", runner.SuiteHidden, nil, hidden)
	if string(job.Secret["suite.mjs"]) != "export default {}" {
		t.Errorf("the suite is missing from the secret files: %v", job.Secret)
	}
	want, _ := json.Marshal(d.FaultModel.ForSuite())
	if got := job.Secret[FaultModelFile]; string(got) != string(want) {
		t.Errorf("secret %s = %s, want %s", FaultModelFile, got, want)
	}
	if _, ok := hidden[FaultModelFile]; ok {
		t.Error("NewJob changed the caller's suite files")
	}
	if job := d.NewJob("img", runner.SuiteVisible, nil, hidden); job.Secret != nil {
		t.Errorf("a check run carries secret files: %v", job.Secret)
	}
}
