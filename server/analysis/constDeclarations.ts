// The file's `const` declarations, so a script written as a name (`lead`, `clean`) can be followed
// to the answer(...) calls it holds, where runtime traces point.

import ts from "./typescript.ts";

interface ConstDeclaration {
  initializer: ts.Expression;
  /** The block (or file, or for statement) the const is visible in. */
  scopeStart: number;
  scopeEnd: number;
}

export class ConstDeclarations {
  private readonly byName = new Map<string, ConstDeclaration[]>();

  /**
   * Records the consts of a variable statement met by the walk, visible in `scope` (the block or
   * file holding the statement); `let` and `var` may change, so they are left out.
   */
  add(statement: ts.VariableStatement, scope: ts.Node): void {
    const list = statement.declarationList;
    if (!(list.flags & ts.NodeFlags.Const)) return;
    for (const declaration of list.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
      const found = { initializer: declaration.initializer, scopeStart: scope.pos, scopeEnd: scope.end };
      const named = this.byName.get(declaration.name.text);
      if (named) named.push(found);
      else this.byName.set(declaration.name.text, [found]);
    }
  }

  /** The initializer of the innermost const named `name` visible at `offset`. */
  resolve(name: string, offset: number): ts.Expression | undefined {
    let best: ConstDeclaration | undefined;
    for (const candidate of this.byName.get(name) ?? []) {
      if (offset < candidate.scopeStart || offset >= candidate.scopeEnd) continue;
      if (offset >= candidate.initializer.pos && offset < candidate.initializer.end) continue;
      if (!best || candidate.scopeStart > best.scopeStart) best = candidate;
    }
    return best?.initializer;
  }
}
