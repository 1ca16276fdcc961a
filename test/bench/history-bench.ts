/**
 * `npm run bench:history`: the latency of one more turn of a long history, through the real
 * server and the `openai` SDK (Node, fake-indexeddb, `test-scripted` answering at once).
 *
 * Paths, alternating, one run each per round (medians; see ../shared/TESTING.md "Benchmarks"):
 *   chain·old      previous_response_id, the chain read as before schema v2: two reads per
 *                  earlier turn (a store wrapper at the port replays the old walk)
 *   chain          previous_response_id, the chain read in one range read of its thread's items
 *   conversation   conversation: {id}, the context read in one range read of its items
 */
import 'fake-indexeddb/auto';
import { afterAll, test } from 'vitest';
import type { Chain, ChainTurn, ResponseStore } from '../../src/ports/response-store';
import { localClient, type LocalClient } from '../support/local-client';

const TURNS = (process.env.BENCH_TURNS ?? '10,100,400').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const MODEL = 'test-scripted';

/** The pre-v2 read of a chain: one `get` and one `inputItems` per turn. A fake at the storage port. */
function oldChainWalk(inner: ResponseStore): ResponseStore {
  const chain = async (lastId: string): Promise<Chain | undefined> => {
    const last = await inner.get(lastId);
    if (!last) return undefined;
    const turns: ChainTurn[] = [];
    for (let id: string | null = lastId; id; ) {
      const response = await inner.get(id);
      if (!response) return { last, turns, missing: id };
      turns.unshift({ id, input: await inner.inputItems(id), output: response.output });
      id = response.previous_response_id;
    }
    return { last, turns, missing: null };
  };
  return new Proxy(inner, { get: (target, key) => (key === 'chain' ? chain : Reflect.get(target, key, target)) });
}

const clients: LocalClient[] = [];
afterAll(async () => {
  for (const c of clients) {
    await c.server.close();
    c.store.close();
  }
});

async function ms(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

test('create latency of one more turn, by history length', { timeout: 30 * 60_000 }, async () => {
  const rows: Array<Record<string, string | number>> = [];
  for (const turns of TURNS) {
    const fresh = await localClient();
    // The old walk reads the same database as the new path, so both see the same rows.
    const old = await localClient({ dbName: fresh.dbName, wrapStore: oldChainWalk });
    clients.push(fresh, old);
    const { client } = fresh;
    let last = (await client.responses.create({ model: MODEL, input: 'turn 0' })).id;
    for (let i = 1; i < turns; i++) last = (await client.responses.create({ model: MODEL, input: `turn ${i}`, previous_response_id: last })).id;
    const conversation = await client.conversations.create();
    for (let i = 0; i < turns; i++) await client.responses.create({ model: MODEL, input: `turn ${i}`, conversation: conversation.id });

    const times: Record<'chain·old' | 'chain' | 'conversation', number[]> = { 'chain·old': [], chain: [], conversation: [] };
    // A measured chain turn branches off the same last turn; it does not lengthen the chain.
    const chainTurn = (c: LocalClient) => () => c.client.responses.create({ model: MODEL, input: 'one more', previous_response_id: last });
    // A measured conversation turn is not stored, so the conversation keeps its length.
    const conversationTurn = () => client.responses.create({ model: MODEL, input: 'one more', conversation: conversation.id, store: false });
    await chainTurn(old)();
    await chainTurn(fresh)();
    await conversationTurn();
    for (let round = 0; round < ROUNDS; round++) {
      times['chain·old'].push(await ms(chainTurn(old)));
      times.chain.push(await ms(chainTurn(fresh)));
      times.conversation.push(await ms(conversationTurn));
    }
    const oldMs = median(times['chain·old']);
    rows.push({
      turns,
      'chain·old ms': +oldMs.toFixed(1),
      'chain ms': +median(times.chain).toFixed(1),
      'conversation ms': +median(times.conversation).toFixed(1),
      'old / chain': +(oldMs / median(times.chain)).toFixed(1),
      'old / conversation': +(oldMs / median(times.conversation)).toFixed(1),
    });
  }
  console.table(rows);
});
