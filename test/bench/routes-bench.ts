/**
 * `npm run bench:routes`: what a route's decision adds to a request (target: ≤ 2 ms), through
 * the real server and the `openai` SDK (Node, fake-indexeddb), `test-scripted` the device's
 * model and `lab/tiny` a fake upstream over real HTTP on 127.0.0.1.
 *
 * Pairs, alternating, one run each per round (medians; see ../shared/TESTING.md "Benchmarks"):
 *   prepare·local     `POST /v1/responses/input_tokens` (everything before a response exists,
 *                     the decision included): `test-scripted` vs the prefer-local route
 *   create·local      a whole create: `test-scripted` vs the prefer-local route (device answers)
 *   create·remote     `lab/tiny` vs the prefer-remote route, the provider seen up within 2 s
 *   create·remote·ask the same, asking the provider (`GET /models`) at every decision
 *   create·image      an image, `lab/tiny` vs the prefer-local route: the device's model is
 *                     tried and refuses, then the provider's is prepared (the fallback's cost)
 */
import 'fake-indexeddb/auto';
import { afterAll, test } from 'vitest';
import { providerConnector } from '../../src/engine/remote';
import { piecesOf, startFakeUpstream, type FakeUpstream } from '../fakes/fake-upstream';
import { localClient, type LocalClient } from '../support/local-client';
import { APP_ORIGIN } from '../support/provider-client';
import { median } from './median';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 41);
const IMAGE = 'data:image/png;base64,iVBORw0KGgo=';

let upstream: FakeUpstream;
const clients: LocalClient[] = [];
afterAll(async () => {
  for (const c of clients) {
    await c.server.close();
    c.store.close();
  }
  await upstream?.close();
});

async function client(reachFreshMs?: number): Promise<LocalClient> {
  const local = await localClient({
    server: {
      providers: {
        connect: providerConnector({ appOrigin: APP_ORIGIN }),
        appOrigin: APP_ORIGIN,
        initial: [{ id: 'lab', baseUrl: upstream.baseUrl }],
        ...(reachFreshMs !== undefined ? { reachFreshMs } : {}),
      },
      routes: {
        initial: [
          { id: 'auto', local: 'test-scripted', remote: 'lab/tiny' },
          { id: 'server', local: 'test-scripted', remote: 'lab/tiny', prefer: 'remote' },
        ],
      },
    },
  });
  clients.push(local);
  return local;
}

async function ms(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

test('what a route’s decision adds to a request', { timeout: 10 * 60_000 }, async () => {
  upstream = await startFakeUpstream();
  upstream.reply = () => ({ kind: 'chat', pieces: piecesOf('From the server.') });
  const fresh = await client();
  const asking = await client(0);
  const text = 'Tell me a story about a lighthouse keeper and a storm.';
  const image = [{ role: 'user' as const, content: [{ type: 'input_text' as const, text: 'What is this?' }, { type: 'input_image' as const, image_url: IMAGE, detail: 'auto' as const }] }];

  const pairs: Array<{ name: string; direct: () => Promise<unknown>; routed: () => Promise<unknown> }> = [
    {
      name: 'prepare·local',
      direct: () => fresh.client.responses.inputTokens.count({ model: 'test-scripted', input: text }),
      routed: () => fresh.client.responses.inputTokens.count({ model: 'auto', input: text }),
    },
    {
      name: 'create·local',
      direct: () => fresh.client.responses.create({ model: 'test-scripted', input: text }),
      routed: () => fresh.client.responses.create({ model: 'auto', input: text }),
    },
    {
      name: 'create·remote',
      direct: () => fresh.client.responses.create({ model: 'lab/tiny', input: text }),
      routed: () => fresh.client.responses.create({ model: 'server', input: text }),
    },
    {
      name: 'create·remote·ask',
      direct: () => asking.client.responses.create({ model: 'lab/tiny', input: text }),
      routed: () => asking.client.responses.create({ model: 'server', input: text }),
    },
    {
      name: 'create·image',
      direct: () => fresh.client.responses.create({ model: 'lab/tiny', input: image }),
      routed: () => fresh.client.responses.create({ model: 'auto', input: image }),
    },
  ];
  const rows: Array<Record<string, string | number>> = [];
  for (const pair of pairs) {
    // Warm both paths (JIT, connections, the provider's model list).
    for (let i = 0; i < 3; i++) {
      await pair.direct();
      await pair.routed();
    }
    const direct: number[] = [];
    const routed: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so neither always runs on a warmer machine.
      if (round % 2) {
        direct.push(await ms(pair.direct));
        routed.push(await ms(pair.routed));
      } else {
        routed.push(await ms(pair.routed));
        direct.push(await ms(pair.direct));
      }
    }
    const d = median(direct);
    const r = median(routed);
    rows.push({ path: pair.name, 'by name ms': +d.toFixed(2), 'by route ms': +r.toFixed(2), 'added ms': +(r - d).toFixed(2), ratio: +(r / d).toFixed(2) });
  }
  console.table(rows);
});
