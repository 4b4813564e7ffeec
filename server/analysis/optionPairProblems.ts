// The options testWorkflow refuses for the company they keep, visible without a run: `values`
// without `fromStage`, `files` with `cwd`. Worded by core's own constants, on the option's name as
// the run's `option-invalid` is.

import { VALUES_WITHOUT_FROM_STAGE } from "../../core/testing/continueOptions.ts";
import { FILES_AND_CWD } from "../../core/testing/options.ts";
import type { StaticProblem } from "./model.ts";
import { rangeOfNode } from "./ranges.ts";
import type { AnalysisContext } from "./scriptEntries.ts";
import { isCertainlyAbsent, isCertainlyGiven, type WrittenProperties } from "./writtenProperties.ts";

export function optionPairProblems(context: AnalysisContext, options: WrittenProperties): StaticProblem[] {
  const problems: StaticProblem[] = [];
  const onName = (option: string, message: string): StaticProblem => ({
    code: "option-invalid",
    message,
    range: rangeOfNode(context.sourceFile, options.byName.get(option)!.nameNode),
    option,
  });
  if (isCertainlyGiven(options, "values") && isCertainlyAbsent(options, "fromStage")) problems.push(onName("values", VALUES_WITHOUT_FROM_STAGE));
  if (isCertainlyGiven(options, "files") && isCertainlyGiven(options, "cwd")) problems.push(onName("files", FILES_AND_CWD));
  return problems;
}
