import { TallyError } from './errors.js';
import { snapshotOutboxStorage } from './outbox-storage.js';
import type { OutboxStorage } from './outbox-types.js';

/** The part of Node's `fs/promises` file handle the file storage uses. */
type FileHandleLike = {
  writeFile(data: string, encoding: 'utf8'): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
};

/** The part of Node's `fs` module the file storage uses (`require('node:fs')`). */
export type NodeFsLike = {
  promises: {
    readFile(path: string, encoding: 'utf8'): Promise<string>;
    open(path: string, flags: string): Promise<FileHandleLike>;
    rename(from: string, to: string): Promise<void>;
    mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  };
};

type NodeProcessLike = { getBuiltinModule?: (id: string) => unknown };

/** Node's `fs`, found without an `import`, so that bundlers for React Native and browsers never see it. */
function nodeFs(): NodeFsLike {
  const proc = (globalThis as unknown as { process?: NodeProcessLike }).process;
  const fs = typeof proc?.getBuiltinModule === 'function' ? proc.getBuiltinModule('node:fs') : undefined;
  if (!fs) {
    throw new TallyError(
      "fileOutbox needs Node's fs: on Node older than 20.16 pass it, fileOutbox(path, { fs: require('node:fs') })",
    );
  }
  return fs as NodeFsLike;
}

function dirnameOf(file: string): string {
  const cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return cut <= 0 ? (cut === 0 ? file.slice(0, 1) : '.') : file.slice(0, cut);
}

const isNotFound = (error: unknown) => (error as { code?: unknown } | null)?.code === 'ENOENT';

/**
 * An outbox in one JSON file, for Node: each change writes the whole outbox to `<path>.tmp`, fsyncs
 * it, renames it over `<path>` and fsyncs the directory, so after a crash or power loss the file holds
 * either the outbox before the change or after it, never a torn mix. Concurrent changes share one
 * write. One process at a time may use a file.
 */
export function fileOutbox(path: string, options: { fs?: NodeFsLike } = {}): OutboxStorage {
  const fs = (options.fs ?? nodeFs()).promises;
  const dir = dirnameOf(path);
  const tmp = `${path}.tmp`;
  let madeDir = false;

  const syncDir = async () => {
    let handle: FileHandleLike | undefined;
    try {
      handle = await fs.open(dir, 'r');
      await handle.sync();
    } catch {
      // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
    } finally {
      await handle?.close().catch(() => {});
    }
  };

  return snapshotOutboxStorage({
    async read() {
      try {
        return await fs.readFile(path, 'utf8');
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async write(text) {
      if (!madeDir) {
        await fs.mkdir(dir, { recursive: true });
        madeDir = true;
      }
      const handle = await fs.open(tmp, 'w');
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, path);
      await syncDir();
    },
  });
}
