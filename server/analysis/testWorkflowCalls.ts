// Reading one `testWorkflow(workflow, { ... })` call: the workflow and the module it came from,
// each option with its ranges, the keyed scripts (`agents`, `decisions`, `compactions`, `messages`,
// `participants`) and the elements of `events`.

import ts from "./typescript.ts";
import { readEventElements } from "./eventElements.ts";
import { testingRoleOfMember, type ImportBindings } from "./importBindings.ts";
import { propertyKeyOf, unwrapExpression } from "./literalValues.ts";
import type { StaticOption, StaticTestWorkflowCall } from "./model.ts";
import { rangeOfNode } from "./ranges.ts";
import { readScriptsObject, type AnalysisContext } from "./scriptEntries.ts";

/** The callee name of a `testWorkflow(...)` call (alias or `testing.testWorkflow`), else undefined. */
export function testWorkflowCalleeOf(bindings: ImportBindings, call: ts.CallExpression): ts.Node | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return bindings.testingRoleOf(callee.text) === "testWorkflow" ? callee : undefined;
  if (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    bindings.isTestingNamespace(callee.expression.text) &&
    testingRoleOfMember(callee.name.text) === "testWorkflow"
  ) {
    return callee.name;
  }
  return undefined;
}

export interface ReadCall {
  call: StaticTestWorkflowCall;
  /** The options object literal, for the problems pass. */
  optionsObject?: ts.ObjectLiteralExpression;
}

export function readTestWorkflowCall(context: AnalysisContext, node: ts.CallExpression, calleeName: ts.Node): ReadCall {
  const { sourceFile, bindings } = context;
  const call: StaticTestWorkflowCall = {
    range: rangeOfNode(sourceFile, node),
    calleeRange: rangeOfNode(sourceFile, calleeName),
    options: [],
    hasSpread: false,
  };
  const [workflow, options] = node.arguments;
  if (workflow) {
    call.workflowText = workflow.getText(sourceFile);
    call.workflowRange = rangeOfNode(sourceFile, workflow);
    const module = workflowModuleOf(bindings, workflow);
    if (module !== undefined) call.workflowModule = module;
  }
  const optionsObject = options ? unwrapExpression(options) : undefined;
  if (!optionsObject || !ts.isObjectLiteralExpression(optionsObject)) return { call };
  call.optionsRange = rangeOfNode(sourceFile, optionsObject);
  for (const property of optionsObject.properties) {
    if (ts.isSpreadAssignment(property)) {
      call.hasSpread = true;
      continue;
    }
    const name = propertyKeyOf(property.name);
    if (name === undefined) {
      call.hasSpread = true;
      continue;
    }
    const propertyRange = rangeOfNode(sourceFile, property);
    const value = ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined;
    const option: StaticOption = {
      name,
      nameRange: rangeOfNode(sourceFile, property.name),
      propertyRange,
      valueRange: value ? rangeOfNode(sourceFile, value) : propertyRange,
    };
    call.options.push(option);
    if (value && (name === "agents" || name === "decisions" || name === "compactions")) {
      const scripts = readScriptsObject(context, value);
      if (scripts) call[name] = scripts;
    }
    // A messages or participants script is a function the test gives as it is: the function is the entry.
    if (value && (name === "messages" || name === "participants")) {
      const scripts = readScriptsObject(context, value, { functions: true });
      if (scripts) call[name] = scripts;
    }
    if (value && name === "events") {
      const read = () => {
        const events = readEventElements(context, value);
        if (events) call.events = events;
      };
      // A name is followed once the whole file is walked, when a const declared further down is known too.
      if (ts.isArrayLiteralExpression(unwrapExpression(value))) read();
      else context.afterWalk.push(read);
    }
  }
  return { call, optionsObject };
}

/** `summarize` imported from "./summarize" → "./summarize"; `flows.note` with `import * as flows` too. */
function workflowModuleOf(bindings: ImportBindings, workflow: ts.Expression): string | undefined {
  let expression = unwrapExpression(workflow);
  while (ts.isPropertyAccessExpression(expression)) expression = expression.expression;
  return ts.isIdentifier(expression) ? bindings.byLocalName.get(expression.text)?.module : undefined;
}
