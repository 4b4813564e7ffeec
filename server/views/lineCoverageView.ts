// Istanbul's data of one file as `turnlens/lineCoverage` sends it: 0-based LSP ranges, each
// statement, branch arm and function with its count, and the line figures VS Code shows as the
// file's percentage. Pure: tested as a function.
import type { FileCoverage } from "istanbul-lib-coverage";
import { pathToFileURL } from "node:url";
import { positionOfIstanbul } from "../analysis/ranges.ts";
import type { LineFileCoverage } from "../protocol.ts";

interface IstanbulRange {
  start: { line: number; column: number | null };
  end: { line: number; column: number | null };
}

/** Istanbul's 1-based line and 0-based column (an end column may be absent: the line's end). */
function toRange(location: IstanbulRange): LineFileCoverage["statements"][number]["range"] {
  return { start: positionOfIstanbul(location.start.line, location.start.column ?? 0), end: positionOfIstanbul(location.end.line, location.end.column) };
}

export function lineFileCoverage(file: FileCoverage): LineFileCoverage {
  const data = file.data;
  const lines = file.toSummary().lines;
  return {
    uri: pathToFileURL(data.path).href,
    statements: Object.entries(data.statementMap).map(([id, location]) => ({ range: toRange(location), executed: data.s[id] ?? 0 })),
    branches: Object.entries(data.branchMap).map(([id, branch]) => ({
      range: toRange(branch.loc),
      kind: branch.type,
      arms: branch.locations.map((location, arm) => ({ range: toRange(location.start.line > 0 ? location : branch.loc), executed: data.b[id]?.[arm] ?? 0 })),
    })),
    functions: Object.entries(data.fnMap).map(([id, fn]) => ({ name: fn.name, range: toRange(fn.decl), executed: data.f[id] ?? 0 })),
    lines: { covered: lines.covered, total: lines.total },
  };
}
