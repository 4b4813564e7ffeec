// `turnlens/lineCoverage`: the Test Explorer's Run with Coverage asks, once its run ended, the line,
// branch and function coverage its test files' runs measured (server/lineCoverageRuns.ts), each
// project file (not a test file, not node_modules) in the editor's ranges.
import { LineCoverageRequest, type LineCoverageParams, type LineCoverageResult } from "../protocol.ts";
import type { Server } from "../server.ts";
import { fileOf } from "../state.ts";
import { lineFileCoverage } from "../views/lineCoverageView.ts";

export function register(server: Server): void {
  server.connection.onRequest(
    LineCoverageRequest.type,
    server.guardRequest(LineCoverageRequest.method, (params: LineCoverageParams): LineCoverageResult => {
      const tests = params?.tests ? new Set(params.tests.map((uri) => fileOf(uri)).filter((file): file is string => file !== undefined)) : undefined;
      const map = server.lineCoverage.coverage(tests);
      return { files: map.files().map((file) => lineFileCoverage(map.fileCoverageFor(file))) };
    }),
  );
}
