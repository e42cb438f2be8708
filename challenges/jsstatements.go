package challenges

import (
	"fmt"
	"regexp"
)

// stmtKind is what a statement is, as far as the mutation operators care.
type stmtKind int

const (
	stmtExpr  stmtKind = iota // an expression: a call, an assignment, an await
	stmtDecl                  // const, let, var, function, class, import, export
	stmtJump                  // return, throw, break, continue
	stmtIf                    // if, with or without else
	stmtLoop                  // for, while, do
	stmtTry                   // try with catch and/or finally
	stmtBlock                 // { … }
	stmtEmpty                 // ;
	stmtOther                 // switch, labelled statements
)

// jsStmt is one statement: its tokens [from, to).
type jsStmt struct {
	from, to int
	kind     stmtKind
	// cond is, for an if, the tokens of its condition inside the parentheses.
	cond [2]int
	// guard is true for an if without else whose consequent ends in a jump:
	// a check that stops the work when it fails.
	guard bool
	// inner is, for a block statement, its statements.
	inner *jsBlock
}

// jsBlock is a list of statements: a function body, the body of a loop, a
// catch or finally block, or the top level of a module.
type jsBlock struct {
	stmts []*jsStmt
	// loop is the loop statement this block is the body of, or nil.
	loop *jsStmt
	// handler is "catch" or "finally" for those blocks, else "".
	handler string
}

// jsProgram is a tokenized source with its statement structure: every block,
// including the bodies of functions, methods and arrow functions written
// inside expressions.
type jsProgram struct {
	src    string
	toks   []jsToken
	match  []int // the index of the matching bracket, or -1
	blocks []*jsBlock
}

// statementStarters are the keywords that begin a statement; a line break
// before one of them ends the statement before it (automatic semicolons).
var statementStarters = map[string]bool{
	"const": true, "let": true, "var": true, "if": true, "for": true, "while": true, "do": true,
	"return": true, "throw": true, "try": true, "function": true, "class": true, "export": true,
	"import": true, "switch": true, "break": true, "continue": true,
}

// observability matches the first word of a statement that only logs or
// counts; the operators leave such statements alone (removing or moving a
// log line changes nothing a hidden test can see).
var observability = regexp.MustCompile(`^(console|log|logs|logger|metrics|stats|tracer|trace|span)$`)

// parseJS tokenizes src and finds its statements and blocks.
func parseJS(src string) (*jsProgram, error) {
	toks, err := tokenizeJS(src)
	if err != nil {
		return nil, err
	}
	p := &jsProgram{src: src, toks: toks, match: make([]int, len(toks))}
	var open []int
	pairs := map[string]string{")": "(", "]": "[", "}": "{"}
	for i, t := range toks {
		p.match[i] = -1
		if t.kind != jsPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			open = append(open, i)
		case ")", "]", "}":
			if len(open) == 0 || toks[open[len(open)-1]].text != pairs[t.text] {
				return nil, fmt.Errorf("line %d: unbalanced %q", t.line, t.text)
			}
			o := open[len(open)-1]
			open = open[:len(open)-1]
			p.match[i], p.match[o] = o, i
		}
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("line %d: %q is never closed", toks[open[len(open)-1]].line, toks[open[len(open)-1]].text)
	}
	p.block(0, len(toks), nil, "")
	return p, nil
}

func (p *jsProgram) is(i int, text string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].text == text && (p.toks[i].kind == jsPunct || p.toks[i].kind == jsIdent)
}

// text is the source of tokens [from, to).
func (p *jsProgram) text(from, to int) string {
	if from >= to {
		return ""
	}
	return p.src[p.toks[from].start:p.toks[to-1].end]
}

// block parses the statements of tokens [from, to) as one block.
func (p *jsProgram) block(from, to int, loop *jsStmt, handler string) *jsBlock {
	b := &jsBlock{loop: loop, handler: handler}
	p.blocks = append(p.blocks, b)
	for i := from; i < to; {
		s := p.statement(i, to)
		if s.to <= i {
			s.to = i + 1
		}
		if s.kind != stmtEmpty {
			b.stmts = append(b.stmts, s)
		}
		i = s.to
	}
	return b
}

// body parses the body of a loop, a try, catch or finally at i: a block
// with its context, or a single statement.
func (p *jsProgram) body(i, limit int, loop *jsStmt, handler string) *jsStmt {
	if p.is(i, "{") {
		end := p.match[i]
		inner := p.block(i+1, end, loop, handler)
		return &jsStmt{from: i, to: end + 1, kind: stmtBlock, inner: inner}
	}
	if i >= limit {
		return &jsStmt{from: i, to: i, kind: stmtEmpty}
	}
	return p.statement(i, limit)
}

// parens returns the index just past the parenthesised group at i, scanning
// it for function bodies; i itself when there is none.
func (p *jsProgram) parens(i int) int {
	if !p.is(i, "(") {
		return i
	}
	p.functions(i+1, p.match[i])
	return p.match[i] + 1
}

