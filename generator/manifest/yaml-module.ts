/**
 * The `yaml` package, loaded on first use: it keeps source positions, which
 * only diagnostics need, and loading it costs more than a valid manifest's
 * whole parse with js-yaml (see load.ts).
 */
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let yaml: Yaml | undefined;

/** The `yaml` module (its CommonJS build, loaded synchronously). */
export function yamlModule(): Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as Yaml;
  return yaml;
}
