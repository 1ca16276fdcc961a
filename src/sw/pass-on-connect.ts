/**
 * A page that does not run the runtime asks this worker for a runtime port of its own: the
 * connect message goes on over this worker's runtime port, with the page's new port, and
 * from then on the page sends its `/v1` requests to the runtime directly. So they are not
 * fetches of this worker, which Chromium cuts after ~5 minutes (see `fetch-deadline.ts`).
 */
import type { ConnectMessage, ConnectRefusedMessage } from '../transport/wire';
import { transportError } from '../transport/transport-error';
import { Codes } from '../shared/error-codes';
import type { RuntimeConnection } from './runtime-connection';

/** How long a connect waits for a page to hand over a runtime port (as a request does). */
const PORT_WAIT_MS = 3_000;

export async function passOnConnect(connect: ConnectMessage, connection: RuntimeConnection, appUrl: string): Promise<void> {
  const link = await connection.link(PORT_WAIT_MS);
  if (!link) {
    const refused: ConnectRefusedMessage = {
      type: 'refused',
      error: transportError(Codes.runtimeUnavailable, `No local runtime is running. Open the app (${appUrl}) in a tab to start it.`),
    };
    connect.port.postMessage(refused);
    connect.port.close();
    return;
  }
  link.port.postMessage(connect, [connect.port]);
}
