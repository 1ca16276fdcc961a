/**
 * An in-memory origin private file system (`navigator.storage.getDirectory()`) for Node
 * tests: folders and files by name, read through `getFile()`. Only what wllama's cache
 * listing reads (and `removeEntry`); no writable streams or sync access handles.
 */
class MemoryFileHandle {
  readonly kind = 'file';
  constructor(
    readonly name: string,
    public bytes: Uint8Array<ArrayBuffer>,
  ) {}

  async getFile(): Promise<File> {
    return new File([this.bytes], this.name);
  }
}

function notFound(name: string): DOMException {
  return new DOMException(`${name} was not found`, 'NotFoundError');
}

export class MemoryDirectoryHandle {
  readonly kind = 'directory';
  readonly children = new Map<string, MemoryDirectoryHandle | MemoryFileHandle>();

  constructor(readonly name: string) {}

  async getDirectoryHandle(name: string, options: { create?: boolean } = {}): Promise<MemoryDirectoryHandle> {
    const found = this.children.get(name);
    if (found instanceof MemoryDirectoryHandle) return found;
    if (found) throw new DOMException(`${name} is a file`, 'TypeMismatchError');
    if (!options.create) throw notFound(name);
    const dir = new MemoryDirectoryHandle(name);
    this.children.set(name, dir);
    return dir;
  }

  async getFileHandle(name: string, options: { create?: boolean } = {}): Promise<MemoryFileHandle> {
    const found = this.children.get(name);
    if (found instanceof MemoryFileHandle) return found;
    if (found) throw new DOMException(`${name} is a folder`, 'TypeMismatchError');
    if (!options.create) throw notFound(name);
    const file = new MemoryFileHandle(name, new Uint8Array());
    this.children.set(name, file);
    return file;
  }

  async removeEntry(name: string): Promise<void> {
    if (!this.children.delete(name)) throw notFound(name);
  }

  async *entries(): AsyncGenerator<[string, MemoryDirectoryHandle | MemoryFileHandle]> {
    yield* [...this.children.entries()];
  }

  /** Test helper: writes a file (made with its folder path), replacing one of that name. */
  write(path: string, content: string | Uint8Array): void {
    const parts = path.split('/');
    let dir: MemoryDirectoryHandle = this;
    for (const part of parts.slice(0, -1)) {
      let next = dir.children.get(part);
      if (!(next instanceof MemoryDirectoryHandle)) dir.children.set(part, (next = new MemoryDirectoryHandle(part)));
      dir = next;
    }
    const name = parts.at(-1)!;
    dir.children.set(name, new MemoryFileHandle(name, typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content)));
  }
}

/** `navigator.storage` with just the private file system. */
export function memoryOpfs(): { root: MemoryDirectoryHandle; storage: { getDirectory(): Promise<FileSystemDirectoryHandle> } } {
  const root = new MemoryDirectoryHandle('');
  return { root, storage: { getDirectory: async () => root as unknown as FileSystemDirectoryHandle } };
}
