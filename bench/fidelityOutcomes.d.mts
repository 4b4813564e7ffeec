// Types of bench/fidelityOutcomes.mjs, for its test (test/runner/vitestFidelity.test.ts).
export type Status = "passed" | "failed" | "skipped" | "todo";
export interface Outcomes {
  crashed: boolean;
  error?: string;
  tests: Map<string, Status>;
}
export interface Row {
  file: string;
  tests: number;
  vitestPassed: number;
  turnlensPassed: number;
  bothPassed: number;
  vitestCrashed: boolean;
  turnlensCrashed: boolean;
  vitestError?: string;
  turnlensError?: string;
  lost: { key: string; turnlens: Status | "missing" }[];
  unmatched: string[];
}
export interface Totals {
  files: number;
  tests: number;
  vitestPassed: number;
  turnlensPassed: number;
  bothPassed: number;
  turnlensCrashedFiles: number;
  vitestCrashedFiles: number;
  ratio: number;
}
export function testKey(path: string[]): string;
export function vitestOutcomes(report: unknown, file: string): Outcomes;
export function turnlensOutcomes(report: unknown, file: string): Outcomes;
export function compareFile(file: string, vitest: Outcomes, turnlens: Outcomes): Row;
export function totals(rows: Row[]): Totals;
export function table(rows: Row[]): string;
