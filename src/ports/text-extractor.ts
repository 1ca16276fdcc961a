/**
 * The port through which the server reads the text of an uploaded file. Files are untrusted:
 * an implementation parses them away from the runtime's own context (`tools/file-search/`
 * runs a dedicated worker per file, terminated past its time limit), bounds what it returns,
 * and answers a file it cannot read with a reason, never by throwing.
 */

export interface ExtractOptions {
  filename: string;
  /** The upload's `Content-Type` (a hint: the file name's extension decides first). */
  contentType: string;
  signal: AbortSignal;
}

/** Why a file has no text, in OpenAI's `last_error` codes. */
export interface ExtractFailure {
  ok: false;
  /** `unsupported_file`: a kind of file we cannot read; `invalid_file`: it claims a kind and is not; `server_error`: reading it failed (time limit, a crash). */
  code: 'unsupported_file' | 'invalid_file' | 'server_error';
  message: string;
}

export interface ExtractSuccess {
  ok: true;
  text: string;
  /** The text was cut at the output limit (what was cut is not searchable). */
  truncated: boolean;
}

export type Extraction = ExtractSuccess | ExtractFailure;

export interface TextExtractor {
  extract(file: Blob, options: ExtractOptions): Promise<Extraction>;
}
