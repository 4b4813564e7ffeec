// The chai plugins `expect` is made of, in the order Vitest installs them (vitest/dist's test
// chunk): one list, so another part of the test API (snapshot matchers) adds its plugin here.
import "./plainColors.ts";
import { type ChaiPlugin, ChaiStyleAssertions, equals, iterableEquality, JestAsymmetricMatchers, JestChaiExpect, JestExtend, subsetEquality } from "@vitest/expect";
import { SnapshotPlugin } from "./snapshotMatchers.ts";
import { setSnapshotEquality } from "./snapshots.ts";

/**
 * Installed once, in this order, by vitestExpect.ts. Vitest puts its snapshot plugin between
 * ChaiStyleAssertions and JestAsymmetricMatchers; a plugin added here goes there too.
 */
export const chaiPlugins: ChaiPlugin[] = [JestExtend, JestChaiExpect, ChaiStyleAssertions, SnapshotPlugin as unknown as ChaiPlugin, JestAsymmetricMatchers];

// `toMatchSnapshot(properties)` compares as Vitest's does: the properties as a subset of the value.
setSnapshotEquality((received, properties) => equals(received, properties, [iterableEquality, subsetEquality]));
