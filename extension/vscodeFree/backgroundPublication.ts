// When a background run's results get their entry in Test Results. VS Code's summary and badge count
// the newest entry alone, so one made while a run the user asked for is still going would be newest
// and count too few once that run ended: it waits for the end of every such run. No `vscode` import.

export class BackgroundPublication<Run> {
  /** Runs asked for (Run, Debug, a command) that have not ended. */
  private readonly requested = new Set<Run>();
  /** Background runs that changed a result while a requested run was going, oldest first. */
  private waiting: Run[] = [];

  requestedStarted(run: Run): void {
    this.requested.add(run);
  }

  /** A background run that changed a result ended: the runs to publish now (it), or none while a requested run goes. */
  backgroundEnded(run: Run): Run[] {
    if (this.requested.size === 0) return [run];
    this.waiting.push(run);
    return [];
  }

  /**
   * A requested run ended (its own entry made): the background runs that waited for it, to publish
   * in one entry after it, so the newest entry counts every test's latest result; none while
   * another requested run goes.
   */
  requestedEnded(run: Run): Run[] {
    this.requested.delete(run);
    if (this.requested.size > 0) return [];
    const waiting = this.waiting;
    this.waiting = [];
    return waiting;
  }
}
