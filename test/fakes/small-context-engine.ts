/**
 * The scripted engine (recording what it is given) serving `test-scripted` and the same
 * model under another id with a small context window, so a test can outgrow it in a few
 * turns (the server enforces a model's window from its `context_window`).
 */
import type { ModelInfo } from '../../src/ports/engine';
import { RecordingEngine } from './recording-engine';

export const SMALL_MODEL_ID = 'test-scripted-small';

export class SmallContextEngine extends RecordingEngine {
  constructor(readonly contextWindow = 600) {
    super();
  }

  override models(): ModelInfo[] {
    const [scripted] = super.models();
    return [scripted!, { ...scripted!, id: SMALL_MODEL_ID, context_window: this.contextWindow }];
  }
}
