// Loads a fresh copy of the learner's module graph for each worker and each schedule.
//
// Every worker gets its own instances of every module under the repository, so
// module-level state (an in-process mutex, a local cache) is not shared between
// workers, exactly as between two real worker processes, and does not leak from one
// schedule into the next. Built-in modules are shared; packages are not available.

import vm from 'node:vm';
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { pathToFileURL } from 'node:url';

const builtinNames = new Set(builtinModules);

/** Loads module graphs from one repository directory, reading each file once. */
export class ModuleGraphs {
  #root;
  #sources = new Map();
  #codeCache = new Map();
  #builtins = new Map();
  #graphs = 0;

  /** @param {string} repoDir absolute path of the learner's repository */
  constructor(repoDir) {
    this.#root = repoDir;
  }

  /**
   * Imports `relativePath` in a brand-new graph and returns its namespace.
   * @param {string} relativePath module path inside the repository
   * @param {string} label shown in stack traces, e.g. "blue"
   */
  async import(relativePath, label) {
    const graph = new Map();
    const entry = this.#module(path.resolve(this.#root, relativePath), graph, label);
    await this.#linkAndEvaluate(entry, graph, label);
    return entry.namespace;
  }

  async #linkAndEvaluate(module, graph, label) {
    if (module.status === 'unlinked') {
      await module.link((specifier, referrer, extra) => this.#resolve(specifier, referrer, graph, label, extra));
    }
    if (module.status === 'linked') await module.evaluate();
  }

  #resolve(specifier, referrer, graph, label, extra) {
    const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
    if (builtinNames.has(bare)) return this.#builtin(bare);
    if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('file:')) {
      throw new Error(`cannot import "${specifier}": the repository has no installed packages`);
    }
    const from = path.dirname(referrer.identifier.replace(/^file:\/\//, '').replace(/\?.*$/, ''));
    const target = specifier.startsWith('file:') ? new URL(specifier).pathname : path.resolve(from, specifier);
    if (target !== this.#root && !target.startsWith(this.#root + path.sep)) {
      throw new Error(`cannot import "${specifier}": it is outside the repository`);
    }
    if ((extra?.attributes ?? extra?.assert)?.type === 'json' || target.endsWith('.json')) {
      return this.#json(target, graph);
    }
    return this.#module(target, graph, label);
  }

  #module(file, graph, label) {
    const existing = graph.get(file);
    if (existing) return existing;
    // V8 reuses a compiled script for an identical source, and with it the first
    // graph's dynamic-import callback; a module that imports dynamically gets a
    // source of its own per graph.
    const dynamic = this.#source(file).includes('import(');
    const source = dynamic ? `${this.#source(file)}\n//# racecase-graph=${++this.#graphs}` : this.#source(file);
    const identifier = `${pathToFileURL(file).href}?worker=${label}`;
    const module = this.#compile(file, source, {
      identifier,
      cachedData: dynamic ? undefined : this.#codeCache.get(file),
      initializeImportMeta: (meta) => {
        meta.url = pathToFileURL(file).href;
        meta.filename = file;
        meta.dirname = path.dirname(file);
      },
      importModuleDynamically: async (specifier, referrer, attributes) => {
        const target = await this.#resolve(specifier, referrer, graph, label, { attributes });
        await this.#linkAndEvaluate(target, graph, label);
        return target;
      },
    });
    if (!dynamic && !this.#codeCache.has(file)) this.#codeCache.set(file, module.createCachedData());
    graph.set(file, module);
    return module;
  }

  /** Compiles a module; a syntax error names the file and, when it can, the line. */
  #compile(file, source, options) {
    try {
      return new vm.SourceTextModule(source, options);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      const where = path.relative(this.#root, file);
      let line = '';
      try {
        new vm.Script(source, { filename: where });
      } catch (scriptError) {
        const first = String(scriptError.stack).split('\n')[0];
        if (scriptError.message === error.message && first.startsWith(`${where}:`)) line = first.slice(where.length);
      }
      throw new SyntaxError(`${error.message} (${where}${line})`);
    }
  }

  #json(file, graph) {
    const existing = graph.get(file);
    if (existing) return existing;
    const value = JSON.parse(this.#source(file));
    const module = new vm.SyntheticModule(['default'], function init() { this.setExport('default', value); },
      { identifier: pathToFileURL(file).href });
    graph.set(file, module);
    return module;
  }

  #source(file) {
    let source = this.#sources.get(file);
    if (source === undefined) {
      source = fs.readFileSync(file, 'utf8');
      this.#sources.set(file, source);
    }
    return source;
  }

  async #builtin(name) {
    let module = this.#builtins.get(name);
    if (!module) {
      const namespace = await import(`node:${name}`);
      const keys = Object.keys(namespace);
      module = new vm.SyntheticModule(keys, function init() {
        for (const key of keys) this.setExport(key, namespace[key]);
      }, { identifier: `node:${name}` });
      this.#builtins.set(name, module);
    }
    return module;
  }
}
