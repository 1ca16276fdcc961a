/** "Install app" in the Settings dialog, where the browser has no install prompt (see install-advice.ts). */
import { useState } from 'react';
import { currentInstallEnvironment, installAdvice } from '../install-advice';

export function InstallSection() {
  const [advice] = useState(() => installAdvice(currentInstallEnvironment()));
  if (!advice) return null;
  return (
    <fieldset className="field">
      <legend>Install app</legend>
      <p className="help install-advice">{advice}</p>
    </fieldset>
  );
}
