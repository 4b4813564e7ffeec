// One value per process, reached by every copy of a module (core/execution/processSlot.ts): the CLI's
// entry and its code-cached bundle, the language server's two bundles, each hold a copy of it.
import { describe, expect, test } from "bun:test";
import { processSlot } from "../../core/execution/processSlot.ts";

describe("a process slot", () => {
  test("a value one copy sets is the one another copy, asking by the same name, reads", () => {
    const entrysCopy = processSlot<{ pid: number }>("processSlotTest.shared");
    const bundlesCopy = processSlot<{ pid: number }>("processSlotTest.shared");
    const first = { pid: 42 };
    entrysCopy.set(first);
    expect(bundlesCopy.get()).toBe(first);
    expect(bundlesCopy.take()).toBe(first);
  });

  test("taken once, it is empty for every copy, and nothing stays on the process", () => {
    const slot = processSlot<string>("processSlotTest.once");
    slot.set("worker");
    expect(slot.take()).toBe("worker");
    expect(processSlot<string>("processSlotTest.once").get()).toBeUndefined();
    expect(Object.getOwnPropertySymbols(globalThis).map(String)).not.toContain("Symbol(turnlens.processSlotTest.once)");
  });

  test("a slot never set adds nothing to the process", () => {
    processSlot<string>("processSlotTest.unset").get();
    expect(Object.getOwnPropertySymbols(globalThis).map(String)).not.toContain("Symbol(turnlens.processSlotTest.unset)");
  });
});
