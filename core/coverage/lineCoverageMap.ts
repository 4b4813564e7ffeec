// Line coverage as one map: each test file's Istanbul data (V8's counts mapped back in the worker,
// core/execution/v8Coverage.ts) merged, the tests themselves left out. The CLI writes its reports
// (lineCoverage.ts); the language server sends it to the editor's Run with Coverage.
import libCoverage, { type CoverageMap } from "istanbul-lib-coverage";
import type { LineCoverageData } from "../execution/v8Coverage.ts";
import { isTestFile } from "../project/discover.ts";

/**
 * One map of every file's data, without the test files (the run's and any file named as a test
 * file is: a helper a test imports from another test file is test code too).
 */
export function mergeLineCoverage(each: Iterable<LineCoverageData | undefined>, testFiles: ReadonlySet<string>): CoverageMap {
  const map = libCoverage.createCoverageMap({});
  for (const data of each) {
    if (!data) continue;
    for (const [path, file] of Object.entries(data)) {
      if (testFiles.has(path) || isTestFile(path)) continue;
      try {
        map.addFileCoverage(file as libCoverage.FileCoverageData);
      } catch {
        // Data a worker sent that Istanbul cannot read (a test that wrote over the channel's
        // objects) costs that file its coverage, not the run.
      }
    }
  }
  return map;
}
