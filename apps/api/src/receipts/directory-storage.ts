import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { checkStorageKey, type ReceiptStorage, type StoredFile } from './receipt-storage';

/** A file's media type is kept beside it: `<key>.type`, so a listing skips these. */
const TYPE_SUFFIX = '.type';

/**
 * Receipt storage in a directory (the embedded default: `DATA_DIR/receipts`). A put writes a
 * temporary file and renames it, so a reader never sees half a file.
 */
export function createDirectoryStorage(root: string): ReceiptStorage {
  const pathOf = (key: string) => join(root, ...checkStorageKey(key).split('/'));
  const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
  return {
    async put(key, file: StoredFile) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(`${path}${TYPE_SUFFIX}`, file.contentType);
      await writeFile(temporary, file.bytes);
      await rename(temporary, path);
    },
    async get(key) {
      const path = pathOf(key);
      try {
        const [bytes, contentType] = await Promise.all([
          readFile(path),
          readFile(`${path}${TYPE_SUFFIX}`, 'utf8'),
        ]);
        return { bytes, contentType };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async delete(key) {
      const path = pathOf(key);
      await rm(path, { force: true });
      await rm(`${path}${TYPE_SUFFIX}`, { force: true });
    },
    async list(prefix) {
      // A prefix names a folder of keys (`grp_…/exp_…/`): only that folder is walked, not the root.
      const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      let entries: Dirent[];
      try {
        entries = await readdir(folder ? pathOf(folder) : root, { recursive: true, withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
        .filter((key) => key.startsWith(prefix) && !key.endsWith(TYPE_SUFFIX) && !key.endsWith('.tmp'));
    },
  };
}
