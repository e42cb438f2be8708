// Loads the learner's modules into one realm: a module graph of its own for
// every schedule, compiled from sources read once per process. Imports resolve
// inside the repository only; node: modules come from the realm's runtime.
// Every error that can reach the learner's code (a failed dynamic import) is
// created in the realm itself.

import vm from 'node:vm';
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';

const builtinNames = new Set(builtinModules);

/** Raised for a module the repository cannot provide; its message is for the learner. */
export class ModuleError extends Error {}

/** Reads and compiles the repository's modules; one instance per worker process. */
export class ModuleSources {
  #root;
  #sources = new Map();
  #realNames = new Map();

  /** @param {string} repoDir absolute path of the learner's repository */
  constructor(repoDir) {
    this.#root = repoDir;
  }

  /** The repository's absolute path. */
  get root() {
    return this.#root;
  }

  /** The text of a file in the repository, read once. */
  source(file) {
    let source = this.#sources.get(file);
    if (source === undefined) {
      try {
        source = fs.readFileSync(file, 'utf8');
      } catch {
        throw new ModuleError(`cannot import "${path.relative(this.#root, file)}": no such file in the repository`);
      }
      this.#sources.set(file, source);
    }
    return source;
  }

  /**
   * Compiles a module into a realm's context. No code cache is used: V8 merges a
   * script deserialized from a code cache into the one it compiled first, and
   * with it keeps that script's dynamic-import callback, which belongs to another
   * realm. The identifier is the file's URL alone, the same in every realm: a
   * stack that V8 formats itself shows it, and nothing in it may tell one
   * schedule from another.
   */
  compile(file, context, importModuleDynamically) {
    const url = pathToFileURL(file).href;
    let module;
    try {
      module = new vm.SourceTextModule(this.source(file), {
        identifier: url,
        context,
        initializeImportMeta: (meta) => {
          meta.url = url;
          meta.filename = file;
          meta.dirname = path.dirname(file);
        },
        importModuleDynamically,
      });
    } catch (error) {
      throw this.#syntaxError(file, error);
    }
    return module;
  }

  /** The export names of the real built-in module, for stubs of unavailable ones. */
  async realExportNames(name) {
    if (!this.#realNames.has(name)) {
      let names = [];
      try {
        names = Object.keys(await import(`node:${name}`));
      } catch {
        names = [];
      }
      this.#realNames.set(name, JSON.stringify(names));
    }
    return this.#realNames.get(name);
  }

  #syntaxError(file, error) {
    const where = path.relative(this.#root, file);
    if (error?.name !== 'SyntaxError') return new ModuleError(`${where} could not be compiled`);
    let line = '';
    try {
      new vm.Script(this.source(file), { filename: where });
    } catch (scriptError) {
      const first = String(scriptError.stack).split('\n')[0];
      if (scriptError.message === error.message && first.startsWith(`${where}:`)) line = first.slice(where.length);
    }
    return new ModuleError(`SyntaxError: ${error.message} (${where}${line})`);
  }
}

/** The module graph of one realm. */
export class ModuleGraph {
  #sources;
  #realm;
  #modules = new Map();

  /**
   * @param {ModuleSources} sources
   * @param {import('./realm.mjs').Realm} realm
   */
  constructor(sources, realm) {
    this.#sources = sources;
    this.#realm = realm;
  }

  /**
   * Loads and links `relativePath` with everything it imports; the caller evaluates it.
   * @returns {Promise<vm.SourceTextModule>}
   * @throws {ModuleError} with a message for the learner
   */
  async link(relativePath) {
    const entry = this.#file(path.resolve(this.#sources.root, relativePath));
    if (entry.status === 'unlinked') await entry.link((specifier, referrer, extra) => this.#resolve(specifier, referrer, extra));
    return entry;
  }

  async #ready(module) {
    if (module.status === 'unlinked') await module.link((specifier, referrer, extra) => this.#resolve(specifier, referrer, extra));
    if (module.status === 'linked') await module.evaluate();
  }

  async #resolve(specifier, referrer, extra) {
    const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
    if (builtinNames.has(bare)) return this.#builtin(bare);
    if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('file:')) {
      throw new ModuleError(`cannot import "${specifier}": the repository has no installed packages`);
    }
    const from = path.dirname(fileURLToPath(referrer.identifier));
    let target;
    try {
      target = specifier.startsWith('file:') ? fileURLToPath(specifier) : path.resolve(from, specifier);
    } catch {
      throw new ModuleError(`cannot import "${specifier}": not a file URL`);
    }
    const root = this.#sources.root;
    if (target !== root && !target.startsWith(root + path.sep)) {
      throw new ModuleError(`cannot import "${specifier}": it is outside the repository`);
    }
    if ((extra?.attributes ?? extra?.assert)?.type === 'json' || target.endsWith('.json')) return this.#json(target);
    return this.#file(target);
  }

  #file(file) {
    let module = this.#modules.get(file);
    if (!module) {
      module = this.#sources.compile(file, this.#realm.context,
        (specifier, referrer, attributes) => this.#dynamic(specifier, referrer, attributes));
      this.#modules.set(file, module);
    }
    return module;
  }

  /** A dynamic import(): every failure becomes an error of the realm, never one of this process. */
  async #dynamic(specifier, referrer, attributes) {
    if (!this.#owns(referrer)) throw this.#realm.entry.error(`cannot import "${specifier}" here`);
    try {
      const module = await this.#resolve(specifier, referrer, { attributes });
      await this.#ready(module);
      return module;
    } catch (error) {
      if (error instanceof ModuleError) throw this.#realm.entry.error(error.message);
      // An error of this process's realm is replaced; anything else is the learner's own value.
      if (error instanceof Error) throw this.#realm.entry.error(`cannot import "${specifier}"`);
      throw error;
    }
  }

  #owns(module) {
    for (const known of this.#modules.values()) if (known === module) return true;
    return false;
  }

  #json(file) {
    let module = this.#modules.get(file);
    if (!module) {
      const text = this.#sources.source(file);
      let value;
      try {
        value = this.#realm.entry.json(text);
      } catch {
        throw new ModuleError(`${path.relative(this.#sources.root, file)} is not valid JSON`);
      }
      module = new vm.SyntheticModule(['default'], function init() { this.setExport('default', value); },
        { identifier: pathToFileURL(file).href, context: this.#realm.context });
      this.#modules.set(file, module);
    }
    return module;
  }

  async #builtin(name) {
    const key = `node:${name}`;
    let module = this.#modules.get(key);
    if (!module) {
      const { entry } = this.#realm;
      const known = entry.hasBuiltin(name) ? '[]' : await this.#sources.realExportNames(name);
      const names = JSON.parse(entry.builtinNames(name, known));
      const exportNames = ['default', ...names];
      module = new vm.SyntheticModule(exportNames, function init() {
        for (const exportName of exportNames) this.setExport(exportName, entry.builtinExport(name, exportName));
      }, { identifier: key, context: this.#realm.context });
      this.#modules.set(key, module);
    }
    return module;
  }
}
