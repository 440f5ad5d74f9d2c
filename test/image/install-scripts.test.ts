/**
 * npm runs install scripts only for the packages package.json#allowScripts allows (npm 11): the ones
 * the build and the tests need (esbuild's and @swc/core's binary checks), and no others. Every
 * installed package with an install script must be decided there, or `npm ci` warns about it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
type Manifest = {
  name?: string;
  scripts?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  scarfSettings?: { enabled?: boolean };
};
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** Every installed package (node_modules, scoped and nested) with a preinstall/install/postinstall script. */
function withInstallScripts(dir: string, found = new Set<string>()): Set<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      withInstallScripts(full, found);
      continue;
    }
    let manifest: Manifest;
    try {
      manifest = read(path.join(full, 'package.json'));
    } catch {
      continue;
    }
    const scripts = manifest.scripts ?? {};
    if (manifest.name && ['preinstall', 'install', 'postinstall'].some((s) => scripts[s]))
      found.add(manifest.name);
    try {
      withInstallScripts(path.join(full, 'node_modules'), found);
    } catch {
      // no nested node_modules
    }
  }
  return found;
}

describe('install scripts', () => {
  const root = read(path.join(ROOT, 'package.json'));

  it('are allowed for esbuild and @swc/core only, and every installed package with one is decided', () => {
    const policy = root.allowScripts ?? {};
    expect(
      Object.entries(policy)
        .filter(([, allowed]) => allowed)
        .map(([name]) => name)
        .sort(),
    ).toEqual(['@swc/core', 'esbuild']);
    const installed = [...withInstallScripts(path.join(ROOT, 'node_modules'))].sort();
    expect(installed).toEqual(expect.arrayContaining(['@swc/core', 'esbuild']));
    expect(installed.filter((name) => !(name in policy))).toEqual([]);
  });

  it("keep @scarf/scarf's analytics off", () => {
    expect(root.allowScripts?.['@scarf/scarf']).toBe(false);
    expect(root.scarfSettings?.enabled).toBe(false);
  });
});
