package api

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// csvType is the media type of the progress table's CSV export.
const csvType = "text/csv"

// handleListCohorts lists every cohort.
func handleListCohorts(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		list, err := svc.Cohorts(c)
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, gin.H{"cohorts": list})
	}
}

// handleCreateCohort creates a cohort on behalf of the request's instructor.
func handleCreateCohort(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var req workspace.NewCohort
		if !decodeJSON(c, &req) {
			return
		}
		co, err := svc.CreateCohort(c, instructorOf(c), req)
		if err != nil {
			writeError(c, err)
			return
		}
		c.Header("Location", "/api/instructor/cohorts/"+co.ID)
		c.JSON(http.StatusCreated, co)
	}
}

// handleGetClass returns a cohort with its progress table, as JSON or, when
// the client asks for text/csv, as a CSV file.
func handleGetClass(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		class, err := svc.Class(c, c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		if c.NegotiateFormat(gin.MIMEJSON, csvType) == csvType {
			sendClassCSV(c, class)
			return
		}
		c.JSON(http.StatusOK, class)
	}
}

// classCSVHeader names the columns of the CSV export.
var classCSVHeader = []string{"learner", "learner_id", "dossier", "step", "step_title", "time_spent_seconds",
	"hints_revealed", "checks", "submissions", "last_failing_property", "solved_at", "running"}

// sendClassCSV answers with the progress table as CSV, one row per learner
// and dossier.
func sendClassCSV(c *gin.Context, class workspace.Class) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write(classCSVHeader)
	for _, r := range class.Rows {
		solved := ""
		if r.SolvedAt != nil {
			solved = r.SolvedAt.Format(time.RFC3339)
		}
		_ = w.Write([]string{spreadsheetSafe(r.DisplayName), r.LearnerID, r.Dossier, strconv.Itoa(r.Step), r.StepTitle,
			strconv.FormatInt(r.ElapsedSeconds, 10), strconv.Itoa(r.HintsRevealed), strconv.Itoa(r.Checks),
			strconv.Itoa(r.Submissions), spreadsheetSafe(r.LastFailingProperty), solved, r.Running})
	}
	w.Flush()
	c.Header("Content-Disposition", `attachment; filename="`+class.Cohort.ID+`-progress.csv"`)
	c.Data(http.StatusOK, csvType+"; charset=utf-8", []byte(b.String()))
}

// spreadsheetSafe keeps a learner's text from being read as a formula by a
// spreadsheet: a cell starting with =, +, - or @ gets a leading apostrophe.
func spreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// handleCohortInsights returns the insights of a cohort's dossiers.
func handleCohortInsights(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		if _, err := svc.Cohort(c, c.Param("id")); err != nil {
			writeError(c, err)
			return
		}
		sendInsights(c, svc, c.Param("id"))
	}
}

// handleInsights returns the insights of every dossier over every learner.
func handleInsights(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) { sendInsights(c, svc, "") }
}

// sendInsights answers with the insights of a scope.
func sendInsights(c *gin.Context, svc *workspace.Service, cohortID string) {
	list, err := svc.Insights(c, cohortID)
	if err != nil {
		writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"insights": list})
}

// handleInspectWorkspace returns any learner's workspace, read-only.
func handleInspectWorkspace(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		in, err := svc.Inspect(c, c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, in)
	}
}
