/**
 * The Files API's wire shapes, as OpenAI's (`openai/resources/files`): the `file` object, its
 * deletion, and the limits of an upload. Uploads are multipart (`file`, `purpose`,
 * `expires_after[anchor]`, `expires_after[seconds]`); their bytes never pass through JSON.
 */
import { z } from 'zod';

/** What an upload may be for (the SDK's `FilePurpose`); only these are accepted. */
export const FILE_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;
export const FilePurpose = z.enum(FILE_PURPOSES);
export type FilePurpose = z.infer<typeof FilePurpose>;

/**
 * The largest file an upload may carry: 512 MB, OpenAI's own limit. The body goes from the
 * page to IndexedDB as a Blob (never whole in the runtime's memory), so the limit is the
 * disk's, not the tab's.
 */
export const MAX_FILE_BYTES = 512 * 1000 * 1000;
/** Room for the multipart framing and the small fields around the file part. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** The longest file name kept (longer names are refused: a name is shown, never truncated silently). */
export const MAX_FILENAME_CHARS = 255;

export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  /** Unix seconds. */
  created_at: number;
  filename: string;
  purpose: FilePurpose;
  /** Always `processed`: a stored file is ready at once (the SDK's `waitForProcessing` polls for it). */
  status: 'processed';
  status_details: null;
  /** Unix seconds when the file is deleted by itself (`expires_after`); null when never. */
  expires_at: number | null;
}

export interface FileDeleted {
  id: string;
  object: 'file';
  deleted: true;
}

/** `expires_after` of an upload, as OpenAI bounds it: one hour to 30 days after creation. */
export const FileExpiresAfter = z.strictObject({
  anchor: z.literal('created_at'),
  seconds: z.number().int().min(3600).max(2_592_000),
});
