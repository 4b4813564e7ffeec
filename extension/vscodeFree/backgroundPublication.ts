// When a background run's results get their entry in Test Results. VS Code's summary and badge count
// the newest entry alone, so one made while a run the user asked for is under way would be newest
// and count too few once that run ended: it waits for that run's end, or is made again after it.
// No `vscode` import.

/** At a requested run's end: nothing to publish, or one entry of every test's latest result, with these background runs' output. */
export type AfterRequested<Run> = { publish: false } | { publish: true; sources: Run[] };

export class BackgroundPublication<Run> {
  /** Runs asked for (Run, Debug, a command) whose handler has not ended. */
  private readonly requested = new Set<Run>();
  /** Background runs that changed a result while a requested run was going, oldest first. */
  private waiting: Run[] = [];
  /**
   * A background entry was made since the last requested run ended. VS Code makes a requested
   * run's entry when it is asked for (a click), before the extension hears of it (it saves the
   * editors, then crosses to the extension host): an entry made in between is newer than the
   * run's own, so the run's end makes one again.
   */
  private publishedSinceRequested = false;

  requestedStarted(run: Run): void {
    this.requested.add(run);
  }

  /** A background run that changed a result ended: the runs to publish now (it), or none while a requested run goes. */
  backgroundEnded(run: Run): Run[] {
    if (this.requested.size > 0) {
      this.waiting.push(run);
      return [];
    }
    this.publishedSinceRequested = true;
    return [run];
  }

  /**
   * A requested run ended (its own entry made): while another goes, nothing; otherwise one entry
   * after it, so the newest counts every test's latest result, when background runs waited for it
   * (their output goes in) or a background entry was made since the last requested run ended.
   */
  requestedEnded(run: Run): AfterRequested<Run> {
    this.requested.delete(run);
    if (this.requested.size > 0) return { publish: false };
    const sources = this.waiting;
    const publish = sources.length > 0 || this.publishedSinceRequested;
    this.waiting = [];
    this.publishedSinceRequested = false;
    return publish ? { publish, sources } : { publish: false };
  }
}
