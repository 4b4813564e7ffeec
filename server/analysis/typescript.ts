// The TypeScript compiler, imported here once for the whole static pass. Bundled, each module's
// own `import ts from "typescript"` copies the compiler's ~2,250 exports into a module object of
// its own (esbuild's CommonJS interop): ten of them were ~45 ms of every server start.
import ts from "typescript";

export default ts;
