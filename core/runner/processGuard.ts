// Process-wide guards for a process that runs tests: process.exit throws instead of ending it,
// and errors no promise awaited go to the test that is running.

const realExit = process.exit.bind(process);

/** Ends the process for real (process.exit is replaced while Turnlens runs tests). */
export function exitProcess(code?: number): never {
  return realExit(code);
}

export class ProcessExitError extends Error {
  constructor(code: unknown) {
    super(`the test called process.exit(${code === undefined ? "" : String(code)}); a test must not end the process`);
    this.name = "ProcessExitError";
  }
}

type Sink = (error: unknown) => void;
let sink: Sink | null = null;

/** Routes uncaught errors to `next` (the running test), or to stderr when null. */
export function routeStrayErrors(next: Sink | null): void {
  sink = next;
}
let guarded = false;

/** Installs, once per process, the process.exit replacement and the uncaught-error routing. */
export function guardProcess(): void {
  if (guarded) return;
  guarded = true;
  process.exit = ((code?: number) => {
    throw new ProcessExitError(code);
  }) as typeof process.exit;
  const route = (error: unknown) => {
    if (sink) sink(error);
    else {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`turnlens: an error was thrown while no test was running:\n${text}\n`);
    }
  };
  process.on("uncaughtException", route);
  process.on("unhandledRejection", route);
}
