package main

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
)

// junitReport is a JUnit XML report, the format CI systems show as tests.
type junitReport struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

// junitSuite is one dossier.
type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

// junitCase is one claim about a dossier.
type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

// junitFailure says why a claim did not hold.
type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Detail  string `xml:",chardata"`
}

// writeJUnit writes proofs as JUnit XML: one testsuite per dossier, in the
// order the proofs come, and one testcase per claim; a claim that did not hold
// is a failure carrying what decided it.
func writeJUnit(w io.Writer, proofs []challenges.Proof) error {
	report := junitReport{Name: "racecase validate"}
	index := map[string]int{}
	for _, p := range proofs {
		i, ok := index[p.Dossier]
		if !ok {
			i = len(report.Suites)
			index[p.Dossier] = i
			report.Suites = append(report.Suites, junitSuite{Name: p.Dossier})
		}
		c := junitCase{Name: claimName(p), Classname: p.Dossier}
		if !p.OK {
			c.Failure = &junitFailure{
				Message: fmt.Sprintf("want %s, got %s (%d of %d runs identical)", p.Want, p.Got, p.Identical, p.Runs),
				Type:    "claim",
				Detail:  p.Detail,
			}
			report.Suites[i].Failures++
			report.Failures++
		}
		report.Suites[i].Cases = append(report.Suites[i].Cases, c)
		report.Suites[i].Tests++
		report.Tests++
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(report); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// claimName says what a proof claims, e.g. "decoy sleep-recheck fails the
// hidden suite". It does not depend on --runs, so CI keeps one history per claim.
func claimName(p challenges.Proof) string {
	verb := "fails"
	if p.Want == runner.VerdictPass {
		verb = "passes"
	}
	return fmt.Sprintf("%s %s the %s suite", p.Subject, verb, p.Suite)
}
