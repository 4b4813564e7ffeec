// Code lenses: `▶ Run` and the last result (`✓ 3 turns · 4 ms`, `✗ 1 problem`) on each test,
// `▶ Run file` at the top; a result of an earlier version of the text, or of a run that read a
// file changed since (an edited workflow), ends with ` …` (stale), as a carried hint does.
// They run through `workspace/executeCommand` (see commands.ts).
// A test's "Check what this test asserts" lens is its check's (assertionChecks.ts).
import { CodeLensRefreshRequest, type CodeLens, type CodeLensParams, type Range } from "vscode-languageserver";
import { STALE_MARK } from "../views/carriedHints.ts";
import { resultTitle, STALE_LENS_TOOLTIP } from "../views/lensTitles.ts";
import { Commands, SHOW_TIMELINE_COMMAND, TestId, type InitializationOptions } from "../protocol.ts";
import type { Server } from "../server.ts";
import { markStart, marked } from "../startTimeline.ts";

export function register(server: Server): void {
  const { connection, state, scheduler, assertionChecks } = server;
  const inputs = server.staleInputs;
  let showsTimelines = false;
  server.onInitialize((params, result) => {
    result.capabilities.codeLensProvider = { resolveProvider: false };
    showsTimelines = (params.initializationOptions as InitializationOptions | undefined)?.showsTimelines === true;
  });
  /**
   * What the client was last answered for each document, and what it will get once it asks after
   * the last refresh: a refresh that would change none of it is not sent.
   */
  const answered = new Map<string, string>();
  const refreshedFor = new Map<string, string>();
  // VS Code asks for lenses again only a debounce after the last refresh (its average lens request
  // time, seconds on a loaded machine), and each refresh restarts that wait: a refresh that changes
  // nothing drawn (a second workflow edit when the lens is stale already, a run cancelled and
  // restarted) would put off the one that does (the stale mark, the new result).
  const refresh = () => {
    if (!state.clientCapabilities.workspace?.codeLens?.refreshSupport) return;
    // Every open test document (a client that asks only when told, as Neovim's handler, has been
    // answered nothing yet) and every one answered.
    const uris = new Set([...state.all().map((document) => document.uri), ...answered.keys()]);
    const now = new Map([...uris].map((uri) => [uri, JSON.stringify(lensesOf(uri))]));
    if (![...now].some(([uri, json]) => json !== (refreshedFor.get(uri) ?? answered.get(uri)))) return;
    for (const [uri, json] of now) refreshedFor.set(uri, json);
    void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => {});
  };
  state.onDidClose.event(
    server.guardNotification("forget answered code lenses", (uri: string) => {
      answered.delete(uri);
      refreshedFor.delete(uri);
    }),
  );
  state.onDidChangeResults.event(server.guardNotification("refresh code lenses", refresh));
  scheduler.onDidStartRun.event(server.guardNotification("refresh code lenses", refresh));
  // A workflow edit makes the open tests' results stale at once: their lenses take the stale mark now.
  scheduler.onDidChangeInputs.event(server.guardNotification("refresh code lenses", refresh));
  scheduler.onDidEndRun.event(server.guardNotification("refresh code lenses", refresh));
  // An assertion check started or ended: its lens shows it.
  assertionChecks.onDidChangeLenses.event(server.guardNotification("refresh code lenses", refresh));

  connection.onCodeLens(
    server.guardRequest("codeLens", (params: CodeLensParams): CodeLens[] => {
      const uri = params.textDocument.uri;
      const lenses = lensesOf(uri);
      answered.set(uri, JSON.stringify(lenses));
      refreshedFor.delete(uri);
      // The start's last step (startTimeline.ts): the first answer with a result in it.
      if (!marked("result lenses answered") && (state.get(uri)?.lastReports.size ?? 0) > 0) {
        markStart("result lenses answered");
        server.log.info(`start: the first result lenses answered ${Math.round(performance.now())} ms after the process began`);
      }
      return lenses;
    }),
  );

  /** The document's lenses as they are now. */
  function lensesOf(uri: string): CodeLens[] {
    const document = state.get(uri);
    const analysis = state.analysis(uri);
    if (!document || !analysis) return [];
    const running = scheduler.isRunning(uri);
    const current = new Set(state.currentResults(uri)?.report.tests ?? []);
    const top: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const lenses: CodeLens[] = [{ range: top, command: { title: running ? "⟳ Running…" : "▶ Run file", command: Commands.runFile, arguments: [uri] } }];
    const seen = new Map<string, number>();
    for (const test of analysis.model.tests) {
      if (test.kind !== "test") continue;
      const base = test.path.join(" › ");
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const id = count === 1 ? base : `${base} (${count})`;
      lenses.push({ range: test.calleeRange, command: { title: "▶ Run", command: Commands.runTest, arguments: [uri, test.path] } });
      const report = document.lastReports.get(id);
      // A lens needs a command to show; an empty id makes it a label. A report of an earlier
      // version of the text stays (it does not blink while typing), marked stale as a carried hint is;
      // so is one whose run read a file changed since (a workflow edit leaves the test's text as it was).
      if (!report) continue;
      const stale = !current.has(report) || inputs.reportStale(report);
      lenses.push({
        range: test.calleeRange,
        command: stale ? { title: `${resultTitle(report)}${STALE_MARK}`, command: "", tooltip: STALE_LENS_TOOLTIP } : { title: resultTitle(report), command: "" },
      });
      // Only a passed test's answers can be checked (docs/mutate.md): its mutants are reruns of a pass.
      const check = assertionChecks.lensTitle(uri, id, report.status === "passed");
      if (check) lenses.push({ range: test.calleeRange, command: { title: check, command: Commands.checkAssertions, arguments: [uri, test.path] } });
      if (showsTimelines && report.runs.length > 0) {
        lenses.push({ range: test.calleeRange, command: { title: "Timeline", command: SHOW_TIMELINE_COMMAND, arguments: [TestId.of(uri, test.path)] } });
      }
    }
    // Tests a run reported that the text does not declare by name (built at run time).
    for (const view of state.currentResults(uri)?.view.tests ?? []) {
      if (view.test) continue;
      lenses.push({ range: view.range, command: { title: `${resultTitle(view.report)} · ${view.report.name}`, command: "" } });
    }
    return lenses;
  }
}
