/**
 * What a CI run demands of the files the tests take from `../shared` (a real model, the Open
 * Responses document): there, a green run must mean every test ran, so a file that is missing
 * fails the run instead of skipping what needs it. `.ci/run` sets `CI=true` itself; CI
 * services set it too. Locally the tests that need such a file skip, saying why.
 */

/** `CI` set to anything but '', 'false' or '0'. */
export function isCiRun(): boolean {
  const ci = process.env.CI?.trim().toLowerCase();
  return !!ci && ci !== 'false' && ci !== '0';
}

/**
 * Whether a file the tests need is there (`present`): true; absent, false locally (the tests
 * skip, saying `absent`) and an Error under CI, at once, in the same words.
 */
export function presentOrFailInCi(present: boolean, absent: string): boolean {
  if (present) return true;
  if (isCiRun())
    throw new Error(`${absent}, and this is a CI run (CI=${process.env.CI}): the tests that need it fail here instead of skipping. Put the file in place, or unset CI to skip them.`);
  return false;
}
