// A node:test reporter for the visible suite: one JSON line per finished test and
// per piece of output, each marked so the supervisor can tell them from other text.

const MARK = '\x1ercv ';

/**
 * Turns node:test events into marked JSON lines.
 * @param {AsyncIterable<{ type: string, data: any }>} source
 */
export default async function* visibleReporter(source) {
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:pass' || type === 'test:fail') {
      if (data.details?.type === 'suite') continue;
      const error = data.details?.error;
      const cause = error?.cause ?? error;
      yield `${MARK}${JSON.stringify({
        kind: 'test',
        name: data.name,
        file: data.file ?? '',
        nesting: data.nesting,
        status: type === 'test:pass' ? (data.skip || data.todo ? 'skip' : 'pass') : 'fail',
        failureType: error?.failureType ?? '',
        message: cause ? `${cause.name ?? 'Error'}: ${cause.message ?? String(cause)}` : '',
      })}\n`;
    } else if (type === 'test:stdout' || type === 'test:stderr') {
      yield `${MARK}${JSON.stringify({ kind: 'output', file: data.file ?? '', text: data.message })}\n`;
    }
  }
}
