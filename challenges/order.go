package challenges

import "cmp"

// difficultyRank orders the difficulties from the most approachable.
var difficultyRank = map[string]int{"easy": 0, "medium": 1, "hard": 2}

// CompareApproachability orders dossiers from the most approachable to the
// hardest: by difficulty, then by estimated time, then by slug.
func CompareApproachability(a, b *Dossier) int {
	return cmp.Or(
		cmp.Compare(difficultyRank[a.Difficulty], difficultyRank[b.Difficulty]),
		cmp.Compare(a.EstimateMinutes, b.EstimateMinutes),
		cmp.Compare(a.Slug, b.Slug),
	)
}
