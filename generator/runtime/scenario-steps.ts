/**
 * The steps of a declared scenario, in the one form both sides use: the IR builds them from the
 * manifest and the generated scenario suite states them for `mcp-gen/testing` to run. They live in the
 * runtime because the testing package may import the runtime, never the generator.
 */

/** An assertion of a scenario: on an earlier step's result, or on final state through a read made when the step runs. */
export interface ScenarioAssert {
  readonly result?: string;
  readonly read?: string;
  readonly path?: string;
  readonly equals?: unknown;
  readonly contains?: string;
  readonly isError?: boolean;
  readonly because?: string;
}

/** One step of a scenario (the manifest's step, normalised). */
export type ScenarioStep =
  | { readonly id?: string; readonly prompt: string; readonly arguments: Readonly<Record<string, string>> }
  | { readonly id?: string; readonly read: string; readonly resource: string; readonly revision?: string }
  | {
      readonly id?: string;
      readonly call: string;
      readonly input: Readonly<Record<string, unknown>>;
      /** The tool needs an idempotency key (the runner derives one from the scenario and step). */
      readonly key: boolean;
      readonly confirm?: 'accept' | 'decline';
      readonly expect: 'ok' | 'error';
    }
  | { readonly id?: string; readonly assert: ScenarioAssert };
