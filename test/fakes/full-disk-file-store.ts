/**
 * A FileStore whose disk can be made full: while `full` is set, every write fails as
 * IndexedDB fails when the origin's quota is used up (a `QuotaExceededError` with an empty
 * message, as Chromium gives it); reads go through. A fake at the storage port.
 */
import type { FileStore } from '../../src/ports/file-store';

export class FullDiskFileStore implements FileStore {
  full = false;
  refused = 0;

  constructor(private readonly inner: FileStore) {}

  private guard<T>(write: () => Promise<T>): Promise<T> {
    if (!this.full) return write();
    this.refused++;
    return Promise.reject(new DOMException('', 'QuotaExceededError'));
  }

  putFile: FileStore['putFile'] = (...a) => this.guard(() => this.inner.putFile(...a));
  deleteFile: FileStore['deleteFile'] = (...a) => this.guard(() => this.inner.deleteFile(...a));
  putText: FileStore['putText'] = (...a) => this.guard(() => this.inner.putText(...a));
  putVectorStore: FileStore['putVectorStore'] = (...a) => this.guard(() => this.inner.putVectorStore(...a));
  deleteVectorStore: FileStore['deleteVectorStore'] = (...a) => this.guard(() => this.inner.deleteVectorStore(...a));
  putStoreFile: FileStore['putStoreFile'] = (...a) => this.guard(() => this.inner.putStoreFile(...a));
  deleteStoreFile: FileStore['deleteStoreFile'] = (...a) => this.guard(() => this.inner.deleteStoreFile(...a));
  putBatch: FileStore['putBatch'] = (...a) => this.guard(() => this.inner.putBatch(...a));
  finishStoreFile: FileStore['finishStoreFile'] = (...a) => this.guard(() => this.inner.finishStoreFile(...a));
  putIndex: FileStore['putIndex'] = (...a) => this.guard(() => this.inner.putIndex(...a));
  getFile: FileStore['getFile'] = (...a) => this.inner.getFile(...a);
  fileBlob: FileStore['fileBlob'] = (...a) => this.inner.fileBlob(...a);
  listFiles: FileStore['listFiles'] = () => this.inner.listFiles();
  getText: FileStore['getText'] = (...a) => this.inner.getText(...a);
  getVectorStore: FileStore['getVectorStore'] = (...a) => this.inner.getVectorStore(...a);
  listVectorStores: FileStore['listVectorStores'] = () => this.inner.listVectorStores();
  getStoreFile: FileStore['getStoreFile'] = (...a) => this.inner.getStoreFile(...a);
  listStoreFiles: FileStore['listStoreFiles'] = (...a) => this.inner.listStoreFiles(...a);
  storesOfFile: FileStore['storesOfFile'] = (...a) => this.inner.storesOfFile(...a);
  unfinishedStoreFiles: FileStore['unfinishedStoreFiles'] = () => this.inner.unfinishedStoreFiles();
  getBatch: FileStore['getBatch'] = (...a) => this.inner.getBatch(...a);
  getChunks: FileStore['getChunks'] = (...a) => this.inner.getChunks(...a);
  fileChunks: FileStore['fileChunks'] = (...a) => this.inner.fileChunks(...a);
  getIndex: FileStore['getIndex'] = (...a) => this.inner.getIndex(...a);
}
