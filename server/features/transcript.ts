// `turnlens/transcript`: a test's last report (testReports.ts) rendered when a client asks: core's
// renderTranscript of each run, text only (views/transcriptView.ts). The client shows it as a
// read-only document and as the test's output; it never renders traces itself.
import { TestId, TranscriptRequest, type TranscriptParams, type TranscriptResult } from "../protocol.ts";
import type { Server } from "../server.ts";
import { fileOf } from "../state.ts";
import { transcriptResult } from "../views/transcriptView.ts";

export function register(server: Server): void {
  server.connection.onRequest(
    TranscriptRequest.type,
    server.guardRequest(TranscriptRequest.method, (params: TranscriptParams): TranscriptResult | null => {
      const { uri, path } = TestId.parse(params.test);
      const tests = server.testReports.ofDocument(uri);
      if (!tests) return null;
      const wanted = path.length === 0 ? [...tests.entries()] : [...tests.entries()].filter(([id]) => id === params.test);
      return transcriptResult(uri, fileOf(uri), wanted);
    }),
  );
}
