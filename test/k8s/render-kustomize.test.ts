/**
 * test/k8s/render-kustomize.ts, the renderer the manifest tests use instead of kubectl: the same
 * objects as `kubectl kustomize` (when kubectl is installed), its merges, what it refuses, images.
 */
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { OVERLAYS, overlayDir } from './manifests-support';
import {
  type Json,
  type K8sObject,
  KustomizeError,
  objectId,
  parseImage,
  renderKustomization,
  strategicMerge,
} from './render-kustomize';

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 20_000 });
const itWithKubectl = kubectl.status === 0 ? it : it.skip;

function unfoldSecretData(object: K8sObject): K8sObject {
  const data = object['data'];
  if (object.kind !== 'Secret' || typeof data !== 'object' || data === null) return object;
  const unfolded = Object.entries(data as Record<string, string>).map(([k, v]) => [k, v.replace(/\s/g, '')]);
  return { ...object, data: Object.fromEntries(unfolded) };
}

describe('render-kustomize', () => {
  itWithKubectl.each(OVERLAYS)(
    'renders %s exactly as `kubectl kustomize` does (when kubectl is installed)',
    (overlay) => {
      const result = spawnSync('kubectl', ['kustomize', overlayDir(overlay)], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      if (result.status !== 0) throw new Error(`kubectl kustomize failed: ${result.stderr}`);
      // kubectl folds long base64 values over several lines; the bytes are the same.
      const theirs = parseAllDocuments(result.stdout).map((d) => unfoldSecretData(d.toJS() as K8sObject));
      const ours = renderKustomization(overlayDir(overlay));
      const byId = (list: K8sObject[]) => Object.fromEntries(list.map((o) => [objectId(o), o]));
      expect(byId(ours)).toEqual(byId(theirs));
    },
  );

  it('merges keyed lists patch-first, maps key by key, and replaces unkeyed lists', () => {
    const original: Json = {
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'X', value: '1' },
              { name: 'Z', value: '3' },
            ],
            command: ['p', 'q'],
          },
          { name: 'b', image: 'y' },
        ],
        resources: { requests: { cpu: '1', memory: '1Gi' } },
      },
    };
    const patch: Json = {
      spec: {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'Y', value: '2' },
              { name: 'Z', value: '9' },
            ],
            command: ['r'],
          },
        ],
        resources: { requests: { cpu: '2' } },
      },
    };
    expect(strategicMerge(original, patch, [])).toEqual({
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'Y', value: '2' },
              { name: 'Z', value: '9' },
              { name: 'X', value: '1' },
            ],
            command: ['r'],
          },
          { name: 'b', image: 'y' },
        ],
        resources: { requests: { cpu: '2', memory: '1Gi' } },
      },
    });
    expect(strategicMerge({ a: 1, b: 2 }, { a: null }, [])).toEqual({ b: 2 });
  });

  it('refuses what it does not implement instead of rendering it wrongly', () => {
    expect(() => strategicMerge({ spec: {} }, { spec: { $patch: 'replace' } }, [])).toThrow(KustomizeError);
    expect(() => strategicMerge({ tolerations: [] }, { tolerations: [{ key: 'a' }] }, [])).toThrow(
      KustomizeError,
    );
    expect(() =>
      strategicMerge({ containers: [{ name: 'a' }] }, { containers: [{ image: 'x' }] }, []),
    ).toThrow(KustomizeError);
  });

  it('parses image references', () => {
    expect(parseImage('tally')).toEqual({ name: 'tally' });
    expect(parseImage('registry.example.com:5000/tally:1.2')).toEqual({
      name: 'registry.example.com:5000/tally',
      tag: '1.2',
    });
    expect(parseImage('tally@sha256:abc')).toEqual({ name: 'tally', digest: 'sha256:abc' });
  });
});
