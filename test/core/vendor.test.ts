/**
 * core/vendor: after `npm run build` each module there is one self-contained file (its libraries
 * bundled in), importing nothing but node's own modules, and still exports what the code uses.
 */
import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, TypeCompiler } from '../../core/vendor/typebox.js';
import { container, injectable } from '../../core/vendor/tsyringe.js';

const vendorDir = fileURLToPath(new URL('../../core/vendor/', import.meta.url));

/** The specifiers a compiled module imports (statements at a line's start) or requires. */
function specifiersOf(code: string): string[] {
  const found = [...code.matchAll(/^\s*(?:import|export)\b[^;'"]*?["']([^"']+)["']|\brequire\(\s*["']([^"']+)["']\s*\)/gm)];
  return found.map((m) => m[1] ?? m[2]!);
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier);

describe('core/vendor bundles', () => {
  it('each vendor module imports only node\'s own modules', async () => {
    const files = (await readdir(vendorDir)).filter((f) => f.endsWith('.js') && f !== 'bundle.js');
    expect(files).to.include.members(['typebox.js', 'tsyringe.js']);
    for (const file of files) {
      const foreign = specifiersOf(await readFile(join(vendorDir, file), 'utf8')).filter((s) => !isBuiltin(s));
      expect(foreign, `${file} imports ${foreign.join(', ')}: run npm run build`).to.deep.equal([]);
    }
  });

  it('the bundles work: a TypeBox schema compiles and checks, tsyringe builds an injectable class', () => {
    const check = TypeCompiler.Compile(Type.Object({ n: Type.Integer() }));
    expect([check.Check({ n: 1 }), check.Check({ n: 'x' })]).to.deep.equal([true, false]);
    @injectable()
    class Dependency {}
    @injectable()
    class Service {
      constructor(readonly dependency: Dependency) {}
    }
    expect(container.createChildContainer().resolve(Service).dependency).to.be.instanceOf(Dependency);
  });
});
