package challenges

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Mutation operators: each is one kind of plausible wrong fix.
const (
	OpDropAwait      = "drop-await"       // an await removed: the code goes on before the call is done
	OpSplitAtomic    = "split-atomic"     // an atomic store operation done as a read, then a write
	OpDropCheck      = "drop-check"       // a conditional store write made unconditional (owner or absence check removed)
	OpKeyPerWorker   = "key-per-worker"   // a store key made private to each worker
	OpKeyPerAttempt  = "key-per-attempt"  // a store key made new on every call
	OpRemoveStmt     = "remove-statement" // a statement that does something removed (a release, a compensation, a renewal)
	OpRemoveGuard    = "remove-guard"     // the condition of a check that stops the work made false
	OpSwapStmts      = "swap-statements"  // two neighbouring statements run in the other order
	OpHoistGuard     = "hoist-guard"      // a check made once before a loop instead of on every turn
	OpShrinkConstant = "shrink-constant"  // a number (a lease, a timeout, a retry count) made 1
	OpDropCall       = "drop-call"        // a call inside a chain removed: x.sort(f).map(g) becomes x.map(g)
)

// atomicOps are the store's conditional and atomic operations (the harness's
// store, after Redis), with how a wrong fix splits each into a read and a
// write, and how it writes without the condition. Each is the body of an
// async arrow function taking the receiver s and the call's arguments.
var atomicOps = map[string]struct{ params, split, unchecked string }{
	"setIfAbsent": {"s, k, ...w",
		"(await s.get(k)) === null && (await s.set(k, ...w), true)",
		"(await s.set(k, ...w), true)"},
	"compareAndSet": {"s, k, old, ...w",
		"(await s.get(k)) === old && (await s.set(k, ...w), true)",
		"(await s.set(k, ...w), true)"},
	"compareAndDelete": {"s, k, v",
		"(await s.get(k)) === v && (await s.delete(k), true)",
		"(await s.delete(k), true)"},
	"compareAndExpire": {"s, k, v, ms",
		"(await s.get(k)) === v && s.expire(k, ms)",
		"s.expire(k, ms)"},
	"incrBy": {"s, k, d",
		"{ const n = Number((await s.get(k)) ?? 0) + d; await s.set(k, String(n)); return n; }",
		""},
}

// keyedOps are the store operations whose first argument is a key the
// key operators change: the atomic ones and expire (get, set and delete are
// left out, as Map has them too).
var keyedOps = []string{"setIfAbsent", "compareAndSet", "compareAndDelete", "compareAndExpire", "incrBy", "expire"}

// jsEdit replaces the source bytes [start, end) with text.
type jsEdit struct {
	start, end int
	text       string
}

// jsMutation is one mutation of a source before it gets its id: where, what,
// and the edits that make it.
type jsMutation struct {
	op    string
	line  int
	what  string   // the one-line description, without file and line
	site  string   // the source text it changes, for the id
	edits []jsEdit // in source order, not overlapping
}

