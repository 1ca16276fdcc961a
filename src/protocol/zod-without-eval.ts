/**
 * Imported for its effect, first, by the realms that only ever run under this app's
 * Content-Security-Policy (no 'unsafe-eval'): the runtime worker and the app's page.
 *
 * zod compiles an object schema's parser with `new Function` where it can, probing once
 * with `Function('')`. Under that policy the probe fails, as it should, and zod parses
 * without compiling; but the browser reports the refused eval on every start (Firefox as a
 * page error, Chromium in the console). `jitless` skips the probe: the same parsing, no
 * violation. It must run before any schema is created (zod reads it then). Never imported by
 * the package's page-side entry: that realm, and its zod, belong to the embedding app.
 */
import { z } from 'zod';

z.config({ jitless: true });
