/** Reads a JSON request body, with OpenAI's errors for the wrong content type or malformed JSON. */
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';

export async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type.trim()))
    throw invalidRequest(
      `Invalid Content-Type header (${type || 'none'}): send the request body as JSON with 'Content-Type: application/json'.`,
      null,
      Codes.invalidContentType,
    );
  const text = await request.text();
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest(
      "We could not parse the JSON body of your request. The API expects a JSON payload, but what was sent was not valid JSON.",
      null,
      Codes.invalidJson,
    );
  }
}
