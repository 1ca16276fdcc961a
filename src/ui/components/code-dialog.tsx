/**
 * "Use from your code": the `openai` SDK pointed at this origin, WebSocket mode, and a live
 * check that runs the same calls from this page (through the service worker, as another app
 * on the origin would): list the models, one tiny response with the selected model, and one
 * turn over `new WebSocket(…/v1/responses)` (the app installs the in-page WebSocket). With a
 * chat open, the snippet continues that chat by its conversation id: the answer shows in
 * the chat, as every chat of the app is a conversation (`conv_…`).
 */
import OpenAI from 'openai';
import { useState } from 'react';
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { CodeView } from './markdown-view';
import { Dialog } from './dialog';

/** How to continue the open chat from code: one more turn in its conversation. */
function continueChat(model: string, conversationId: string): string {
  return `

// Continue the chat that is open in the app (its conversation id); the answer shows there too:
const turn = await client.responses.create({
  model: '${model}',
  conversation: '${conversationId}',
  input: 'Sum up our chat in one line.',
});
console.log(turn.output_text);`;
}

export function snippet(origin: string, model: string, conversationId: string | null = null): string {
  return `import OpenAI from 'openai';

// Any page of ${origin} (the app must be open in a tab: it runs the models).
const client = new OpenAI({
  baseURL: location.origin + '/v1',
  apiKey: 'local', // not checked; the SDK wants one
  dangerouslyAllowBrowser: true,
});

const models = await client.models.list();
console.log(models.data.map((m) => m.id));

const response = await client.responses.create({
  model: '${model}',
  input: 'Say hello in five words.',
  max_output_tokens: 32,
});
console.log(response.output_text);

// Streaming:
const stream = await client.responses.create({ model: '${model}', input: 'Count to 5.', stream: true });
for await (const event of stream) {
  if (event.type === 'response.output_text.delta') console.log(event.delta);
}

// WebSocket mode (one connection, a response.create frame per turn; also the Agents SDK's
// setOpenAIResponsesTransport('websocket')):
const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/v1/responses');
ws.onopen = () => ws.send(JSON.stringify({ type: 'response.create', model: '${model}', input: 'Hi!' }));
ws.onmessage = (event) => {
  const frame = JSON.parse(event.data);
  if (frame.type === 'response.output_text.delta') console.log(frame.delta);
};${conversationId ? continueChat(model, conversationId) : ''}`;
}

/** One turn over the in-page WebSocket, as the snippet sends it: the answer's text, or why not. */
async function socketTurn(model: string): Promise<{ status: string; text: string }> {
  const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/v1/responses`);
  try {
    return await new Promise((resolve, reject) => {
      ws.onopen = () => ws.send(JSON.stringify({ type: 'response.create', model, input: 'Say hello in five words.', max_output_tokens: 32, store: false }));
      ws.onerror = () => reject(new Error('The WebSocket could not connect.'));
      ws.onmessage = (event: MessageEvent<string>) => {
        const frame = JSON.parse(event.data) as { type: string; response?: { status: string; output_text: string }; error?: { message: string } };
        if (frame.type === 'error') reject(new Error(frame.error?.message ?? 'error'));
        else if (frame.response && ['response.completed', 'response.incomplete', 'response.failed'].includes(frame.type)) resolve({ status: frame.response.status, text: frame.response.output_text });
      };
    });
  } finally {
    ws.close();
  }
}

type Step = { name: string; state: 'running' | 'ok' | 'failed'; detail: string };

export function CodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { settings: settingsStore, chat } = useServices();
  const settings = useStore(settingsStore);
  const { activeId, conversations } = useStore(chat);
  // A chat that is a conversation (not one that could not be saved).
  const conversationId = conversations.some((c) => c.id === activeId) && activeId?.startsWith('conv_') ? activeId : null;
  const model = settings.model ?? 'MODEL_ID';
  const [steps, setSteps] = useState<Step[]>([]);
  const [running, setRunning] = useState(false);
  const [copied, setCopied] = useState(false);
  const code = snippet(location.origin, model, conversationId);

  const run = async () => {
    setRunning(true);
    const log: Step[] = [];
    const show = (step: Step) => {
      const i = log.findIndex((s) => s.name === step.name);
      if (i >= 0) log[i] = step;
      else log.push(step);
      setSteps([...log]);
    };
    try {
      // Exactly as the snippet: the page's own fetch, so the service worker answers.
      const client = new OpenAI({ baseURL: `${location.origin}/v1`, apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0 });
      show({ name: 'client.models.list()', state: 'running', detail: '' });
      const t0 = performance.now();
      const models = await client.models.list();
      show({ name: 'client.models.list()', state: 'ok', detail: `${models.data.length} models in ${Math.round(performance.now() - t0)} ms` });
      if (!settings.model) {
        show({ name: 'client.responses.create()', state: 'failed', detail: 'Choose a model first (Models).' });
        return;
      }
      show({ name: 'client.responses.create()', state: 'running', detail: `model ${settings.model}` });
      const t1 = performance.now();
      const response = await client.responses.create({ model: settings.model, input: 'Say hello in five words.', max_output_tokens: 32, store: false });
      show({
        name: 'client.responses.create()',
        state: response.status === 'completed' || response.status === 'incomplete' ? 'ok' : 'failed',
        detail: `${response.status} in ${((performance.now() - t1) / 1000).toFixed(1)} s: “${response.output_text.trim()}”`,
      });
      const overSocket = 'new WebSocket(…/v1/responses)';
      show({ name: overSocket, state: 'running', detail: `model ${settings.model}` });
      const t2 = performance.now();
      const turn = await socketTurn(settings.model);
      show({
        name: overSocket,
        state: turn.status === 'completed' || turn.status === 'incomplete' ? 'ok' : 'failed',
        detail: `${turn.status} in ${((performance.now() - t2) / 1000).toFixed(1)} s: “${turn.text.trim()}”`,
      });
    } catch (error) {
      const last = log.at(-1);
      show({ name: last?.name ?? 'setup', state: 'failed', detail: error instanceof Error ? error.message : String(error) });
    } finally {
      setRunning(false);
    }
  };

  return (
    <Dialog open={open} title="Use from your code" onClose={onClose} wide>
      <p>
        Every page on this origin gets an OpenAI-compatible Responses API at <code>{location.origin}/v1</code>, served by this app. Use the
        official <code>openai</code> package:
      </p>
      <CodeView code={code} language="javascript" />
      {conversationId && (
        <p className="muted">
          This chat is the conversation <code>{conversationId}</code>: any code on this origin can read it (<code>client.conversations.items.list</code>) or continue it.
        </p>
      )}
      <div className="row-actions">
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(code).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            });
          }}
        >
          {copied ? 'Copied' : 'Copy snippet'}
        </button>
        <button type="button" className="primary" onClick={() => void run()} disabled={running}>
          {running ? 'Running…' : 'Run it here'}
        </button>
      </div>
      {steps.length > 0 && (
        <ol className="check-steps" aria-label="Live check" aria-live="polite">
          {steps.map((s) => (
            <li key={s.name} data-state={s.state}>
              <span className="step-mark" aria-hidden="true">
                {s.state === 'ok' ? '✓' : s.state === 'failed' ? '✗' : '…'}
              </span>
              <code>{s.name}</code> <span>{s.state === 'running' ? 'running…' : s.detail}</span>
              <span className="sr-only">{s.state}</span>
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}
