/** An `input_file` part of a request — in a message or a tool output — as it is stored. */
import type { z } from 'zod';
import type { InputFilePart } from '../../protocol/input-item-schemas';
import type { InputFile } from '../../protocol/output-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';

/** An `input_file` part as stored: exactly one of `file_id` and `file_data` (with its `filename`); never a URL. */
export function inputFile(part: z.infer<typeof InputFilePart>, param: string): InputFile {
  if (part.file_url !== undefined)
    throw invalidRequest(
      "Unsupported parameter: 'file_url'. The local runtime fetches nothing a request names: upload the file (POST /v1/files) and send its file_id, or send its bytes as file_data.",
      `${param}.file_url`,
      Codes.unsupportedParameter,
    );
  const id = part.file_id ?? null;
  if (id !== null && part.file_data !== undefined)
    throw invalidRequest("Mutually exclusive parameters: send one of 'file_id' and 'file_data'.", `${param}.file_data`, Codes.mutuallyExclusiveParameters);
  if (id === null && part.file_data === undefined) throw invalidRequest("Missing required parameter: 'file_id' (or 'file_data').", `${param}.file_id`, Codes.missingRequiredParameter);
  if (part.file_data !== undefined && part.filename === undefined)
    throw invalidRequest("Missing required parameter: 'filename' (a file sent as file_data needs its name).", `${param}.filename`, Codes.missingRequiredParameter);
  return { type: 'input_file', file_id: id, ...(part.filename !== undefined ? { filename: part.filename } : {}), ...(part.file_data !== undefined ? { file_data: part.file_data } : {}) };
}
