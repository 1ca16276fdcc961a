/** The scripted engine, keeping every request it was given (what the model was shown, with which parameters). */
import type { GenerateRequest, Generation } from '../../src/ports/engine';
import { ScriptedEngine } from '../../src/engine/scripted-engine';

export class RecordingEngine extends ScriptedEngine {
  readonly requests: GenerateRequest[] = [];
  override generate(request: GenerateRequest): Generation {
    this.requests.push(request);
    return super.generate(request);
  }
}
