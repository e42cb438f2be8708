package challenges

// FailureClass is a kind of concurrency failure: what the catalog lets
// learners browse by. Each dossier belongs to exactly one.
type FailureClass struct {
	// ID is the class's name in dossier.yaml (failure_class) and in the API.
	ID string `json:"id"`
	// Label is the class's name as learners read it.
	Label string `json:"label"`
}

// FailureClasses are the classes a dossier may belong to, in the order the
// catalog lists them. dossier.schema.json lists the same ids.
var FailureClasses = []FailureClass{
	{ID: "check-then-set", Label: "Check-then-set"},
	{ID: "lost-update", Label: "Lost update"},
	{ID: "double-effect", Label: "Retried side effect"},
	{ID: "lease-expiry", Label: "Lease expiry"},
	{ID: "stale-writer", Label: "Stale writer"},
	{ID: "deadlock", Label: "Deadlock"},
	{ID: "write-skew", Label: "Write skew"},
	{ID: "cache-stampede", Label: "Cache stampede"},
	{ID: "stale-cache-fill", Label: "Stale cache fill"},
	{ID: "out-of-order", Label: "Out-of-order events"},
	{ID: "dual-write", Label: "Dual write"},
	{ID: "burst-past-limit", Label: "Burst past a limit"},
}

// FailureClassOf returns the class with the given id, and whether there is one.
func FailureClassOf(id string) (FailureClass, bool) {
	for _, c := range FailureClasses {
		if c.ID == id {
			return c, true
		}
	}
	return FailureClass{}, false
}

// Class is the dossier's failure class with its label. A dossier that loaded
// has a known class: the schema allows no other.
func (d *Dossier) Class() FailureClass {
	c, _ := FailureClassOf(d.FailureClass)
	return c
}
