/**
 * A page that does not run the runtime opens a WebSocket connection through this worker:
 * the open message goes on over the runtime port, with the connection's channel, and from
 * then on the page and the runtime talk directly (this worker may stop; the channel lives).
 */
import type { SocketOpenMessage, SocketRefusedMessage } from '../transport/socket-wire';
import { transportError } from '../transport/transport-error';
import { Codes } from '../shared/error-codes';
import type { RuntimeConnection } from './runtime-connection';

/** How long an open waits for a page to hand over a runtime port (as a request does). */
const PORT_WAIT_MS = 3_000;

export async function passOnSocket(open: SocketOpenMessage, connection: RuntimeConnection, appUrl: string): Promise<void> {
  const link = await connection.link(PORT_WAIT_MS);
  if (!link) {
    const refused: SocketRefusedMessage = {
      type: 'refused',
      error: transportError(Codes.runtimeUnavailable, `No local runtime is running. Open the app (${appUrl}) in a tab to start it.`),
    };
    open.channel.postMessage(refused);
    open.channel.close();
    return;
  }
  link.port.postMessage(open, [open.channel]);
}
