package authoring

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"

	"github.com/racecase/racecase/challenges"
)

// syntaxScript parses each file it reads on stdin with V8, without running
// it: an ES module (SourceTextModule, which reports the early errors of a
// module too) or, for .cjs, a CommonJS function body. It prints, per file,
// the SyntaxError's message or "".
const syntaxScript = `
import vm from 'node:vm';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const answers = JSON.parse(input).map(({ path, source }) => {
  try {
    if (path.endsWith('.cjs')) new vm.Script('(function (exports, require, module, __filename, __dirname) {' + source + '\n})', { filename: path });
    else new vm.SourceTextModule(source, { identifier: path });
    return '';
  } catch (error) {
    return String(error?.message ?? error) || 'does not parse';
  }
});
process.stdout.write(JSON.stringify(answers));
`

// CheckSyntax parses JavaScript files with Node.js, all in one process, and
// says for each why it does not parse ("" when it does): the
// challenges.SyntaxChecker that validate drops unparsable mutants with.
// Node.js must be on PATH.
func CheckSyntax(ctx context.Context, files []challenges.SourceFile) ([]string, error) {
	if len(files) == 0 {
		return nil, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("Node.js is not on PATH: install Node.js 20 to parse the mutants of reference fixes")
	}
	input, err := json.Marshal(files)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, suiteCheckTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, "--experimental-vm-modules", "--no-warnings", "--input-type=module", "-e", syntaxScript)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(input), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("node: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	var answers []string
	if err := json.Unmarshal(stdout.Bytes(), &answers); err != nil || len(answers) != len(files) {
		return nil, fmt.Errorf("node answered %d parse results for %d files: %q", len(answers), len(files), stdout.String())
	}
	return answers, nil
}