// apply returns src with m's edits made.
func (m jsMutation) apply(src string) string {
	var b strings.Builder
	at := 0
	for _, e := range m.edits {
		b.WriteString(src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(src[at:])
	return b.String()
}

// mutationsOf returns every mutation of p that touches a line for which
// changed is true: the lines the reference fix wrote.
func mutationsOf(p *jsProgram, changed func(line int) bool) []jsMutation {
	g := &generator{p: p, changed: changed}
	g.tokens()
	for _, b := range p.blocks {
		g.statements(b)
	}
	slices.SortStableFunc(g.out, func(a, b jsMutation) int {
		if a.edits[0].start != b.edits[0].start {
			return a.edits[0].start - b.edits[0].start
		}
		return strings.Compare(a.op, b.op)
	})
	return g.out
}

type generator struct {
	p       *jsProgram
	changed func(line int) bool
	out     []jsMutation
}

// touches says whether tokens [from, to) lie on a changed line.
func (g *generator) touches(from, to int) bool {
	for k := from; k < to; k++ {
		first, last := g.p.toks[k].line, g.p.toks[k].line+strings.Count(g.p.toks[k].text, "\n")
		for l := first; l <= last; l++ {
			if g.changed(l) {
				return true
			}
		}
	}
	return false
}

func (g *generator) add(op string, at int, what, site string, edits ...jsEdit) {
	slices.SortFunc(edits, func(a, b jsEdit) int { return a.start - b.start })
	g.out = append(g.out, jsMutation{op: op, line: g.p.toks[at].line, what: what, site: site, edits: edits})
}

// tokens applies the operators that work on a token or a call.
func (g *generator) tokens() {
	p := g.p
	for i, t := range p.toks {
		switch {
		case p.isAwait(i) && !p.is(i-1, "for") && g.touches(i, i+1):
			next := p.toks[min(i+1, len(p.toks)-1)]
			g.add(OpDropAwait, i, "await dropped before "+clipLine(p.text(i+1, min(i+6, len(p.toks))), 40),
				p.text(i, min(i+6, len(p.toks))), jsEdit{t.start, next.start, ""})
		case t.kind == jsNumber && g.touches(i, i+1):
			if n, ok := numberValue(t.text); ok && n >= 2 {
				g.add(OpShrinkConstant, i, fmt.Sprintf("%s made 1", t.text),
					p.text(max(i-3, 0), min(i+4, len(p.toks))), jsEdit{t.start, t.end, "1"})
			}
		case t.kind == jsIdent && (p.is(i-1, ".") || p.is(i-1, "?.")) && p.is(i+1, "("):
			if slices.Contains(keyedOps, t.text) {
				g.call(i)
			}
			if end := p.match[i+1]; (p.is(end+1, ".") || p.is(end+1, "?.")) && p.receiverStart(i-2) >= 0 && g.touches(i-1, end+1) {
				g.add(OpDropCall, i, "."+t.text+"(…) removed from "+clipLine(p.text(p.receiverStart(i-2), end+3), 50),
					p.text(i-1, end+1), jsEdit{p.toks[i-1].start, p.toks[end].end, ""})
			}
		}
	}
}

// call applies the store-call operators to the call of method i.
func (g *generator) call(i int) {
	p := g.p
	open, close := i+1, p.match[i+1]
	recv := p.receiverStart(i - 2)
	if recv < 0 || !g.touches(recv, close+1) {
		return
	}
	receiver, args := p.text(recv, i-1), p.text(open+1, close)
	site := p.text(recv, close+1)
	method := p.toks[i].text
	if op, ok := atomicOps[method]; ok {
		whole := func(body string) jsEdit {
			return jsEdit{p.toks[recv].start, p.toks[close].end,
				fmt.Sprintf("(async (%s) => %s)(%s, %s)", op.params, body, receiver, args)}
		}
		g.add(OpSplitAtomic, i, method+" done as a read, then a write", site, whole(op.split))
		if op.unchecked != "" {
			g.add(OpDropCheck, i, method+" made unconditional", site, whole(op.unchecked))
		}
	}
	if first := p.arguments(open); len(first) > 0 {
		a := first[0]
		key := p.text(a[0], a[1])
		start, end := p.toks[a[0]].start, p.toks[a[1]-1].end
		g.add(OpKeyPerWorker, i, fmt.Sprintf("%s key %s made per worker", method, clipLine(key, 40)), site,
			jsEdit{start, end, fmt.Sprintf("(%s) + ':' + process.pid", key)})
		g.add(OpKeyPerAttempt, i, fmt.Sprintf("%s key %s made per call", method, clipLine(key, 40)), site,
			jsEdit{start, end, fmt.Sprintf("(%s) + ':' + process.pid + ':' + Math.random()", key)})
	}
}

// statements applies the operators that work on the statements of a block.
func (g *generator) statements(b *jsBlock) {
	p := g.p
	for k, s := range b.stmts {
		touched := g.touches(s.from, s.to)
		if touched && s.kind == stmtExpr && !p.onlyObserves(s) {
			where := ""
			if b.handler != "" {
				where = " from the " + b.handler + " block"
			}
			g.add(OpRemoveStmt, s.from, "removed"+where+": "+clipLine(p.text(s.from, s.to), 50), p.text(s.from, s.to),
				jsEdit{p.toks[s.from].start, p.toks[s.to-1].end, ";"})
		}
		if s.guard && s.cond[1] > s.cond[0] && g.touches(s.from, s.cond[1]+1) {
			cond := p.text(s.cond[0], s.cond[1])
			g.add(OpRemoveGuard, s.from, "check never stops the work: if ("+clipLine(cond, 40)+")", p.text(s.from, s.to),
				jsEdit{p.toks[s.cond[0]].start, p.toks[s.cond[1]-1].end, "false"})
		}
		if s.guard && b.loop != nil && touched {
			g.hoist(b, s)
		}
		if k+1 < len(b.stmts) {
			next := b.stmts[k+1]
			if swappable(p, s) && swappable(p, next) && (touched || g.touches(next.from, next.to)) {
				first, second := p.text(s.from, s.to), p.text(next.from, next.to)
				g.add(OpSwapStmts, s.from, fmt.Sprintf("%s moved after %s", clipLine(first, 35), clipLine(second, 35)),
					first+"\n"+second,
					jsEdit{p.toks[s.from].start, p.toks[next.to-1].end, second + "\n" + first})
			}
		}
	}
}

// hoist moves guard s out of the loop whose body is b, to just before it.
func (g *generator) hoist(b *jsBlock, s *jsStmt) {
	p := g.p
	loop := b.loop
	guard := p.text(s.from, s.to)
	g.add(OpHoistGuard, s.from, "check made once before the loop: if ("+clipLine(p.text(s.cond[0], s.cond[1]), 40)+")", guard,
		jsEdit{p.toks[loop.from].start, p.toks[loop.from].start, guard + "\n"},
		jsEdit{p.toks[s.from].start, p.toks[s.to-1].end, ";"})
}

// swappable says whether a statement may change places with its neighbour:
// it does something (not a declaration, whose names the other may use, nor a
// jump, after which the other would never run) and more than log.
func swappable(p *jsProgram, s *jsStmt) bool {
	switch s.kind {
	case stmtExpr, stmtIf, stmtLoop, stmtTry:
		return !p.onlyObserves(s)
	}
	return false
}

// receiverStart returns the first token of the member chain that ends at
// token end (the object a method is called on: store, this.store,
// deps.store(), list[0]), or -1 when there is none.
func (p *jsProgram) receiverStart(end int) int {
	j := end
	for j >= 0 {
		t := p.toks[j]
		switch {
		case t.kind == jsPunct && (t.text == ")" || t.text == "]"):
			j = p.match[j]
			if j > 0 && (p.toks[j-1].kind == jsIdent || p.is(j-1, ")") || p.is(j-1, "]")) && !reservedWord(p.toks[j-1].text) {
				j--
				continue
			}
			return j // a parenthesised expression or an array literal
		case t.kind == jsIdent && (!reservedWord(t.text) || t.text == "this" || t.text == "super"):
		default:
			return -1
		}
		if j > 0 && (p.is(j-1, ".") || p.is(j-1, "?.")) {
			j -= 2
			continue
		}
		return j
	}
	return -1
}

// arguments splits the arguments of the call whose "(" is at open into
// token ranges.
func (p *jsProgram) arguments(open int) [][2]int {
	close := p.match[open]
	var args [][2]int
	from := open + 1
	for k := open + 1; k < close; k++ {
		if p.toks[k].kind == jsPunct && (p.toks[k].text == "(" || p.toks[k].text == "[" || p.toks[k].text == "{") {
			k = p.match[k]
			continue
		}
		if p.is(k, ",") {
			args = append(args, [2]int{from, k})
			from = k + 1
		}
	}
	if from < close {
		args = append(args, [2]int{from, close})
	}
	return args
}

// isAwait says whether token i is the await operator, not a property
// named await ({ await: … }, x.await).
func (p *jsProgram) isAwait(i int) bool {
	return p.toks[i].kind == jsIdent && p.toks[i].text == "await" && !p.is(i+1, ":") && !p.is(i-1, ".") && !p.is(i-1, "?.")
}

// reservedWord says whether a word cannot name an object a method is called on.
func reservedWord(w string) bool {
	switch w {
	case "await", "return", "typeof", "void", "delete", "new", "in", "of", "instanceof", "yield",
		"case", "throw", "else", "do", "if", "for", "while", "const", "let", "var", "this", "super":
		return true
	}
	return false
}

// numberValue reads a decimal numeric literal; hexadecimal, octal, binary
// and big integers are left alone.
func numberValue(text string) (float64, bool) {
	if len(text) > 1 && text[0] == '0' && strings.ContainsAny(text[1:2], "xXoObB") || strings.HasSuffix(text, "n") {
		return 0, false
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	return n, err == nil
}

// clipLine puts s on one line of at most n runes.
func clipLine(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}