// statement parses the statement starting at token i, which ends by limit.
func (p *jsProgram) statement(i, limit int) *jsStmt {
	t := p.toks[i]
	word := ""
	if t.kind == jsIdent {
		word = t.text
	}
	switch {
	case p.is(i, ";"):
		return &jsStmt{from: i, to: i + 1, kind: stmtEmpty}
	case p.is(i, "{"):
		return p.body(i, limit, nil, "")
	case word == "if":
		s := &jsStmt{from: i, kind: stmtIf}
		after := p.parens(i + 1)
		if after > i+1 {
			s.cond = [2]int{i + 2, after - 1}
		}
		then := p.body(after, limit, nil, "")
		s.to = then.to
		if p.is(s.to, "else") {
			s.to = p.body(s.to+1, limit, nil, "").to
		} else {
			s.guard = endsInJump(then)
		}
		return s
	case word == "for" || word == "while":
		s := &jsStmt{from: i, kind: stmtLoop}
		j := i + 1
		if p.is(j, "await") {
			j++
		}
		s.to = p.body(p.parens(j), limit, s, "").to
		return s
	case word == "do":
		s := &jsStmt{from: i, kind: stmtLoop}
		j := p.body(i+1, limit, s, "").to
		if p.is(j, "while") {
			j = p.parens(j + 1)
		}
		if p.is(j, ";") {
			j++
		}
		s.to = j
		return s
	case word == "try":
		s := &jsStmt{from: i, kind: stmtTry}
		j := p.body(i+1, limit, nil, "").to
		if p.is(j, "catch") {
			j = p.body(p.parens(j+1), limit, nil, "catch").to
		}
		if p.is(j, "finally") {
			j = p.body(j+1, limit, nil, "finally").to
		}
		s.to = j
		return s
	case word == "function" || word == "class" || (word == "async" && p.is(i+1, "function")):
		return &jsStmt{from: i, to: p.declaration(i, limit), kind: stmtDecl}
	case word == "export" && (p.is(i+1, "function") || p.is(i+1, "class") || p.is(i+1, "async") ||
		(p.is(i+1, "default") && (p.is(i+2, "function") || p.is(i+2, "class") || p.is(i+2, "async")))):
		j := i + 1
		if p.is(j, "default") {
			j++
		}
		return &jsStmt{from: i, to: p.declaration(j, limit), kind: stmtDecl}
	case word == "switch":
		j := p.parens(i + 1)
		if p.is(j, "{") {
			p.functions(j+1, p.match[j])
			j = p.match[j] + 1
		}
		return &jsStmt{from: i, to: j, kind: stmtOther}
	case t.kind == jsIdent && p.is(i+1, ":") && !statementStarters[word]:
		inner := p.statement(i+2, limit)
		return &jsStmt{from: i, to: inner.to, kind: stmtOther}
	}
	kind := stmtExpr
	switch word {
	case "const", "let", "var", "import", "export":
		kind = stmtDecl
	case "return", "throw", "break", "continue":
		kind = stmtJump
	}
	return &jsStmt{from: i, to: p.simple(i, limit), kind: kind}
}

// declaration parses a function or class declaration at i and returns the
// index past it.
func (p *jsProgram) declaration(i, limit int) int {
	for j := i; j < limit; j++ {
		if p.is(j, "(") {
			j = p.match[j]
			continue
		}
		if p.is(j, "{") {
			end := p.match[j]
			if p.is(i, "class") {
				p.functions(j+1, end)
			} else {
				p.block(j+1, end, nil, "")
			}
			return end + 1
		}
	}
	return limit
}

// simple finds the end of a statement that is not compound: its semicolon,
// or a line break before a token that starts a new statement, and scans it
// for function bodies.
func (p *jsProgram) simple(i, limit int) int {
	j := i
	for j < limit {
		t := p.toks[j]
		if j > i && t.nl && t.kind == jsIdent && statementStarters[t.text] && !p.continues(j-1) {
			break
		}
		if t.kind == jsPunct && (t.text == "(" || t.text == "[" || t.text == "{") {
			j = p.match[j] + 1
			continue
		}
		j++
		if t.kind == jsPunct && t.text == ";" {
			break
		}
	}
	p.functions(i, j)
	return j
}

// continues says whether the token at i leaves its expression unfinished, so
// that a line break after it cannot end the statement.
func (p *jsProgram) continues(i int) bool {
	t := p.toks[i]
	if t.kind != jsPunct {
		return t.kind == jsIdent && (regexAfterWord[t.text] || t.text == "extends")
	}
	return t.text != ")" && t.text != "]" && t.text != "}" && t.text != "++" && t.text != "--"
}

// functions finds the bodies of functions written inside tokens [from, to)
// (arrow functions, methods, function expressions) and parses each as a block.
func (p *jsProgram) functions(from, to int) {
	for k := from; k < to; k++ {
		if !p.is(k, "{") || k == 0 {
			continue
		}
		if prev := p.toks[k-1]; prev.kind == jsPunct && (prev.text == "=>" || prev.text == ")") {
			p.block(k+1, p.match[k], nil, "")
			k = p.match[k]
		}
	}
}

// endsInJump says whether a statement is, or a block ends in, return,
// throw, break or continue.
func endsInJump(s *jsStmt) bool {
	switch s.kind {
	case stmtJump:
		return true
	case stmtBlock:
		return len(s.inner.stmts) > 0 && s.inner.stmts[len(s.inner.stmts)-1].kind == stmtJump
	}
	return false
}

// onlyObserves says whether a statement only logs or counts: an expression
// statement that starts with a logger or metrics object and awaits nothing.
func (p *jsProgram) onlyObserves(s *jsStmt) bool {
	if s.kind != stmtExpr || !observability.MatchString(p.toks[s.from].text) {
		return false
	}
	for k := s.from; k < s.to; k++ {
		if p.isAwait(k) {
			return false
		}
	}
	return true
}
